"""The history pages' keys: a page is rebuilt when (and only when) what it shows changes."""

from __future__ import annotations

from itertools import pairwise

from hypothesis import given
from hypothesis import strategies as st

from rulediff.site_history import _runs

_entry = st.tuples(st.sampled_from(["702.15", "702.16", None]), st.sampled_from(["Lifelink", None]), st.integers(1, 3))


@st.composite
def plans(draw: st.DrawFn) -> list[tuple[object, ...]]:
    # Release positions strictly rising, with gaps (a rule missing from a release), and what the page shows
    # at each from a small alphabet, so that runs of the same form often.
    gaps = draw(st.lists(st.integers(1, 3), max_size=40))
    shown = draw(st.lists(_entry, min_size=len(gaps), max_size=len(gaps)))
    out, k = [], -1
    for gap, (number, title, body) in zip(gaps, shown, strict=True):
        k += gap
        out.append((k, number, title, body, ((f"{number}a", body),) if number else ()))
    return out


@given(plans())
def test_runs_say_the_whole_plan_and_nothing_else(plan: list[tuple[object, ...]]) -> None:
    runs = _runs(plan)
    back = [(k, *rest) for first, last, *rest in runs for k in range(first, last + 1)]
    assert back == plan  # two plans with one key would be one page for two histories
    # and runs are as long as they can be: no two neighbours could have been one
    assert all(not (b[0] == a[1] + 1 and b[2:] == a[2:]) for a, b in pairwise(runs))


def test_an_unchanged_rule_is_one_run_however_many_releases() -> None:
    plan = [(k, "702.15", "Lifelink", 7, ()) for k in range(10, 130)]
    assert _runs(plan) == [[10, 129, "702.15", "Lifelink", 7, ()]]
