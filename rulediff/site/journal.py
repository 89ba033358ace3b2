"""The site folder's lock and journal: one build at a time, and what a build that was stopped left half-written."""

from __future__ import annotations

import contextlib
import errno
import fcntl
import os
import re
import stat
import time
from collections.abc import Callable
from pathlib import Path, PurePosixPath

from ..errors import OutputError
from ..support.safe_write import TEMP_NAME

# A build notes a few thousand names at most; a journal longer than this was planted or damaged.
JOURNAL_MOST = 64 << 20
# The writer's own record of the pages it wrote and what each was made from.
STAMP = ".rulediff-site.json"
# The pages a build is about to write, one name a line, written before each page is. A build holds a lock on
# it while it runs (the next one waits), and empties it once its stamp is saved: what a build killed midway
# (kill -9, a full disk, Ctrl-C) left in it are the pages its stamp cannot vouch for.
JOURNAL = ".rulediff-site.journal"
# How long a build waits for another one writing the same site to end.
LOCK_WAIT = 600.0


# A path of plain names, none of them "." or ".." (none starts with a dot): inside the site as it is written.
_PLAIN = re.compile(r"[A-Za-z0-9_-][A-Za-z0-9_.-]*(?:/[A-Za-z0-9_-][A-Za-z0-9_.-]*)*")


def safe_relative(rel: object) -> str | None:
    """``rel`` as a path inside the site ("diff/a--b.html"), or None when it could lead outside it: absolute,
    '..', backslashes, drive letters, empty parts, control characters."""
    if not isinstance(rel, str) or not rel or len(rel) > 255:
        return None
    if _PLAIN.fullmatch(rel):  # (every name the writer makes: asked of each page a stamp lists, at C speed)
        return rel
    if "\\" in rel or ":" in rel or any(ord(c) < 32 for c in rel):
        return None
    parts = PurePosixPath(rel).parts
    if rel.startswith("/") or not parts or any(p in ("..", ".", "") for p in parts):
        return None
    return "/".join(parts) if "/".join(parts) == rel else None


# What the writer writes, and so all it may ever replace or remove: its pages and data by folder and suffix, and
# its files at the top. A name a planted stamp or journal lists that is none of these is left alone.
_OWN_FOLDERS = {"diff", "rules", "glossary", "api", "cr", "compare"}
_OWN_SUFFIXES = {".html", ".json", ".js", ".css", ".xml"}
_OWN_FILES = {"cr/diff_match_patch.LICENSE.txt"}  # the vendored script's licence, beside it
_OWN_TOP = {"index.html", "search.html", "search-index.js", "site.css", "feed.xml", "compare.html", "history.js"}


def writer_path(rel: str) -> bool:
    """Is ``rel`` (a clean relative path) a name the site's writer produces?"""
    if "/" not in rel:
        return rel in _OWN_TOP
    top = rel.split("/", 1)[0]
    return rel in _OWN_FILES or (top in _OWN_FOLDERS and PurePosixPath(rel).suffix in _OWN_SUFFIXES)


def note_digest(root: Path, rel: str, digest: str) -> None:
    """In a worker of the build that holds the journal: note that ``rel`` is about to hold the bytes of
    ``digest`` (appended whole: the build's process appends to the same journal)."""
    fd = os.open(root / JOURNAL, os.O_WRONLY | os.O_APPEND | os.O_NOFOLLOW)
    try:
        os.write(fd, f"{rel}\t{digest}\n".encode())
    finally:
        os.close(fd)


def open_journal(
    root: Path, on_wait: Callable[[], None] | None = None
) -> tuple[int | None, bool, dict[str, set[str]] | None]:
    """The site's journal, opened and locked (waiting up to LOCK_WAIT for a build that holds it), whether
    this process may write it, and the pages it names, each with the digests of the bytes a build noted it
    was about to write there: a build before this one stopped before its end (None: more than any build
    notes, so every page is made again). A site whose folder is read-only has none
    (nothing can be written there); a journal this user may only read is locked and read, and a build that
    then has a page to write says it cannot write the journal; a symlink, folder or other file planted at
    its name is refused. Where the file system has no locks, a build goes on without one."""
    path = root / JOURNAL
    planted = "not a plain file of the site; refusing to write through it"
    writable = True
    try:
        fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_APPEND | os.O_NOFOLLOW | os.O_NONBLOCK, 0o666)
    except OSError as e:
        if e.errno in (errno.ELOOP, errno.EISDIR):
            raise OutputError(planted, source=str(path)) from None
        if e.errno == errno.EROFS:
            return None, False, {}  # a read-only file system: nothing can be written there
        if e.errno not in (errno.EACCES, errno.EPERM):
            raise OutputError(f"cannot write: {e.strerror}", source=str(path)) from None
        # Not ours to write: a journal another user's build made, or a folder this user may not write in.
        writable = False
        try:
            fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
        except FileNotFoundError:
            return None, False, {}  # a read-only folder and no journal: nothing can be written there
        except OSError as e2:
            if e2.errno in (errno.ELOOP, errno.EISDIR):
                raise OutputError(planted, source=str(path)) from None
            raise OutputError(f"cannot read: {e2.strerror}", source=str(path)) from None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise OutputError(planted, source=str(path))
        lock_folder(fd, root, on_wait)
        chunks: list[bytes] = []
        size = 0
        while size <= JOURNAL_MOST and (chunk := os.pread(fd, 1 << 20, size)):
            chunks.append(chunk)
            size += len(chunk)
    except BaseException:
        os.close(fd)
        raise
    if size > JOURNAL_MOST:
        return fd, writable, None
    left: dict[str, set[str]] = {}
    for line in b"".join(chunks).decode("utf-8", "replace").split("\n"):
        rel, _, digest = line.partition("\t")
        if safe_relative(rel) == rel and rel not in (STAMP, JOURNAL):
            noted = left.setdefault(rel, set())
            if digest:
                noted.add(digest)
    return fd, writable, left


def lock_folder(fd: int, root: Path, on_wait: Callable[[], None] | None = None) -> None:
    """Lock the journal ``fd`` for this build, waiting up to LOCK_WAIT for another build of ``root`` (and
    calling ``on_wait`` once when that has taken a second)."""
    start = time.monotonic()
    deadline = start + LOCK_WAIT
    told = on_wait is None
    while True:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return
        except BlockingIOError:
            if not told and time.monotonic() > start + 1:
                told = True
                assert on_wait is not None
                on_wait()
            if time.monotonic() > deadline:
                raise OutputError(
                    f"another build has been writing this site for {LOCK_WAIT:.0f} s; try again when it ends",
                    source=str(root),
                ) from None
            time.sleep(0.05)
        except OSError as e:
            if e.errno in (errno.ENOLCK, errno.EOPNOTSUPP, errno.EINVAL, errno.ENOSYS):
                return  # a file system without locks (NFS with no lock daemon): built as before there were any
            raise


def remove_temp_files(root: Path, rels: list[str]) -> None:
    """Remove the temp files a build that stopped midway left beside the pages ``rels`` (plain files only)."""
    wanted: dict[str, set[str]] = {}
    for rel in rels:
        folder, _, name = rel.rpartition("/")
        wanted.setdefault(folder, set()).add(name)
    for folder, names in wanted.items():
        where = root / folder if folder else root
        try:
            entries = list(os.scandir(where))
        except OSError:
            continue  # a folder gone (or never made): nothing of ours in it
        for entry in entries:
            m = TEMP_NAME.fullmatch(entry.name)
            if m and m["name"] in names and entry.is_file(follow_symlinks=False):
                with contextlib.suppress(FileNotFoundError):
                    os.unlink(entry.path)
