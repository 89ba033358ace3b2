"""The cyclic garbage collector held off while a document or an alignment is built.

Parsing a release makes tens of thousands of objects (rules, numbers, their tuples) and aligning two makes as
many (pairs, changes); almost none of them form cycles, and all of them outlive the call. With the default
thresholds the collector walks the young ones every 700 new containers -- some seventy times in one
consecutive pair, about a tenth of its time -- and frees next to nothing. It is paused for the call and
resumed after it (left alone when the caller had switched it off), so the little cyclic garbage a call
makes is collected at the next collection after it, as it would have been anyway.

The switch is the process's, not the thread's, so the pauses are counted: the first call in turns the
collector off, the last one out turns it back on (when it was on as the first came in), and calls in several
threads overlap without one turning it on under another. A caller who switches it off while a call of
another thread is under way cannot be told from the pause: it finds it on again when the last call ends."""

from __future__ import annotations

import gc
import threading
from collections.abc import Iterator
from contextlib import contextmanager

_lock = threading.Lock()
_calls = 0  # calls under way
_resume = False  # was the collector on when the first of them came in?


@contextmanager
def paused() -> Iterator[None]:
    """Run the block with the cyclic collector off; it is back on after the last block under way ends, if it
    was on before the first began (see the module's note on threads)."""
    global _calls, _resume
    with _lock:
        if _calls == 0:
            _resume = gc.isenabled()
            gc.disable()
        _calls += 1
    try:
        yield
    finally:
        with _lock:
            _calls -= 1
            if _calls == 0 and _resume:
                gc.enable()
