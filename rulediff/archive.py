"""The SQLite archive: versions (raw bytes compressed, sha256, dates, provenance), their rules, the alignment
of every consecutive pair, a lineage id per rule that survives renumbering, full-text search, migrations."""

from __future__ import annotations

import hashlib
import json
import os
import re
import sqlite3
import zlib
from collections import OrderedDict
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from .changes import Alignment, align
from .errors import ArchiveError
from .ingest import Aligned, computed, read_and_parse
from .lineage import assign_lineages, find_bridges
from .manifest import Entry
from .model import Coverage, Document
from .numbering import RuleNumber
from .parsers import parse_bytes, read_input
from .schema import inspect_file, migrate
from .store import (
    alignment_from_json,
    coverage_from_json,
    document_extra,
    document_from_parts,
    rule_row,
)

DEFAULT_NAME = "rulediff.sqlite"
ENV_VAR = "RULEDIFF_ARCHIVE"
# Rebuilt documents kept in memory (a full release is a few MB of objects).
DOCUMENT_CACHE = 12

K = TypeVar("K")
V = TypeVar("V")


class _Lru(OrderedDict[K, V]):
    """A dict that forgets its least recently used entries beyond ``size``."""

    def __init__(self, size: int) -> None:
        super().__init__()
        self.size = size

    def __getitem__(self, key: K) -> V:
        value = super().__getitem__(key)
        self.move_to_end(key)
        return value

    def __setitem__(self, key: K, value: V) -> None:
        super().__setitem__(key, value)
        self.move_to_end(key)
        while len(self) > self.size:
            self.popitem(last=False)


@dataclass(frozen=True, slots=True)
class VersionRow:
    id: int
    label: str
    effective_date: str | None
    era: str | None
    sort_date: str
    format: str
    source: str
    provenance: str | None
    sha256: str
    size: int
    rule_count: int
    seq: int

    @property
    def date(self) -> str:
        return self.effective_date or self.era or self.sort_date


@dataclass(frozen=True, slots=True)
class AddResult:
    version: VersionRow
    status: str  # "added", "already archived", "re-release"


def default_path() -> Path:
    return Path(os.environ.get(ENV_VAR) or DEFAULT_NAME)


_VERSION_COLS = "id, label, effective_date, era, sort_date, format, source, provenance, sha256, size, rule_count, seq"


def sort_date_of(effective: str | None, era: str | None) -> str:
    """A sortable day for a version: its effective date, or the start of its era ("2011-2014" -> 2011-01-01)."""
    if effective:
        return effective
    m = re.fullmatch(r"(\d{4})(?:-(\d{2})(?:-(\d{2}))?)?", (era or "").strip())
    if m:
        return f"{m[1]}-{m[2] or '01'}-{m[3] or '01'}"
    first = re.search(r"\b(1[89]\d\d|20\d\d)\b", era or "")  # a range like "2011-2014": its start
    return f"{first[1]}-01-01" if first else "9999-12-31"


class Archive:
    """An open archive. Use ``with Archive.open(path) as arc:``; every change is one transaction."""

    def __init__(self, db: sqlite3.Connection, path: Path) -> None:
        self.db = db
        self.path = path
        self._docs: _Lru[int, Document] = _Lru(DOCUMENT_CACHE)
        # Derived, per version or pair; rebuilt from the database whenever missing.
        self._light_cache: dict[int, tuple[Coverage, list[tuple[RuleNumber | None, str | None, str | None]]]] = {}
        self._pairs_cache: dict[tuple[int, int], list[tuple[str, list[int], list[int]]]] = {}
        self.lineage_cache: dict[int, list[int]] = {}
        # Alignments a worker computed ahead of time, by (old sha256, new sha256).
        self._precomputed: dict[tuple[str, str], Aligned] = {}

    # -- opening --------------------------------------------------------------------------------

    @classmethod
    def open(cls, path: str | os.PathLike[str] | None = None, *, create: bool = True) -> Archive:
        p = Path(path) if path is not None else default_path()
        src = str(p)
        if p.is_dir():
            raise ArchiveError("is a directory; expected an archive file", source=src)
        if p.exists() and p.stat().st_size > 0:
            inspect_file(p)
        elif not p.exists():
            if not create:
                raise ArchiveError("no archive here; create one with 'rulediff archive add FILE'", source=src)
            if not (p.parent if str(p.parent) else Path(".")).is_dir():
                raise ArchiveError(f"folder {str(p.parent)!r} does not exist", source=src)
        try:
            db = sqlite3.connect(str(p), isolation_level=None, timeout=30)
            db.execute("PRAGMA foreign_keys = ON")
        except sqlite3.Error as e:
            raise ArchiveError(f"cannot open the archive: {e}", source=src) from None
        arc = cls(db, p)
        arc._migrate()
        return arc

    def _migrate(self) -> None:
        migrate(self.db, self.path)

    def _forget(self) -> None:
        """Drop derived caches (after a removal or a rolled-back change)."""
        self._docs.clear()
        self._light_cache.clear()
        self._pairs_cache.clear()
        self.lineage_cache.clear()

    def close(self) -> None:
        self.db.close()

    def __enter__(self) -> Archive:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    class _Tx:
        def __init__(self, arc: Archive) -> None:
            self.arc = arc

        def __enter__(self) -> None:
            self.arc.db.execute("BEGIN IMMEDIATE")

        def __exit__(self, exc_type: type[BaseException] | None, *rest: object) -> None:
            if exc_type is None:
                self.arc.db.execute("COMMIT")
            else:
                self.arc.db.execute("ROLLBACK")
                self.arc._forget()

    def transaction(self) -> Archive._Tx:
        """All or nothing: an exception (or Ctrl-C) inside rolls everything back; a killed process
        leaves SQLite's journal, which rolls back on the next open."""
        return Archive._Tx(self)

    # -- versions -------------------------------------------------------------------------------

    def versions(self) -> list[VersionRow]:
        rows = self.db.execute(f"SELECT {_VERSION_COLS} FROM versions ORDER BY sort_date, seq").fetchall()
        return [VersionRow(*r) for r in rows]

    def resolve(self, ref: str) -> VersionRow:
        """A version by id ("#3"), sha256 prefix, label, effective date or era; the latest re-release
        wins a date shared by two files."""
        vs = self.versions()
        ref = ref.strip()
        tests: list[Callable[[VersionRow], bool]] = [
            lambda v: ref.startswith("#") and ref[1:].isdigit() and v.id == int(ref[1:]),
            lambda v: v.effective_date == ref,
            lambda v: v.label == ref,
            lambda v: v.era == ref,
            lambda v: len(ref) >= 8 and v.sha256.startswith(ref.lower()),
        ]
        for test in tests:
            hits = [v for v in vs if test(v)]
            if hits:
                return hits[-1]
        near = ", ".join(v.label for v in vs[-5:]) or "none yet"
        raise ArchiveError(f"no archived version {ref!r} (latest: {near})", source=str(self.path))

    def version_before(self, as_of: str) -> VersionRow:
        """The version in force on a day: the last one whose date is on or before it."""
        vs = [v for v in self.versions() if v.sort_date <= as_of]
        if not vs:
            raise ArchiveError(f"no archived version in force on {as_of}", source=str(self.path))
        return vs[-1]

    def add(
        self,
        data: bytes,
        source: str,
        *,
        label: str | None = None,
        era: str | None = None,
        effective: str | None = None,
        provenance: str | None = None,
        fmt: str | None = None,
        progress: Callable[[str], None] | None = None,
        parsed: Document | None = None,
    ) -> AddResult:
        """Archive one file: parse, store, align with its neighbours, carry lineages. Re-adding the same
        bytes is a no-op; the same date with other bytes is a re-release."""
        sha = hashlib.sha256(data).hexdigest()
        same = self.db.execute(f"SELECT {_VERSION_COLS} FROM versions WHERE sha256 = ?", (sha,)).fetchone()
        if same is not None:
            return AddResult(VersionRow(*same), "already archived")
        doc = parsed if parsed is not None else parse_bytes(data, source, fmt)
        eff = effective or (doc.version.effective_date.isoformat() if doc.version.effective_date else None)
        era = era or doc.version.era
        label = label or (eff if eff else doc.version.label)
        sort_date = sort_date_of(eff, era)
        clash = self.db.execute("SELECT count(*) FROM versions WHERE sort_date = ?", (sort_date,)).fetchone()[0]
        if clash and label in {v.label for v in self.versions()}:
            label = f"{label} (re-release {clash + 1})"
        with self.transaction():
            seq = self.db.execute("SELECT coalesce(max(seq), 0) + 1 FROM versions").fetchone()[0]
            cur = self.db.execute(
                "INSERT INTO versions(sha256, label, effective_date, era, sort_date, seq, format, source, provenance,"
                " raw, size, rule_count, extra) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)",
                (
                    sha,
                    label,
                    eff,
                    era,
                    sort_date,
                    seq,
                    doc.version.format,
                    os.path.basename(source),
                    provenance,
                    zlib.compress(data, 1),
                    len(data),
                    len(doc.rules),
                    document_extra(doc),
                ),
            )
            vid = int(cur.lastrowid or 0)
            self._store_rules(vid, doc)
            self._docs[vid] = doc
            order = [v.id for v in self.versions()]
            self._relink(order.index(vid), progress)
        row = self.resolve(f"#{vid}")
        return AddResult(row, "re-release" if clash else "added")

    def add_file(self, path: str | os.PathLike[str], **kw: Any) -> AddResult:
        return self.add(read_input(path), str(path), **kw)

    def add_many(
        self,
        items: list[Entry],
        *,
        on_added: Callable[[Entry, AddResult], None] | None = None,
        progress: Callable[[str], None] | None = None,
    ) -> list[AddResult]:
        """Archive several files, each in its own transaction. Files are read and parsed one step ahead
        in a worker process, so parsing overlaps aligning and storing on a two-core machine."""
        out: list[AddResult] = []
        known = {sha for (sha,) in self.db.execute("SELECT sha256 FROM versions")}
        with ProcessPoolExecutor(max_workers=1) as pool:
            futures = [pool.submit(read_and_parse, str(e.path), e.format, known) for e in items]
            for entry, fut in zip(items, futures, strict=True):
                data, doc, ahead = fut.result()
                if ahead is not None:
                    self._precomputed[(ahead[0], hashlib.sha256(data).hexdigest())] = ahead[1]
                res = self.add(
                    data,
                    str(entry.path),
                    label=entry.label,
                    era=entry.era,
                    effective=entry.effective,
                    provenance=entry.provenance,
                    fmt=entry.format,
                    progress=progress,
                    parsed=doc,
                )
                out.append(res)
                if on_added is not None:
                    on_added(entry, res)
        return out

    def remove(self, ref: str) -> VersionRow:
        v = self.resolve(ref)
        at = [x.id for x in self.versions()].index(v.id)
        with self.transaction():
            self.db.execute("DELETE FROM versions WHERE id = ?", (v.id,))
            self._forget()
            self._relink(at, None)
        return v

    def raw(self, ref: str) -> bytes:
        v = self.resolve(ref)
        (blob,) = self.db.execute("SELECT raw FROM versions WHERE id = ?", (v.id,)).fetchone()
        return zlib.decompress(blob)

    # -- documents ------------------------------------------------------------------------------

    def _store_rules(self, vid: int, doc: Document) -> None:
        """Rules as (version, position, number, line) rows over deduplicated bodies: most rule texts
        repeat unchanged from release to release, and each distinct body is indexed for search once."""
        db = self.db
        rows = [rule_row(r) for r in doc.rules]
        hashes = [
            hashlib.sha1("\x1f".join(str(x) for x in (t, tx, ex, cat, nt)).encode("utf-8")).hexdigest()
            for (_, t, tx, _, ex, _, cat, nt, _, _) in rows
        ]
        have: dict[str, int] = {}
        unique = sorted(set(hashes))
        for k in range(0, len(unique), 500):
            chunk = unique[k : k + 500]
            q = f"SELECT hash, id FROM bodies WHERE hash IN ({','.join('?' * len(chunk))})"
            have.update(db.execute(q, chunk).fetchall())
        out = []
        for pos, (r, row, h) in enumerate(zip(doc.rules, rows, hashes, strict=True)):
            number, title, text, norm, examples, line, category, notes, anchor, digest = row
            bid = have.get(h)
            if bid is None:
                search = "\n".join([norm, *(e.norm for e in r.examples), *r.notes])
                bid = int(
                    db.execute(
                        "INSERT INTO bodies(hash, title, text, norm, examples, category, notes, digest, search)"
                        " VALUES (?,?,?,?,?,?,?,?,?)",
                        (h, title, text, norm, examples, category, notes, digest, search),
                    ).lastrowid
                    or 0
                )
                db.execute("INSERT INTO bodies_fts(rowid, search) VALUES (?, ?)", (bid, search))
                have[h] = bid
            out.append((vid, pos, number, line, anchor, bid))
        db.executemany("INSERT INTO rules(version_id, pos, number, line, anchor, body_id) VALUES (?,?,?,?,?,?)", out)
        db.executemany(
            "INSERT INTO glossary(version_id, pos, term, text, line, senses, norm) VALUES (?,?,?,?,?,?,?)",
            [
                (vid, k, g.term, g.text, g.line, json.dumps(list(g.senses), ensure_ascii=False), g.norm)
                for k, g in enumerate(doc.glossary)
            ],
        )

    def document(self, ref: str | int) -> Document:
        vid = ref if isinstance(ref, int) else self.resolve(ref).id
        if vid in self._docs:
            return self._docs[vid]
        row = self.db.execute(
            "SELECT label, effective_date, era, format, sha256, source, extra FROM versions WHERE id = ?", (vid,)
        ).fetchone()
        if row is None:
            raise ArchiveError(f"no archived version #{vid}", source=str(self.path))
        label, eff, era, fmt, sha, source, extra = row
        rules = self.db.execute(
            "SELECT r.number, b.title, b.text, b.norm, b.examples, r.line, b.category, b.notes, r.anchor, b.digest"
            " FROM rules r JOIN bodies b ON b.id = r.body_id WHERE r.version_id = ? ORDER BY r.pos",
            (vid,),
        ).fetchall()
        glossary = self.db.execute(
            "SELECT term, text, line, senses, norm FROM glossary WHERE version_id = ? ORDER BY pos", (vid,)
        ).fetchall()
        doc = document_from_parts(
            {"label": label, "effective_date": eff, "era": era, "format": fmt, "sha256": sha, "source": source},
            rules,
            glossary,
            json.loads(extra),
        )
        self._docs[vid] = doc
        return doc

    # -- alignments and lineage -------------------------------------------------------------------

    def _stored_alignment(self, a: int, b: int) -> Alignment | None:
        row = self.db.execute("SELECT data FROM alignments WHERE old_id = ? AND new_id = ?", (a, b)).fetchone()
        if row is None:
            return None
        return alignment_from_json(self.document(a), self.document(b), zlib.decompress(row[0]).decode("utf-8"))

    def ensure_alignment(self, a: int, b: int, role: str) -> None:
        """Store the alignment of versions ``a`` and ``b`` unless it is there: one a worker already
        computed (see add_many), or a fresh one."""
        if self.has_alignment(a, b):
            return
        shas = dict(self.db.execute("SELECT id, sha256 FROM versions WHERE id IN (?, ?)", (a, b)).fetchall())
        ready = self._precomputed.pop((shas[a], shas[b]), None)
        if ready is None:
            ready = computed(align(self.document(a), self.document(b)))
        data, summary, pairs = ready
        self._pairs_cache[(a, b)] = pairs
        self.db.execute(
            "INSERT OR REPLACE INTO alignments(old_id, new_id, role, summary, data) VALUES (?,?,?,?,?)",
            (a, b, role, summary, zlib.compress(data.encode("utf-8"), 1)),
        )

    def alignment(self, old: str, new: str) -> Alignment:
        """The alignment of two archived versions: stored for neighbours, computed (and kept) otherwise."""
        a, b = self.resolve(old).id, self.resolve(new).id
        if not self.has_alignment(a, b):
            with self.transaction():
                self.ensure_alignment(a, b, "on request")
        got = self._stored_alignment(a, b)
        assert got is not None
        return got

    def _relink(self, start: int, progress: Callable[[str], None] | None) -> None:
        """Recompute what depends on order from position ``start`` on, after an insert or removal:
        consecutive alignments (kept when still valid) and the lineages of later versions."""
        vs = self.versions()
        ids = [v.id for v in vs]
        wanted = set(zip(ids, ids[1:], strict=False))
        for a, b in list(self.db.execute("SELECT old_id, new_id FROM alignments WHERE role = 'consecutive'")):
            if (a, b) not in wanted:
                self.db.execute("DELETE FROM alignments WHERE old_id = ? AND new_id = ?", (a, b))
        for k in range(max(0, start - 1), len(ids) - 1):
            a, b = ids[k], ids[k + 1]
            if not self.has_alignment(a, b):
                if progress is not None:
                    progress(f"aligning {vs[k].label} -> {vs[k + 1].label}")
                self.ensure_alignment(a, b, "consecutive")
        assign_lineages(self, vs, max(0, start))

    def has_alignment(self, a: int, b: int) -> bool:
        return (
            self.db.execute("SELECT 1 FROM alignments WHERE old_id = ? AND new_id = ?", (a, b)).fetchone() is not None
        )

    def pairs(self, a: int, b: int) -> list[tuple[str, list[int], list[int]]]:
        """(kind, old positions, new positions) of a stored alignment, without rebuilding documents."""
        got = self._pairs_cache.get((a, b))
        if got is not None:
            return got
        if not self.has_alignment(a, b):
            self.ensure_alignment(a, b, "lineage")
            if (a, b) in self._pairs_cache:
                return self._pairs_cache[(a, b)]
        (blob,) = self.db.execute("SELECT data FROM alignments WHERE old_id = ? AND new_id = ?", (a, b)).fetchone()
        pairs = [(c[0], c[1], c[2]) for c in json.loads(zlib.decompress(blob))["changes"] if c[1] and c[2]]
        self._pairs_cache[(a, b)] = pairs
        return pairs

    def coverage(self, vid: int) -> Coverage:
        """A version's coverage, without loading its rules."""
        if vid in self._light_cache:
            return self._light_cache[vid][0]
        (extra,) = self.db.execute("SELECT extra FROM versions WHERE id = ?", (vid,)).fetchone()
        return coverage_from_json(json.loads(extra)["coverage"])

    def light(self, vid: int) -> tuple[Coverage, list[tuple[RuleNumber | None, str | None, str | None]]]:
        """A version's coverage and (number, title, category) per rule: enough to decide coverage."""
        if vid in self._light_cache:
            return self._light_cache[vid]
        if vid in self._docs:
            doc = self._docs[vid]
            self._light_cache[vid] = (doc.coverage, [(r.number, r.title, r.category) for r in doc.rules])
            return self._light_cache[vid]
        (extra,) = self.db.execute("SELECT extra FROM versions WHERE id = ?", (vid,)).fetchone()
        rows = self.db.execute(
            "SELECT r.number, b.title, b.category FROM rules r JOIN bodies b ON b.id = r.body_id"
            " WHERE r.version_id = ? ORDER BY r.pos",
            (vid,),
        ).fetchall()
        cov = coverage_from_json(json.loads(extra)["coverage"])
        self._light_cache[vid] = (cov, [(RuleNumber.parse(n) if n else None, t, c) for n, t, c in rows])
        return self._light_cache[vid]

    def bridges(self) -> list[tuple[int, int]]:
        """Pairs of partial dumps that cover the same rules with other versions between them."""
        return find_bridges(self)

    # -- queries --------------------------------------------------------------------------------

    def search(self, phrase: str, limit: int = 500) -> list[dict[str, Any]]:
        """Rules whose text or examples contain ``phrase`` (FTS5 phrase query), one hit per rule lineage:
        the numbers it had while it contained the phrase, first and last seen, and its latest such text."""
        words = re.findall(r"\w+", phrase)
        if not words:
            raise ArchiveError("search needs at least one word", source=str(self.path))
        query = '"' + " ".join(words) + '"'
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
                by_lineage.setdefault(lineage, []).append((order[vid], number, bid))
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

    def export(self) -> Iterator[dict[str, Any]]:
        """Every version and its rules as JSON-ready records (one per line in ``archive export``)."""
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

    def summaries(self) -> dict[tuple[int, int], dict[str, int]]:
        return {(a, b): json.loads(s) for a, b, s in self.db.execute("SELECT old_id, new_id, summary FROM alignments")}
