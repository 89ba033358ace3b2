"""The Archive: opening (refusing files that are not ours), adding files (parse, store, align with their
neighbours, carry lineages) and removing versions, each change one transaction."""

from __future__ import annotations

import contextlib
import hashlib
import os
import re
import sqlite3
import zlib
from collections import deque
from collections.abc import Callable
from concurrent.futures import Future
from pathlib import Path
from typing import Any

from ..dates import check_day, looks_like_day
from ..errors import ArchiveError, RulediffError
from ..matcher.lineage import LINEAGE_LOOKBACK
from ..model import Document
from ..numbering import RuleNumber
from ..parsers import parse_bytes, read_input
from ..support.worker_pool import pool as worker_pool
from .base import MissingBodyError, environment_error, file_identity
from .connection import connect, use_wal
from .correcting import CorrectingArchive
from .ingest import Parsed, Prepared, Preparer, read_and_parse
from .manifest import Entry
from .rows import VERSION_ORDER, AddResult, VersionRow, default_path, printable, published_from_name, sort_date_of
from .schema import check_magic, migrate

# Files parsed ahead of the one being stored: enough to keep the worker busy, few enough to keep memory flat.
PARSE_AHEAD = 2
# SQLite's page cache while adding several files, in KiB (as a negative cache_size says it).
BULK_CACHE_KIB = -32768

_RERELEASE = re.compile(r" \(re-release \d+\)")


REPLACED = "was replaced by another file while this command ran; run it again"


class Archive(CorrectingArchive):
    """An open archive. Use ``with Archive.open(path) as arc:``; every change is one transaction."""

    @classmethod
    def open(cls, path: str | os.PathLike[str] | None = None, *, create: bool = True) -> Archive:
        """Open (or create) the archive at ``path``. A journal left by a killed process is rolled back
        before the file is judged; a file that is not ours is refused untouched."""
        p = Path(path) if path is not None else default_path()
        src = str(p)
        if p.is_dir():
            raise ArchiveError("is a directory; expected an archive file", source=src)
        if p.exists():
            if not p.is_file():
                raise ArchiveError("is not a regular file; expected an archive file", source=src)
            check_magic(p)
        else:
            if p.is_symlink():  # a link to nothing, or in a loop: not a place to read or make an archive
                raise ArchiveError("is a symbolic link that leads to no file; expected an archive file", source=src)
            if not create:
                raise ArchiveError("no archive here; create one with 'rulediff archive add FILE'", source=src)
            if not (p.parent if str(p.parent) else Path(".")).is_dir():
                raise ArchiveError(f"folder {str(p.parent)!r} does not exist", source=src)
        before = p.exists() and file_identity(p)
        db, ours = connect(p)
        try:
            arc = cls(db, p)
            if before and before != arc.identity:  # which of the two files is open here cannot be told
                raise ArchiveError(REPLACED, source=src)
            if not ours and not create:
                raise ArchiveError("an empty file, not an archive yet; add a version to start one", source=src)
            db.execute("PRAGMA foreign_keys = ON")
            use_wal(db)
            migrate(db, p)
        except sqlite3.Error as e:
            db.close()
            raise ArchiveError(environment_error(e), source=src) from None
        except BaseException:
            db.close()
            raise
        return arc

    @classmethod
    def open_again(cls, path: str, identity: tuple[int, int]) -> Archive:
        """In a worker: the archive its command has open (``identity``, that ``Archive.identity``), opened
        again by its ``path``, if that is still the same file. A file moved into its place meanwhile would
        give the worker other rows under the same ids; it is refused before it is opened (and changed)."""
        p = Path(path)
        try:
            same = file_identity(p) == identity
        except OSError:
            same = False
        if not same:
            raise ArchiveError(REPLACED, source=path)
        arc = cls.open(p, create=False)
        if arc.identity != identity:  # replaced between the look and the opening
            arc.close()
            raise ArchiveError(REPLACED, source=path)
        return arc

    def __enter__(self) -> Archive:
        return self

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
        published: str | None = None,
    ) -> AddResult:
        """Archive one file: parse, store, align with its neighbours, carry lineages. Re-adding the same
        bytes is a no-op; the same date with other bytes is a re-release, labelled by publication order.
        Whether the bytes are new and what label they get are decided inside the write transaction, so two
        processes adding at once cannot both add one file or both take one label."""
        sha = hashlib.sha256(data).hexdigest()
        same = self.version_by_sha(sha)
        if same is not None:
            return AddResult(same, "already archived")
        doc = parsed if parsed is not None else parse_bytes(data, source, fmt)
        prep = Preparer().prepare(doc, data, sha)
        return self._add_prepared(
            prep,
            data,
            source,
            label=label,
            era=era,
            effective=effective,
            provenance=provenance,
            published=published,
            progress=progress,
            doc=doc,
        )

    def _add_prepared(
        self,
        prep: Prepared,
        data: bytes,
        source: str,
        *,
        label: str | None,
        era: str | None,
        effective: str | None,
        provenance: str | None,
        published: str | None,
        progress: Callable[[str], None] | None,
        doc: Document | None,
    ) -> AddResult:
        """``add`` from the rows a file makes (``doc``, its Document, when this process has it). The file is
        compressed here, not by the worker: the worker has the parsing and aligning to do."""
        same = self.version_by_sha(prep.sha256)
        if same is not None:
            return AddResult(same, "already archived")
        self.sync_corrections()  # lineages from before an upgrade follow this rulediff's shipped corrections
        eff = effective or prep.effective
        if eff is not None:
            eff = self._checked(eff, "effective date", source)
        if label is not None and looks_like_day(label):
            label = self._checked(label, "label", source)
        if published is not None:
            published = self._checked(published, "publication date", source)
        published = published or published_from_name(source, eff)
        era = era or prep.era
        base = label or (eff if eff else prep.label)
        sort_date = sort_date_of(eff, era)
        with self.transaction():
            same = self.version_by_sha(prep.sha256)
            if same is not None:  # another process added these bytes while this one parsed them
                return AddResult(same, "already archived")
            seq = self.db.execute("SELECT coalesce(max(seq), 0) + 1 FROM versions").fetchone()[0]
            cur = self.db.execute(
                "INSERT INTO versions(sha256, label, effective_date, era, sort_date, seq, format, source, provenance,"
                " size, rule_count, extra, published"
                + (
                    ", raw) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,x'')"
                    if self._raw_column()
                    else ") VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)"
                ),
                (
                    prep.sha256,
                    base,
                    eff,
                    era,
                    sort_date,
                    seq,
                    prep.format,
                    printable(os.path.basename(source)),
                    provenance,
                    prep.size,
                    len(prep.hashes),
                    prep.extra,
                    published,
                ),
            )
            vid = int(cur.lastrowid or 0)
            self.db.execute("INSERT INTO raws(version_id, raw) VALUES (?, ?)", (vid, zlib.compress(data, 1)))
            rerelease = self._label_rereleases(sort_date, base)
            self._store_rules(vid, prep)
            if doc is not None:
                self._docs[vid] = doc
            order = [v.id for v in self.versions()]
            self._relink(order.index(vid), progress)
        return AddResult(self.version(vid), "re-release" if rerelease else "added")

    def _raw_column(self) -> bool:
        """Does ``versions`` still have the column the raw bytes were in (an SQLite before 3.35 cannot drop
        it: see migration 7)? Then it is given an empty value."""
        if self._has_raw_column is None:
            self._has_raw_column = any(row[1] == "raw" for row in self.db.execute("PRAGMA table_info(versions)"))
        return self._has_raw_column

    def _checked(self, text: str, what: str, source: str) -> str:
        try:
            return check_day(text, what=what)
        except RulediffError as e:
            raise ArchiveError(e.message, source=source) from None

    def _label_rereleases(self, sort_date: str, base: str) -> bool:
        """Label the versions of one date that share a base label by publication: the first published keeps
        the base label, later ones are "(re-release 2)", "(re-release 3)"... Was there more than one?"""
        rows = self.db.execute(
            f"SELECT id, label FROM versions WHERE sort_date = ? ORDER BY {VERSION_ORDER}", (sort_date,)
        ).fetchall()
        group = [
            vid
            for vid, label in rows
            if label == base or (label.startswith(base) and _RERELEASE.fullmatch(label[len(base) :]) is not None)
        ]
        for k, vid in enumerate(group):
            label = base if k == 0 else f"{base} (re-release {k + 1})"
            self.db.execute("UPDATE versions SET label = ? WHERE id = ? AND label != ?", (label, vid, label))
        return len(rows) > 1

    def add_file(self, path: str | os.PathLike[str], **kw: Any) -> AddResult:
        return self.add(read_input(path), str(path), **kw)

    def add_many(
        self,
        items: list[Entry],
        *,
        on_added: Callable[[Entry, AddResult], None] | None = None,
        progress: Callable[[str], None] | None = None,
    ) -> list[AddResult]:
        """Archive several files, each in its own transaction. Files are read, parsed, aligned with the file
        before and turned into rows a few steps ahead in a worker process, so that work overlaps the storing
        on a two-core machine."""
        out: list[AddResult] = []
        known = {sha for (sha,) in self.db.execute("SELECT sha256 FROM versions")}
        # Each release inserts a row for nearly every rule number, body and lineage, all over the rules
        # table's indexes: a page cache that holds them (32 MiB, not SQLite's 2) saves reading them back from
        # the file for every release (0.7 s of CPU over the corpus). Set back afterwards, for the readers.
        (cache,) = self.db.execute("PRAGMA cache_size").fetchone()
        self.db.execute(f"PRAGMA cache_size = {BULK_CACHE_KIB}")
        # One file gains nothing from a second process: it is parsed here, and its Document kept.
        pool = worker_pool(1) if len(items) > 1 else None
        try:
            # A few files ahead, not all: a finished result waits in this process until it is stored, so a
            # worker faster than the storing would pile up whole releases here.
            futures: deque[Future[Parsed]] = deque(
                pool.submit(read_and_parse, str(e.path), e.format, known) for e in items[:PARSE_AHEAD] if pool
            )
            for k, entry in enumerate(items):
                data, prep, ahead = futures.popleft().result() if pool else (read_input(entry.path), None, None)
                if pool and k + PARSE_AHEAD < len(items):
                    nxt = items[k + PARSE_AHEAD]
                    futures.append(pool.submit(read_and_parse, str(nxt.path), nxt.format, known))
                got = prep.sha256 if prep is not None else hashlib.sha256(data).hexdigest()
                if entry.sha256 is not None and got != entry.sha256:
                    raise ArchiveError(
                        f"sha256 of {printable(entry.path.name)} is {got}, not {entry.sha256} as listed; "
                        "the file changed or the row is wrong",
                        source=entry.row,
                    )
                if ahead is not None:
                    self._precomputed[(ahead[0], got)] = ahead[1]
                res = self._add_entry(entry, data, prep, ahead is not None, progress)
                self._trim_caches(2 * LINEAGE_LOOKBACK)  # lineage looks back that far, no further
                out.append(res)
                if on_added is not None:
                    on_added(entry, res)
        finally:
            # Stopped early (an error, Ctrl-C, SIGTERM): files not yet parsed are not waited for.
            if pool is not None:
                pool.shutdown(wait=True, cancel_futures=True)
            with contextlib.suppress(sqlite3.Error):  # a failing archive has said so already
                self.db.execute(f"PRAGMA cache_size = {int(cache)}")
        self.refresh_alignments(progress)
        return out

    def _add_entry(
        self, entry: Entry, data: bytes, prep: Prepared | None, aligned: bool, progress: Callable[[str], None] | None
    ) -> AddResult:
        """One file of ``add_many``: from the worker's rows when it made them and they fit what this process
        stored before (else, and for a file the worker did not align, parsed here as ``add`` does)."""
        kw: dict[str, Any] = {
            "label": entry.label,
            "era": entry.era,
            "effective": entry.effective,
            "provenance": entry.provenance,
            "published": entry.published,
            "progress": progress,
        }
        if prep is not None and aligned:
            with contextlib.suppress(MissingBodyError):
                return self._add_prepared(prep, data, str(entry.path), doc=None, **kw)
        return self.add(data, str(entry.path), fmt=entry.format, **kw)

    def remove(self, ref: str) -> VersionRow:
        v = self.resolve(ref)
        at = [x.id for x in self.versions()].index(v.id)
        with self.transaction():
            self.db.execute("DELETE FROM versions WHERE id = ?", (v.id,))
            # The versions of its date that shared its label are labelled again by publication: no gap in
            # the re-release numbers, and the first left takes the date's own label.
            self._label_rereleases(v.sort_date, _RERELEASE.sub("", v.label))
            self._forget()
            self._relink(at, None)
        return v

    def _store_rules(self, vid: int, prep: Prepared) -> None:
        """Rules as (version, position, number, line) rows over deduplicated bodies: most rule texts
        repeat unchanged from release to release, and each distinct body is indexed for search once. The
        rule rows wait for their lineage ids (``_write_rules``), so each is written once, whole: only within the
        add's own transaction, whose readers of a version's rules (relinking, corrections) write them first,
        and never past its commit, which writes what still waits."""
        db = self.db
        before = self._body_ids  # the bodies of the file stored last
        have: dict[str, int] = {}
        unknown = sorted({h for h in prep.hashes if h not in before})
        for k in range(0, len(unknown), 500):
            chunk = unknown[k : k + 500]
            q = f"SELECT hash, id FROM bodies WHERE hash IN ({','.join('?' * len(chunk))})"
            have.update(db.execute(q, chunk).fetchall())
        next_id = int(db.execute("SELECT coalesce(max(id), 0) FROM bodies").fetchone()[0]) + 1
        ids: dict[str, int] = {}
        new: list[tuple[Any, ...]] = []
        bids: list[int] = []
        for h in prep.hashes:
            bid = ids.get(h)
            if bid is None:
                bid = before.get(h)
                if bid is None:
                    bid = have.get(h)
                if bid is None:
                    body = prep.bodies.get(h)
                    if body is None:
                        raise MissingBodyError(h)
                    bid = next_id  # as SQLite numbers them: one more than the largest id
                    next_id += 1
                    new.append((bid, h, *body))
                ids[h] = bid
            bids.append(bid)
        db.executemany(
            "INSERT INTO bodies(id, hash, title, text, norm, examples, category, notes, digest, search)"
            " VALUES (?,?,?,?,?,?,?,?,?,?)",
            new,
        )
        db.executemany("INSERT INTO bodies_fts(rowid, search) VALUES (?, ?)", [(b[0], b[-1]) for b in new])
        self._body_ids = ids
        self._unwritten[vid] = (prep.numbers, prep.lines, prep.anchors, bids)
        numbers = [RuleNumber.parse(n) if n is not None else None for n in prep.numbers]
        self._light_cache[vid] = (prep.coverage, list(zip(numbers, prep.titles, prep.categories, strict=True)))
        db.executemany(
            "INSERT INTO glossary(version_id, pos, term, text, line, senses, norm) VALUES (?,?,?,?,?,?,?)",
            [(vid, k, *g) for k, g in enumerate(prep.glossary)],
        )


