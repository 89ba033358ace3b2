"""The archive's texts: bodies, rules under a number, the glossary, the phrase search, the export."""

# The archive's texts: rule bodies by id and read alike, rules under a number, the glossary in release order, the
# phrase search over every rule, and the export of every version and rule.

from __future__ import annotations

import json
import re
import sqlite3
from collections.abc import Generator, Iterable, Iterator
from itertools import groupby
from operator import itemgetter
from typing import Any

from ..errors import ArchiveError
from .codec import examples_from_row, orphan_rule
from .store import Store
from .versions import Versions


class Texts:
    """The rule and glossary texts of an open archive."""

    def __init__(self, store: Store, versions: Versions) -> None:
        self.store, self.versions = store, versions
        self.path = store.path

    def bodies_read_alike(self) -> dict[int, int]:
        """Body id -> the first body that reads the same (its text and example texts), for the bodies that
        are not themselves the first. A body keeps the line of each of its examples, so a rule with examples
        is stored again in every release in which a line before it moved: 19,785 bodies with examples in
        the official releases read 1,910 ways."""
        return self.bodies_shown()[0]

    def bodies_shown(self) -> tuple[dict[int, int], dict[int, tuple[str, str]]]:
        """``bodies_read_alike`` and ``search_texts`` in one pass over the bodies (each one's examples read once)."""
        first: dict[tuple[str, tuple[str, ...]], int] = {}
        alike: dict[int, int] = {}
        texts: dict[int, tuple[str, str]] = {}
        for body, search, text, examples, notes in self.store.db.execute(
            "SELECT id, search, text, examples, notes FROM bodies ORDER BY id"
        ):
            shown = [text]
            if examples is not None:
                shown += examples_from_row(examples)
                same = first.setdefault((text, tuple(shown[1:])), body)
                if same != body:
                    alike[body] = same
            texts[body] = (search, "\n".join([*shown, *(json.loads(notes) if notes else [])]))
        return alike, texts

    def body_contents(self, ids: Iterable[int]) -> dict[int, tuple[str, list[str]]]:
        """The rule text and example texts of each body id."""
        want = sorted(set(ids))
        out: dict[int, tuple[str, list[str]]] = {}
        for k in range(0, len(want), 500):
            chunk = want[k : k + 500]
            q = f"SELECT id, text, examples FROM bodies WHERE id IN ({','.join('?' * len(chunk))})"
            out.update((i, (t, examples_from_row(e))) for i, t, e in self.store.db.execute(q, chunk))
        return out

    def rules_under(self, vid: int, number: str) -> list[tuple[str, str, list[str], int | None]]:
        """(number, text, example texts, lineage) of version ``vid``'s rules whose number starts with ``number``,
        in document order; the caller keeps those below it in the number tree."""
        return [
            (n, text, examples_from_row(examples), lineage)
            for n, text, examples, lineage in self.store.db.execute(
                "SELECT r.number, b.text, b.examples, r.lineage FROM rules r JOIN bodies b ON b.id = r.body_id"
                " WHERE r.version_id = ? AND r.number >= ? AND r.number < ? ORDER BY r.pos",
                (vid, number, number + "\uffff"),
            )
        ]

    def glossary_rows(self) -> list[tuple[int, int, str, str]]:
        """(version id, position, term, text) of every archived glossary entry."""
        return [
            (vid, pos, term, text)
            for vid, pos, term, text in self.store.db.execute("SELECT version_id, pos, term, text FROM glossary")
        ]

    def glossary_terms(self) -> set[str]:
        """Every term a glossary entry of any archived version has."""
        return {term for (term,) in self.store.db.execute("SELECT DISTINCT term FROM glossary")}

    def glossaries(self, version_ids: Iterable[int], norm: bool = False) -> dict[int, list[tuple[Any, ...]]]:
        """``glossary_rows`` of the versions ``version_ids`` (those that have any), by version, each version's in
        its own order (by position), with each text's comparison form when ``norm``: read in the table's key
        order and cut into versions at C speed, with no sort of every row (67,000 for the official releases)."""
        wanted = set(version_ids)
        columns = "version_id, pos, term, text" + (", norm" if norm else "")
        rows = self.store.db.execute(f"SELECT {columns} FROM glossary ORDER BY version_id, pos")
        return {vid: list(group) for vid, group in groupby(rows, itemgetter(0)) if vid in wanted}

    def saying(self, *phrases: str) -> list[tuple[int, str]]:
        """(version id, text) of every rule and glossary entry whose text holds one of ``phrases`` (its words in
        order, as the search finds them; a glossary entry's text as written, case aside), in no order: the
        glossary is read once for them all."""
        rows: list[tuple[Any, Any]] = []
        likes: list[str] = []
        for phrase in phrases:
            words = re.findall(r"\w+", phrase)
            if not words:
                continue
            query = '"' + " ".join(words) + '"'
            rows += self.store.db.execute(
                "SELECT r.version_id, b.text FROM bodies_fts f JOIN bodies b ON b.id = f.rowid"
                " JOIN rules r ON r.body_id = b.id WHERE bodies_fts MATCH ?",
                (query,),
            ).fetchall()
            # LIKE sets aside the case of ASCII letters only, as lower() folds only them: the phrase in lower case
            # is found where instr(lower(text), phrase) finds it, without lowering every text.
            likes.append("%" + re.sub(r"([%_\\])", r"\\\1", phrase.lower()) + "%")
        if likes:
            rows += self.store.db.execute(
                "SELECT version_id, text FROM glossary WHERE " + " OR ".join(["text LIKE ? ESCAPE '\\'"] * len(likes)),
                likes,
            ).fetchall()
        return [(int(vid), str(text)) for vid, text in rows]

    def search_texts(self) -> dict[int, tuple[str, str]]:
        """Body id -> (its searchable text, the text as printed: its text, examples and notes, a line each)."""
        return self.bodies_shown()[1]

    def search(self, phrase: str, limit: int = 500) -> list[dict[str, Any]]:
        """Rules whose text or examples contain ``phrase`` (FTS5 phrase query), one hit per rule lineage:
        the numbers it had while it contained the phrase, first and last seen, and its latest such text."""
        words = re.findall(r"\w+", phrase)
        if not words:
            raise ArchiveError("search needs at least one word", source=str(self.path))
        query = '"' + " ".join(words) + '"'
        with self.store.snapshot():
            self.versions.check_rule_counts()  # a rule row gone would be a rule silently not found
            return self._search(query, limit)

    def _search(self, query: str, limit: int) -> list[dict[str, Any]]:
        try:
            bodies = [
                b
                for (b,) in self.store.db.execute(
                    "SELECT rowid FROM bodies_fts WHERE bodies_fts MATCH ? ORDER BY rank LIMIT ?", (query, limit)
                )
            ]
        except sqlite3.Error as e:
            raise ArchiveError(f"search failed: {e}", source=str(self.path)) from None
        versions = self.versions.all()
        order = {v.id: k for k, v in enumerate(versions)}
        by_lineage: dict[int, list[tuple[int, str | None, int]]] = {}
        for bid in bodies:
            for vid, number, lineage in self.store.db.execute(
                "SELECT version_id, number, lineage FROM rules WHERE body_id = ?", (bid,)
            ):
                k = order.get(vid)
                if k is None:
                    raise orphan_rule(vid)
                if lineage is None:
                    continue  # a rule of a dump beside a release that the release has no counterpart of
                by_lineage.setdefault(lineage, []).append((k, number, bid))
        out = []
        for lineage, seen in by_lineage.items():
            seen.sort()
            first, last = versions[seen[0][0]], versions[seen[-1][0]]
            (text,) = self.store.db.execute("SELECT text FROM bodies WHERE id = ?", (seen[-1][2],)).fetchone()
            numbers: list[str] = []
            for _, n, _ in seen:
                if n and n not in numbers:
                    numbers.append(n)
            out.append(
                {
                    "text": text,
                    "numbers": numbers,
                    "versions": len({k for k, _, _ in seen}),
                    "first_seen": first.label,
                    "first_date": first.date,
                    "last_seen": last.label,
                    "last_date": last.date,
                    "lineage": lineage,
                }
            )
        out.sort(key=lambda h: (h["first_date"], h["numbers"]))
        return out

    def export(self) -> Generator[dict[str, Any], None, None]:
        """Every version and its rules as JSON-ready records (one per line in ``archive export``), from one
        snapshot of the archive."""
        with self.store.snapshot():
            yield from self._export()

    def _export(self) -> Iterator[dict[str, Any]]:
        for v in self.versions.all():
            doc = self.versions.document(v.id)
            yield {
                "type": "version",
                "id": v.id,
                "label": v.label,
                "effective_date": v.effective_date,
                "era": v.era,
                "format": v.format,
                "sha256": v.sha256,
                "source": v.source,
                "provenance": v.provenance,
                "rules": len(doc.rules),
            }
            lineage = dict(
                self.store.db.execute("SELECT pos, lineage FROM rules WHERE version_id = ?", (v.id,)).fetchall()
            )
            for pos, r in enumerate(doc.rules):
                yield {
                    "type": "rule",
                    "version": v.label,
                    "number": str(r.number) if r.number is not None else None,
                    "title": r.title,
                    "text": r.text,
                    "examples": [e.text for e in r.examples],
                    "lineage": lineage.get(pos),
                }
