"""An edit that makes a release's rename in some of the places a text uses it, and keeps the others, is renamed."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from rulediff.words.nature import nature_of
from rulediff.words.records import Nature, Rename

from .aligned import change_of, official_pair
from .conftest import needs_cr_corpus

_ENTERS = Rename(
    "enters the battlefield",
    "enters",
    (("enter the battlefield", "enter"), ("enters the battlefield", "enters")),
    quoted=True,
)
_CAST = Rename("to play", "to cast", (("could play", "could cast"), ("may play", "may cast")))
_EDH = Rename("EDH", "Commander", (("EDH", "Commander"),))

# 2024-06-07 -> 2024-07-30, the example of 608.3e: Clone's text took the rename, Worms of the Earth's did not.
_CLONE_OLD = (
    "Example: Worms of the Earth has the ability \u201cLands can\u2019t enter the battlefield.\u201d Clone says"
    " \u201cYou may have Clone enter the battlefield as a copy of any creature on the battlefield.\u201d If a player"
    " casts Clone and chooses to copy Dryad Arbor (a land creature) while Worms of the Earth is on the battlefield,"
    " Clone can\u2019t enter the battlefield from the stack. It\u2019s put into its owner\u2019s graveyard."
)
_CLONE_NEW = _CLONE_OLD.replace("Clone enter the battlefield as", "Clone enter as")


def test_a_rename_made_in_one_quotation_and_not_another_is_renamed() -> None:
    assert nature_of(_CLONE_OLD, _CLONE_NEW, renames=(_ENTERS,)) == Nature.RENAMED
    # ... but a word changed beside it is an edit,
    assert nature_of(_CLONE_OLD, _CLONE_NEW.replace("any creature", "a creature"), renames=(_ENTERS,)) == (
        Nature.SUBSTANTIVE
    )
    # ... and so is the rename made outside the quotations, where a rename of quoted text does not read.
    outside = _CLONE_OLD.replace("Clone can\u2019t enter the battlefield from", "Clone can\u2019t enter from")
    assert nature_of(_CLONE_OLD, outside, renames=(_ENTERS,)) == Nature.SUBSTANTIVE


def test_a_rename_made_in_one_place_of_a_rule_that_keeps_the_word_elsewhere_is_renamed() -> None:
    # 2009-05-01 -> 2009-07-11, 502.57a -> 702.8a: flash's card is still "played" (it may be a land), the instant
    # it is like is "cast".
    old = "\u201cFlash\u201d means \u201cYou may play this card any time you could play an instant.\u201d"
    new = "\u201cFlash\u201d means \u201cYou may play this card any time you could cast an instant.\u201d"
    assert nature_of(old, new, renames=(_CAST,)) == Nature.RENAMED
    # The place changed must be the rename: "could play" -> "could resolve" is an edit.
    assert nature_of(old, old.replace("could play", "could resolve"), renames=(_CAST,)) == Nature.SUBSTANTIVE


def test_the_article_before_a_place_renamed_agrees() -> None:
    old = "Play an EDH game. An EDH deck has 100 cards."
    assert nature_of(old, "Play a Commander game. An EDH deck has 100 cards.", renames=(_EDH,)) == Nature.RENAMED
    wrong = "Play an Commander game. An EDH deck has 100 cards."
    assert nature_of(old, wrong, renames=(_EDH,)) == Nature.SUBSTANTIVE


_WORDS = st.sampled_from(["the", "card", "game", "player", "deck", "EDH", "an EDH", "a", "plays", "EDHs"])


@settings(max_examples=200, deadline=None)
@given(st.lists(_WORDS, min_size=1, max_size=14), st.data())
def test_any_choice_of_places_renamed_is_renamed_and_nothing_else_is(words: list[str], data: st.DataObject) -> None:
    """Whatever places of a text take the rename, the edit is RENAMED (or none at all); change one more word and
    it is SUBSTANTIVE."""
    text = " ".join(words) + "."
    # Each use of "EDH" (with its article) renamed or not, chosen by the test, built independently of the code.
    pieces = text.split("EDH")
    out = pieces[0]
    for piece in pieces[1:]:
        take = data.draw(st.booleans())
        if take and not piece.startswith("s") and not (out and (out[-1].isalnum() or out[-1] == "'")):
            if out.endswith("an "):
                out = out[:-3] + "a "
            out += "Commander" + piece
        else:
            out += "EDH" + piece
    nature = nature_of(text, out, renames=(_EDH,))
    assert nature == (None if out == text else Nature.RENAMED)
    changed = out.replace("player", "opponent", 1) if "player" in out else out + " More."
    assert nature_of(text, changed, renames=(_EDH,)) == Nature.SUBSTANTIVE


@needs_cr_corpus
def test_2024_07_608_3e_example_is_renamed() -> None:
    old, _, al = official_pair("2024-06-07", "2024-07-30")
    ch = change_of(old, al, "608.3e")
    assert ch.nature == Nature.RENAMED
    assert [e.nature for e in ch.examples] == [Nature.RENAMED]


def test_a_text_read_in_too_many_ways_at_once_is_an_edit() -> None:
    """A periodic text in which every place both renamed and kept lines up with the new one (hostile, no rule reads
    so) is answered as an edit once more ways than a real text has are open: the reading stays linear."""
    twice = Rename("yes yes", "yes", (("yes yes", "yes"),))
    few = " ".join(["yes"] * 8)
    assert nature_of(few, " ".join(["yes"] * 6), renames=(twice,)) == Nature.RENAMED
    many = " ".join(["yes"] * 4000)
    assert nature_of(many, " ".join(["yes"] * 3000), renames=(twice,)) == Nature.SUBSTANTIVE


def test_a_rename_spelled_with_a_hyphen_or_a_curly_apostrophe_is_found_in_the_comparison_form() -> None:
    # The comparison form drops a hyphen inside a word ("statebased") and straightens apostrophes: the places are
    # read in it with the spellings read the same way.
    based = Rename("state-based effect", "state-based action", (("state-based effect", "state-based action"),))
    old = "A state-based effect. Another state-based effect."
    assert nature_of(old, "A state-based action. Another state-based effect.", renames=(based,)) == Nature.RENAMED
    assert nature_of(old, "A state-based action. Another statebased rule.", renames=(based,)) == Nature.SUBSTANTIVE
    doesnt = Rename("he or she doesn\u2019t", "they don\u2019t", (("he or she doesn\u2019t", "they don\u2019t"),))
    old = "If he or she doesn\u2019t, he or she doesn\u2019t."
    assert nature_of(old, "If they don\u2019t, he or she doesn\u2019t.", renames=(doesnt,)) == Nature.RENAMED


def test_a_partial_rename_with_references_that_follow_the_map_is_renamed() -> None:
    # A rename made everywhere is forgiven references that follow the number map; so is one made in some places.
    old = "See rule 100.1 for EDH and EDH."
    nmap: dict[str, str | list[str]] = {"100.1": "100.2"}
    assert nature_of(old, "See rule 100.2 for Commander and EDH.", number_map=nmap, renames=(_EDH,)) == (Nature.RENAMED)
    # ... but not a reference the map does not say.
    assert nature_of(old, "See rule 100.3 for Commander and EDH.", number_map=nmap, renames=(_EDH,)) == (
        Nature.SUBSTANTIVE
    )
