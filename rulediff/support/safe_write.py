"""Writing outputs safely: never over a file unasked, never half-written."""

# Write outputs safely: the target's folder must exist, an existing file is replaced only when asked, and the bytes
# land atomically (written beside the target, then renamed), so no half-written file remains.

from __future__ import annotations

import errno
import os
import re
import secrets
import stat
import time
from collections.abc import Iterable, Iterator
from pathlib import Path

from ..errors import OutputError
from .sqlite_magic import APPLICATION_ID, APPLICATION_ID_AT, SQLITE_MAGIC

try:
    import fcntl
except ImportError:  # no flock on this system: temp files are not locked, and leftovers are never removed
    fcntl = None  # type: ignore[assignment]


def check_target(path: str | os.PathLike[str], force: bool) -> Path:
    p = Path(path)
    if p.is_dir():
        raise OutputError("is a directory; expected an output file name", source=str(p))
    parent = p.parent if str(p.parent) else Path(".")
    if not parent.is_dir():
        raise OutputError(f"folder {str(parent)!r} does not exist", source=str(p))
    if p.exists() and not p.is_symlink() and not p.is_file():
        raise OutputError("is a device, FIFO or socket, not a file; refusing to replace it", source=str(p))
    if (p.exists() or p.is_symlink()) and not force:
        raise OutputError("already exists; use --force to replace it", source=str(p))
    why = _stored_data(p)
    if why:
        raise OutputError(f"{why}; refusing to replace it, even with --force", source=str(p))
    return p


_ARCHIVE_ID = APPLICATION_ID.to_bytes(4, "big")
# The files SQLite keeps beside a database: its write-ahead log and its index, or its rollback journal.
_COMPANIONS = ("-wal", "-shm", "-journal")


def _stored_data(p: Path) -> str:
    """What ``p`` is, if it is an SQLite database or one of the files SQLite keeps beside one: no output replaces
    those, whatever the user forces (``diff -o rulediff.sqlite --force`` mistyped lost every version archived).
    Any database, not only one whose header says it is an archive: an archive's first changes, made in its
    write-ahead log, reach the header only at a checkpoint. "" for anything else."""
    head = _head(p)
    if head.startswith(SQLITE_MAGIC):
        return "is a rulediff archive" if head[APPLICATION_ID_AT:] == _ARCHIVE_ID else "is an SQLite database"
    name = str(p)
    for suffix in _COMPANIONS:
        if name.endswith(suffix) and _head(Path(name[: -len(suffix)])).startswith(SQLITE_MAGIC):
            return f"is part of the SQLite database {name[: -len(suffix)]} (its {suffix[1:]} file)"
    return ""


def _head(p: Path) -> bytes:
    """The first bytes of the regular file ``p`` (followed through symlinks); b"" for anything else."""
    try:
        if not p.is_file():  # (a FIFO behind a symlink is never opened: that would wait for a writer)
            return b""
        with open(p, "rb") as fh:
            return fh.read(APPLICATION_ID_AT + 4)
    except OSError:
        return b""  # not there, or not readable: whatever replacing it finds is said then


def write_atomic(path: str | os.PathLike[str], data: str | bytes | Iterable[str], *, force: bool = False) -> Path:
    """Write ``data`` to ``path`` all at once or not at all. ``data`` may be pieces of text made as they are
    written (a whole archive's export): an error raised while making them leaves the target as it was.

    The temp file is locked while it is written. A writer killed meanwhile (kill -9, the OOM killer, a machine
    that stops) leaves it behind, unlocked: the next write of the same target removes it."""
    p = check_target(path, force)
    chunks: Iterable[bytes] = (
        [data.encode("utf-8")] if isinstance(data, str) else [data] if isinstance(data, bytes) else _encoded(data)
    )
    _remove_leftovers(p)
    try:
        fd, tmp = _fresh_locked(p)
    except OSError as e:
        raise OutputError(f"cannot write: {e.strerror}", source=str(p)) from None
    try:
        # The file stays open, and locked, until it has its name.
        with os.fdopen(fd, "wb", closefd=False) as fh:
            for chunk in chunks:
                fh.write(chunk)
            fh.flush()
            os.fsync(fd)
        if p.is_file():  # a file replaced keeps its mode; a new one has a plain open()'s
            os.chmod(tmp, p.stat().st_mode & 0o777)
        os.replace(tmp, p)
    except BaseException as e:
        Path(tmp).unlink(missing_ok=True)
        if isinstance(e, OSError):  # disk full, quota, I/O: one line naming the file, nothing left behind
            raise OutputError(f"cannot write: {e.strerror}", source=str(p)) from None
        raise
    finally:
        os.close(fd)
    return p


def _encoded(pieces: Iterable[str]) -> Iterator[bytes]:
    for piece in pieces:
        yield piece.encode("utf-8")


def _lock(fd: int) -> bool:
    """Lock the temp file open as ``fd`` (an exclusive flock) without waiting; False when it is locked by
    another process or the file system has no locks."""
    if fcntl is None:
        return False
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        return False
    return True


def _fresh_locked(target: Path) -> tuple[int, str]:
    """A new temp file beside ``target`` (fresh_file_beside), locked, and still at its name: a writer stopped
    for longer than LEFTOVER_AGE between making and locking it (Ctrl-Z, a suspended machine) may find it
    removed as a leftover by another writer; it then takes a new one."""
    for _ in range(100):
        fd, tmp = fresh_file_beside(target)
        try:
            _lock(fd)
            try:
                if os.stat(tmp, follow_symlinks=False).st_ino == os.fstat(fd).st_ino:
                    return fd, tmp
            except FileNotFoundError:
                pass
        except BaseException:
            os.close(fd)
            raise
        os.close(fd)
    raise FileExistsError(errno.EEXIST, "temp files removed as fast as they are made", str(target))


# A temp file younger than this is never taken for a leftover: its writer may not have locked it yet.
LEFTOVER_AGE = 10.0  # seconds


def _remove_leftovers(target: Path) -> None:
    """Remove the temp files of ``target`` that writers killed while writing left behind: regular files of
    fresh_file_beside's names for it, older than LEFTOVER_AGE, that no process holds locked. Nothing else in
    the folder is touched, and what cannot be looked at is left as it is."""
    folder = target.parent if str(target.parent) else Path(".")
    prefix = f".{target.name}."
    if fcntl is None:
        return
    try:
        with os.scandir(folder) as it:
            # A regular file by the folder's own listing, before it is opened: opening a FIFO would wake
            # whoever waits to write to it.
            entries = [e for e in it if e.name.startswith(prefix) and _is_plain_file(e)]
    except OSError:
        return
    now = time.time()
    for e in entries:
        m = TEMP_NAME.fullmatch(e.name)
        if m is None or m["name"] != target.name:
            continue
        try:
            # Open for writing: on NFS, an exclusive flock needs it.
            fd = os.open(e.path, os.O_RDWR | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
        except OSError:
            continue  # a symlink or anything else that is not ours, or gone
        try:
            st = os.fstat(fd)
            if (
                stat.S_ISREG(st.st_mode)
                and now - st.st_mtime > LEFTOVER_AGE
                and _lock(fd)
                and os.stat(e.path, follow_symlinks=False).st_ino == st.st_ino
            ):
                os.unlink(e.path)
        except OSError:
            pass
        finally:
            os.close(fd)


def _is_plain_file(e: os.DirEntry[str]) -> bool:
    try:
        return e.is_file(follow_symlinks=False)
    except OSError:
        return False


NEW_FILE = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC
# The name of the temp file fresh_file_beside makes for a target named NAME: ".NAME.<12 hex digits>.part".
TEMP_NAME = re.compile(r"\.(?P<name>.+)\.[0-9a-f]{12}\.part", re.DOTALL)


def fresh_file_beside(target: Path) -> tuple[int, str]:
    """A new temp file beside ``target`` at a name no one else has (O_EXCL): two writers never share a temp
    file, and a planted file or symlink at a guessable name is never written through. Made with the mode a
    plain open() gives (0o666 less the umask, which the system applies): mkstemp's private file needed a
    chmod after, and reading the umask means setting it, for the whole process, if only for a moment."""
    for _ in range(100):
        tmp = os.path.join(target.parent, f".{target.name}.{secrets.token_hex(6)}.part")
        try:
            return os.open(tmp, NEW_FILE, 0o666), tmp
        except FileExistsError:
            continue
    raise FileExistsError(errno.EEXIST, "no free temporary name", str(target))
