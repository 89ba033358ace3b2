"""A piece of text made in a copy of this process (os.fork) while this one goes on."""

# A piece of text made in a copy of this process (``os.fork``) while this one goes on with other work: the command
# line's second core for the halves of a long output (report.iter_json).
#
# The copy shares what this process has made (an alignment of two releases) without sending it anywhere, and sends
# back its text through a pipe, after its length in bytes: a copy that fails, is killed or sends less than it said
# makes :meth:`Helper.text` answer None, and the caller makes the text itself. The copy leaves without a word (no
# traceback, none of this process's buffered output written twice, no exit handlers); holds none of this process's
# files but its pipe (a locked temp file stays this process's alone; its standard input, output and error are
# /dev/null); takes Ctrl-C and SIGTERM as their defaults do, unless this process ignores them (then it does too);
# and exits as soon as this process is gone (``kill -9``). Ctrl-C and SIGTERM are held back while the copy is made,
# so one landing then is taken by each process only once it has its own dispositions: before, one landing in the
# copy's first instant ran this process's clean-up there (a temp file removed under it).
#
# Where there is no fork (Windows), fork fails (no memory, too many processes), or children are reaped by the system
# (SIGCHLD ignored, as a parent process may leave it across exec: no exit status to read, and a process id that may
# be another's by the time it is ended), :func:`start` answers None.

from __future__ import annotations

import codecs
import contextlib
import os
import signal
from collections.abc import Callable, Iterable, Iterator

from .processes import HELD, watch_parent

_HEADER = 8  # bytes: the length of the text in bytes, big-endian, before it
_READ = 1 << 20


class Helper:
    """A copy of this process making a text; :meth:`text` waits for it."""

    __slots__ = ("pid", "fd")

    def __init__(self, pid: int, fd: int) -> None:
        self.pid, self.fd = pid, fd

    def text(self) -> Iterator[str] | None:
        """The text the copy made, in pieces, once it has all come and the copy has ended well; None when it
        made none (it failed, was killed, or sent part of it). What came is held as the bytes sent (a piece of
        text is decoded from them as it is asked for)."""
        if self.fd < 0:
            return None
        try:
            parts = []
            while part := os.read(self.fd, _READ):
                parts.append(part)
        except BaseException:
            self.stop()  # Ctrl-C or an error here: the copy goes too
            raise
        os.close(self.fd)
        self.fd = -1
        _, status = os.waitpid(self.pid, 0)
        if os.waitstatus_to_exitcode(status) != 0:
            return None
        head = b"".join(parts[:2])[:_HEADER]  # (the first read may hold fewer than _HEADER bytes)
        if len(head) < _HEADER or int.from_bytes(head, "big") != sum(map(len, parts)) - _HEADER:
            return None
        return _decoded(parts)

    def stop(self) -> None:
        """End the copy without waiting for its text."""
        if self.fd < 0:
            return
        with contextlib.suppress(OSError):
            os.kill(self.pid, signal.SIGKILL)
        with contextlib.suppress(OSError):
            os.close(self.fd)
        self.fd = -1
        with contextlib.suppress(OSError):
            os.waitpid(self.pid, 0)


def _decoded(parts: list[bytes]) -> Iterator[str]:
    """The text of ``parts`` (the header first), decoded piece by piece, each part let go once read."""
    parts.reverse()
    decoder = codecs.getincrementaldecoder("utf-8")()
    skip = _HEADER
    while parts:
        part = parts.pop()
        if skip:
            part, skip = part[skip:], max(0, skip - len(part))
        if piece := decoder.decode(part):
            yield piece
    if tail := decoder.decode(b"", final=True):  # pragma: no cover - the copy sends whole characters
        yield tail


def start(make: Callable[[], Iterable[str]]) -> Helper | None:
    """``make()``'s pieces of text, joined, in a copy of this process; None when no copy can be made. For a
    process with no other thread at work (the command line): a copy has only the thread that made it."""
    if not hasattr(os, "fork") or signal.getsignal(signal.SIGCHLD) == signal.SIG_IGN:  # pragma: no cover
        return None
    parent = os.getpid()
    ignored = {s for s in HELD if signal.getsignal(s) == signal.SIG_IGN}
    try:
        r, w = os.pipe()
    except OSError:
        return None
    held = signal.pthread_sigmask(signal.SIG_BLOCK, HELD)
    try:
        pid = os.fork()
    except OSError:
        signal.pthread_sigmask(signal.SIG_SETMASK, held)
        os.close(r)
        os.close(w)
        return None
    if pid == 0:  # pragma: no cover - the copy (its coverage is not collected: it leaves by os._exit)
        _in_copy(make, parent, r, w, held, ignored)
    helper = Helper(pid, r)
    try:
        os.close(w)
        signal.pthread_sigmask(signal.SIG_SETMASK, held)  # a signal held meanwhile is taken now
    except BaseException:
        helper.stop()  # (Ctrl-C taken as it was let through: the copy goes too)
        raise
    return helper


def _in_copy(
    make: Callable[[], Iterable[str]],
    parent: int,
    r: int,
    w: int,
    held: set[int | signal.Signals],
    ignored: set[signal.Signals],
) -> None:  # pragma: no cover - in the copy
    code = 1
    try:
        for s in HELD:
            signal.signal(s, signal.SIG_IGN if s in ignored else signal.SIG_DFL)
        signal.pthread_sigmask(signal.SIG_SETMASK, held)
        os.close(r)
        if w < 3:  # (this process had standard streams closed: the pipe took one of their numbers)
            w = _moved_up(w)
        os.closerange(3, w)
        os.closerange(w + 1, _most_files())
        null = os.open(os.devnull, os.O_RDWR)
        for fd in (0, 1, 2):
            if fd != null:
                os.dup2(null, fd)
        if null > 2:
            os.close(null)
        watch_parent(parent)
        parts = [piece.encode("utf-8") for piece in make()]
        _write_all(w, sum(map(len, parts)).to_bytes(_HEADER, "big"))
        for part in parts:
            _write_all(w, part)
        code = 0
    finally:
        os._exit(code)


def _moved_up(fd: int) -> int:  # pragma: no cover - in the copy
    import fcntl

    up = fcntl.fcntl(fd, fcntl.F_DUPFD, 3)
    os.close(fd)
    return up


def _most_files() -> int:  # pragma: no cover - in the copy
    try:
        return max(int(os.sysconf("SC_OPEN_MAX")), 1 << 16)
    except (ValueError, OSError):
        return 1 << 16


def _write_all(fd: int, data: bytes) -> None:  # pragma: no cover - in the copy
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view) :]
