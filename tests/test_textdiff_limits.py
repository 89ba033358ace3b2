"""Word diffs of texts longer than any rule stay within WORD_LIMIT: diffed sentence by sentence, changed
stretches word by word where the limit allows, replaced whole where it does not. Coarser, never wrong."""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rulediff.words import diff as textdiff
from rulediff.words.diff import Op, Piece, word_diff

from .conftest import needs_cr_corpus

WORDS = ["the", "a", "player's", "player\u2019s", "702.15b", ",", ".", ". ", ";", " ", "\n", "rule", "card"]
texts = st.lists(st.sampled_from(WORDS), max_size=80).map("".join)


def _spelled(pieces: list[Piece]) -> tuple[str, str]:
    old = "".join(p.old if p.op == Op.MUTED else p.text for p in pieces if p.op != Op.INSERT)
    new = "".join(p.text for p in pieces if p.op != Op.DELETE)
    return old, new


@contextmanager
def _asking(limit: float | None = None) -> Iterator[list[tuple[int, int]]]:
    """The lengths of every diff asked of diff-match-patch meanwhile (under ``limit`` if given), with no diff
    remembered from before or kept after."""
    asked: list[tuple[int, int]] = []
    engine = textdiff._diff

    def counted(a: str, b: str, semantic: bool = True) -> list[tuple[Op, int]]:
        asked.append((len(a), len(b)))
        return engine(a, b, semantic)

    before = (textdiff.WORD_LIMIT, textdiff._diff)
    textdiff._diff = counted
    if limit is not None:
        textdiff.WORD_LIMIT = limit
    textdiff._raw_diff.cache_clear()
    try:
        yield asked
    finally:
        textdiff.WORD_LIMIT, textdiff._diff = before
        textdiff._raw_diff.cache_clear()


@pytest.fixture
def diffs_asked() -> Iterator[list[tuple[int, int]]]:
    with _asking() as asked:
        yield asked


@settings(max_examples=300, deadline=None)
@given(old=texts, new=texts, limit=st.sampled_from([1, 12, 60, 400]))
def test_no_diff_past_the_limit_and_both_texts_spelled(old: str, new: str, limit: int) -> None:
    with _asking(limit) as asked:
        pieces = word_diff(old, new)
    assert sum(a * b for a, b in asked) <= limit  # for the whole text, not for each diff
    assert _spelled(pieces) == (old, new)


def test_sentences_left_alone_stay_equal_past_the_limit(
    monkeypatch: pytest.MonkeyPatch, diffs_asked: list[tuple[int, int]]
) -> None:
    old = "The first sentence stays. The player's card is tapped. The last one stays too."
    new = "The first sentence stays. The player draws a card. The last one stays too."
    monkeypatch.setattr(textdiff, "WORD_LIMIT", 200)  # under the two texts' 30 x 30 tokens, over a sentence's
    pieces = list(textdiff._raw_diff(old, new))
    # The sentences around the edit are equal, and the changed one is diffed word by word, not replaced whole.
    assert pieces == [
        Piece(Op.EQUAL, "The first sentence stays. The "),
        Piece(Op.DELETE, "player's card is tapped"),
        Piece(Op.INSERT, "player draws a card"),
        Piece(Op.EQUAL, ". The last one stays too."),
    ]
    assert _spelled(pieces) == (old, new)
    assert diffs_asked and all(a * b <= 200 for a, b in diffs_asked)


def test_a_sentence_left_alone_between_two_changed_ones_stays_equal(
    monkeypatch: pytest.MonkeyPatch, diffs_asked: list[tuple[int, int]]
) -> None:
    old = "The player draws a card. Then stop. The opponent loses life."
    new = "The player sacrifices a card. Then stop. The opponent gains life."
    monkeypatch.setattr(textdiff, "WORD_LIMIT", 400)  # under 24 x 24 tokens, over the sentences' diffs
    pieces = list(textdiff._raw_diff(old, new))
    assert Piece(Op.EQUAL, " a card. Then stop. The opponent ") in pieces
    assert [p.text for p in pieces if p.op == Op.DELETE] == ["draws", "loses"]
    assert _spelled(pieces) == (old, new)


def test_many_long_changed_sentences_cost_the_limit_once(diffs_asked: list[tuple[int, int]]) -> None:
    """Long changed sentences, each within the limit, between sentences left alone: what the diffs of one
    text cost adds up to the limit at most, the stretches past it replaced whole (a review's input: 500 rules
    of this shape would have taken some 400 s)."""
    changed = " ".join(["a"] * 1000) + "."  # 2,000 tokens: six such stretches are within the limit
    old = "".join(changed + " Kept. Kept too. Kept three. " for _ in range(32))
    new = old.replace(" a", " b")
    pieces = word_diff(old, new)
    assert _spelled(pieces) == (old, new)
    assert sum(a * b for a, b in diffs_asked) <= textdiff.WORD_LIMIT
    assert Piece(Op.EQUAL, " Kept. Kept too. Kept three.") in pieces


def test_a_stretch_past_the_limit_is_replaced_whole(
    monkeypatch: pytest.MonkeyPatch, diffs_asked: list[tuple[int, int]]
) -> None:
    old, new = "a b c d e f g h", "a b c x e f g h"  # one sentence: nothing to diff it by
    monkeypatch.setattr(textdiff, "WORD_LIMIT", 100)
    assert list(textdiff._raw_diff(old, new)) == [Piece(Op.DELETE, old), Piece(Op.INSERT, new)]
    # A typography-only edit so replaced is still muted whole, as any edit of its nature is.
    typo_old, typo_new = "the player's card can't", "the player\u2019s card can\u2019t"
    assert [p.op for p in word_diff(typo_old, typo_new)] == [Op.EQUAL, Op.MUTED, Op.EQUAL, Op.MUTED]
    monkeypatch.setattr(textdiff, "WORD_LIMIT", 10)
    textdiff._raw_diff.cache_clear()
    assert word_diff(typo_old, typo_new) == [Piece(Op.MUTED, typo_new, typo_old)]


def test_a_hostile_rule_costs_no_diff_past_the_limit(diffs_asked: list[tuple[int, int]]) -> None:
    """52 KB of words with an apostrophe each, every one curled: a minute for 500 such rules before the limit
    (0.1 s each), as sentences of one word each ("a. a. a.") as well."""
    words = " ".join(["player's", "card", "can't", "it's"] * 3000)
    for old in (words, words.replace(" ", ". ")):
        new = old.replace("'", "\u2019")
        pieces = word_diff(old, new)
        assert _spelled(pieces) == (old, new)
        assert [p.op for p in pieces] == [Op.MUTED]
    assert all(a * b <= textdiff.WORD_LIMIT for a, b in diffs_asked)


@needs_cr_corpus
def test_the_limit_is_ten_times_the_longest_real_diff(diffs_asked: list[tuple[int, int]]) -> None:
    """Every word diff of the long jump is made word by word, the longest (the creature subtypes list) at a
    tenth of the limit or less: real texts never meet it."""
    from rulediff import align, parse
    from rulediff.render.diff_json import to_dict

    from .conftest import CR_TXT

    to_dict(align(parse(str(CR_TXT / "cr-20110204.txt")), parse(str(CR_TXT / "cr-20260116.txt"))))
    assert len(diffs_asked) > 1000
    assert max(a * b for a, b in diffs_asked) * 10 <= textdiff.WORD_LIMIT


def _hostile_pair(rules: int, words: int) -> tuple[str, str]:
    """Two official-text releases of ``rules`` rules of ``words`` words, every apostrophe curled in the new."""
    import random

    rng = random.Random(7)
    head = "Magic: The Gathering Comprehensive Rules\n\nThese rules are effective as of January 16, 2026.\n\n"
    body = "".join(
        f"100.{k}. " + " ".join(rng.choice(["player's", "can't", "it's", "card"]) for _ in range(words)) + "\n\n"
        for k in range(1, rules + 1)
    )
    old = head + "1. Game Concepts\n\n100. General\n\n" + body + "Glossary\n\nA\nAn a.\n\nCredits\n"
    return old, old.replace("'", "\u2019")


def _fitting(charges: list[int], limit: float) -> int:
    """How many of ``charges``, taken in order, fit in ``limit`` (each one that fits is spent)."""
    made = 0
    for c in charges:
        if c <= limit:
            limit -= c
            made += 1
    return made


def test_one_output_costs_its_limit_at_most(
    tmp_path, monkeypatch: pytest.MonkeyPatch, diffs_asked: list[tuple[int, int]]
) -> None:  # type: ignore[no-untyped-def]
    """Many texts each within WORD_LIMIT (1,300 such rules took 105 s for --format json): the diffs of one
    output are made while their charges fit OUTPUT_LIMIT, the rest shown replaced whole (muted whole, being
    typography). The JSON is the same made again after every diff was remembered, and the release notes are
    bounded the same way."""
    import json

    from rulediff import align, parse
    from rulediff.render.diff_json import to_dict, to_json
    from rulediff.render.notes import build_notes

    old, new = _hostile_pair(rules=40, words=300)
    (tmp_path / "a.txt").write_text(old, encoding="utf-8")
    (tmp_path / "b.txt").write_text(new, encoding="utf-8")
    al = align(parse(str(tmp_path / "a.txt")), parse(str(tmp_path / "b.txt")))
    monkeypatch.setattr(textdiff, "OUTPUT_LIMIT", float("inf"))  # (first every change's texts, all diffed)
    texts = [(c["old_text"], c["new_text"]) for c in to_dict(al)["changes"]]
    charges = [len(a) * len(b) for a, b in texts]
    assert len(charges) == 40 and max(charges) < textdiff.WORD_LIMIT
    limit = sum(charges[:5]) + charges[5] // 2  # five fit, and then none of these nearly equal texts
    monkeypatch.setattr(textdiff, "OUTPUT_LIMIT", limit)
    diffs_asked.clear()
    textdiff._raw_diff.cache_clear()
    first = to_json(al)
    assert len(diffs_asked) == _fitting(charges, limit) == 5
    diffs = [c["diff"] for c in json.loads(first)["changes"]]
    assert sum(1 for d in diffs if len(d) == 1 and d[0][0] == int(Op.MUTED)) == 35
    for a, b in texts:  # every diff remembered, made outside any output
        word_diff(a, b)
    assert to_json(al) == first
    # The notes show substantive edits word by word: each rule lost its first word as well.
    (tmp_path / "c.txt").write_text(re.sub(r"(?m)^(100\.\d+\.) \S+", r"\1", new), encoding="utf-8")
    al = align(parse(str(tmp_path / "a.txt")), parse(str(tmp_path / "c.txt")))
    diffs_asked.clear()
    textdiff._raw_diff.cache_clear()
    build_notes(al)
    assert 3 <= len(diffs_asked) <= 6


def test_an_output_inside_another_has_a_budget_of_its_own(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(textdiff, "OUTPUT_LIMIT", 100)
    whole = [Piece(Op.DELETE, "a b c d e"), Piece(Op.INSERT, "a b y d e")]
    with textdiff.one_output():
        assert [p.op for p in word_diff("a b c d e", "a b x d e")] == [Op.EQUAL, Op.DELETE, Op.INSERT, Op.EQUAL]
        with textdiff.one_output():  # 81 spent of the outer 100: the inner one starts afresh
            assert len(word_diff("a b c d e", "a b y d e")) == 4
        assert word_diff("a b c d e", "a b y d e") == whole  # 19 left of the outer one
    assert len(word_diff("a b c d e", "a b y d e")) == 4  # outside any output: text by text


def test_a_long_text_is_charged_no_more_than_its_own_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    """A text past WORD_LIMIT is bounded by it on its own: within an output it costs that much at most, and a
    55 KB rule with one word inserted is diffed, not replaced whole, even when its length squared is over the
    output's budget."""
    old = "The player's card is tapped. " * 2000
    new = old.replace("is tapped", "is not tapped", 1)
    monkeypatch.setattr(textdiff, "OUTPUT_LIMIT", 2 * textdiff.WORD_LIMIT)
    assert len(old) ** 2 > textdiff.OUTPUT_LIMIT
    with textdiff.one_output():
        assert [p.op for p in word_diff(old, new)] == [Op.EQUAL, Op.INSERT, Op.EQUAL]


@needs_cr_corpus
def test_the_output_limit_is_ten_times_the_most_a_real_output_costs(monkeypatch: pytest.MonkeyPatch) -> None:
    """The JSON of the most demanding real pair found (2019-01-25 -> 2026-01-16, 2.2e8) costs a tenth of the
    output limit or less: no real output is ever coarsened."""
    from rulediff import align, parse
    from rulediff.render.diff_json import to_dict

    from .conftest import CR_TXT

    spent: list[int] = []
    charged = textdiff._charged

    def counted(old: str, new: str) -> list[Piece]:
        spent.append(len(old) * len(new))
        return charged(old, new)

    monkeypatch.setattr(textdiff, "_charged", counted)
    to_dict(align(parse(str(CR_TXT / "cr-20190125.txt")), parse(str(CR_TXT / "cr-20260116.txt"))))
    assert 1e8 < sum(spent) <= textdiff.OUTPUT_LIMIT / 10
