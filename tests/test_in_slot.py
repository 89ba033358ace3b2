"""A rule rewritten at its own number between neighbours that kept theirs (matcher/slots.py): linked, flagged
uncertain, and only when nothing left unpaired shares more of the meaning of either end."""

from __future__ import annotations

from pathlib import Path

import pytest

from rulediff import parse
from rulediff.matcher.classify import align
from rulediff.matcher.records import Alignment, Kind
from rulediff.model import Document

from .aligned import change_of, official_pair
from .conftest import needs_cr_corpus

_BEFORE = "Oscar papa quebec romeo sierra tango uniform victor."
_AFTER = "Hotel india juliet kilo lima mike november zulu."
# A short rule, and its rewrite: a third of its meaning kept (alternative, costs, optional; 2019-05-03's 117.9b).
_OLD = "Alternative costs are always optional."
_NEW = (
    "Alternative costs are generally optional. An effect that allows you to cast a spell may require a certain "
    "alternative cost to be paid."
)


def _release(path: Path, rules: list[tuple[str, str]]) -> Document:
    lines = ["Magic: The Gathering Comprehensive Rules", "", "1. Game Concepts", "", "100. General", ""]
    lines += [line for number, text in rules for line in (f"{number}. {text}", "")]
    path.write_text("\n".join([*lines, "Glossary", "", "Alpha", "A word.", ""]), encoding="utf-8")
    return parse(str(path))


def _pair(tmp_path: Path, old: list[tuple[str, str]], new: list[tuple[str, str]]) -> tuple[Document, Document]:
    return _release(tmp_path / "old.txt", old), _release(tmp_path / "new.txt", new)


def _links(old: Document, new: Document, al: Alignment) -> dict[str, list[str]]:
    return {str(old.rules[i].number): [str(new.rules[j].number) for j in ch.new] for ch in al.changes for i in ch.old}


def _kind(old: Document, al: Alignment, number: str) -> Kind:
    return change_of(old, al, number).kind


def test_a_short_rule_rewritten_between_neighbours_that_kept_their_numbers_is_linked(tmp_path: Path) -> None:
    old, new = _pair(
        tmp_path,
        [("100.1", _BEFORE), ("100.2", _OLD), ("100.3", _AFTER)],
        [("100.1", _BEFORE), ("100.2", _NEW), ("100.3", _AFTER)],
    )
    al = align(old, new)
    assert _links(old, new, al)["100.2"] == ["100.2"]
    (ch,) = [ch for ch in al.changes if ch.kind == Kind.EDITED]
    assert ch.uncertain and "the same rule rewritten at its own number" in ch.reason
    assert _links(new, old, align(new, old))["100.2"] == ["100.2"]  # the same read the other way round


_OTHER = "Ebony fuchsia garnet hazel indigo jasper khaki lemon."
_UNLIKE = "Alternative rules about something else entirely: maroon navy olive peach quartz ruby sapphire topaz."
_ROUND = [("100.1", _BEFORE), ("100.2", _OLD), ("100.3", _AFTER), ("100.4", _OTHER)]


@pytest.mark.parametrize(
    ("old_rules", "new_rules"),
    [
        # The rule after it went elsewhere: its number no longer says where it stands.
        (_ROUND, [("100.1", _BEFORE), ("100.2", _NEW), ("100.3", _OTHER), ("100.4", _AFTER)]),
        # ... or the rule before it.
        (_ROUND, [("100.1", _OTHER), ("100.2", _NEW), ("100.3", _AFTER), ("100.4", _BEFORE)]),
        # Its neighbours went around a rule of another number: one added where the old one was taken out.
        (_ROUND[:3], [("100.1", _BEFORE), ("100.5", _NEW), ("100.6", _AFTER)]),
        # Less than a quarter of its meaning is there.
        (_ROUND[:3], [("100.1", _BEFORE), ("100.2", _UNLIKE), ("100.3", _AFTER)]),
    ],
    ids=["next-moved", "previous-moved", "another-number", "a-quarter-short"],
)
def test_a_rule_out_of_its_slot_or_sharing_too_little_stays_removed(
    tmp_path: Path, old_rules: list[tuple[str, str]], new_rules: list[tuple[str, str]]
) -> None:
    old, new = _pair(tmp_path, old_rules, new_rules)
    assert _kind(old, align(old, new), "100.2") == Kind.REMOVED


def test_a_text_left_unpaired_that_shares_more_of_the_meaning_leaves_the_slot_alone(tmp_path: Path) -> None:
    # 2016-04-08's 711.1a: the old 711.1b, left unpaired, holds more of the new 711.1a's meaning than the old
    # 711.1a does (it was split into the new 711.1a and 711.1b): no link by number. Here a rule of another section,
    # too unlike in text to be linked, says most of what the new 100.2 says.
    closer = (
        "Whenever a certain effect allows casting some spell, it may require paying alternative costs; these costs "
        "are generally optional and paid once."
    )
    rules = [("100.1", _BEFORE), ("100.2", _OLD), ("100.3", _AFTER)]
    lines = ["Magic: The Gathering Comprehensive Rules", "", "1. Game Concepts", "", "100. General", ""]
    old_lines = [*lines, *(x for n, t in rules for x in (f"{n}. {t}", "")), "101. Other", "", f"101.1. {closer}", ""]
    (tmp_path / "old.txt").write_text("\n".join([*old_lines, "Glossary", "", "Alpha", "A word.", ""]), encoding="utf-8")
    old = parse(str(tmp_path / "old.txt"))
    new = _release(tmp_path / "new.txt", [("100.1", _BEFORE), ("100.2", _NEW), ("100.3", _AFTER)])
    al = align(old, new)
    assert _kind(old, al, "100.2") == Kind.REMOVED
    assert _links(new, old, align(new, old))["100.2"] != ["100.2"]


@needs_cr_corpus
def test_the_official_rules_rewritten_in_their_slots() -> None:
    for old_label, new_label, number in (
        ("2019-01-25", "2019-05-03", "117.9b"),  # "Alternative costs are always optional." -> "generally optional"
        ("2023-04-14", "2023-06-16", "702.165b"),  # backup: the order of printed abilities
        ("2007-02-01", "2007-05-01", "606.6b"),  # Two-Headed Giant: the first team's draw step
    ):
        old, new, al = official_pair(old_label, new_label)
        assert _links(old, new, al)[number] == [number], (old_label, number)
    # ... but not 2016-04-08's 711.1a, whose words went nowhere (see above), nor a rule in the slot of its neighbours
    # whose number or previous neighbour is another's: 2009-07-11's 502.68a (lifelink as a triggered ability) is not
    # 702.13a, and 2004-10-01's 205.3d not its new 205.3d (both read by hand as partly elsewhere).
    old, new, al = official_pair("2016-01-16", "2016-04-08")
    assert _links(old, new, al)["711.1a"] == []
    for old_label, new_label, number in (
        ("2009-05-01", "2009-07-11", "502.68a"),
        ("2004-06-01", "2004-10-01", "205.3d"),
    ):
        old, new, al = official_pair(old_label, new_label)
        assert not change_of(old, al, number).reason.endswith("its neighbours kept theirs"), (old_label, number)


@needs_cr_corpus
def test_a_weak_link_the_passes_made_in_a_slot_is_flagged() -> None:
    # 2002-10-07 -> 2003-03-15's 214.7b: "Plurality and gender are ignored when determining creature types." ->
    # "Use the Oracle card reference when determining creature types": linked by its number and neighbours on 45% of
    # the meaning, text 0.50, and read by hand as another rule: flagged now, as a slot link is.
    old, _, al = official_pair("2002-10-07", "2003-03-15")
    ch = change_of(old, al, "214.7b")
    assert ch.kind == Kind.EDITED and ch.uncertain
    assert ch.reason.endswith("; uncertain: only 45% of the meaning, at its own number")
    # 2019-07-12's mulligan rules, rewritten where they stood, are flagged too (and right: the reader's uncertain).
    old, _, al = official_pair("2019-06-14", "2019-07-12")
    assert all(change_of(old, al, n).uncertain for n in ("103.4c", "800.5", "903.11g"))
    # Not a rule held whole in its new text (2020-04-17's 100.5, "There is no maximum deck size.", grew a sentence).
    old, _, al = official_pair("2020-01-24", "2020-04-17")
    assert not change_of(old, al, "100.5").uncertain
