"""A piece of text made in a copy of this process (``os.fork``) while this one goes on with other work: the
command line's second core for the halves of a long output (report.iter_json).

The copy shares what this process has made (an alignment of two releases) without sending it anywhere, and
sends back its text through a pipe, after its length: a copy that fails, is killed or sends less than it said
makes :meth:`Helper.text` answer None, and the caller makes the text itself. The copy leaves without a word
(no traceback, none of this process's buffered output written twice, no exit handlers), closes every file this
process had open but its pipe (a locked temp file stays this process's alone), dies on Ctrl-C as the signal's
default does, and exits as soon as this process is gone (``kill -9``). Where there is no fork (Windows), or
fork fails (no memory, too many processes), :func:`start` answers None."""

from __future__ import annotations

import contextlib
import os
import signal
import threading
import time
from collections.abc import Callable

_WATCH_EVERY = 0.2  # seconds


def _cores() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not on Linux
        return os.cpu_count() or 1


# The cores this process may run on: with one, a helper only adds the cost of making it.
CORES = _cores()
_HEADER = 8  # bytes: the length of the text, big-endian, before it
_READ = 1 << 20


class Helper:
    """A copy of this process making a text; :meth:`text` waits for it."""

    __slots__ = ("pid", "fd")

    def __init__(self, pid: int, fd: int) -> None:
        self.pid, self.fd = pid, fd

    def text(self) -> str | None:
        """The text the copy made, or None when it made none (it failed, was killed, or sent part of it)."""
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
        data = b"".join(parts)
        del parts
        if os.waitstatus_to_exitcode(status) != 0 or len(data) < _HEADER:
            return None
        if int.from_bytes(data[:_HEADER], "big") != len(data) - _HEADER:
            return None
        try:
            return data[_HEADER:].decode("utf-8")
        except UnicodeDecodeError:  # pragma: no cover - the copy encodes what it sends
            return None

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


def start(make: Callable[[], str]) -> Helper | None:
    """``make()`` in a copy of this process; None when no copy can be made. For a process with no other
    thread at work (the command line): a copy has only the thread that made it."""
    if not hasattr(os, "fork"):  # pragma: no cover - not on POSIX
        return None
    parent = os.getpid()
    try:
        r, w = os.pipe()
    except OSError:
        return None
    try:
        pid = os.fork()
    except OSError:
        os.close(r)
        os.close(w)
        return None
    if pid == 0:  # pragma: no cover - the copy (its coverage is not collected: it leaves by os._exit)
        _in_copy(make, parent, r, w)
    os.close(w)
    return Helper(pid, r)


def _in_copy(make: Callable[[], str], parent: int, r: int, w: int) -> None:  # pragma: no cover - in the copy
    code = 1
    try:
        signal.signal(signal.SIGINT, signal.SIG_DFL)
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
        os.close(r)
        os.closerange(3, w)
        os.closerange(w + 1, 1 << 16)
        threading.Thread(target=_watch, args=(parent,), daemon=True).start()
        data = make().encode("utf-8")
        _write_all(w, len(data).to_bytes(_HEADER, "big"))
        _write_all(w, data)
        code = 0
    finally:
        os._exit(code)


def _watch(parent: int) -> None:  # pragma: no cover - in the copy
    while os.getppid() == parent:
        time.sleep(_WATCH_EVERY)
    os._exit(1)


def _write_all(fd: int, data: bytes) -> None:  # pragma: no cover - in the copy
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view) :]
