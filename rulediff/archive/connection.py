"""Opening the archive's SQLite file: connection settings and the write-ahead log."""

# Opening the archive's SQLite file: the connection's settings, the write-ahead log where the file system allows it,
# and a log no reader may have missed.

from __future__ import annotations

import contextlib
import sqlite3
from pathlib import Path

from ..errors import ArchiveBusyError, ArchiveError
from .schema import judge
from .store import environment_error

# Seconds a command waits for another process to release the archive before it says the archive is busy.
BUSY_WAIT = 30.0


def use_wal(db: sqlite3.Connection) -> None:
    """Write-ahead logging: readers keep one snapshot while a writer works, and a killed writer leaves a log
    the next opener replays or discards. A read-only archive keeps its mode; it is only read.

    Under WAL, synchronous=NORMAL syncs the log at checkpoints instead of at every commit: a commit is in the
    operating system's hands when COMMIT returns, so a killed process (kill -9, a crash) loses nothing it
    committed and never leaves the file locked; only a power cut may lose the last commits, and even then
    the archive stays consistent. Every add is a commit, so syncing each cost seconds over a corpus."""
    with contextlib.suppress(sqlite3.OperationalError):
        (mode,) = db.execute("PRAGMA journal_mode = WAL").fetchone()
        if str(mode).lower() == "wal":
            db.execute("PRAGMA synchronous = NORMAL")


def connect(p: Path) -> tuple[sqlite3.Connection, bool]:
    """A connection to ``p`` and whether the file is ours (judged after any crash recovery)."""
    src = str(p)
    # Always a URI made from the absolute path: SQLite built to read URIs takes a plain name that starts
    # with "file:" as one ("file:x.sqlite" opened x.sqlite), and reads ":memory:" as no file at all. A URI
    # made by Path.as_uri escapes '#', '?' and '%', so every character of the name stays part of it.
    at = p.absolute().as_uri()
    try:
        db = sqlite3.connect(at, isolation_level=None, timeout=BUSY_WAIT, uri=True)
    except sqlite3.Error as e:
        raise ArchiveError(f"cannot open the archive: {environment_error(e)}", source=src) from None
    try:
        return db, judge(db, p)
    except ArchiveBusyError:
        db.close()
        raise  # another process holds it: the file as it stands may lack its commits or hold its unfinished work
    except ArchiveError as first:
        db.close()
        if not p.exists():
            raise
        # A full disk, a read-only folder or file system leaves no room for the log's shared index: read alone,
        # with the index in memory (exclusive locking); else read the file as it stands (immutable), which
        # nobody can be writing then -- unless its log holds commits the file lacks. Path.as_uri() escapes
        # '#', '?' and '%'.
        for uri, pragma in ((at, "PRAGMA locking_mode = EXCLUSIVE"), (at + "?immutable=1", "")):
            if not pragma:
                no_unread_log(p)
            db = sqlite3.connect(uri, isolation_level=None, timeout=BUSY_WAIT, uri=True)
            try:
                if pragma:
                    db.execute(pragma)
                return db, judge(db, p)
            except ArchiveBusyError:
                db.close()
                raise
            except (ArchiveError, sqlite3.Error):
                db.close()
        raise first from None


def no_unread_log(p: Path) -> None:
    """Refuse to read ``p`` as it stands when its write-ahead log holds something: commits a process made
    and no checkpoint may have copied into the file yet, which cannot be read where the log's index cannot be
    made (a read-only file system or folder)."""
    log = Path(f"{p}-wal")
    try:
        size = log.stat().st_size
    except OSError:
        return
    if size:
        raise ArchiveError(
            f"its last changes are in {log.name}, which cannot be read where the archive cannot be written; "
            "copy both files to a writable folder and open the copy",
            source=str(p),
        )
