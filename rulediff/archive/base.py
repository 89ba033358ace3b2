"""The archive's connection and its reads of versions and documents: transactions, version lookup, and
Documents rebuilt from their stored rows (kept in a small cache)."""

from __future__ import annotations

import contextlib
import os
import sqlite3
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

from ..coverage import Coverage
from ..dates import check_day
from ..errors import ArchiveError, NotFoundError, RulediffError
from ..matcher.records import Alignment
from ..model import Document
from ..numbering import RuleNumber
from .codec import Encoded, Pair, coverage_of, document_from_parts, missing_rules, read_json, unzip
from .rows import VERSION_COLS, VERSION_ORDER, Lru, VersionRow

# Rebuilt documents kept in memory (a full release is a few MB of objects).
DOCUMENT_CACHE = 12
# Alignments computed in this process, kept so a caller gets the object rather than its stored copy decoded.
ALIGNMENT_CACHE = 4

RuleKey = tuple[RuleNumber | None, str | None, str | None]  # (number, title, category)
# Rules not written yet: (numbers, lines, anchors, body ids), by position
Unwritten = tuple[list[str | None], list[int], list[str | None], list[int]]


def rows_of(vid: int, *columns: Sequence[Any]) -> Iterator[tuple[Any, ...]]:
    """Rows (version, position, *columns) of the rules table, from columns of one version's rules."""
    n = len(columns[0])
    return zip([vid] * n, range(n), *columns, strict=True)


def environment_error(e: sqlite3.Error) -> str:
    """One line saying what went wrong around the archive file, for errors of the machine, not of rulediff."""
    msg = str(e)
    low = msg.lower()
    if "readonly" in low or "read-only" in low:
        return "the archive is read-only (file, folder or file system); cannot write to it"
    if "full" in low:
        return "no space left on the device while writing the archive; nothing was changed"
    if "locked" in low or "busy" in low:
        return "the archive is busy: another rulediff is writing it; try again"
    if "disk i/o" in low:
        return "disk I/O error while using the archive"
    if "unable to open" in low:
        return "cannot open the archive file (is its folder writable?)"
    if "malformed" in low or "not a database" in low:
        return f"the archive is damaged ({msg})"
    return f"archive error: {msg}"


def cannot_keep(e: sqlite3.Error) -> bool:
    """Is ``e`` the archive refusing a write for now (read-only, full, or held by another process)? A cache
    (an alignment worked out on request, the site's steps and edits) is then simply not kept."""
    low = str(e).lower()
    return any(w in low for w in ("readonly", "read-only", "full", "locked", "busy"))


class MissingBodyError(Exception):
    """A prepared file names a body neither it, the file stored before it, nor the archive has (the worker
    and this process saw different files last): the file is then added from its Document."""


def file_identity(path: Path) -> tuple[int, int]:
    """The file at ``path`` (device, inode), as it is now."""
    st = os.stat(path)
    return st.st_dev, st.st_ino


class ArchiveBase:
    """An open connection to an archive file; see ``Archive`` for the whole API."""

    def __init__(self, db: sqlite3.Connection, path: Path) -> None:
        self.db = db
        self.path = path
        self.identity = file_identity(path)  # the file opened: workers open it again by path (Archive.open_again)
        self._docs: Lru[int, Document] = Lru(DOCUMENT_CACHE)
        self._alignments: Lru[tuple[int, int], Alignment] = Lru(ALIGNMENT_CACHE)
        # Derived, per version or pair; rebuilt from the database whenever missing.
        self._light_cache: dict[int, tuple[Coverage, list[RuleKey]]] = {}
        self._pairs_cache: dict[tuple[int, int], list[Pair]] = {}
        # Alignments a worker computed ahead of time, by (old sha256, new sha256).
        self._precomputed: dict[tuple[str, str], Encoded] = {}
        # Body ids of the file stored last, by hash: the next release repeats most of them.
        self._body_ids: dict[str, int] = {}
        self._has_raw_column: bool | None = None  # see Archive._raw_column
        self._caches: set[str] | None = None  # see QueryingArchive._has_cache
        # The rules (numbers, lines, anchors, body ids) of a version being added, written with their lineage
        # ids once those are known, or before anything reads that version's rules.
        self._unwritten: dict[int, Unwritten] = {}

    def _forget(self) -> None:
        """Drop derived caches (after a removal or a rolled-back change)."""
        self._docs.clear()
        self._alignments.clear()
        self._light_cache.clear()
        self._pairs_cache.clear()
        self._body_ids = {}
        self._unwritten.clear()

    def _trim_caches(self, keep: int) -> None:
        """Forget all but the ``keep`` newest entries of the per-version and per-pair caches: adding files
        in order reads only the last few versions again, and a corpus's worth would pile up (pairs and rule
        keys of every release: some 150 MB)."""
        for vid in list(self._light_cache)[: max(0, len(self._light_cache) - keep)]:
            del self._light_cache[vid]
        for pair in list(self._pairs_cache)[: max(0, len(self._pairs_cache) - keep)]:
            del self._pairs_cache[pair]

    def keep_documents(self, n: int) -> None:
        """Keep at most ``n`` rebuilt documents in memory (a reader walking releases in order needs two)."""
        self._docs = Lru(n)

    def release_alignments(self) -> None:
        """Forget the alignments kept in memory (documents stay)."""
        self._alignments.clear()

    def release_caches(self) -> None:
        """Forget every document and alignment kept in memory; all of them can be read back."""
        self._forget()
        self._precomputed.clear()

    def close(self) -> None:
        self.db.close()

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: object) -> None:
        self.close()
        if isinstance(exc, sqlite3.OperationalError) or type(exc) is sqlite3.DatabaseError:
            # The machine failed us (disk full, read-only, locked): say so in one line naming the file.
            raise ArchiveError(environment_error(exc), source=str(self.path)) from None

    class _Tx:
        def __init__(self, arc: ArchiveBase) -> None:
            self.arc = arc

        def __enter__(self) -> None:
            self.arc.db.execute("BEGIN IMMEDIATE")

        def __exit__(self, exc_type: type[BaseException] | None, *rest: object) -> None:
            if exc_type is None:
                try:
                    # Rule rows waiting for their lineage ids (see _store_rules) go in before the commit,
                    # whatever the transaction did: none is ever lost to it.
                    self.arc._write_rules()
                    self.arc.db.execute("COMMIT")
                except BaseException:
                    self._undo()  # a COMMIT that fails (a full disk) rolls back like any error inside
                    raise
            else:
                self._undo()

        def _undo(self) -> None:
            # What the memory holds of the transaction (the body ids it gave out, the documents it made) goes
            # with it: kept, the next add would give a rolled-back body's id to a new text, and rules would
            # read another rule's words.
            self.arc._forget()
            # A failed COMMIT or a full disk may have ended the transaction already.
            if self.arc.db.in_transaction:
                self.arc.db.execute("ROLLBACK")

    @contextlib.contextmanager
    def snapshot(self) -> Iterator[None]:
        """Every read inside sees the archive as it was at the first one, whatever other processes commit
        meanwhile (write-ahead logging keeps that snapshot without blocking them). Nothing inside may
        write. Inside a transaction already, it is that transaction."""
        if self.db.in_transaction:
            yield
            return
        self.db.execute("BEGIN DEFERRED")
        try:
            self.db.execute("SELECT count(*) FROM versions").fetchone()  # the snapshot starts at a read
            yield
        finally:
            # A reader left unfinished (a generator such as ``export``, closed after the archive) finds the
            # connection closed, which ended the snapshot: nothing is left to end.
            with contextlib.suppress(sqlite3.ProgrammingError):
                if self.db.in_transaction:
                    self.db.execute("COMMIT")

    def transaction(self) -> ArchiveBase._Tx:
        """All or nothing: an exception (or Ctrl-C) inside rolls everything back; a killed process
        leaves SQLite's journal, which rolls back on the next open."""
        return ArchiveBase._Tx(self)

    def _write_rules(self, vid: int | None = None) -> None:
        """Write the waiting rule rows of version ``vid`` (None: of every version), without lineage ids."""
        for v in [vid] if vid is not None else list(self._unwritten):
            columns = self._unwritten.pop(v, None)
            if columns is not None:
                self.db.executemany(
                    "INSERT INTO rules(version_id, pos, number, line, anchor, body_id) VALUES (?,?,?,?,?,?)",
                    rows_of(v, *columns),
                )

    # -- versions -------------------------------------------------------------------------------

    def versions(self) -> list[VersionRow]:
        rows = self.db.execute(f"SELECT {VERSION_COLS} FROM versions ORDER BY {VERSION_ORDER}").fetchall()
        return [VersionRow(*r) for r in rows]

    def version(self, vid: int) -> VersionRow:
        row = self.db.execute(f"SELECT {VERSION_COLS} FROM versions WHERE id = ?", (vid,)).fetchone()
        if row is None:
            raise ArchiveError(f"no archived version #{vid}", source=str(self.path))
        return VersionRow(*row)

    def version_by_sha(self, sha: str) -> VersionRow | None:
        row = self.db.execute(f"SELECT {VERSION_COLS} FROM versions WHERE sha256 = ?", (sha,)).fetchone()
        return VersionRow(*row) if row is not None else None

    def resolve(self, ref: str) -> VersionRow:
        """A version by id ("#3"), label, sha256 prefix, effective date or era. A date or era shared by
        several versions (a re-release) names the one whose label it is, or else is an error listing them."""
        vs = self.versions()
        ref = ref.strip()
        tests: list[Callable[[VersionRow], bool]] = [
            lambda v: ref.startswith("#") and ref[1:].isdigit() and v.id == int(ref[1:]),
            lambda v: v.label == ref,
            lambda v: len(ref) >= 8 and v.sha256.startswith(ref.lower()),
            lambda v: v.effective_date == ref,
            lambda v: v.era == ref,
        ]
        for test in tests:
            hits = [v for v in vs if test(v)]
            if len(hits) == 1:
                return hits[0]
            if hits:
                names = "; ".join(f"{v.label!r} (#{v.id}, {v.source})" for v in hits)
                raise ArchiveError(
                    f"{ref!r} names {len(hits)} archived versions: {names}; name one by its label or #id",
                    source=str(self.path),
                )
        near = ", ".join(v.label for v in vs[-5:]) or "none yet"
        raise NotFoundError(f"no archived version {ref!r} (latest: {near})", source=str(self.path))

    def version_before(self, as_of: str, what: str = "--as-of") -> VersionRow:
        """The version in force on a day (YYYY-MM-DD): the last one in force from that day or before. ``what``
        names the day in an error (the option or argument the user gave it as)."""
        try:
            day = check_day(as_of, what=what)
        except RulediffError as e:
            raise ArchiveError(e.message, source=str(self.path)) from None
        vs = [v for v in self.versions() if v.in_force_from <= day]
        if not vs:
            raise ArchiveError(f"no archived version in force on {day}", source=str(self.path))
        return max(vs, key=lambda v: (v.in_force_from, v.sort_date, v.seq))

    def raw(self, ref: str) -> bytes:
        v = self.resolve(ref)
        (blob,) = self.db.execute("SELECT raw FROM raws WHERE version_id = ?", (v.id,)).fetchone()
        return unzip(blob, "a release file")

    # -- documents ------------------------------------------------------------------------------

    def document(self, ref: str | int) -> Document:
        vid = ref if isinstance(ref, int) else self.resolve(ref).id
        if vid in self._docs:
            return self._docs[vid]
        doc = self._load_document(vid)
        self._docs[vid] = doc
        return doc

    def _load_document(
        self, vid: int, where: str = "", args: tuple[object, ...] = (), glossary: bool = True
    ) -> Document:
        """Rebuild version ``vid`` from its rows; ``where`` narrows the rules (an SQL condition on ``r``)."""
        self._write_rules(vid)
        row = self.db.execute(
            "SELECT label, effective_date, era, format, sha256, source, extra, rule_count FROM versions WHERE id = ?",
            (vid,),
        ).fetchone()
        if row is None:
            raise ArchiveError(f"no archived version #{vid}", source=str(self.path))
        label, eff, era, fmt, sha, source, extra, count = row
        rules = self.db.execute(
            "SELECT r.number, b.title, b.text, b.norm, b.examples, r.line, b.category, b.notes, r.anchor, b.digest"
            f" FROM rules r JOIN bodies b ON b.id = r.body_id WHERE r.version_id = ?{where} ORDER BY r.pos",
            (vid, *args),
        ).fetchall()
        if not where and len(rules) != count:
            # Alignments stored with it name its rules by position: read short, they would name others.
            raise missing_rules(label, len(rules), count)
        terms = (
            self.db.execute(
                "SELECT term, text, line, senses, norm FROM glossary WHERE version_id = ? ORDER BY pos", (vid,)
            ).fetchall()
            if glossary
            else []
        )
        return document_from_parts(
            {"label": label, "effective_date": eff, "era": era, "format": fmt, "sha256": sha, "source": source},
            rules,
            terms,
            read_json(extra, "a version"),
        )

    def check_rule_counts(self) -> None:
        """Every version holds the rule rows it was stored with, or DamagedArchiveError: for the readers of rule
        rows by lineage or text (history, search), which load no whole version (``_load_document`` checks
        those). A scan of the rules' key, some 20 ms over the whole corpus."""
        if self._unwritten:
            return  # inside an add, rows of its versions wait to be written
        short = self.db.execute(
            "SELECT label, rule_count, n FROM (SELECT v.label, v.rule_count,"
            " (SELECT count(*) FROM rules r WHERE r.version_id = v.id) AS n FROM versions v) WHERE n != rule_count"
            " LIMIT 1"
        ).fetchone()
        if short is not None:
            raise missing_rules(short[0], short[2], short[1])

    def coverage(self, vid: int) -> Coverage:
        """A version's coverage, without loading its rules."""
        if vid in self._light_cache:
            return self._light_cache[vid][0]
        (extra,) = self.db.execute("SELECT extra FROM versions WHERE id = ?", (vid,)).fetchone()
        return coverage_of(extra)

    def light(self, vid: int) -> tuple[Coverage, list[RuleKey]]:
        """A version's coverage and (number, title, category) per rule: enough to decide coverage."""
        if vid in self._light_cache:
            return self._light_cache[vid]
        if vid in self._docs:
            doc = self._docs[vid]
            self._light_cache[vid] = (doc.coverage, [(r.number, r.title, r.category) for r in doc.rules])
            return self._light_cache[vid]
        self._write_rules(vid)
        rows = self.db.execute(
            "SELECT r.number, b.title, b.category FROM rules r JOIN bodies b ON b.id = r.body_id"
            " WHERE r.version_id = ? ORDER BY r.pos",
            (vid,),
        ).fetchall()
        self._light_cache[vid] = (self.coverage(vid), [(RuleNumber.parse(n) if n else None, t, c) for n, t, c in rows])
        return self._light_cache[vid]
