"""One classifier for the nature of an edit: the badge (``nature_of``) and the word diff's muting agree."""

from __future__ import annotations

from functools import cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rulediff import parse
from rulediff.matcher.classify import align
from rulediff.matcher.records import EDITED_KINDS, Alignment
from rulediff.model import Document
from rulediff.references import find_references
from rulediff.words.diff import Op, word_diff
from rulediff.words.nature import lossy_equal, nature_of
from rulediff.words.records import Nature

from .conftest import cr_txt_files, needs_cr_corpus


def _visible(old: str, new: str, nmap: dict[str, str | list[str]] | None = None) -> bool:
    return any(p.op in (Op.DELETE, Op.INSERT) for p in word_diff(old, new, nmap))


@pytest.mark.parametrize(
    ("old", "new"),
    [
        # 2002-02-20 -> 2002-10-07 420.5e: single quotes became double quotes.
        ("This is called 'the Legend rule.' In the event", 'This is called "the Legend rule." In the event'),
        # Straight and curly, single and double, apostrophes beside them.
        ("it's called 'the Legend rule.'", "it\u2019s called \u201cthe Legend rule.\u201d"),
        ("See \"Intervening 'If' Clause.\"", 'See "Intervening "If\' Clause."'),
        ("a ''quoted'' word", 'a "quoted" word'),
        ('the "legend rule."', "the \u2018legend rule.\u2019"),
    ],
)
def test_quote_style_is_typography(old: str, new: str) -> None:
    """Quote style (straight or curly, single or double) is typography: the words are the same words."""
    assert nature_of(old, new) == Nature.TYPOGRAPHY_ONLY
    assert not _visible(old, new)
    # Beside a real edit, the edit is substantive and shows.
    assert nature_of("Also this. " + old, new) == Nature.SUBSTANTIVE
    assert any("Also" in p.text for p in word_diff("Also this. " + old, new) if p.op == Op.DELETE)


@pytest.mark.parametrize(
    ("old", "new"),
    [
        # Quotes added or taken away are no change of style; nor is a word inside them.
        ("This is called the Legend rule.", 'This is called "the Legend rule."'),
        ("This is called 'the Legend rule.'", 'This is called "the legend rules."'),
    ],
)
def test_quotes_added_or_words_changed_are_not_style(old: str, new: str) -> None:
    assert nature_of(old, new) == Nature.SUBSTANTIVE
    assert _visible(old, new)


@pytest.mark.parametrize(
    ("old", "new"),
    [
        # A hyphen lost at a PDF line end (seed 003, the 2011 blog paste of 2010-10-01's section 7).
        ("not turn-based actions", "not turnbased actions"),
        ("from the main-game command zone", "from the maingame command zone"),
        ("a nonrepetitive process", "a non-repetitive process"),
        ("a hyphen at a line end turn- based", "a hyphen at a line end turn-based"),
        # Emphasis marked by underscores in the releases, by asterisks in a Markdown dump.
        ("_Magic: The Gathering_ cards", "*Magic: The Gathering* cards"),
        # Wrapped lines.
        ("one\nparagraph  wrapped", "one paragraph wrapped"),
        # 2014-02-01 -> 2014-05-01 100.6b: the angle brackets round a URL went away (a lone deletion).
        ("see <Wizards.com/Rules>.", "see Wizards.com/Rules."),
        ("Magic (TM) cards", "Magic\u2122 cards"),
    ],
)
def test_transcription_is_typography(old: str, new: str) -> None:
    assert nature_of(old, new) == Nature.TYPOGRAPHY_ONLY
    assert not _visible(old, new)
    assert any(p.op == Op.MUTED for p in word_diff(old, new))


@pytest.mark.parametrize(
    ("old", "new"),
    [
        # The archived 2008-05-01 text wrote "?" for every curly quote, dash and trademark sign
        # (2008-02-01 -> 2008-05-01, rules 101.1, 100.1b, 212.2c, 104.5).
        ("your opponents\u2019 decks", "your opponents? decks"),
        ("see section 6, \u201cMultiplayer Rules.\u201d", "see section 6, ?Multiplayer Rules.?"),
        ("the player\u2019s \u201ccan\u2019t\u201d effect", "the player?s ?can?t? effect"),
        ("\u201cArtifact \u2014 Equipment\u201d", "?Artifact ? Equipment?"),
        ("the Odyssey\u2122 block", "the Odyssey? block"),
    ],
)
def test_lossy_question_marks_are_typography(old: str, new: str) -> None:
    assert nature_of(old, new) == Nature.TYPOGRAPHY_ONLY
    assert nature_of(new, old) == Nature.TYPOGRAPHY_ONLY
    assert not _visible(old, new)


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("Can it attack?", "Can it attack."),  # a question mark where the other side has no quote
        ("the Odyssey block", "the Odyssey? block"),  # nothing for a "?" to stand for
        ("a player\u2019s hand", "a player?? hand"),
    ],
)
def test_other_question_marks_are_text(old: str, new: str) -> None:
    assert nature_of(old, new) == Nature.SUBSTANTIVE
    assert _visible(old, new)


def test_a_reference_that_names_its_target_follows_the_title() -> None:
    # 2024-09-20 502.2: Day and Night had been 728 since 2024-07-30 (727 Merging with Permanents came
    # in before it); the stale number beside the title caught up. Nothing in the pair renumbered it.
    old = "This turn-based action doesn\u2019t use the stack. See rule 727, \u201cDay and Night.\u201d"
    new = "This turn-based action doesn\u2019t use the stack. See rule 728, \u201cDay and Night.\u201d"
    nmap: dict[str, str | list[str]] = {"727": "727", "728": "728"}
    assert nature_of(old, new, number_map=nmap) == Nature.REFERENCES_ONLY
    assert not _visible(old, new, nmap)
    # Another number beside another title names another rule: that is a change of what it says.
    other = "This turn-based action doesn\u2019t use the stack. See rule 728, \u201cTaking Shortcuts.\u201d"
    assert nature_of(old, other, number_map=nmap) == Nature.SUBSTANTIVE
    # Without a title, a number the map does not send there is a different rule.
    assert nature_of("See rule 727.", "See rule 728.", number_map=nmap) == Nature.SUBSTANTIVE


def test_range_references_follow_the_map() -> None:
    nmap: dict[str, str | list[str]] = {f"506.7{c}": f"506.8{c}" for c in "abcdef"}
    old, new = "See rules 506.7a\u2013f.", "See rules 506.8a\u2013f."
    assert nature_of(old, new, number_map=nmap) == Nature.REFERENCES_ONLY
    assert not _visible(old, new, nmap)


def test_a_range_whose_ends_follow_the_map_follows_it() -> None:
    # 2015-07-17 inserted a subrule into 601.2: "601.2a-g" became "601.2a-h" with g -> h.
    nmap: dict[str, str | list[str]] = {"601.2g": "601.2h", "601.2f": "601.2g"}
    assert nature_of("rules 601.2a-g apply", "rules 601.2a-h apply", number_map=nmap) == Nature.REFERENCES_ONLY
    # The range grew over a rule that is new at its end: that is a change of what it says.
    nmap = {}
    assert nature_of("rules 713.2a-c apply", "rules 713.2a-d apply", number_map=nmap) == Nature.SUBSTANTIVE
    assert _visible("rules 713.2a-c apply", "rules 713.2a-d apply", nmap)


def test_the_numbers_of_a_list_that_names_their_titles_follow_the_map() -> None:
    # 2026-04-17's 701.27g: "See rules 701.42, "Meld," and 729, "Merging with Permanents."" -> 730 (729 -> 730).
    old = "See rules 701.42, \u201cMeld,\u201d and 729, \u201cMerging with Permanents.\u201d"
    new = old.replace("729", "730")
    nmap: dict[str, str | list[str]] = {"729": "730", "730": "731"}
    assert [r.text for r in find_references(old)] == ["701.42", "729"]
    assert nature_of(old, new, number_map=nmap) == Nature.REFERENCES_ONLY
    assert not _visible(old, new, nmap)
    # The titles are words of the text: one changed is an edit.
    assert nature_of(old, new.replace("Meld", "Melding"), number_map=nmap) == Nature.SUBSTANTIVE


def test_a_reference_to_where_a_rule_and_all_under_it_went_follows_the_map() -> None:
    # 2019-07-12's 200.3: "See rule 110.5" -> "See rule 111": 110.5 (Tokens) became 111.1, 110.5a-g 111.2-111.8.
    nmap: dict[str, str | list[str]] = {"110.5": "111.1", **{f"110.5{c}": f"111.{k}" for k, c in enumerate("ab", 2)}}
    assert nature_of("See rule 110.5.", "See rule 111.", number_map=nmap) == Nature.REFERENCES_ONLY
    # ... not where one of its subrules went elsewhere, nor for a rule with nothing under it.
    assert nature_of("See rule 110.5.", "See rule 111.", number_map={**nmap, "110.5b": "112.1"}) == (Nature.SUBSTANTIVE)
    assert nature_of("See rule 110.4.", "See rule 111.", number_map={"110.4": "111.1"}) == Nature.SUBSTANTIVE
    # ... nor a parent that holds other rules too: 2010-02-01 -> 2009-10-01's 104.3i, "See rule 807.5" -> "See rule
    # 807", names more than it did (the map holds every rule with a counterpart, unchanged ones too).
    parent: dict[str, str | list[str]] = {"807": "807", "807.1": "807.1", "807.5": "807.5", "807.5a": "807.5a"}
    assert nature_of("See rule 807.5.", "See rule 807.", number_map=parent) == Nature.SUBSTANTIVE
    # ... but the heading a section split off, what that section's rule went to with its subrules, is.
    split: dict[str, str | list[str]] = {**nmap, "110": ["110", "111"], "110.4": "110.4"}
    assert nature_of("See rule 110.5.", "See rule 111.", number_map=split) == Nature.REFERENCES_ONLY


def test_substantive_edits_always_show_something() -> None:
    old, new = "A player may mulligan.", "A player can't mulligan."
    assert nature_of(old, new) == Nature.SUBSTANTIVE
    assert _visible(old, new)


@cache
def _corpus() -> list[Document]:
    return [parse(str(p)) for p in cr_txt_files()]


def _pairs() -> list[Alignment]:
    docs = _corpus()
    return [align(a, b) for a, b in zip(docs, docs[1:], strict=False)]


@needs_cr_corpus
def test_badge_and_word_diff_agree_on_every_consecutive_pair() -> None:
    disagree = []
    for al in _pairs():
        for ch in al.changes:
            if ch.kind not in EDITED_KINDS or len(ch.old) != 1 or len(ch.new) != 1:
                continue
            ra, rb = al.old.rules[ch.old[0]], al.new.rules[ch.new[0]]
            n = nature_of(ra.text, rb.text, ra.norm, rb.norm, al.number_map, al.renames)
            # An edit that is only a release-wide rename still shows the renamed words.
            if (n in (Nature.SUBSTANTIVE, Nature.RENAMED)) != _visible(ra.text, rb.text, al.number_map):
                disagree.append(f"{al.old.version.label} -> {al.new.version.label} {ra.number} {n}")
            for e in ch.examples:
                if e.kind != "edited" or e.old is None or e.new is None:
                    continue
                if (e.nature in (Nature.SUBSTANTIVE, Nature.RENAMED)) != _visible(e.old, e.new, al.number_map):
                    disagree.append(f"{al.new.version.label} {rb.number} example {e.nature}")
    assert disagree == []


def _lossy_equal_by_regex(a: str, b: str, marks: bool = False) -> bool:
    """The regular expression ``lossy_equal`` used to compile from ``b`` for every call: the reference
    its position walk must agree with."""
    import re

    if "?" not in b and "?" in a:
        a, b = b, a
    if "?" not in b:
        return False
    one = "(?:['\"?-]|)" if marks else "['\"?-]"
    parts = []
    for k, chunk in enumerate(re.split(r"( \? |\?)", b)):
        if k % 2 == 0:
            parts.append("".join("['?]" if c == "'" else '["?]' if c == '"' else re.escape(c) for c in chunk))
        elif chunk == "?":
            parts.append(one)
        else:
            parts.append(f"(?:-|| {one} )")
    return re.fullmatch("".join(parts), a) is not None


_LOSSY_TEXT = st.text(alphabet="ab ?'\"-.\u2019\u201c", max_size=12)


@settings(max_examples=3000, deadline=None)
@given(_LOSSY_TEXT, _LOSSY_TEXT, st.booleans())
def test_lossy_equal_answers_as_the_regular_expression_did(a: str, b: str, marks: bool) -> None:
    assert lossy_equal(a, b, marks) == _lossy_equal_by_regex(a, b, marks)


@pytest.mark.parametrize("marks", [False, True])
def test_lossy_equal_on_question_marks_beside_spaces(marks: bool) -> None:
    # The spaced "?" (a dash) against each thing it may stand for, and a few it may not.
    for a in ["x - y", "x y", "x  y", "x ' y", "x ? y", "x  -  y", "x-y", "x -y", "x   y"]:
        assert lossy_equal(a, "x ? y", marks) == _lossy_equal_by_regex(a, "x ? y", marks), a


@settings(max_examples=3000, deadline=None)
@given(_LOSSY_TEXT, st.data(), st.booleans())
def test_lossy_equal_agrees_on_near_matches(b: str, data: st.DataObject, marks: bool) -> None:
    # Each "?" (and quote) of b replaced by something it may or may not stand for: mostly near matches.
    swap = st.sampled_from(["'", '"', "-", "?", "", " ", "\u2019", "a"])
    a = "".join(data.draw(swap) if c in "?'\"" else c for c in b)
    assert lossy_equal(a, b, marks) == _lossy_equal_by_regex(a, b, marks)
    assert lossy_equal(b, a, marks) == _lossy_equal_by_regex(b, a, marks)
