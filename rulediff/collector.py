"""The cyclic garbage collector held off while a document or an alignment is built.

Parsing a release makes tens of thousands of objects (rules, numbers, their tuples) and aligning two makes as
many (pairs, changes); almost none of them form cycles, and all of them outlive the call. With the default
thresholds the collector walks the young ones every 700 new containers -- some seventy times in one
consecutive pair, about a tenth of its time -- and frees next to nothing. It is paused for the call and
resumed after it (left alone when the caller had switched it off). On resuming, what the call made is moved
to the oldest generation unseen (``_promote``): otherwise the collector walked it all at the first allocation
after the call, and again with each older generation. The little cyclic garbage a call may make (none was
found in the 84 pairs 2013 -> 2026) is then collected by the next full collection.

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
                _promote()
                gc.enable()


def _promote() -> None:
    """Move every object the collector tracks into its oldest generation, without looking at one (freeze, then
    unfreeze, each a splice of its lists), and start the young generation's count afresh. Not when something
    is frozen already: unfreezing would undo a caller's own freeze (before forking workers, say). Without it, the
    tens of thousands of objects the call made were the young generation: the first allocation after the
    call walked them all, and every tenth walked them again with the middle one -- 8 % of the 84 pairs
    2013 -> 2026, 0.27 s of 3.3, with collections of up to 30 ms landing on whichever pair came next, and
    not one object found to free (the whole walk frees none: documents and alignments hold no cycles).
    What is old is walked only by the full collections, which the collector makes more rarely, as it would
    of these objects once they had lived through two younger ones."""
    if gc.get_freeze_count() == 0:
        gc.freeze()
        gc.unfreeze()
