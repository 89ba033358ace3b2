"""rulediff.support.jsontext writes exactly what json.dumps(obj, ensure_ascii=False, indent=1, sort_keys=True) does."""

from __future__ import annotations

import json
import math
from enum import IntEnum, StrEnum
from typing import Any

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from rulediff.support.jsontext import chunks, dumps, list_items


def _library(obj: Any) -> str:
    return json.dumps(obj, ensure_ascii=False, indent=1, sort_keys=True)


scalars = (
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.text()
    | st.sampled_from(["", "\n", "\u2014", '"', "\\", "\x00", "\x7f", "\u2028", "\U000f0000", "\ud800"])
)
values = st.recursive(
    scalars,
    lambda inner: (
        st.lists(inner, max_size=5)
        | st.lists(inner, max_size=3).map(tuple)
        | st.dictionaries(st.text(max_size=8), inner, max_size=5)
    ),
    max_leaves=40,
)


@settings(max_examples=500, deadline=None)
@given(values)
def test_same_text_as_the_library(obj: Any) -> None:
    assert dumps(obj) == _library(obj)


@settings(max_examples=500, deadline=None)
@given(st.dictionaries(st.text(max_size=8), values | st.lists(values, min_size=2, max_size=6), max_size=6) | values)
def test_the_pieces_make_the_same_text(obj: Any) -> None:
    """Written as it is made (chunks), the text is dumps' to the byte: members, and the items of a long list
    member, cut out where dumps puts them."""
    pieces = list(chunks(obj))
    assert "".join(pieces) == dumps(obj)
    if isinstance(obj, dict) and obj and all(type(k) is str for k in obj):
        assert len(pieces) >= len(obj) + 2  # one piece a member at least, besides the braces


@settings(max_examples=200, deadline=None)
@given(st.dictionaries(st.integers() | st.booleans() | st.none() | st.floats(allow_nan=False), scalars, max_size=5))
def test_keys_that_are_not_strings_are_written_as_the_library_writes_them(obj: dict[Any, Any]) -> None:
    try:
        want = _library(obj)
    except TypeError:  # keys of types that do not sort together
        with pytest.raises(TypeError):
            dumps(obj)
        return
    assert dumps(obj) == want


class Colour(StrEnum):
    RED = "red"


class Level(IntEnum):
    TWO = 2


def test_subclasses_deep_nesting_and_what_the_library_refuses() -> None:
    deep: Any = 1
    for _ in range(80):  # deeper than the fast path's table of indents
        deep = [deep, {"k": deep}] if _ % 20 == 0 else [deep]
    for obj in [
        {"kind": Colour.RED, "op": Level.TWO, "x": [Colour.RED, Level.TWO, True, 1.5, math.inf]},
        {Colour.RED: 1},
        deep,
        {},
        [],
        "",
    ]:
        assert dumps(obj) == _library(obj)
    circular: list[Any] = []
    circular.append(circular)
    with pytest.raises(ValueError, match="Circular reference"):
        dumps(circular)
    with pytest.raises(TypeError, match="not JSON serializable"):
        dumps({"a": {1, 2}})


def test_a_diff_document_is_the_same_text(tmp_path: Any) -> None:
    from rulediff import align, parse
    from rulediff.render.diff_json import to_dict

    from .conftest import CORPUS

    al = align(parse(str(CORPUS / "003_8b50984e948ebee1.txt")), parse(str(CORPUS / "001_6371d5d2d2027b19.txt")))
    d = to_dict(al)
    assert dumps(d) == _library(d)


pieces = st.lists(
    st.tuples(st.sampled_from([-1, 0, 1, 2, True]) | st.integers(), st.text(max_size=6), st.text(max_size=4)).flatmap(
        lambda t: st.sampled_from([[t[0], t[1]], [t[0], t[1], t[2]], [t[0]], [t[1], t[0]], [*t, t[1]]])
    )
    | st.sampled_from([[Colour.RED, "x"], [1, Colour.RED], [1, "a", None], [1.0, "a"]]),
    max_size=6,
)


@settings(max_examples=300, deadline=None)
@given(pieces, st.integers(min_value=0, max_value=70))
@example([[1, "a"], [2, "b", "c"]], 60)  # the deepest the fast path writes, and past it
@example([[1, "a"], [2, "b", "c"]], 61)
@example([[1, "a"], [2, "b", "c"]], 62)
@example([[1, "a"], [2, "b", "c"]], 63)
def test_word_diff_pieces_at_any_depth(diff: list[Any], depth: int) -> None:
    # [op, text] and [op, text, old] are written in one piece; anything like them but not them, and any depth
    # up to and past the fast path's limit, as the library writes it.
    obj: Any = {"diff": diff}
    for k in range(depth):
        obj = [obj] if k % 2 else {"k": obj}
    try:
        want = _library(obj)
    except RecursionError:
        return
    assert dumps(obj) == want


@settings(max_examples=300, deadline=None)
@given(
    st.dictionaries(st.text(max_size=8), values, max_size=4),
    st.text(max_size=8),
    st.lists(values, min_size=2, max_size=6),
    st.integers(min_value=0, max_value=6),
)
def test_a_list_written_in_two_parts_is_the_same_text(rest: dict[str, Any], key: str, items: list[Any], k: int) -> None:
    """A list member's items written apart, the first k and then the others joined in one piece (as a helper
    process sends them, report.iter_json), make the same text as dumps."""
    obj = {**rest, key: items}
    k = min(k, len(items))
    parts = [*list_items(key, items[:k]), "".join(list_items(key, items[k:], k))]
    assert "".join(chunks({**obj, key: []}, {key: parts})) == dumps(obj)
