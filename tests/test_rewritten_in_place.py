"""A rule rewritten at its own number, under parents paired with each other, that keeps half its meaning is linked
there, flagged uncertain (matcher/leftovers.py's rescue), not told as removed and added: on the official releases
and on small ones."""

from __future__ import annotations

from pathlib import Path

from rulediff.matcher.classify import align
from rulediff.matcher.records import Kind
from rulediff.model import Document

from .aligned import change_of, numbers, official_pair
from .conftest import needs_cr_corpus
from .test_held import _SAME, _release, same_section

OLD = "Alpha bravo charlie delta echo foxtrot golf."
# Five of its seven words kept, after ten new ones: text 0.44 (below the bar of nodes whose places agree, 0.45),
# 64% of its meaning.
REWRITTEN = "Zinc tin copper iron lead nickel cobalt silver gold platinum, alpha bravo charlie delta echo."
# Three kept: 39% of its meaning.
LESS = "Zinc tin copper iron lead nickel cobalt silver gold platinum mercury, alpha bravo charlie."


@needs_cr_corpus
def test_the_brawl_commander_rule_rewritten_at_its_number_is_linked() -> None:
    # 2025-07-25's 903.12c: "Each deck has a legendary card designated as its commander. That card must be either
    # (a) a creature card, (b) a planeswalker card, (c) a Vehicle card, or (d) a Spacecraft card ..."; it was "A
    # player designates either a legendary planeswalker or a legendary creature as their commander." (text 0.45)
    old, new, al = official_pair("2025-06-06", "2025-07-25")
    ch = change_of(old, al, "903.12c")
    assert ch.kind == Kind.EDITED and ch.uncertain and numbers(new, ch.new) == ["903.12c"]
    assert ch.reason == (
        "text 0.45, 64% of the meaning; the same rule rewritten at its own number, under parents paired with each other"
    )


@needs_cr_corpus
def test_a_rule_keeping_less_than_half_its_meaning_at_its_number_is_linked_only_in_its_slot() -> None:
    # 2019-05-03's 117.9b: "Alternative costs are always optional." became "Alternative costs are generally
    # optional. An effect that allows you to cast a spell may require ...": 35% of the meaning, too little for the
    # rescue; but its neighbours 117.9a and 117.9c kept their numbers, and nothing unpaired says more of it:
    # matcher/slots.py links it (tests/test_in_slot.py).
    old, _, al = official_pair("2019-01-25", "2019-05-03")
    ch = change_of(old, al, "117.9b")
    assert ch.kind == Kind.EDITED and ch.uncertain
    assert ch.reason == (
        "text 0.41, 35% of the meaning; the same rule rewritten at its own number, its neighbours kept theirs"
    )


def _told(old: Document, new: Document) -> list[tuple[Kind, list[str], list[str], bool]]:
    return [
        (ch.kind, numbers(old, ch.old), numbers(new, ch.new), ch.uncertain)
        for ch in align(old, new).changes
        if ch.kind != Kind.UNCHANGED
    ]


def test_rewritten_at_its_number_with_half_its_meaning_is_linked_uncertain(tmp_path: Path) -> None:
    old, new = same_section(tmp_path, [("100.2", OLD)], [("100.2", REWRITTEN)])
    assert _told(old, new) == [(Kind.EDITED, ["100.2"], ["100.2"], True)]
    # Read the other way round, the same link.
    assert [(k, n, o, u) for k, o, n, u in _told(new, old)] == [(Kind.EDITED, ["100.2"], ["100.2"], True)]


def test_at_another_number_or_with_less_of_its_meaning_it_is_not(tmp_path: Path) -> None:
    old, new = same_section(tmp_path, [("100.2", OLD)], [("100.3", REWRITTEN)])
    assert {k for k, _, _, _ in _told(old, new)} == {Kind.REMOVED, Kind.ADDED}
    old, new = same_section(tmp_path, [("100.2", OLD)], [("100.2", LESS)])
    assert {k for k, _, _, _ in _told(old, new)} == {Kind.REMOVED, Kind.ADDED}
    # (not linked, then given up: never linked, and the refusal says why)
    gone = change_of(old, align(old, new), "100.2")
    assert gone.closest is not None and gone.closest.why.startswith(
        "only 39% of its meaning is there, in its own place (under 100, where 100 went), in text 0.36"
    )


def test_under_parents_not_paired_it_is_not(tmp_path: Path) -> None:
    # The same number under a heading that is another rule now (its title and its first rule other ones).
    old = _release(tmp_path / "old.txt", [("1. Game Concepts", "100. General", [_SAME, ("100.2", OLD)])])
    other = ("100.1", "Quartz ruby sapphire topaz opal onyx pearl.")
    new = _release(tmp_path / "new.txt", [("1. Game Concepts", "100. Gemstones", [other, ("100.2", REWRITTEN)])])
    told = _told(old, new)
    assert (Kind.REMOVED, ["100.2"], [], False) in told and (Kind.ADDED, [], ["100.2"], False) in told
