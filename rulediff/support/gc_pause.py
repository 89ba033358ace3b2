"""The cyclic garbage collector held off while a document or an alignment is built."""

# The cyclic garbage collector held off while a document or an alignment is built.
#
# Parsing a release makes tens of thousands of objects (rules, numbers, their tuples) and aligning two makes as many
# (pairs, changes); almost none of them form cycles, and all of them outlive the call. With the default thresholds
# the collector walks the young ones every 700 new containers -- some seventy times in one consecutive pair, about a
# tenth of its time -- and frees next to nothing. It is paused for the call and resumed after it (left alone when
# the caller had switched it off). On resuming, what the call made is moved to the oldest generation unseen
# (``_promote``): otherwise the collector walked it all at the first allocation after the call, and again with each
# older generation. What the caller made before the call is not moved so: the call begins with a collection of the
# young generations (``_age_callers``), which frees the caller's cyclic garbage and ages the rest as the collector
# itself would, so its count of old objects, which decides when a full collection is due, stays the caller's.
# (Moving the caller's young objects unseen too made full collections stop: a caller's cycles made between calls
# were never freed, 300 MiB after 1,500 calls.) The little cyclic garbage a call itself may make (none was found in
# the 84 pairs 2013 -> 2026) waits for the next full collection.
#
# The switch is the process's, not the thread's, so the pauses are counted: the first call in turns the collector
# off, the last one out turns it back on (when it was on as the first came in), and calls in several threads overlap
# without one turning it on under another. A caller who switches it off while a call of another thread is under way
# cannot be told from the pause: it finds it on again when the last call ends.

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
    if _calls == 0:  # (read without the lock: a collection runs finalizers, which may call in here)
        _age_callers()
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


def _age_callers() -> None:
    """Collect the young and middle generations, as the collector would at the caller's next allocations, before
    a call whose objects ``_promote`` will move unseen: what the caller made till now is walked once, its
    garbage freed, and the rest counted as old, as the collector counts it. Not when the collector is off or
    something is frozen (then nothing is promoted). Cheap: since the last call, only the caller's objects
    are young."""
    if gc.isenabled() and gc.get_freeze_count() == 0:
        gc.collect(1)


def _promote() -> None:
    """Move every object the collector tracks into its oldest generation, without looking at one (freeze, then
    unfreeze, each a splice of its lists), and start the young generation's count afresh. Not when something
    is frozen already: unfreezing would undo a caller's own freeze (before forking workers, say). Without it, the
    tens of thousands of objects the call made were the young generation: the first allocation after the
    call walked them all, and every tenth walked them again with the middle one, landing on whichever call
    came next, and not one object found to free (the whole walk frees none: documents and alignments hold no
    cycles).
    What is old is walked only by the full collections, which the collector makes more rarely, as it would
    of these objects once they had lived through two younger ones."""
    if gc.get_freeze_count() == 0:
        gc.freeze()
        gc.unfreeze()
