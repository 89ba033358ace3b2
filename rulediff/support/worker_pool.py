"""Worker processes that go when the process that started them goes."""

# Worker processes that go when the process that started them goes.
#
# A ``concurrent.futures`` worker waits on a queue whose pipe it holds both ends of, so when the process that
# started it is killed (``kill -9``, the OOM killer) it never sees the end of its input and sleeps for ever, holding
# its memory. Each worker here watches its parent and exits once it is gone.

from __future__ import annotations

import contextlib
import multiprocessing
import os
import signal
import threading
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from .processes import HELD, watch_parent


def pool(workers: int, *, spawn: bool = False) -> ProcessPoolExecutor:
    """A process pool of ``workers`` whose workers exit when this process does. ``spawn``: fresh
    interpreters, not copies of this process (which would count its memory again)."""
    context = multiprocessing.get_context("spawn" if spawn else None)
    _quiet_tracker()
    # A process started with Ctrl-C ignored (nohup, '&' in a script) keeps its workers deaf to it too: the
    # terminal's interrupt reaches the whole group, and workers that left on it broke the command.
    deaf = signal.getsignal(signal.SIGINT) == signal.SIG_IGN
    return _Pool(max_workers=workers, mp_context=context, initializer=_exit_with, initargs=(os.getpid(), deaf))


def _quiet_tracker() -> None:
    """Start multiprocessing's resource tracker (which a pool's queues need) with its standard error on
    /dev/null, if it is not running yet: when this process is killed (kill -9), the tracker frees the pool's
    semaphores itself, and its warning of them as "leaked" was noise on the user's terminal."""
    from multiprocessing import resource_tracker

    saved = os.dup(2)
    devnull = os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(devnull, 2)
        resource_tracker.ensure_running()
    finally:
        os.dup2(saved, 2)
        os.close(saved)
        os.close(devnull)


class _Pool(ProcessPoolExecutor):
    """Workers start with Ctrl-C ignored (a disposition a new process keeps through exec), so one pressed
    while a worker is still starting up, before its initializer, prints no traceback from it either. The
    pool starts its workers as work is submitted; this process ignores Ctrl-C only for that moment, and holds
    it blocked meanwhile, so one pressed then is not lost: it is delivered when the moment ends (a blocked
    signal stays pending even while ignored). Before, it was dropped and the command ran to its end. The
    threads the pool starts in that moment keep it blocked, as CPython's own helper processes are started,
    so it goes to the main thread. A worker starts with it blocked too, and unblocks it in its initializer.
    SIGTERM is held in that moment as well: taken in the middle of starting a worker, it left the worker
    without the data it reads first (a traceback of EOFError from the worker, and one not yet known to
    the pool, so not ended with it); held, it ends the command once the worker has what it needs.

    Left by an error or Ctrl-C (``with`` ends with an exception), the pool does not wait for the work under
    way: a worker that was still starting when Ctrl-C came (and so did not take it) went on to finish its
    first job, seconds of rendering, before the command could stop (seconds, on a full site)."""

    def __exit__(self, exc_type: Any, exc: Any, tb: Any) -> bool | None:
        if exc_type is not None:
            self.stop_now()
            return False
        return super().__exit__(exc_type, exc, tb)

    def stop_now(self) -> None:
        """Drop the work not started and end the workers (SIGTERM) without waiting for what they are doing:
        what a worker was writing is mended as any interrupted write is (a site's journal, an archive's log)."""
        for p in list((getattr(self, "_processes", None) or {}).values()):
            with contextlib.suppress(OSError, ValueError):
                p.terminate()
        # The pool sees its workers gone and ends at once, its queues and their semaphores cleaned up as after
        # any end (not waiting for it left them to the resource tracker, which warned of them as leaked).
        self.shutdown(wait=True, cancel_futures=True)

    def submit(self, fn: Any, /, *args: Any, **kwargs: Any) -> Any:
        if threading.current_thread() is not threading.main_thread():
            return super().submit(fn, *args, **kwargs)
        # Those of HELD not blocked already (a query, which changes nothing): blocked inside the try, so that
        # one taken just before cannot leave them blocked.
        held = HELD - signal.pthread_sigmask(signal.SIG_BLOCK, ())
        try:
            signal.pthread_sigmask(signal.SIG_BLOCK, held)
            before = signal.signal(signal.SIGINT, signal.SIG_IGN)
            try:
                return super().submit(fn, *args, **kwargs)
            finally:
                signal.signal(signal.SIGINT, before)
        finally:
            signal.pthread_sigmask(signal.SIG_UNBLOCK, held)


def _exit_with(parent: int, deaf: bool = False) -> None:
    """In a worker: leave as soon as ``parent`` is no longer this process's parent (it died, and the
    worker was handed to another), and leave at once, saying nothing, on Ctrl-C: the terminal interrupts
    the whole process group, and the parent says it was interrupted (each worker printed a traceback). What
    a worker was writing is mended as any interrupted write is (a site's journal, an archive's log)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN if deaf else _leave)
    # A worker forked from a command holds its SIGTERM handler, which raises to clean up as the command does:
    # in a worker that printed a traceback. It leaves at once instead, saying nothing, as on Ctrl-C.
    signal.signal(signal.SIGTERM, _leave)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, HELD)  # (one sent while it started: taken now)
    watch_parent(parent)


def _leave(signum: int, frame: object) -> None:
    os._exit(128 + signum)
