"""What the processes rulediff starts share: cores, held signals, and the parent watch."""

# What the processes rulediff starts share: the cores this process may use, the signals held while one is made, and
# the watch that ends one when its parent is gone.

from __future__ import annotations

import os
import signal
import threading
import time

_WATCH_EVERY = 0.2  # seconds


# Held (blocked) while a process is made (a copy of this one, or a worker), until it has its own dispositions.
HELD = frozenset({signal.SIGINT, signal.SIGTERM})


def _cores() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not on Linux
        return os.cpu_count() or 1


# The cores this process may run on: with one, a helper only adds the cost of making it (and the matcher's
# text comparison takes a thread on each, likeness.py).
CORES = max(1, _cores())


def watch_parent(parent: int) -> None:
    """In a copy of this process or a worker: a thread that leaves the process as soon as ``parent`` is no
    longer its parent (it died, ``kill -9``, and the process was handed to another)."""

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(_WATCH_EVERY)
        os._exit(1)

    threading.Thread(target=watch, name="rulediff-parent-watch", daemon=True).start()
