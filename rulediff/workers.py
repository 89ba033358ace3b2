"""Worker processes that go when the process that started them goes.

A ``concurrent.futures`` worker waits on a queue whose pipe it holds both ends of, so when the process
that started it is killed (``kill -9``, the OOM killer) it never sees the end of its input and sleeps for
ever, holding its memory. Each worker here watches its parent and exits once it is gone."""

from __future__ import annotations

import multiprocessing
import os
import signal
import threading
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any

_WATCH_EVERY = 0.2  # seconds


def pool(workers: int, *, spawn: bool = False) -> ProcessPoolExecutor:
    """A process pool of ``workers`` whose workers exit when this process does. ``spawn``: fresh
    interpreters, not copies of this process (which would count its memory again)."""
    context = multiprocessing.get_context("spawn" if spawn else None)
    return _Pool(max_workers=workers, mp_context=context, initializer=_exit_with, initargs=(os.getpid(),))


class _Pool(ProcessPoolExecutor):
    """Workers start with Ctrl-C ignored (a disposition a new process keeps through exec), so one pressed
    while a worker is still starting up, before its initializer, prints no traceback from it either. The
    pool starts its workers as work is submitted; this process ignores Ctrl-C only for that moment."""

    def submit(self, fn: Any, /, *args: Any, **kwargs: Any) -> Any:
        if threading.current_thread() is not threading.main_thread():
            return super().submit(fn, *args, **kwargs)
        before = signal.signal(signal.SIGINT, signal.SIG_IGN)
        try:
            return super().submit(fn, *args, **kwargs)
        finally:
            signal.signal(signal.SIGINT, before)


def _exit_with(parent: int) -> None:
    """In a worker: leave as soon as ``parent`` is no longer this process's parent (it died, and the
    worker was handed to another), and leave at once, saying nothing, on Ctrl-C: the terminal interrupts
    the whole process group, and the parent says it was interrupted (each worker printed a traceback). What
    a worker was writing is mended as any interrupted write is (a site's journal, an archive's log)."""
    signal.signal(signal.SIGINT, _leave)

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(_WATCH_EVERY)
        os._exit(1)

    threading.Thread(target=watch, name="rulediff-parent-watch", daemon=True).start()


def _leave(signum: int, frame: object) -> None:
    os._exit(128 + signum)
