"""The cyclic collector is paused while a document or an alignment is built, and left as the caller had it."""

from __future__ import annotations

import gc
from pathlib import Path

import pytest

import rulediff.matcher.classify
import rulediff.parsers.official
from rulediff import align, parse
from rulediff.support import gc_pause as collector

SEED = Path(__file__).resolve().parent.parent / "corpus"


@pytest.fixture
def collector_on():
    was = gc.isenabled()
    gc.enable()
    yield
    if was:
        gc.enable()
    else:
        gc.disable()


def test_paused_turns_it_off_and_back_on(collector_on):
    with collector.paused():
        assert not gc.isenabled()
    assert gc.isenabled()


def test_paused_resumes_after_an_error(collector_on):
    with pytest.raises(RuntimeError), collector.paused():
        raise RuntimeError("boom")
    assert gc.isenabled()


def test_a_caller_who_switched_it_off_keeps_it_off(collector_on):
    gc.disable()
    with collector.paused():
        assert not gc.isenabled()
    assert not gc.isenabled()


def test_parse_and_align_build_with_it_off_and_leave_it_as_they_found_it(collector_on, monkeypatch):
    seeds = sorted(SEED.glob("*.txt"))[:2]
    seen: list[bool] = []

    def spy(module, name):  # type: ignore[no-untyped-def]
        real = getattr(module, name)

        def wrapper(*args, **kwargs):  # type: ignore[no-untyped-def]
            seen.append(gc.isenabled())
            return real(*args, **kwargs)

        monkeypatch.setattr(module, name, wrapper)

    spy(rulediff.parsers.official, "document")  # what the official parser builds its Document with
    spy(rulediff.matcher.classify, "_align")
    old, new = parse(str(seeds[0])), parse(str(seeds[1]))
    assert gc.isenabled()
    align(old, new)
    assert gc.isenabled()
    assert seen and not any(seen)
    gc.disable()
    align(old, new)
    parse(str(seeds[0]))
    assert not gc.isenabled()


def test_overlapping_pauses_resume_only_when_the_last_ends(collector_on):
    # Two calls in two threads: the first to finish must not turn the collector on under the other.
    first, second = collector.paused(), collector.paused()
    first.__enter__()
    second.__enter__()
    first.__exit__(None, None, None)
    assert not gc.isenabled()
    second.__exit__(None, None, None)
    assert gc.isenabled()


def test_overlapping_pauses_in_threads_leave_it_as_found(collector_on):
    import threading

    inside = threading.Barrier(4)
    states: list[bool] = []

    def call() -> None:
        with collector.paused():
            inside.wait()  # all four are in
            inside.wait()  # and none has left yet
            states.append(gc.isenabled())

    threads = [threading.Thread(target=call) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert states == [False] * 4
    assert gc.isenabled()


def test_what_a_call_made_is_not_walked_after_it(collector_on):
    """The objects a parse and an alignment make went to the young generation when the collector resumed:
    the first allocation after the call walked them all (and every tenth walked them again), freeing nothing.
    Now they are old, and the young generation starts empty."""
    seeds = sorted(SEED.glob("*.txt"))[:2]
    old, new = parse(str(seeds[0])), parse(str(seeds[1]))
    al = align(old, new)
    assert gc.get_count()[0] < 50
    made = [old.rules[0], new.rules[-1], al.changes[0], al.changes[-1]]
    young = {id(o) for o in gc.get_objects(0) + gc.get_objects(1)}
    assert not any(id(o) in young for o in made)
    assert all(any(o is x for x in gc.get_objects(2)) for o in made)


def test_a_callers_cyclic_garbage_is_freed_without_asking(collector_on):
    """Moving the caller's young objects to the oldest generation unseen as well (the first version of the
    promotion) stopped full collections: the cycles a caller made between calls were never freed (1,499 of
    1,500 alive, 300 MiB). The call now begins by collecting the young generations."""
    import weakref

    class Node:
        pass

    seed = str(sorted(SEED.glob("*.txt"))[0])
    alive = []
    gc.collect()
    for _ in range(60):
        a, b = Node(), Node()
        a.other, b.other = b, a  # type: ignore[attr-defined]
        alive.append(weakref.ref(a))
        del a, b
        parse(seed)
    assert sum(ref() is not None for ref in alive) <= 1  # (the last one, made after the last call began)


def test_a_callers_own_freeze_is_left_as_it_was(collector_on):
    # (a server freezes what it has before forking workers, so they share its pages: unfreezing undid that)
    marker = [object()]

    def in_collectable_generations() -> bool:  # (the frozen are in none of them)
        return any(o is marker for o in gc.get_objects())

    assert in_collectable_generations()
    gc.freeze()
    try:
        align(*(parse(str(p)) for p in sorted(SEED.glob("*.txt"))[:2]))
        assert not in_collectable_generations() and gc.get_freeze_count() > 0
    finally:
        gc.unfreeze()
