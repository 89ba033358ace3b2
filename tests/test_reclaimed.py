"""A text set free late takes its near-identical counterpart from the link that took it before
(matcher/reclaimed.py): on the official releases, and on small ones where each guard is met alone."""

from __future__ import annotations

from pathlib import Path

from rulediff.matcher.classify import align
from rulediff.matcher.corrections import LINK, Fix
from rulediff.matcher.reclaimed import reclaim
from rulediff.matcher.records import Grouping, Kind, Pair
from rulediff.matcher.sides import prepared
from rulediff.model import Document

from .aligned import change_of, numbers, official_pair
from .conftest import needs_cr_corpus
from .test_held import W, same_section, unlinked_stays_removed

# A text, one nearly like it (three words of fourteen changed: text about 0.8), and one too unlike it to take it.
TEXT = f"{W[0]} {W[1]}"
NEAR = "Alpha bravo charlie delta echo foxtrot zinc. Hotel india juliet kilo lima tin copper."
FAR = f"{W[0]} {W[2]}"


@needs_cr_corpus
def test_the_old_rule_word_for_word_takes_its_text_back() -> None:
    # 2009-07-11's 508.2a is the old 308.3 word for word; 308.3 had been linked by place to 508.4 (given up) while
    # 508.2a went to 309.3, the blocking rule that reads the same but for "attack".
    old, new, al = official_pair("2009-05-01", "2009-07-11")
    ch = change_of(old, al, "308.3")
    assert numbers(new, ch.new) == ["508.2a"] and not ch.uncertain
    assert ch.reason == (
        "text 1.00, 100% of the meaning; a closer counterpart than the old 309.3 (text 0.95, 80% of the meaning), "
        "linked before the old 308.3 was left unpaired"
    )
    gone = change_of(old, al, "309.3")
    assert gone.kind == Kind.REMOVED and gone.closest is not None
    # (its closest among the rules that took words: 509.4f, where blocking triggers are read now)
    assert gone.closest.said().startswith(
        "closest: 509.4f (0.47), refused because 78% of its meaning is there, but its text only 0.47 alike, elsewhere"
    )


@needs_cr_corpus
def test_a_new_rule_set_free_takes_the_old_text_it_repeats() -> None:
    # 2016-04-08's 711.5 is the old 701.25a nearly word for word (only the reference turned round); 701.25a had gone
    # to 701.25c, its second sentence, while 711.5 was linked by number to the old 711.5 (given up).
    old, new, al = official_pair("2016-01-16", "2016-04-08")
    assert numbers(new, change_of(old, al, "701.25a").new) == ["711.5"]
    assert change_of(new, al, "701.25c", "new").kind == Kind.ADDED


@needs_cr_corpus
def test_a_hand_unlink_stands() -> None:
    old, new, _ = official_pair("2009-05-01", "2009-07-11")
    unlinked_stays_removed(old, new, "308.3")


@needs_cr_corpus
def test_a_hand_link_stands() -> None:
    # A reader who links 309.3 to 508.2a by hand keeps that link: 308.3 does not take 508.2a back.
    old, new, _ = official_pair("2009-05-01", "2009-07-11")
    fix = Fix(LINK, _at(old, "309.3"), _at(new, "508.2a"), "read by hand")
    al = align(old, new, [fix])
    ch = change_of(old, al, "309.3")
    assert numbers(new, ch.new) == ["508.2a"] and ch.reason == "linked by hand: read by hand"
    assert change_of(old, al, "308.3").kind == Kind.REMOVED


def _at(doc: Document, number: str) -> int:
    return next(k for k, r in enumerate(doc.rules) if str(r.number) == number)


def _reclaimed(
    old: Document,
    new: Document,
    links: list[tuple[str, str]],
    freed: list[tuple[str, str]],
    splits: dict[str, list[str]] | None = None,
    merges: dict[str, list[str]] | None = None,
) -> list[tuple[str, str]]:
    """The links (old number, new number) after reclaim, given ``links`` and the links ``freed`` given up."""
    pairs = [Pair(_at(old, x), _at(new, y), 0.8, "by hand") for x, y in [("100.1", "100.1"), *links]]
    g = Grouping(pairs, {p.old: p.new for p in pairs}, {p.new: p.old for p in pairs})
    for x, ys in (splits or {}).items():
        g.splits[_at(old, x)] = [_at(new, y) for y in ys]
    for y, xs in (merges or {}).items():
        g.merges[_at(new, y)] = [_at(old, x) for x in xs]
    reclaim(prepared(old), prepared(new), g, {(_at(old, x), _at(new, y)) for x, y in freed}, (set(), set()))
    assert g.a2b == {p.old: p.new for p in g.pairs} and g.b2a == {p.new: p.old for p in g.pairs}
    return [(str(old.rules[p.old].number), str(new.rules[p.new].number)) for p in g.pairs][1:]


def test_a_freed_text_takes_its_counterpart_either_way_round(tmp_path: Path) -> None:
    # 100.2 (freed: its link to 100.9 was given up) is 100.5 word for word; 100.5 went to 100.3, less alike.
    old, new = same_section(tmp_path, [("100.2", TEXT), ("100.3", NEAR)], [("100.5", TEXT), ("100.9", FAR)])
    assert _reclaimed(old, new, [("100.3", "100.5")], [("100.2", "100.9")]) == [("100.2", "100.5")]
    # The other way round: the new 100.2 is freed, and takes the old 100.5 from the new 100.3.
    back = _reclaimed(new, old, [("100.5", "100.3")], [("100.9", "100.2")])
    assert back == [("100.5", "100.2")]


def test_a_link_at_its_own_number_stands(tmp_path: Path) -> None:
    old, new = same_section(tmp_path, [("100.2", TEXT), ("100.3", NEAR)], [("100.3", TEXT), ("100.9", FAR)])
    assert _reclaimed(old, new, [("100.3", "100.3")], [("100.2", "100.9")]) == [("100.3", "100.3")]


def test_a_text_not_near_identical_or_not_clearly_closer_takes_nothing(tmp_path: Path) -> None:
    # 100.2 is clearly nearer 100.5 than 100.3 is, but only half of it (text about 0.5); then word for word, but
    # not clearly nearer (the link is as near as it).
    old, new = same_section(tmp_path, [("100.2", FAR), ("100.3", W[4])], [("100.5", TEXT), ("100.9", W[3])])
    assert _reclaimed(old, new, [("100.3", "100.5")], [("100.2", "100.9")]) == [("100.3", "100.5")]
    old, new = same_section(tmp_path, [("100.2", TEXT), ("100.3", TEXT)], [("100.5", TEXT), ("100.9", W[3])])
    assert _reclaimed(old, new, [("100.3", "100.5")], [("100.2", "100.9")]) == [("100.3", "100.5")]


def test_two_freed_texts_as_close_take_nothing(tmp_path: Path) -> None:
    old, new = same_section(
        tmp_path, [("100.2", TEXT), ("100.3", NEAR), ("100.4", TEXT)], [("100.5", TEXT), ("100.9", FAR)]
    )
    links = _reclaimed(old, new, [("100.3", "100.5")], [("100.2", "100.9"), ("100.4", "100.9")])
    assert links == [("100.3", "100.5")]


def test_the_closest_counterpart_is_taken_and_two_as_close_none(tmp_path: Path) -> None:
    # 100.2 (freed) is 100.5 word for word and 100.6 but for one word: it takes 100.5 (both links clearly worse).
    one_off = TEXT.replace("golf", "zinc")
    old, new = same_section(
        tmp_path,
        [("100.2", TEXT), ("100.3", W[4]), ("100.4", FAR)],
        [("100.5", TEXT), ("100.6", one_off), ("100.9", W[3])],
    )
    links = [("100.3", "100.6"), ("100.4", "100.5")]
    assert _reclaimed(old, new, links, [("100.2", "100.9")]) == [("100.2", "100.5"), ("100.3", "100.6")]
    # Both word for word: no move.
    old, new = same_section(
        tmp_path,
        [("100.2", TEXT), ("100.3", W[4]), ("100.4", FAR)],
        [("100.5", TEXT), ("100.6", TEXT), ("100.9", W[3])],
    )
    assert _reclaimed(old, new, links, [("100.2", "100.9")]) == links


def test_a_link_moved_once(tmp_path: Path) -> None:
    # The old 100.2 and the new 100.8 are both freed; 100.2 is 100.5 word for word, 100.8 is the old 100.3 but for a
    # word: the link 100.3 -> 100.5 gives way once, to the closer (100.2), and 100.8 takes nothing.
    old, new = same_section(
        tmp_path,
        [("100.2", TEXT), ("100.3", NEAR)],
        [("100.5", TEXT), ("100.8", NEAR.replace("tin", "lead")), ("100.9", W[3])],
    )
    got = _reclaimed(old, new, [("100.3", "100.5")], [("100.2", "100.9"), ("100.3", "100.8")])
    assert got == [("100.2", "100.5")]


def test_a_node_linked_again_since_its_link_was_given_up_takes_nothing(tmp_path: Path) -> None:
    # The new 100.6 lost a link once and is linked again (to 100.4): it is not free, though it is the old 100.3
    # word for word and 100.3 went to 100.5, less alike.
    old, new = same_section(tmp_path, [("100.3", TEXT), ("100.4", W[4])], [("100.5", NEAR), ("100.6", TEXT)])
    links = [("100.3", "100.5"), ("100.4", "100.6")]
    assert _reclaimed(old, new, links, [("100.4", "100.6")]) == links
    assert _reclaimed(new, old, [(y, x) for x, y in links], [("100.6", "100.4")]) == [
        ("100.5", "100.3"),
        ("100.6", "100.4"),
    ]


def test_a_node_in_a_group_or_not_set_free_late_is_left_alone(tmp_path: Path) -> None:
    old, new = same_section(
        tmp_path, [("100.2", TEXT), ("100.3", NEAR)], [("100.5", TEXT), ("100.6", W[4]), ("100.9", FAR)]
    )
    # 100.3 split into 100.5 and 100.6: its group stands.
    got = _reclaimed(old, new, [("100.3", "100.5")], [("100.2", "100.9")], {"100.3": ["100.5", "100.6"]})
    assert got == [("100.3", "100.5")]
    # 100.2 was never linked: the leftovers weighed it against every link already.
    assert _reclaimed(old, new, [("100.3", "100.5")], []) == [("100.3", "100.5")]
    # ... nor, the other way round, the new 100.2.
    assert _reclaimed(new, old, [("100.5", "100.3")], []) == [("100.5", "100.3")]
    # A merge's member stands as a split's part does.
    pairs = [("100.3", "100.5")]
    assert _reclaimed(old, new, pairs, [("100.2", "100.9")], merges={"100.5": ["100.3", "100.1"]}) == pairs
