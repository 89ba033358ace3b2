"""The cyclic garbage collector held off while a document or an alignment is built.

Parsing a release makes tens of thousands of objects (rules, numbers, their tuples) and aligning two makes as
many (pairs, changes); almost none of them form cycles, and all of them outlive the call. With the default
thresholds the collector walks the young ones every 700 new containers -- some seventy times in one
consecutive pair, about a tenth of its time -- and frees next to nothing. It is paused for the call and
resumed after it (left alone when the caller had switched it off), so the little cyclic garbage a call
makes is collected at the next collection after it, as it would have been anyway.

The switch is the process's, not the thread's: with calls in several threads, the first to finish turns the
collector back on while the others still build (they are then only as fast as without the pause), and a caller
who switches it off while a call of another thread is under way finds it on again when that call ends."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def paused() -> Iterator[None]:
    """Run the block with the cyclic collector off; it is back on afterwards if it was on before (see the
    module's note on threads)."""
    if not gc.isenabled():
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.enable()
