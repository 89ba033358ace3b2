"""Worker processes that go when the process that started them goes.

A ``concurrent.futures`` worker waits on a queue whose pipe it holds both ends of, so when the process
that started it is killed (``kill -9``, the OOM killer) it never sees the end of its input and sleeps for
ever, holding its memory. Each worker here watches its parent and exits once it is gone."""

from __future__ import annotations

import multiprocessing
import os
import threading
import time
from concurrent.futures import ProcessPoolExecutor

_WATCH_EVERY = 0.2  # seconds


def pool(workers: int, *, spawn: bool = False) -> ProcessPoolExecutor:
    """A process pool of ``workers`` whose workers exit when this process does. ``spawn``: fresh
    interpreters, not copies of this process (which would count its memory again)."""
    context = multiprocessing.get_context("spawn" if spawn else None)
    return ProcessPoolExecutor(max_workers=workers, mp_context=context, initializer=_exit_with, initargs=(os.getpid(),))


def _exit_with(parent: int) -> None:
    """In a worker: leave as soon as ``parent`` is no longer this process's parent (it died, and the
    worker was handed to another)."""

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(_WATCH_EVERY)
        os._exit(1)

    threading.Thread(target=watch, name="rulediff-parent-watch", daemon=True).start()
