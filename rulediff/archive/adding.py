"""Adding files to the archive and removing versions, each change one transaction."""

# Adding files to the archive and removing versions: each file parsed (in a worker, a few files ahead, when there
# are several), stored over deduplicated bodies, aligned with its neighbours and given lineages, each change one
# transaction; re-releases of one date labelled by publication.

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
from typing import Any

from ..dates import check_day, looks_like_day
from ..errors import ArchiveError, RulediffError
from ..matcher.lineage import LINEAGE_LOOKBACK
from ..model import LOST_RULE, Document
from ..numbering import RuleNumber
from ..parsers import parse_bytes, read_input
from ..support.worker_pool import pool as worker_pool
from .alignments import Alignments
from .ingest import Parsed, Prepared, Preparer, read_and_parse
from .lineages import Lineages
from .manifest import Entry
from .rows import VERSION_ORDER, AddResult, VersionRow, printable, published_from_name, sort_date_of
from .store import MissingBodyError, Store, environment_error
from .versions import EDITION_RANK, Versions

# Files parsed ahead of the one being stored: enough to keep the worker busy, few enough to keep memory flat.
PARSE_AHEAD = 2
# SQLite's page cache while adding several files, in KiB (as a negative cache_size says it).
BULK_CACHE_KIB = -32768

# What labelling adds to a date's label: a re-release's publication order, a partial dump's or an edition's mark.
_RERELEASE = re.compile(r" \((?:re-release \d+|(?:partial|docx|pdf)(?: \d+)?)\)")


class Adding:
    """Adding files to an open archive, and removing versions from it."""

    def __init__(self, store: Store, versions: Versions, alignments: Alignments, lineages: Lineages) -> None:
        self.store, self.versions, self.alignments, self.lineages = store, versions, alignments, lineages
        self.path = store.path
        # Body ids of the file stored last, by hash: the next release repeats most of them.
        self.body_ids: dict[str, int] = {}
        self.has_raw_column: bool | None = None  # see _raw_column

    def forget(self) -> None:
        """Drop the body ids kept from the last file (after a removal or a rolled-back change)."""
        self.body_ids = {}

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
        accept_warnings: bool = False,
    ) -> AddResult:
        """Archive one file: parse, store, align with its neighbours, carry lineages. Re-adding the same
        bytes is a no-op; the same date with other bytes is a re-release, labelled by publication order.
        Whether the bytes are new and what label they get are decided inside the write transaction, so two
        processes adding at once cannot both add one file or both take one label. A file whose reading lost a
        numbered rule (a warning of code LOST_RULE) is refused unless ``accept_warnings``."""
        sha = hashlib.sha256(data).hexdigest()
        same = self.versions.by_sha(sha)
        if same is not None:
            return AddResult(same, "already archived")
        doc = parsed if parsed is not None else parse_bytes(data, source, fmt)
        if not accept_warnings:
            refuse_lost_rules(doc, source)
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
        same = self.versions.by_sha(prep.sha256)
        if same is not None:
            return AddResult(same, "already archived")
        self.lineages.sync_corrections()  # lineages from before an upgrade follow this rulediff's shipped corrections
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
        with self.store.transaction():
            same = self.versions.by_sha(prep.sha256)
            if same is not None:  # another process added these bytes while this one parsed them
                return AddResult(same, "already archived")
            seq = self.store.db.execute("SELECT coalesce(max(seq), 0) + 1 FROM versions").fetchone()[0]
            cur = self.store.db.execute(
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
            self.store.db.execute("INSERT INTO raws(version_id, raw) VALUES (?, ?)", (vid, zlib.compress(data, 1)))
            rerelease = self.label_rereleases(sort_date, base)
            self._store_rules(vid, prep)
            if doc is not None:
                self.versions.docs[vid] = doc
            order = [v.id for v in self.versions.all()]
            self.lineages.relink(order.index(vid), progress)
        added = self.versions.get(vid)
        if added.label.endswith(")") and "(partial" in added.label:
            return AddResult(added, "partial")
        if f"({added.format}" in added.label and added.format in EDITION_RANK:
            return AddResult(added, "edition")
        return AddResult(added, "re-release" if rerelease else "added")

    def _raw_column(self) -> bool:
        """Does ``versions`` still have the column the raw bytes were in (an SQLite before 3.35 cannot drop
        it: see migration 7)? Then it is given an empty value."""
        if self.has_raw_column is None:
            self.has_raw_column = any(row[1] == "raw" for row in self.store.db.execute("PRAGMA table_info(versions)"))
        return self.has_raw_column

    def _checked(self, text: str, what: str, source: str) -> str:
        try:
            return check_day(text, what=what)
        except RulediffError as e:
            raise ArchiveError(e.message, source=source) from None

    def label_rereleases(self, sort_date: str, base: str) -> bool:
        """Label the versions of one date that share a base label by publication: the first published keeps
        the base label, later ones are "(re-release 2)", "(re-release 3)"... A partial dump beside a complete
        release of its date is no re-release of it: it is "(partial)", "(partial 2)"..., and the releases keep
        their labels. Nor is another edition of a release (its Word or PDF edition beside the text: see
        ``Versions.editions``): it is "(docx)", "(pdf)", "(pdf 2)"... Is there more than one release of the date (a
        partial dump or another edition beside it is not another release)?"""
        rows = self.store.db.execute(
            f"SELECT id, label, format FROM versions WHERE sort_date = ? ORDER BY {VERSION_ORDER}", (sort_date,)
        ).fetchall()
        fmt = {vid: f for vid, _, f in rows}
        group = [
            vid
            for vid, label, _ in rows
            if label == base or (label.startswith(base) and _RERELEASE.fullmatch(label[len(base) :]) is not None)
        ]
        complete = [vid for vid in group if self.versions.coverage(vid).complete]
        partial = [vid for vid in group if vid not in complete] if complete else []
        editions = set(self.versions.editions([v for v in self.versions.all() if v.id in complete]))
        releases = [vid for vid in complete if vid not in editions] if complete else group
        labels = {vid: base if k == 0 else f"{base} (re-release {k + 1})" for k, vid in enumerate(releases)}
        marks = (f"{base} (partial)" if k == 0 else f"{base} (partial {k + 1})" for k in range(len(partial)))
        labels.update(zip(partial, marks, strict=True))
        seen: dict[str, int] = {}
        for vid in (v for v in complete if v in editions):
            seen[fmt[vid]] = seen.get(fmt[vid], 0) + 1
            labels[vid] = f"{base} ({fmt[vid]})" if seen[fmt[vid]] == 1 else f"{base} ({fmt[vid]} {seen[fmt[vid]]})"
        for vid, label in labels.items():
            self.store.db.execute("UPDATE versions SET label = ? WHERE id = ? AND label != ?", (label, vid, label))
        return len(releases) > 1

    def add_file(self, path: str | os.PathLike[str], **kw: Any) -> AddResult:
        return self.add(read_input(path), str(path), **kw)

    def add_many(
        self,
        items: list[Entry],
        *,
        on_added: Callable[[Entry, AddResult], None] | None = None,
        progress: Callable[[str], None] | None = None,
        accept_warnings: bool = False,
    ) -> list[AddResult]:
        """Archive several files, each in its own transaction. Files are read, parsed, aligned with the file
        before and turned into rows a few steps ahead in a worker process, so that work overlaps the storing
        on a two-core machine. A failure stops at the file it met, and says how many were archived before."""
        out: list[AddResult] = []
        try:
            self._add_many(items, out, on_added, progress, accept_warnings)
        except (RulediffError, sqlite3.Error) as e:
            if not out:
                raise
            said = e.message if isinstance(e, RulediffError) else environment_error(e)
            where = e.source if isinstance(e, RulediffError) else str(self.path)
            line = e.line if isinstance(e, RulediffError) else None
            raise ArchiveError(
                f"{said} ({len(out)} of {len(items)} files archived before this one; the rest were not)",
                source=where,
                line=line,
            ) from None
        return out

    def _add_many(
        self,
        items: list[Entry],
        out: list[AddResult],
        on_added: Callable[[Entry, AddResult], None] | None,
        progress: Callable[[str], None] | None,
        accept_warnings: bool,
    ) -> None:
        known = {sha for (sha,) in self.store.db.execute("SELECT sha256 FROM versions")}
        # Each release inserts a row for nearly every rule number, body and lineage, all over the rules
        # table's indexes: a page cache that holds them (32 MiB, not SQLite's 2) saves reading them back from
        # the file for every release (0.7 s of CPU over the corpus). Set back afterwards, for the readers.
        (cache,) = self.store.db.execute("PRAGMA cache_size").fetchone()
        self.store.db.execute(f"PRAGMA cache_size = {BULK_CACHE_KIB}")
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
                    self.alignments.precomputed[(ahead[0], got)] = ahead[1]
                res = self._add_entry(entry, data, prep, ahead is not None, progress, accept_warnings)
                self.versions.trim(2 * LINEAGE_LOOKBACK)  # lineage looks back that far, no further
                self.alignments.trim(2 * LINEAGE_LOOKBACK)
                out.append(res)
                if on_added is not None:
                    on_added(entry, res)
        finally:
            # Stopped early (an error, Ctrl-C, SIGTERM): files not yet parsed are not waited for.
            if pool is not None:
                pool.shutdown(wait=True, cancel_futures=True)
            with contextlib.suppress(sqlite3.Error):  # a failing archive has said so already
                self.store.db.execute(f"PRAGMA cache_size = {int(cache)}")
        self.lineages.refresh(progress)

    def _add_entry(
        self,
        entry: Entry,
        data: bytes,
        prep: Prepared | None,
        aligned: bool,
        progress: Callable[[str], None] | None,
        accept_warnings: bool = False,
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
        return self.add(data, str(entry.path), fmt=entry.format, accept_warnings=accept_warnings, **kw)

    def remove(self, ref: str) -> VersionRow:
        v = self.versions.resolve(ref)
        at = [x.id for x in self.versions.all()].index(v.id)
        with self.store.transaction():
            self.store.db.execute("DELETE FROM versions WHERE id = ?", (v.id,))
            # The versions of its date that shared its label are labelled again by publication: no gap in
            # the re-release numbers, and the first left takes the date's own label.
            self.label_rereleases(v.sort_date, _RERELEASE.sub("", v.label))
            self.store.forget_all()
            self.lineages.relink(at, None)
        return v

    def _store_rules(self, vid: int, prep: Prepared) -> None:
        """Rules as (version, position, number, line) rows over deduplicated bodies: most rule texts
        repeat unchanged from release to release, and each distinct body is indexed for search once. The
        rule rows wait for their lineage ids (``Store.write_rules``), so each is written once, whole: only within the
        add's own transaction, whose readers of a version's rules (relinking, corrections) write them first,
        and never past its commit, which writes what still waits."""
        db = self.store.db
        before = self.body_ids  # the bodies of the file stored last
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
        self.body_ids = ids
        self.store.unwritten[vid] = (prep.numbers, prep.lines, prep.anchors, bids)
        numbers = [RuleNumber.parse(n) if n is not None else None for n in prep.numbers]
        self.versions.light_cache[vid] = (prep.coverage, list(zip(numbers, prep.titles, prep.categories, strict=True)))
        db.executemany(
            "INSERT INTO glossary(version_id, pos, term, text, line, senses, norm) VALUES (?,?,?,?,?,?,?)",
            [(vid, k, *g) for k, g in enumerate(prep.glossary)],
        )


def refuse_lost_rules(doc: Document, source: str) -> None:
    """Refuse a document whose reading lost a numbered rule (its first such warning, with its line)."""
    lost = [w for w in doc.warnings if w.code == LOST_RULE]
    if lost:
        more = f" (and {len(lost) - 1} more)" if len(lost) > 1 else ""
        raise ArchiveError(
            f"{lost[0].message}{more}; not archived (add --accept-warnings to archive it as read)",
            source=source,
            line=lost[0].line,
        )
