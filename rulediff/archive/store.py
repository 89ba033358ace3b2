"""The archive's connection and what its parts share: transactions, snapshots, rules awaiting lineage."""

# The archive's connection and what its parts share: transactions, snapshots, and the rule rows of a version being
# added, written once with their lineage ids.

from __future__ import annotations

import contextlib
import os
import sqlite3
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

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
        return "no space left on the device while writing the archive; the change under way was undone"
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


class Store:
    """An open connection to an archive file, shared by the archive's parts. ``forget_all`` drops what every
    part keeps in memory (the archive sets it); a transaction that rolls back calls it."""

    def __init__(self, db: sqlite3.Connection, path: Path) -> None:
        self.db = db
        self.path = path
        self.identity = file_identity(path)  # the file opened: workers open it again by path (Archive.open_again)
        # The rules (numbers, lines, anchors, body ids) of a version being added, written with their lineage
        # ids once those are known, or before anything reads that version's rules.
        self.unwritten: dict[int, Unwritten] = {}
        self.forget_all: Callable[[], None] = self.unwritten.clear

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

    def transaction(self) -> _Transaction:
        """All or nothing: an exception (or Ctrl-C) inside rolls everything back; a killed process
        leaves SQLite's journal, which rolls back on the next open."""
        return _Transaction(self)

    def write_rules(self, vid: int | None = None) -> None:
        """Write the waiting rule rows of version ``vid`` (None: of every version), without lineage ids."""
        for v in [vid] if vid is not None else list(self.unwritten):
            columns = self.unwritten.pop(v, None)
            if columns is not None:
                self.db.executemany(
                    "INSERT INTO rules(version_id, pos, number, line, anchor, body_id) VALUES (?,?,?,?,?,?)",
                    rows_of(v, *columns),
                )


class _Transaction:
    def __init__(self, store: Store) -> None:
        self.store = store

    def __enter__(self) -> None:
        self.store.db.execute("BEGIN IMMEDIATE")

    def __exit__(self, exc_type: type[BaseException] | None, *rest: object) -> None:
        if exc_type is None:
            try:
                # Rule rows waiting for their lineage ids (see Adding._store_rules) go in before the commit,
                # whatever the transaction did: none is ever lost to it.
                self.store.write_rules()
                self.store.db.execute("COMMIT")
            except BaseException:
                self._undo()  # a COMMIT that fails (a full disk) rolls back like any error inside
                raise
        else:
            self._undo()

    def _undo(self) -> None:
        # What the memory holds of the transaction (the body ids it gave out, the documents it made) goes
        # with it: kept, the next add would give a rolled-back body's id to a new text, and rules would
        # read another rule's words.
        self.store.forget_all()
        # A failed COMMIT or a full disk may have ended the transaction already.
        if self.store.db.in_transaction:
            self.store.db.execute("ROLLBACK")
