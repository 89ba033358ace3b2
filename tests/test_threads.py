"""Alignments in several threads at once (a web service, a notebook's executor): no error, and each answer is
the one the same alignment gives alone. The matcher's caches are shared between threads."""

from __future__ import annotations

import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from rulediff import align, parse
from rulediff.report import to_json

SEEDS = sorted((Path(__file__).resolve().parent.parent / "corpus").glob("*.txt"))


@pytest.fixture
def switching_often():
    # Threads take turns every microsecond instead of every 5 ms: a check-then-act on a shared cache is
    # interrupted in the middle, as it is now and then under real load.
    was = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    yield
    sys.setswitchinterval(was)


def test_alignments_in_threads_answer_as_alone(switching_often) -> None:  # type: ignore[no-untyped-def]
    docs = [parse(str(p)) for p in SEEDS]
    jobs = [(a, b) for a in range(len(docs)) for b in range(len(docs)) if a != b]
    alone = {(a, b): to_json(align(docs[a], docs[b])) for a, b in jobs}
    # Many more alignments than the caches hold documents, all at once, each pair several times.
    with ThreadPoolExecutor(8) as pool:
        got = list(pool.map(lambda ab: (ab, to_json(align(docs[ab[0]], docs[ab[1]]))), jobs * 3))
    for ab, text in got:
        assert text == alone[ab]


@pytest.mark.parametrize("cache", ["sides", "release texts"])
def test_the_shared_caches_hold_up_under_threads(switching_often, cache: str) -> None:  # type: ignore[no-untyped-def]
    from rulediff.model import Document, VersionInfo
    from rulediff.renames import _release
    from rulediff.sides import prepared

    # Twice as many (empty, so quickly prepared) documents as the caches keep: a thread may evict the entry
    # another one just found, between its finding and its using it.
    docs = [Document(VersionInfo(str(k), None, "", "txt", ""), ()) for k in range(8)]

    def hammer(k: int) -> None:
        for n in range(20_000):
            doc = docs[(n * (k + 1)) % len(docs)]
            if cache == "sides":
                assert prepared(doc).doc is doc
            else:
                assert _release(doc).text == ""

    with ThreadPoolExecutor(6) as pool:
        list(pool.map(hammer, range(6)))
