"""Texts left unpaired that a text left unpaired on the other side holds whole (matcher/held.py): linked, split or
merged, on the official releases; and the search for them missing none."""

from __future__ import annotations

from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from rulediff import parse
from rulediff.matcher.classify import align
from rulediff.matcher.corrections import UNLINK, Fix
from rulediff.matcher.held import HELD, _candidates, regroup_held
from rulediff.matcher.records import Alignment, Grouping, Kind
from rulediff.matcher.sides import prepared
from rulediff.model import Document

from .aligned import change_of, numbers, official_pair
from .conftest import needs_cr_corpus

# Sentences of seven content words each, no two sharing a word: what holds what is told by which sentences a rule has.
W = [
    "Alpha bravo charlie delta echo foxtrot golf.",
    "Hotel india juliet kilo lima mike november.",
    "Oscar papa quebec romeo sierra tango uniform.",
    "Victor whiskey xray yankee zulu amber bronze.",
    "Cobalt denim ebony fuchsia garnet hazel indigo.",
]
_SAME = ("100.1", "Jasper khaki lemon maroon navy olive peach.")


def _release(path: Path, sections: list[tuple[str, str, list[tuple[str, str]]]]) -> Document:
    lines = ["Magic: The Gathering Comprehensive Rules", ""]
    for head, title, rules in sections:
        lines += [head, "", title, ""]
        lines += [line for number, text in rules for line in (f"{number}. {text}", "")]
    path.write_text("\n".join([*lines, "Glossary", "", "Alpha", "A word.", ""]), encoding="utf-8")
    return parse(str(path))


def _mini(tmp: Path, olds: list[tuple[str, str]], news: list[tuple[str, str]]) -> tuple[Document, Document]:
    """Old rules under 100 beside one that stays; new ones under a new 700, where no place pairs them."""
    old = _release(tmp / "old.txt", [("1. Game Concepts", "100. General", [_SAME, *olds])])
    new = _release(
        tmp / "new.txt",
        [("1. Game Concepts", "100. General", [_SAME]), ("7. Additional Rules", "700. Miscellany", news)],
    )
    return old, new


def same_section(tmp: Path, olds: list[tuple[str, str]], news: list[tuple[str, str]]) -> tuple[Document, Document]:
    """Old and new rules under the same 100, beside one that stays: their places agree."""
    old = _release(tmp / "old.txt", [("1. Game Concepts", "100. General", [_SAME, *olds])])
    new = _release(tmp / "new.txt", [("1. Game Concepts", "100. General", [_SAME, *news])])
    return old, new


def _moved(old: Document, new: Document, al: Alignment) -> list[tuple[Kind, list[str], list[str], bool]]:
    """The changes of the rules the case moved (not the rule that stays, nor the new headings)."""
    return [
        (ch.kind, numbers(old, ch.old), numbers(new, ch.new), ch.uncertain)
        for ch in al.changes
        if ch.kind != Kind.UNCHANGED
        and not any(str(d.rules[k].number) in ("7", "700") for d, ks in ((old, ch.old), (new, ch.new)) for k in ks)
    ]


def _held_only(old: Document, new: Document) -> list[tuple[list[str], list[str]]]:
    """What regroup_held alone makes of two releases of which nothing is paired yet: (old numbers, new numbers)."""
    g = Grouping([], {}, {})
    regroup_held(prepared(old), prepared(new), g)
    return [
        (numbers(old, tuple(g.merges.get(p.new, [p.old]))), numbers(new, tuple(g.splits.get(p.old, [p.new]))))
        for p in g.pairs
    ]


@needs_cr_corpus
def test_a_sentence_that_opens_a_longer_new_rule_is_linked_to_it() -> None:
    # 2009-07-11's 405.6b opens with the old 408.2b word for word ("Static abilities continuously generate effects
    # and don't go on the stack.") and goes on; both were left unpaired.
    old, new, al = official_pair("2009-05-01", "2009-07-11")
    ch = change_of(old, al, "408.2b")
    assert numbers(new, ch.new) == ["405.6b"] and ch.uncertain
    assert "held whole" in ch.reason
    # 2003-07-01: choosing a creature subtype, generalized to any subtype.
    old, new, al = official_pair("2003-05-26", "2003-07-01")
    ch = change_of(old, al, "214.7a")
    assert numbers(new, ch.new) == ["212.1e"] and ch.uncertain and "214.7a is held whole in 212.1e" in ch.reason


@needs_cr_corpus
def test_a_short_rule_that_opens_a_longer_one_as_it_stands_is_linked_to_it() -> None:
    # 2009-05-01's 205.4b ("Any land with the supertype "basic" is a basic land. Any land that doesn't have this
    # supertype is a nonbasic land.", five content words) opens 2009-07-11's 204.4c, which goes on about older cards.
    old, new, al = official_pair("2009-05-01", "2009-07-11")
    ch = change_of(old, al, "205.4b")
    assert numbers(new, ch.new) == ["204.4c"] and ch.uncertain and "205.4b is held whole in 204.4c" in ch.reason


def test_a_short_text_is_held_only_as_it_stands(tmp_path: Path) -> None:
    # Four content words: held only nearly character for character (SHORT_HELD_TEXT), every word of it there.
    short = "Lands are tapped dragons."
    longer = f"{short} {W[1]} {W[2]}"
    old, new = _mini(tmp_path, [("100.2", short)], [("700.1", longer)])
    assert _held_only(old, new) == [(["100.2"], ["700.1"])]
    # Its words there, reordered: not held (a longer text would be, its words 8 in 9 there).
    old, new = _mini(tmp_path, [("100.2", short)], [("700.1", f"Dragons are tapped lands. {W[1]} {W[2]}")])
    assert _held_only(old, new) == []
    # Two content words say too little to be held anywhere.
    old, new = _mini(tmp_path, [("100.2", "Dragons fly.")], [("700.1", f"Dragons fly. {W[1]} {W[2]}")])
    assert _held_only(old, new) == []


@needs_cr_corpus
def test_exceptions_made_rules_of_their_own_are_the_parts_of_a_split() -> None:
    # The old 217.1c listed seven exceptions in one rule; 2009-07-11 made them 400.7a-f (the Aura one rewritten, the
    # phasing one dropped).
    old, new, al = official_pair("2009-05-01", "2009-07-11")
    ch = change_of(old, al, "217.1c")
    assert ch.kind == Kind.SPLIT and ch.uncertain
    assert numbers(new, ch.new) == ["400.7", "400.7a", "400.7b", "400.7c", "400.7d", "400.7f"]


@needs_cr_corpus
def test_words_scattered_over_a_long_text_are_not_held_there() -> None:
    # 217.1c has every content word of 112.1b ("An ability can be an activated or triggered ability on the stack.
    # This kind of ability is an object.") but not its sentences; 200.5 ("A spell is a card, or copy of a spell or
    # card, that's on the stack.") has its words in 111.2, about a spell's owner.
    old, new, al = official_pair("2009-05-01", "2009-07-11")
    assert change_of(new, al, "112.1b", "new").kind == Kind.ADDED
    assert change_of(old, al, "200.5").kind == Kind.REMOVED


@needs_cr_corpus
def test_read_backwards_a_split_is_a_merge_and_a_link_the_same_link() -> None:
    old, new, al = official_pair("2009-07-11", "2009-05-01")
    ch = change_of(new, al, "217.1c", "new")
    assert ch.kind == Kind.MERGED
    assert numbers(old, ch.old) == ["400.7", "400.7a", "400.7b", "400.7c", "400.7d", "400.7f"]
    assert numbers(new, change_of(old, al, "405.6b").new) == ["408.2b"]


def test_the_new_texts_held_in_one_old_text_are_its_split_and_read_backwards_a_merge(tmp_path: Path) -> None:
    old, new = _mini(tmp_path, [("100.2", " ".join(W))], [("700.1", W[0]), ("700.2", W[1])])
    al = align(old, new)
    assert _moved(old, new, al) == [(Kind.SPLIT, ["100.2"], ["700.1", "700.2"], True)]
    assert "700.1, 700.2 are held whole in 100.2" in change_of(old, al, "100.2").reason
    assert _moved(new, old, align(new, old)) == [(Kind.MERGED, ["700.1", "700.2"], ["100.2"], True)]


def test_a_text_held_in_two_is_left_as_it_is(tmp_path: Path) -> None:
    old, new = _mini(
        tmp_path, [("100.2", W[0])], [("700.1", " ".join((W[0], W[2], W[3]))), ("700.2", " ".join((W[4], W[0], W[1])))]
    )
    assert _held_only(old, new) == []
    assert _moved(old, new, align(old, new)) == [(Kind.REMOVED, ["100.2"], [], False)] + [
        (Kind.ADDED, [], [n], False) for n in ("700.1", "700.2")
    ]


def test_a_text_both_held_and_holding_is_left_as_it_is(tmp_path: Path) -> None:
    # 100.2 is held in 700.1, which is held in 100.3: which of them 700.1 came from its words do not tell (and 100.3's
    # split, 700.1 and 700.2, cannot be told whole).
    old, new = _mini(
        tmp_path,
        [("100.2", W[0]), ("100.3", " ".join(W[:4]))],
        [("700.1", " ".join(W[:2])), ("700.2", W[3])],
    )
    assert _held_only(old, new) == []


def test_a_holder_whose_texts_are_held_elsewhere_too_takes_none_of_them(tmp_path: Path) -> None:
    # 100.2 holds 700.1 and 700.2; 700.2 is held in 100.3 too: 100.2's split cannot be told whole. 100.4 holds
    # 700.3 alone.
    old, new = _mini(
        tmp_path,
        [
            ("100.2", " ".join((W[0], W[1], W[3]))),
            ("100.3", " ".join((W[1], W[2], W[4]))),
            ("100.4", W[2] + " " + W[3]),
        ],
        [("700.1", W[0]), ("700.2", W[1]), ("700.3", W[2])],
    )
    assert _held_only(old, new) == []


def unlinked_stays_removed(old: Document, new: Document, number: str) -> None:
    """Aligned with the old rule ``number`` unlinked by hand, it is removed, and says why."""
    at = next(k for k, r in enumerate(old.rules) if str(r.number) == number)
    al = align(old, new, [Fix(UNLINK, at, None, "read by hand")])
    assert change_of(old, al, number).kind == Kind.REMOVED
    assert change_of(old, al, number).reason == "unlinked by hand: read by hand"


def test_a_hand_unlink_is_not_made_again_here(tmp_path: Path) -> None:
    old, new = _mini(tmp_path, [("100.2", " ".join(W))], [("700.1", W[0]), ("700.2", W[1])])
    unlinked_stays_removed(old, new, "100.2")


WORDS = st.frozensets(st.sampled_from("abcdefghijklmnopqrst"), min_size=6, max_size=14)


@settings(max_examples=200, deadline=None)
@given(st.dictionaries(st.integers(0, 30), WORDS, max_size=8), st.dictionaries(st.integers(0, 30), WORDS, max_size=8))
def test_the_search_misses_no_text_held_whole(
    held: dict[int, frozenset[str]], holders: dict[int, frozenset[str]]
) -> None:
    # Every pair whose holder has all but one in nine of the held text's words is a candidate, whichever way the
    # search counts and indexes them.
    found = _candidates(held, holders)
    for k, bag in held.items():
        for x, other in holders.items():
            if len(bag & other) >= HELD * len(bag):
                assert (k, x) in found, (bag, other)
