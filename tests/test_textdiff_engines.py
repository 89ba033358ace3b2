"""The word diff's two engines give the same answers: Google's C++ port (fast-diff-match-patch, used when
installed) and the Python diff-match-patch library (the reference, and the fallback without a wheel)."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rulediff.words import diff as textdiff
from rulediff.words.diff import Op, Piece, word_diff

from .conftest import needs_cr_corpus

# Few distinct tokens, so that two texts share long runs and the diff has real work to do (bisection,
# semantic cleanup shifting and merging equalities), as it has on two versions of a rule.
WORDS = ["the", "a", "creature", "702.15b", "player", ",", ".", " ", "  ", "\n", "rule", "\u2014", "\u201cx\u201d"]
texts = st.lists(st.sampled_from(WORDS), max_size=60).map("".join)
# Encoded strings as _encode makes them: private characters from the BMP and, past 6,400, plane 15.
private = st.sampled_from(["\ue000", "\ue001", "\ue002", "\ue003", "\U000f0000", "\U000f0001"])
encoded = st.lists(private, max_size=80).map("".join)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(encoded, encoded)
def test_engines_agree_on_encoded_strings(a: str, b: str) -> None:
    assert textdiff._fast_diff(a, b) == textdiff._python_diff(a, b)
    # Without semantic cleanup too: the sentence diff of a text past WORD_LIMIT.
    assert textdiff._fast_diff(a, b, semantic=False) == textdiff._python_diff(a, b, semantic=False)


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=40), st.text(max_size=40))
def test_engines_agree_on_any_characters(a: str, b: str) -> None:
    # Semantic cleanup scores boundaries by character class (letters, spaces, line breaks, blank lines).
    assert textdiff._fast_diff(a, b) == textdiff._python_diff(a, b)


@settings(max_examples=300, deadline=None)
@given(texts, texts)
def test_word_diff_is_the_same_with_either_engine(old: str, new: str) -> None:
    with_fast = _word_diff_with(textdiff._fast_diff, old, new)
    with_python = _word_diff_with(textdiff._python_diff, old, new)
    assert with_fast == with_python
    assert "".join(p.text for p in with_python if p.op != Op.DELETE) == new


def _word_diff_with(engine: object, old: str, new: str) -> list[Piece]:
    saved = textdiff._diff
    textdiff._raw_diff.cache_clear()
    textdiff._diff = engine  # type: ignore[assignment]
    try:
        return word_diff(old, new)
    finally:
        textdiff._diff = saved
        textdiff._raw_diff.cache_clear()


def test_the_fast_engine_is_the_one_used_when_installed() -> None:
    assert textdiff._diff is textdiff._fast_diff


@pytest.mark.parametrize(
    ("old", "new"),
    [("", "Lifelink"), ("Lifelink", ""), ("", "")],
)
def test_an_added_or_removed_text_is_one_piece_as_diff_match_patch_says(old: str, new: str) -> None:
    want = [Piece(op, new if op == Op.INSERT else old) for op, _ in textdiff._python_diff(old, new)]
    assert list(textdiff._raw_diff(old, new)) == want


@needs_cr_corpus
def test_engines_agree_on_every_edited_rule_of_a_long_jump() -> None:
    from rulediff import align, parse

    from .conftest import CR_TXT

    al = align(parse(str(CR_TXT / "cr-20110204.txt")), parse(str(CR_TXT / "cr-20260116.txt")))
    compared = 0
    for ch in al.changes:
        old = "\n".join(al.old.rules[i].text for i in ch.old)
        new = "\n".join(al.new.rules[j].text for j in ch.new)
        if old and new and old != new:
            a, b = textdiff._encode(textdiff._TOKEN.findall(old), textdiff._TOKEN.findall(new))
            assert textdiff._fast_diff(a, b) == textdiff._python_diff(a, b), ch.new
            compared += 1
    assert compared > 1000
