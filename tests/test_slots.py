"""The slot fillers: the same objects the frozen __init__ makes, taking fields in the order their caller names."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from rulediff.model import Example, Rule, new_example, new_rule
from rulediff.numbering import RuleNumber
from rulediff.support.constructors import slot_filler


@dataclass(frozen=True, slots=True)
class _Three:
    a: int
    b: str
    c: float = 0.0


def test_the_order_is_the_callers_not_the_classes() -> None:
    make = slot_filler(_Three, "c a b")
    assert make(2.5, 1, "x") == _Three(1, "x", 2.5)


@pytest.mark.parametrize("params", ["a b", "a b c d", "a b b", "a b C"])
def test_a_field_missing_extra_or_misnamed_fails_at_once(params: str) -> None:
    with pytest.raises(TypeError, match="_Three"):
        slot_filler(_Three, params)


def test_the_models_fillers_make_what_init_makes() -> None:
    ex = new_example("Example: one.", 4, None)
    assert ex == Example("Example: one.", 4) and ex.norm == Example("Example: one.", 4).norm
    n = RuleNumber.parse("702.15a")
    made = new_rule(n, "Lifelink", 7, "Lifelink", (ex,), None, None, "k", ("note",), "a1")
    assert made == Rule(n, "Lifelink", 7, "Lifelink", (ex,), category="k", notes=("note",), anchor="a1")
    assert (made.category, made.notes, made.anchor) == ("k", ("note",), "a1")
