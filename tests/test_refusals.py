"""A removed rule's closest text and why no link was made (matcher/refusals.py): found even when every word of the
rule is one many rules hold, among the texts holding most of them, failing those in its own place, failing that
among the texts holding more than half of them."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from rulediff.matcher.leftovers import COMMON_FROM, ContentIndex, texts
from rulediff.matcher.meaning import content, most_of
from rulediff.matcher.records import Change, Kind
from rulediff.matcher.refusals import _holding, _over_half, refusals
from rulediff.matcher.sides import prepared
from rulediff.matcher.thresholds import CONTAINED_WORDS

from .aligned import change_of, official_pair
from .conftest import needs_cr_corpus
from .test_held import _SAME, _release

# Seven words; rules that hold them all but one, more of them than a word may be held by and still be looked up.
GONE = "Alpha bravo charlie delta echo foxtrot golf."
HOLDERS = COMMON_FROM + 5


@needs_cr_corpus
def test_a_rule_whose_words_many_rules_hold_has_its_closest_text_named() -> None:
    # 2009-07-11's 213.4 ("Every spell has a controller ...") has most of its words in 111.2, all of them words
    # dozens of rules hold.
    old, _, al = official_pair("2009-05-01", "2009-07-11")
    ch = change_of(old, al, "213.4")
    assert ch.kind == Kind.REMOVED and ch.closest is not None and ch.closest.number == "111.2"
    assert ch.closest.why.startswith(
        "77% of its meaning is there, in its own place (under 111, where 213 went), but its text only 0.35 alike"
    )


@needs_cr_corpus
def test_a_rule_three_quarters_of_whose_words_a_rule_elsewhere_holds_has_it_named() -> None:
    # 2009-07-11's 200.5a ("A spell's owner is the same as the owner of the card that represents it ...") went to
    # 111.2 (the second reader's reading); every word it has is one dozens of rules hold, and 111.2 holds nine of its
    # twelve, less than most. Before, no closest text was named.
    old, _, al = official_pair("2009-05-01", "2009-07-11")
    ch = change_of(old, al, "200.5a")
    assert ch.kind == Kind.REMOVED and ch.closest is not None
    assert ch.closest.said().startswith("closest: 111.2 (0.60), refused because 68% of its meaning is there")


@needs_cr_corpus
def test_a_rule_sharing_only_common_words_has_the_text_in_its_place_named() -> None:
    # 2009-07-11's 502.68a, lifelink as a triggered ability, shares with 702.13a, lifelink as a static one, only
    # words dozens of rules hold but "lifelink"; 502.68 went to 702.13.
    old, _, al = official_pair("2009-05-01", "2009-07-11")
    ch = change_of(old, al, "502.68a")
    assert ch.kind == Kind.REMOVED and ch.closest is not None
    assert ch.closest.said() == (
        "closest: 702.13a (0.45), refused because only 45% of its meaning is there, in its own place (under 702.13, "
        "where 502.68 went), in text 0.45 alike (a link in its place needs 50% of the meaning)"
    )


def _closest(
    tmp: Path, gone: str, holders: list[str], in_place: str | None = None, stays: str | None = None
) -> str | None:
    """The closest text refusals() names for ``gone``, the old 100.2, removed, given ``holders`` added under 700
    (and ``in_place`` added as 100.3, ``stays`` unchanged as 100.4; 100 goes on as 100)."""
    kept = [("100.4", stays)] if stays else []
    old = _release(tmp / "old.txt", [("1. Game Concepts", "100. General", [_SAME, ("100.2", gone), *kept])])
    news = [(f"700.{k}", text) for k, text in enumerate(holders, 1)]
    here = [("100.3", in_place)] if in_place else []
    new = _release(
        tmp / "new.txt",
        [("1. Game Concepts", "100. General", [_SAME, *here, *kept]), ("7. Additional Rules", "700. Miscellany", news)],
    )
    a, b = prepared(old), prepared(new)
    at_old = {str(r.number): k for k, r in enumerate(old.rules)}
    at_new = {str(r.number): k for k, r in enumerate(new.rules)}
    i = at_old["100.2"]
    changes = [
        Change(Kind.UNCHANGED, (at_old[n],), (at_new[n],)) for n in ("1", "100", "100.1", "100.4") if n in at_old
    ]
    changes.append(Change(Kind.REMOVED, (i,), ()))
    changes += [Change(Kind.ADDED, (), (j,)) for n, j in at_new.items() if n.startswith(("7", "100.3"))]
    found = refusals(a, b, changes).get(i)
    return found.number if found is not None else None


def _tail(k: int) -> str:
    """Words no other rule has: ``k`` spelled out in letters."""
    return " ".join(f"word{chr(97 + int(d))}{chr(97 + k % 7)}" for d in str(k * 7919)) + "."


def test_the_closest_text_is_found_among_rules_holding_most_of_its_words(tmp_path: Path) -> None:
    # Each holder has six of GONE's seven words (and words of its own): every word of GONE is common.
    words = GONE.rstrip(".").split()
    holders = [" ".join(words[:6]) + " " + _tail(k) for k in range(HOLDERS)]
    holders[7] = " ".join(words[:6]) + " hotel."  # the most alike
    assert _closest(tmp_path, GONE, holders) == "700.8"


def test_failing_all_those_a_text_holding_more_than_half_its_words_is_named(tmp_path: Path) -> None:
    # Five of seven words is less than most (CONTAINED, 4 in 5), more than half: with nothing in its own place, the
    # most alike of the rules holding five is named (2009-07-11's 200.5a, three quarters of whose words 111.2 has).
    words = GONE.rstrip(".").split()
    holders = [" ".join(words[:5]) + " " + _tail(k) for k in range(HOLDERS)]
    holders[3] = " ".join(words[:5]) + " hotel."
    assert _closest(tmp_path, GONE, holders) == "700.4"
    # A text in its own place sharing some of its meaning comes first, as before.
    assert _closest(tmp_path, GONE, holders, "Alpha bravo charlie hotel india juliet.") == "100.3"


def test_none_is_named_where_only_some_of_its_words_are(tmp_path: Path) -> None:
    # Three of seven words is not more than half; nor are the two rarest of them alone.
    words = GONE.rstrip(".").split()
    holders = [" ".join(words[:3]) + " " + _tail(k) for k in range(HOLDERS)]
    holders.append(" ".join(words[5:]) + " " + _tail(HOLDERS))
    assert _closest(tmp_path, GONE, holders) is None


def test_none_is_named_for_a_text_of_few_words(tmp_path: Path) -> None:
    # Five words (fewer than CONTAINED_WORDS), each in every holder: too few to tell one holder from another.
    short = "Alpha bravo charlie delta echo."
    holders = [short.rstrip(".") + " " + _tail(k) for k in range(HOLDERS)]
    assert _closest(tmp_path, short, holders) is None


def test_failing_those_the_text_in_its_own_place_is_named(tmp_path: Path) -> None:
    # 100.3 shares three of GONE's seven words, each one dozens of rules hold: it is named, in its place (100 went
    # to 100); one word only is too little of its meaning (KEPT_MEANING).
    holders = ["Alpha bravo charlie " + _tail(k) for k in range(HOLDERS)]
    assert _closest(tmp_path, GONE, holders, "Alpha bravo charlie hotel india juliet.") == "100.3"
    assert _closest(tmp_path, GONE, holders, "Alpha hotel india juliet kilo lima.") is None
    # A rule there that stays as it was carries its own words, not the removed rule's.
    assert _closest(tmp_path, GONE, holders, stays="Alpha bravo charlie kilo lima mike.") is None


def test_most_of_a_text_is_told_in_whole_numbers() -> None:
    # 28 of 35 words is 4 in 5, though 0.8 x 35 is 28.000000000000004 in floats.
    assert [most_of(n) for n in (5, 6, 7, 10, 35)] == [4, 5, 6, 8, 28]


@needs_cr_corpus
def test_a_removed_heading_names_the_heading_its_rules_went_under() -> None:
    # 2009-07-11: eight of the nine rules of 212 "Card Type, Supertype, and Subtype" went under section 3 "Card
    # Types", a part of the old section 2's split (the second reader: 3 and 204); one of the two of 414 "Countering
    # Spells and Abilities" went to 701.5 "Counter", the old 501.3; five of the eleven of 408.2 went under 114.2, the
    # special actions, a rule with no title. 401 "Spells on the Stack", none of whose rules has a counterpart, names
    # none.
    old, _, al = official_pair("2009-05-01", "2009-07-11")
    said = {n: change_of(old, al, n).closest for n in ("212", "414", "408.2", "401")}
    assert all(change_of(old, al, n).kind == Kind.REMOVED for n in said)
    assert said["212"] is not None and said["212"].said() == (
        'closest: 3 (0.49), refused because it continues the old 2 (Parts of the Game) as "Card Types", though 8 of the'
        " 9 rules under it went there"
    )
    assert said["212"].meaning == 0.89
    assert said["414"] is not None and said["414"].said() == (
        "closest: 701.5 (0.37), refused because it continues the old 501.3 (Counter), though 1 of the 2 rules under it"
        " went there"
    )
    assert said["408.2"] is not None and said["408.2"].number == "114.2"
    assert said["408.2"].why == "it is a rule with no title, though 5 of the 11 rules under it went there"
    assert said["401"] is None
    # 419 "Replacement and Prevention Effects": three of its nine rules went under section 6, as many to 613; the
    # first is named and the tie said, not one of them chosen silently.
    ch = change_of(old, al, "419")
    assert ch.closest is not None and ch.closest.number == "6"
    assert ch.closest.why.endswith("3 of the 9 rules under it went there (as many to 613)")


@needs_cr_corpus
def test_a_removed_heading_whose_rules_went_into_a_heading_names_that_heading() -> None:
    # 2003-07-01 merged both rules of 212 "Card Type" into the new 205 "Type Line", which continues the old 205
    # "Type": 205 is named, not section 2 above it. 2004-10-01's 502.14 "Snow-Covered": one of its four rules went
    # under 502.14 "Vigilance", no sign of where the heading went: none named.
    old, _, al = official_pair("2003-05-26", "2003-07-01")
    said = change_of(old, al, "212").closest
    assert said is not None and said.said() == (
        'closest: 205 (0.44), refused because it continues the old 205 (Type) as "Type Line", though 2 of the 2 rules'
        " under it went there"
    )
    old, _, al = official_pair("2004-06-01", "2004-10-01")
    ch = change_of(old, al, "502.14")
    assert ch.kind == Kind.REMOVED and ch.closest is None


@needs_cr_corpus
@pytest.mark.parametrize("needed", [most_of, _over_half], ids=["most", "over half"])
def test_the_texts_holding_a_share_of_the_words_are_every_one_a_full_scan_finds(needed: Callable[[int], int]) -> None:
    # _holding reads only the nodes with enough hits among a text's rarest words: the same nodes as reading every
    # one, for every removed text of 2009-05-01 -> 2009-07-11 (the index built as refusals() builds it).
    old, new, al = official_pair("2009-05-01", "2009-07-11")
    a, b = prepared(old), prepared(new)
    removed = texts(a, [ch.old[0] for ch in al.changes if ch.kind == Kind.REMOVED and len(ch.old) == 1])
    homes = sorted({j for ch in al.changes if ch.kind not in (Kind.UNCHANGED, Kind.REMOVED) for j in ch.new})
    index = ContentIndex(b, {}, frozenset().union(*(content(a.masked(i)) for i in removed)))
    index.add(homes)
    found = 0
    for i in removed:
        bag = content(a.masked(i))
        every = [j for j, n in index.size.items() if n and len(bag & content(b.masked(j))) >= needed(len(bag))]
        got = _holding(index, a.masked(i), needed)
        assert got == (sorted(every) if len(bag) >= CONTAINED_WORDS else []), a.labels[i]
        found += bool(got)
    assert found >= 5  # (texts with such a home: not a test of empty lists)
