"""The cyclic collector is paused while a document or an alignment is built, and left as the caller had it."""

from __future__ import annotations

import gc
from pathlib import Path

import pytest

from rulediff import align, collector, parse

SEED = Path(__file__).resolve().parent.parent / "corpus"


@pytest.fixture
def collector_on():
    was = gc.isenabled()
    gc.enable()
    yield
    if not was:
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


def test_parse_and_align_leave_it_as_they_found_it(collector_on):
    seeds = sorted(SEED.glob("*.txt"))[:2]
    old, new = parse(str(seeds[0])), parse(str(seeds[1]))
    assert gc.isenabled()
    align(old, new)
    assert gc.isenabled()
    gc.disable()
    align(old, new)
    parse(str(seeds[0]))
    assert not gc.isenabled()
