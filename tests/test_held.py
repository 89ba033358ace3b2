"""Texts left unpaired that a text left unpaired on the other side holds whole (matcher/held.py): linked, split or
merged, on the official releases; and the search for them missing none."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from rulediff import parse
from rulediff.matcher.classify import align
from rulediff.matcher.held import _HELD_NINTHS, _candidates
from rulediff.matcher.records import Alignment, Change, Kind
from rulediff.model import Document

from .conftest import cr_file, needs_cr_corpus


def _pair(old: str, new: str) -> tuple[Document, Document, Alignment]:
    a, b = parse(str(cr_file(old))), parse(str(cr_file(new)))
    return a, b, align(a, b)


def _of(doc: Document, al: Alignment, number: str, side: str = "old") -> Change:
    return next(ch for ch in al.changes if any(str(doc.rules[k].number) == number for k in getattr(ch, side)))


def _numbers(doc: Document, positions: tuple[int, ...]) -> list[str]:
    return sorted(str(doc.rules[k].number) for k in positions)


@needs_cr_corpus
def test_a_sentence_that_opens_a_longer_new_rule_is_linked_to_it() -> None:
    # 2009-07-11's 405.6b opens with the old 408.2b word for word ("Static abilities continuously generate effects
    # and don't go on the stack.") and goes on; both were left unpaired.
    old, new, al = _pair("2009-05-01", "2009-07-11")
    ch = _of(old, al, "408.2b")
    assert _numbers(new, ch.new) == ["405.6b"] and ch.uncertain
    assert "held whole" in ch.reason
    # 2003-07-01: choosing a creature subtype, generalized to any subtype.
    old, new, al = _pair("2003-05-26", "2003-07-01")
    assert _numbers(new, _of(old, al, "214.7a").new) == ["212.1e"]


@needs_cr_corpus
def test_exceptions_made_rules_of_their_own_are_the_parts_of_a_split() -> None:
    # The old 217.1c listed seven exceptions in one rule; 2009-07-11 made them 400.7a-f (the Aura one rewritten, the
    # phasing one dropped).
    old, new, al = _pair("2009-05-01", "2009-07-11")
    ch = _of(old, al, "217.1c")
    assert ch.kind == Kind.SPLIT and ch.uncertain
    assert _numbers(new, ch.new) == ["400.7", "400.7a", "400.7b", "400.7c", "400.7d", "400.7f"]


@needs_cr_corpus
def test_words_scattered_over_a_long_text_are_not_held_there() -> None:
    # 217.1c has every content word of 112.1b ("An ability can be an activated or triggered ability on the stack.
    # This kind of ability is an object.") but not its sentences; 200.5 ("A spell is a card, or copy of a spell or
    # card, that's on the stack.") has its words in 111.2, about a spell's owner.
    old, new, al = _pair("2009-05-01", "2009-07-11")
    assert _of(new, al, "112.1b", "new").kind == Kind.ADDED
    assert _of(old, al, "200.5").kind == Kind.REMOVED


@needs_cr_corpus
def test_read_backwards_a_split_is_a_merge_and_a_link_the_same_link() -> None:
    old, new, al = _pair("2009-07-11", "2009-05-01")
    ch = _of(new, al, "217.1c", "new")
    assert ch.kind == Kind.MERGED
    assert _numbers(old, ch.old) == ["400.7", "400.7a", "400.7b", "400.7c", "400.7d", "400.7f"]
    assert _numbers(new, _of(old, al, "405.6b").new) == ["408.2b"]


_WORDS = st.frozensets(st.sampled_from("abcdefghijklmnopqrst"), min_size=6, max_size=14)


@settings(max_examples=200, deadline=None)
@given(st.dictionaries(st.integers(0, 30), _WORDS, max_size=8), st.dictionaries(st.integers(0, 30), _WORDS, max_size=8))
def test_the_search_misses_no_text_held_whole(
    held: dict[int, frozenset[str]], holders: dict[int, frozenset[str]]
) -> None:
    # Every pair whose holder has all but one in nine of the held text's words is a candidate, whichever way the
    # search counts and indexes them.
    found = _candidates(held, holders)
    for k, bag in held.items():
        for x, other in holders.items():
            if len(bag & other) * 9 >= _HELD_NINTHS * len(bag):
                assert (k, x) in found, (bag, other)
