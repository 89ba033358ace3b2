"""The archive's read queries for history, search, export and the site: each returns plain values, so no other
module needs to know the tables or the stored formats."""

from __future__ import annotations

import json
import re
import sqlite3
import zlib
from collections.abc import Generator, Iterable, Iterator
from typing import Any

from ..errors import ArchiveError
from ..words.diff import Op, Piece
from ..words.edits import Edit
from .alignments import AligningArchive
from .base import cannot_keep
from .codec import examples_from_row, orphan_rule, stored

# (version id, position, number, title, text, example texts) of one rule of a lineage
LineageRow = tuple[int, int, str | None, str | None, str, list[str]]


class QueryingArchive(AligningArchive):
    """Read queries; see ``Archive``."""

    def lineage_at(self, vid: int, *, number: str | None = None, title: str | None = None) -> int | None:
        """The lineage of the first rule of version ``vid`` with this number, or this title (any case)."""
        if number is not None:
            row = self.db.execute(
                "SELECT lineage FROM rules WHERE version_id = ? AND number = ? ORDER BY pos LIMIT 1", (vid, number)
            ).fetchone()
        else:
            row = self.db.execute(
                "SELECT r.lineage FROM rules r JOIN bodies b ON b.id = r.body_id"
                " WHERE r.version_id = ? AND lower(b.title) = lower(?) ORDER BY r.pos LIMIT 1",
                (vid, (title or "").strip()),
            ).fetchone()
        return int(row[0]) if row is not None and row[0] is not None else None

    def lineage_rules(self, lineage: int) -> list[LineageRow]:
        """Every rule of one lineage, in no particular order."""
        return [
            (vid, pos, number, title, text, examples_from_row(examples))
            for vid, pos, number, title, text, examples in self.db.execute(
                "SELECT r.version_id, r.pos, r.number, b.title, b.text, b.examples FROM rules r"
                " JOIN bodies b ON b.id = r.body_id WHERE r.lineage = ?",
                (lineage,),
            )
        ]

    def lineage_edges(self, lineage: int) -> list[tuple[int, int, int, str]]:
        """(from lineage, to lineage, version id, kind) of the splits and merges touching ``lineage``."""
        return [
            (a, b, vid, kind)
            for a, b, vid, kind in self.db.execute(
                "SELECT from_lineage, to_lineage, version_id, kind FROM lineage_edges"
                " WHERE from_lineage = ? OR to_lineage = ?",
                (lineage, lineage),
            )
        ]

    def rule_index(self) -> list[tuple[int, int, str | None, str | None, int]]:
        """(lineage, version id, number, title, body id) of every archived rule: one pass for the site."""
        titles = dict(self.db.execute("SELECT id, title FROM bodies WHERE title IS NOT NULL").fetchall())
        return [
            (lin, vid, number, titles.get(body), body)
            for lin, vid, number, body in self.db.execute(
                "SELECT lineage, version_id, number, body_id FROM rules ORDER BY rowid"
            )
        ]

    def bodies_read_alike(self) -> dict[int, int]:
        """Body id -> the first body that reads the same (its text and example texts), for the bodies that
        are not themselves the first. A body keeps the line of each of its examples, so a rule with examples
        is stored again in every release in which a line before it moved: 19,785 bodies with examples in
        the official releases read 1,910 ways."""
        first: dict[tuple[str, tuple[str, ...]], int] = {}
        out: dict[int, int] = {}
        for body, text, examples in self.db.execute(
            "SELECT id, text, examples FROM bodies WHERE examples IS NOT NULL ORDER BY id"
        ):
            shown = (text, tuple(examples_from_row(examples)))
            same = first.setdefault(shown, body)
            if same != body:
                out[body] = same
        return out

    def body_contents(self, ids: Iterable[int]) -> dict[int, tuple[str, list[str]]]:
        """The rule text and example texts of each body id."""
        want = sorted(set(ids))
        out: dict[int, tuple[str, list[str]]] = {}
        for k in range(0, len(want), 500):
            chunk = want[k : k + 500]
            q = f"SELECT id, text, examples FROM bodies WHERE id IN ({','.join('?' * len(chunk))})"
            out.update((i, (t, examples_from_row(e))) for i, t, e in self.db.execute(q, chunk))
        return out

    def rules_under(self, vid: int, number: str) -> list[tuple[str, str, list[str]]]:
        """(number, text, example texts) of version ``vid``'s rules whose number starts with ``number``,
        in document order; the caller keeps those below it in the number tree."""
        return [
            (n, text, examples_from_row(examples))
            for n, text, examples in self.db.execute(
                "SELECT r.number, b.text, b.examples FROM rules r JOIN bodies b ON b.id = r.body_id"
                " WHERE r.version_id = ? AND r.number >= ? AND r.number < ? ORDER BY r.pos",
                (vid, number, number + "\uffff"),
            )
        ]

    def glossary_rows(self) -> list[tuple[int, int, str, str]]:
        """(version id, position, term, text) of every archived glossary entry."""
        return [
            (vid, pos, term, text)
            for vid, pos, term, text in self.db.execute("SELECT version_id, pos, term, text FROM glossary")
        ]

    def glossary_in_order(self, version_ids: Iterable[int]) -> Iterator[tuple[int, int, str, str]]:
        """``glossary_rows`` of the versions ``version_ids``, in that order, each version's in its own order
        (by position): read in the table's key order and put in release order a version at a time, with no
        sort of every row (67,000 for the official releases)."""
        per: dict[int, list[tuple[int, int, str, str]]] = {vid: [] for vid in version_ids}
        for row in self.db.execute("SELECT version_id, pos, term, text FROM glossary ORDER BY version_id, pos"):
            bucket = per.get(row[0])
            if bucket is not None:
                bucket.append(row)
        for rows in per.values():
            yield from rows

    def search_texts(self) -> dict[int, str]:
        """Body id -> its searchable text (what the site's search index holds)."""
        return dict(self.db.execute("SELECT id, search FROM bodies").fetchall())

    def edit_keys(self, engine: str) -> set[str]:
        """The keys of the edits ``engine`` stored (reading a key costs far less than its edit)."""
        if not self._has_cache("edits"):
            return set()
        return {key for (key,) in self.db.execute("SELECT key FROM edits WHERE engine = ?", (engine,))}

    def edit(self, key: str, engine: str) -> Edit | None:
        if not self._has_cache("edits"):
            return None
        row = self.db.execute("SELECT data FROM edits WHERE key = ? AND engine = ?", (key, engine)).fetchone()
        return decode_edit(row[0]) if row is not None else None

    def store_edits(self, engine: str, edits: dict[str, bytes]) -> None:
        """Keep ``edits`` (encoded by ``encode_edit``; other engines' edits are dropped) for the next build."""
        self._store_cache("edits", engine, edits)

    def site_parts(self, engine: str) -> dict[str, bytes]:
        """The rendered steps of history and glossary pages ``engine`` stored, compressed, by key."""
        if not self._has_cache("site_parts"):
            return {}
        return dict(self.db.execute("SELECT key, data FROM site_parts WHERE engine = ?", (engine,)).fetchall())

    def site_part(self, key: str, engine: str) -> bytes | None:
        """One rendered step of ``site_parts``, or None."""
        if not self._has_cache("site_parts"):
            return None
        row = self.db.execute("SELECT data FROM site_parts WHERE key = ? AND engine = ?", (key, engine)).fetchone()
        return bytes(row[0]) if row is not None else None

    def store_site_parts(self, engine: str, parts: dict[str, bytes]) -> None:
        self._store_cache("site_parts", engine, parts)

    def _has_cache(self, table: str) -> bool:
        """Is cache ``table`` there? Not yet, in an archive made by an older rulediff that could not be written
        since (its migration waits: schema.CAN_WAIT); then it holds nothing."""
        if self._caches is None:
            self._caches = {
                name
                for (name,) in self.db.execute(
                    "SELECT name FROM sqlite_master WHERE type = 'table' AND name IN ('edits', 'site_parts')"
                )
            }
        return table in self._caches

    def _store_cache(self, table: str, engine: str, rows: dict[str, bytes]) -> None:
        """Keep ``rows`` of a cache table and drop other engines' rows; an archive that cannot take them now
        (read-only, full, or another process's) keeps none."""
        if not self._has_cache(table):
            return  # its migration waits for an opening that can write (see _has_cache)
        try:
            with self.transaction():
                self.db.execute(f"DELETE FROM {table} WHERE engine != ?", (engine,))
                self.db.executemany(
                    f"INSERT OR REPLACE INTO {table}(key, engine, data) VALUES (?,?,?)",
                    [(key, engine, data) for key, data in sorted(rows.items())],
                )
        except sqlite3.OperationalError as e:
            if not cannot_keep(e):
                raise

    def search(self, phrase: str, limit: int = 500) -> list[dict[str, Any]]:
        """Rules whose text or examples contain ``phrase`` (FTS5 phrase query), one hit per rule lineage:
        the numbers it had while it contained the phrase, first and last seen, and its latest such text."""
        words = re.findall(r"\w+", phrase)
        if not words:
            raise ArchiveError("search needs at least one word", source=str(self.path))
        query = '"' + " ".join(words) + '"'
        with self.snapshot():
            self.check_rule_counts()  # a rule row gone would be a rule silently not found
            return self._search(query, limit)

    def _search(self, query: str, limit: int) -> list[dict[str, Any]]:
        try:
            bodies = [
                b
                for (b,) in self.db.execute(
                    "SELECT rowid FROM bodies_fts WHERE bodies_fts MATCH ? ORDER BY rank LIMIT ?", (query, limit)
                )
            ]
        except sqlite3.Error as e:
            raise ArchiveError(f"search failed: {e}", source=str(self.path)) from None
        versions = self.versions()
        order = {v.id: k for k, v in enumerate(versions)}
        by_lineage: dict[int, list[tuple[int, str | None, int]]] = {}
        for bid in bodies:
            for vid, number, lineage in self.db.execute(
                "SELECT version_id, number, lineage FROM rules WHERE body_id = ?", (bid,)
            ):
                k = order.get(vid)
                if k is None:
                    raise orphan_rule(vid)
                by_lineage.setdefault(lineage, []).append((k, number, bid))
        out = []
        for lineage, seen in by_lineage.items():
            seen.sort()
            first, last = versions[seen[0][0]], versions[seen[-1][0]]
            (text,) = self.db.execute("SELECT text FROM bodies WHERE id = ?", (seen[-1][2],)).fetchone()
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
        with self.snapshot():
            yield from self._export()

    def _export(self) -> Iterator[dict[str, Any]]:
        for v in self.versions():
            doc = self.document(v.id)
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
            lineage = dict(self.db.execute("SELECT pos, lineage FROM rules WHERE version_id = ?", (v.id,)).fetchall())
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


def encode_edit(edit: Edit) -> bytes:
    nature, pieces = edit
    return zlib.compress(json.dumps([nature, [[p.op, p.text, p.old] for p in pieces]]).encode("utf-8"), 1)


@stored("an edit of the site's")
def decode_edit(data: bytes) -> Edit:
    nature, pieces = json.loads(zlib.decompress(data))
    return (nature, [Piece(Op(op), text, old) for op, text, old in pieces])
