"""Golden alignment cases of the hardest releases, cut small from the real texts (tests/fixtures/align/<quirk>/,
PROVENANCE in each): text that moved across levels and sections, renumbered procedures, renames as phrases."""

from __future__ import annotations

from rulediff import parse
from rulediff.matcher.classify import align
from rulediff.matcher.records import Alignment, Kind
from rulediff.model import Document
from rulediff.words.records import Nature

from .conftest import FIXTURES

ALIGN = FIXTURES / "align"


def _case(name: str) -> tuple[Document, Document, Alignment]:
    old, new = parse(str(ALIGN / name / "old.txt")), parse(str(ALIGN / name / "new.txt"))
    return old, new, align(old, new)


def _links(old: Document, new: Document, al: Alignment) -> dict[str, list[str]]:
    return {str(old.rules[i].number): [str(new.rules[j].number) for j in ch.new] for ch in al.changes for i in ch.old}


def _kinds(old: Document, al: Alignment) -> dict[str, Kind]:
    return {str(old.rules[i].number): ch.kind for ch in al.changes for i in ch.old}


def test_zones_2009_each_zone_follows_its_text_to_section_4() -> None:
    # 2009-07-11 made 217's subrules the headings of section 4, renamed two zones with their titles (In Play ->
    # Battlefield, Removed from the Game -> Exile) and dropped the phased-out zone.
    old, new, al = _case("zones-2009")
    links, kinds = _links(old, new, al), _kinds(old, al)
    # (and 400 General, made of 217.1's subrules, came out of it: matcher/folded.py)
    assert links["217"] == ["4", "400"]
    zones = {"217.2": "401", "217.3": "402", "217.4": "404", "217.5": "403", "217.6": "405", "217.7": "406"}
    assert {k: links[k] for k in zones} == {k: [v] for k, v in zones.items()}
    assert links["217.9"] == ["407"]  # Ante
    assert [links[f"217.7{c}"] for c in "bcd"] == [["406.3"], ["406.4"], ["406.5"]]
    assert [links[f"217.5{c}"] for c in "abc"] == [["403.1"], ["403.2"], ["403.4"]]
    assert all(kinds[k] == Kind.REMOVED for k in ("217.8", "217.8a", "217.8b", "217.8c", "217.8d"))
    # 217.1c's exceptions became rules of their own, each held whole in it (matcher/held.py).
    assert kinds["217.1c"] == Kind.SPLIT and links["217.1c"] == ["400.7", *(f"400.7{c}" for c in "abcdf")]
    assert ("removed from the game", "exile") in {(r.old, r.new) for r in al.renames}


def test_identical_text_2009_410_7_is_603_2f() -> None:
    old, new, al = _case("identical-text-410.7-603.2f-2009")
    links, kinds = _links(old, new, al), _kinds(old, al)
    assert links["410.7"] == ["603.2f"] and kinds["410.7"] == Kind.MOVED
    assert links["410"] == ["603"]
    assert links["410.2a"] == ["603.2e"]


def test_subrules_became_rules_2019_07_110_5_is_111() -> None:
    # 2019-07-12 made tokens a rule of their own: 110.5 and its subrules a-g became 111.1-111.8, word for word
    # but for 111.4's "subtype(s)".
    old, new, al = _case("subrules-became-rules-111-2019-07")
    links, kinds = _links(old, new, al), _kinds(old, al)
    assert links["110.5"] == ["111.1"]
    assert [links[f"110.5{c}"] for c in "abcdefg"] == [[f"111.{k}"] for k in range(2, 9)]
    assert all(kinds[f"110.5{c}"] == Kind.RENUMBERED for c in "abdefg")
    assert links["111"] == ["112"]  # Spells
    assert not [ch for ch in al.changes if ch.kind == Kind.REMOVED]


def test_priority_steps_2016_09_pair_by_content_not_number() -> None:
    # 2016-09-30 dropped the "Nth, abilities that trigger ... go on the stack" step of every step: the
    # "Nth, the active player gets priority" rules moved up one number, and some trigger rules became subrules.
    old, new, al = _case("priority-steps-2016-09")
    links, kinds = _links(old, new, al), _kinds(old, al)
    priority = {"503.2": "503.1", "504.3": "504.2", "505.5": "505.4", "507.3": "507.2", "508.3": "508.2"}
    priority |= {"510.4": "510.3", "511.2": "511.1", "513.2": "513.1"}
    assert {k: links[k] for k in priority} == {k: [v] for k, v in priority.items()}
    assert links["503.1"] == ["503.1a"] and links["510.3"] == ["510.3a"] and links["508.2"] == ["508.1k"]
    assert links["511.1"] == ["511.2"]  # "at end of combat" abilities trigger: the texts traded numbers
    assert all(kinds[k] == Kind.REMOVED for k in ("504.2", "505.4", "507.2", "513.1"))


def test_agreement_2018_04_he_or_she_has_is_they_have() -> None:
    old, new, al = _case("agreement-they-2018-04")
    renames = {(r.old, r.new) for r in al.renames}
    assert {("he or she", "they"), ("his or her", "their")} <= renames
    nature = {str(old.rules[ch.old[0]].number): ch.nature for ch in al.changes if ch.old}
    # "any time he or she has priority" -> "any time they have priority": the verb agrees, nothing else changed.
    assert all(nature[f"115.2{c}"] == Nature.RENAMED for c in "abcdefgh")
    assert nature["103.1"] == Nature.RENAMED
    # "whether or not he or she will" -> "whether they will" drops words of its own.
    assert nature["103.4"] == Nature.SUBSTANTIVE


def test_heading_renamed_at_the_same_number_2019_08_716_keeps_its_link() -> None:
    # 716 "Ending the Turn" -> 716 "Ending Turns and Phases"; its 716.2 and 716.3 became 716.1f and 716.1e.
    old, new, al = _case("heading-renamed-716-2019-08")
    links = _links(old, new, al)
    assert links["716"] == ["716"]
    assert links["716.2"] == ["716.1f"] and links["716.3"] == ["716.1e"]
    assert not [ch for ch in al.changes if ch.kind == Kind.REMOVED]


def test_mana_value_2021_04_is_a_rename_not_an_edit() -> None:
    # "converted mana cost" -> "mana value": "mana" stays, so the words that left are not the words that came.
    old, new, al = _case("mana-value-rename-2021-04")
    assert ("converted mana cost", "mana value") in {(r.old, r.new) for r in al.renames}
    edited = [ch for ch in al.changes if ch.kind == Kind.EDITED]
    assert len(edited) == 8 and all(ch.nature == Nature.RENAMED for ch in edited)


def test_friends_forever_2023_10_702_124g_is_702_124j() -> None:
    # 2023-10-13 rewrote partner: each variant's definition is a subrule of its own ("Friends forever means ...").
    old, new, al = _case("friends-forever-702.124-2023-10")
    links = _links(old, new, al)
    assert links["702.124g"] == ["702.124j"]
    assert "702.124i" in links["702.124f"]  # Partner with [name]
    assert links["702.124h"] == ["702.124k"] and links["702.124i"] == ["702.124n"]
    added = {str(new.rules[j].number) for ch in al.changes if ch.kind == Kind.ADDED for j in ch.new}
    assert {"702.124f", "702.124g", "702.124m"} <= added  # new rules, and the Doctor's companion


def test_a_rule_rewritten_at_its_own_number_2020_01_702_102c_keeps_its_link() -> None:
    # "The check for whether a spell can legally be cast happens after ..." -> "When casting a spell bestowed, only its
    # characteristics as modified by the bestow ability are evaluated ...": the Update Bulletin calls it revised; a
    # third of the meaning, between neighbours that kept their numbers.
    old, new, al = _case("rewritten-in-place-702.102c-2020-01")
    links = _links(old, new, al)
    assert links["702.102c"] == ["702.102c"]
    (ch,) = [ch for ch in al.changes if ch.old and str(old.rules[ch.old[0]].number) == "702.102c"]
    assert ch.kind == Kind.EDITED and ch.uncertain
    assert ch.reason.endswith("the same rule rewritten at its own number, its neighbours kept theirs")
    assert not [c for c in al.changes if c.kind in (Kind.REMOVED, Kind.ADDED)]
    # ... and read the other way round.
    back = align(new, old)
    assert _links(new, old, back)["702.102c"] == ["702.102c"]
