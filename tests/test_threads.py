"""Alignments in several threads at once (a web service, a notebook's executor): no error, and each answer is
the one the same alignment gives alone. The matcher's caches are shared between threads."""

from __future__ import annotations

import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from rulediff import align, parse
from rulediff.render.diff_json import to_json

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
    from rulediff.matcher.sides import prepared
    from rulediff.matcher.terms import release as _release
    from rulediff.model import Document, Rule, VersionInfo

    # Twice as many (one-rule, so quickly prepared) documents as the caches keep: a thread may evict the
    # entry another one just found, between its finding and its using it. Each document's answer is its own.
    docs = [Document(VersionInfo(str(k), None, "", "txt", ""), (Rule.make(None, f"text {k}", 1),)) for k in range(8)]

    def hammer(k: int) -> None:
        for n in range(20_000):
            j = (n * (k + 1)) % len(docs)
            if cache == "sides":
                assert prepared(docs[j]).doc is docs[j]
            else:
                assert _release(docs[j]).text.split("\n")[0] == f"text {j}"

    with ThreadPoolExecutor(6) as pool:
        list(pool.map(hammer, range(6)))


def test_a_sides_lazy_maps_are_whole_when_another_thread_reads_them(switching_often) -> None:  # type: ignore[no-untyped-def]
    from rulediff.matcher.sides import Side

    doc = parse(str(SEEDS[0]))
    numbered = [i for i, r in enumerate(doc.rules) if r.number is not None]
    alone = Side(doc)
    expected = {i: alone.siblings(i) for i in numbered}
    for _ in range(30):
        side = Side(doc)  # fresh: its maps are made by whichever thread asks first
        # Each thread asks for a quarter of the rules, so all four ask before the first map is made.
        with ThreadPoolExecutor(4) as pool:
            got = pool.map(lambda part, side=side: [side.siblings(i) for i in part], [numbered[k::4] for k in range(4)])
            answers = {i: g for k, part in enumerate(got) for i, g in zip(numbered[k::4], part, strict=True)}
        assert answers == expected
