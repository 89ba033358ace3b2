"""Release-wide renames (EDH -> Commander) detected from the pair itself, compared modulo, reported once:
the golden 2011-02 case, the detector's bars on small made-up releases, and every consecutive pair."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from dataclasses import replace
from functools import cache

from hypothesis import given
from hypothesis import strategies as st
from jsonschema import Draft202012Validator

from rulediff import parse
from rulediff.matcher.classify import align
from rulediff.matcher.passes import match
from rulediff.matcher.records import Kind, Shown, shown_as
from rulediff.matcher.renames import detect
from rulediff.model import Document
from rulediff.parsers import parse_bytes
from rulediff.render.diff_json import to_dict
from rulediff.render.html import to_html
from rulediff.render.markdown import to_markdown
from rulediff.render.notes import build_notes
from rulediff.render.notes_json import notes_dict
from rulediff.site.api import schema_texts
from rulediff.text import mask_references, normalize
from rulediff.words.agreement import forms
from rulediff.words.diff import Op, word_diff
from rulediff.words.nature import nature_of
from rulediff.words.records import Nature, Rename
from rulediff.words.renames import renamed, substitute

from .aligned import official_pair
from .conftest import FIXTURES, ROOT, cr_txt_files, needs_cr_corpus


def _valid(doc: dict[str, object], schema: str) -> None:
    """``doc`` follows the shipped ``schema``.schema.json (the one the API serves)."""
    Draft202012Validator(json.loads(schema_texts()[f"{schema}.schema.json"])).validate(doc)


CASE = FIXTURES / "align" / "renames-edh-commander-2011-02"


@cache
def _edh() -> tuple[Document, Document]:
    return parse(str(CASE / "old.txt")), parse(str(CASE / "new.txt"))


def _links(old: Document, new: Document) -> dict[str, tuple[str, Kind, Nature | None]]:
    out = {}
    for ch in align(old, new).changes:
        for i in ch.old:
            for j in ch.new:
                out[str(old.rules[i].number)] = (str(new.rules[j].number), ch.kind, ch.nature)
    return out


# --- the golden case, cut from 2010-10-01 -> 2011-02-04 ------------------------------------------------


def test_903_stays_linked_through_edh_to_commander() -> None:
    old, new = _edh()
    links = _links(old, new)
    assert links["903"] == ("903", Kind.EDITED, Nature.RENAMED)  # "903. EDH" -> "903. Commander"
    for n in ("903.1", "903.2", "903.3"):
        assert links[n] == (n, Kind.EDITED, Nature.RENAMED)
    assert links["903.4"] == ("903.5", Kind.RENUMBERED_EDITED, Nature.RENAMED)
    assert links["903.4c"][0] == "903.5c"  # also rewritten for color identity: a real edit
    assert links["903.4c"][2] == Nature.SUBSTANTIVE
    for a, b in (("903.9", "903.10"), ("903.10", "903.11"), ("903.11", "903.12"), ("903.12a", "903.13a")):
        assert links[a] == (b, Kind.RENUMBERED_EDITED, Nature.RENAMED)
    al = align(old, new)
    assert not [ch for ch in al.changes if ch.kind == Kind.REMOVED]


def test_edh_rename_reported_once_in_json_html_and_notes() -> None:
    old, new = _edh()
    al = align(old, new)
    assert [(r.old, r.new) for r in al.renames] == [("EDH", "Commander"), ("general", "commander")]
    d = to_dict(al)
    assert d["schema"] == "rulediff.diff/1.1"
    edh = [["EDH", "Commander"]]
    general = [["General", "Commander"], ["general", "commander"]]  # (case kept: a sentence starts with it)
    assert d["renames"] == [
        {"old": "EDH", "new": "Commander", "rules": 10, "quoted": False, "spellings": edh, "forms": []},
        {"old": "general", "new": "commander", "rules": 12, "quoted": False, "spellings": general, "forms": []},
    ]
    _valid(json.loads(json.dumps(d)), "diff")
    assert notes_dict(al)["renames"] == d["renames"]
    md = to_markdown(al)
    assert md.count("renamed throughout: EDH → Commander, 10 rules") == 1
    assert md.count("renamed throughout: general → commander, 12 rules") == 1
    html = to_html(al)
    assert html.count("renamed throughout: <del>EDH</del> → <ins>Commander</ins>, 10 rules") == 1
    notes = build_notes(al)
    only = {b.number for b in notes.renamed_only}
    assert {"903", "903.1", "903.5", "903.13a"} <= only
    # Grouped, not listed again one by one as edits; the rules with a real edit besides are listed.
    listed = {e.number for e in notes.changes}
    assert not only & listed
    assert "903.5c" in listed
    assert notes.counts() == {k.removeprefix("reader_"): v for k, v in al.summary().items() if k.startswith("reader_")}


def test_a_renamed_only_edit_shows_the_renamed_words_and_nothing_else() -> None:
    old, new = _edh()
    al = align(old, new)
    for ch in al.changes:
        if ch.nature != Nature.RENAMED or not ch.old or not ch.new:
            continue
        a, b = al.old.rules[ch.old[0]].text, al.new.rules[ch.new[0]].text
        pieces = word_diff(a, b, al.number_map)
        gone = " ".join(p.text for p in pieces if p.op == Op.DELETE).split()
        came = " ".join(p.text for p in pieces if p.op == Op.INSERT).split()
        assert gone, a  # the badge says edited: the diff shows it
        assert set(gone) <= {"EDH", "general", "general's", "generals", "an", "An"}, (a, gone)
        assert set(came) <= {"Commander", "commander", "commander's", "commanders", "a", "A"}, (b, came)
        assert shown_as(ch) == Shown.RENAMED


# --- the detector on small made-up releases -------------------------------------------------------------


def _release(date: str, rules: list[str]) -> Document:
    head = f"Magic: The Gathering Comprehensive Rules\n\nThese rules are effective as of {date}.\n\n"
    head += "1. Game Concepts\n\n"
    body = "100. General\n\n" + "\n\n".join(f"100.{k + 1}. {t}" for k, t in enumerate(rules))
    return parse_bytes((head + body + "\n\nGlossary\n\nCredits\n").encode(), f"{date}.txt")


_FILLER = [f"Filler rule number {k} says something about tapping {k} lands." for k in range(12)]


def _pair(old_rules: list[str], new_rules: list[str]) -> tuple[Document, Document]:
    return _release("May 1, 2020", _FILLER + old_rules), _release("June 1, 2020", _FILLER + new_rules)


def _detect(old: Document, new: Document) -> tuple[Rename, ...]:
    return align(old, new).renames


def test_a_term_replaced_in_many_rules_and_gone_is_a_rename() -> None:
    old_rules = [f"A widget may enter play {k} times in a widget game." for k in range(6)]
    new_rules = [f"A gadget may enter play {k} times in a gadget game." for k in range(6)]
    renames = _detect(*_pair(old_rules, new_rules))
    assert [(r.old, r.new, r.rules) for r in renames] == [("widget", "gadget", 6)]


def test_a_word_changed_in_a_few_rules_is_an_edit_not_a_rename() -> None:
    old_rules = [f"A widget may enter play {k} times." for k in range(3)] + ["Untouched rule."]
    new_rules = [f"A gadget may enter play {k} times." for k in range(3)] + ["Untouched rule."]
    old, new = _pair(old_rules, new_rules)
    assert _detect(old, new) == ()
    assert all(ch.nature in (None, Nature.SUBSTANTIVE) for ch in align(old, new).changes)


def test_a_word_changed_in_many_rules_but_still_used_is_not_a_rename() -> None:
    changed = [f"A widget may enter play {k} times." for k in range(6)]
    still = [f"Each widget counts as {k} lands." for k in range(8)]
    new_changed = [f"A gadget may enter play {k} times." for k in range(6)]
    assert _detect(*_pair(changed + still, new_changed + still)) == ()


def test_a_web_address_moved_in_many_rules_is_no_rename() -> None:
    # 2011-05-01 moved the Tournament Rules' page in five rules: "TCG" left the release with it, and a
    # token-by-token alignment of the addresses replaces "TCG" by "Events". Addresses are no words of the rules.
    old_url, new_url = (
        "http://www.wizards.com/Magic/TCG/Events.aspx?x=dci/doccenter/home",
        "www.wizards.com/wpn/Events/Rules.aspx",
    )
    old_rules = [f"Widget tournament {k} is described at <{old_url}>." for k in range(6)]
    new_rules = [f"Widget tournament {k} is described at <{new_url}>." for k in range(6)]
    assert _detect(*_pair(old_rules, new_rules)) == ()
    # Words around an address still count: the same rules renaming a term besides are a rename.
    renamed = [f"Gadget tournament {k} is described at <{new_url}>." for k in range(6)]
    assert [(r.old, r.new) for r in _detect(*_pair(old_rules, renamed))] == [("Widget tournament", "Gadget tournament")]


def test_a_hostile_run_of_dots_beside_an_address_is_read_once() -> None:
    # Rule text is untrusted. An address pattern tried at every position of "a.a.a..." reads the rest of
    # the run each time: six such rules of 60 KB took minutes to align. Run apart, so that a regression
    # fails here rather than hanging the suite. The bound only guards against a hang: it is some twenty
    # times what the alignment takes, most of which is comparing the long texts.
    code = (
        "from tests.test_renames import _pair, _detect\n"
        "junk = 'x.com ' + 'a.' * 30_000\n"
        "old = [f'Widget rule {k} reads {junk} and so on.' for k in range(6)]\n"
        "new = [f'Gadget rule {k} reads {junk} and so on.' for k in range(6)]\n"
        "print(_detect(*_pair(old, new)))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    # Texts of over 5,000 tokens are not aligned word by word: one such text is no evidence of a rename.
    assert done.stdout.strip() == "()"


def test_a_renamed_title_needs_fewer_rules() -> None:
    # 2024-06-07 renamed "702.89. Totem Armor" and its one rule: the name of the thing changed.
    head = "Magic: The Gathering Comprehensive Rules\n\nThese rules are effective as of {}.\n\n"
    head += "1. Game Concepts\n\n100. General\n\n100.1. These rules apply to any game.\n\n7. Additional Rules\n\n"
    body = (
        "702. Keyword Abilities\n\n702.1. Most abilities describe exactly what they do.\n\n702.89. {t}\n\n"
        "702.89a {t} is a static ability that appears on some Auras.\n\n702.90. Reach\n\n"
        '702.90a Reach is an evasion ability.\n\nGlossary\n\n{t}\nA keyword ability. See rule 702.89, "{t}."\n\n'
        'Reach\nA keyword ability. See rule 702.90, "Reach."\n\nCredits\n'
    )
    old = parse_bytes((head.format("April 12, 2024") + body.format(t="Totem Armor")).encode(), "a.txt")
    new = parse_bytes((head.format("June 7, 2024") + body.format(t="Umbra Armor")).encode(), "b.txt")
    al = align(old, new)
    # Named as the release writes it most ("Totem Armor" in the title, "Totem armor" in running text).
    assert [(r.old.casefold(), r.new.casefold()) for r in al.renames] == [("totem armor", "umbra armor")]
    links = _links(old, new)
    assert links["702.89"] == ("702.89", Kind.EDITED, Nature.RENAMED)
    # The glossary term renamed with it is the rename too, not an edit of its own.
    term = next(g for g in al.glossary if g.old is not None and g.old.term == "Totem Armor")
    assert term.new is not None and term.new.term == "Umbra Armor"
    assert (term.kind, term.nature) == (Kind.EDITED, Nature.RENAMED)


def test_substitute_keeps_case_endings_articles_and_other_words() -> None:
    r = (
        Rename("EDH", "Commander", (("EDH", "Commander"),)),
        Rename("general", "commander", (("general", "commander"),)),
    )
    assert substitute("An EDH game: a general's generals.", r) == "A Commander game: a commander's commanders."
    assert substitute("In general, generally; 900. General", r) == "In commander, generally; 900. General"
    assert detect(*_pair(["Alone."], ["Alone."]), []) == ()


def test_nature_of_an_edit_that_is_only_the_rename() -> None:
    r = (Rename("Tribal", "Kindred", (("Tribal", "Kindred"), ("tribal", "kindred"))),)
    assert nature_of("Tribal spells are tribal.", "Kindred spells are kindred.", renames=r) == Nature.RENAMED
    # With typography besides (a dash) it is still only the rename.
    assert nature_of("Tribal spells\u2014are tribal.", "Kindred spells - are kindred.", renames=r) == Nature.RENAMED
    assert nature_of("Tribal spells are tribal.", "Kindred spells are rare.", renames=r) == Nature.SUBSTANTIVE
    assert nature_of("Tribal spells are tribal.", "Kindred spells are kindred.") == Nature.SUBSTANTIVE


_THEY = Rename(
    "he or she",
    "they",
    (("he or she", "they"), ("he or she has", "they have"), ("he or she doesn't", "they don't")),
)


def test_the_forms_a_rename_names_are_its_inflections_only() -> None:
    # Not the term itself in another case, nor a verb agreeing after it, nor the term's other inflection of it.
    assert forms(_THEY.spellings, _THEY.old) == ()
    enters = Rename(
        "enters the battlefield", "enters", (("enter the battlefield", "enter"), ("enters the battlefield", "enters"))
    )
    assert forms(enters.spellings, enters.old) == (("enter the battlefield", "enter"),)
    cased = Rename("tribal", "kindred", (("Tribal", "Kindred"), ("tribal", "kindred")))
    assert forms(cased.spellings, cased.old) == ()


def test_a_spelling_with_an_apostrophe_matches_a_curly_one() -> None:
    # The detection reads straight apostrophes; the releases since 2015 print curly ones (2018-04-27's 112.4).
    old, new = "even if he or she doesn\u2019t have priority", "even if they don\u2019t have priority"
    assert substitute(old, (_THEY,)) == "even if they don't have priority"
    assert nature_of(old, new, renames=(_THEY,)) == Nature.RENAMED
    assert nature_of(old, "even if they can\u2019t have priority", renames=(_THEY,)) == Nature.SUBSTANTIVE


def test_the_verbs_of_a_list_after_a_renamed_subject_agree_with_it() -> None:
    # 2018-04-27's 116.3c: "when he or she casts a spell, activates an ability, or takes a special action".
    old = "If a player has priority when he or she casts a spell, activates an ability, or takes an action, ..."
    new = "If a player has priority when they cast a spell, activate an ability, or take an action, ..."
    cast = Rename("he or she", "they", (*_THEY.spellings, ("he or she casts", "they cast")))
    assert nature_of(old, new, renames=(cast,)) == Nature.RENAMED
    # ... a verb that changed otherwise, or the same verbs with no subject made plural, are edits.
    assert nature_of(old, new.replace("take", "skip"), renames=(cast,)) == Nature.SUBSTANTIVE
    plain = Rename("he or she", "they", (("he or she", "they"),))
    assert nature_of(old, new, renames=(plain,)) == Nature.SUBSTANTIVE
    widget = Rename("widget", "gadget", (("widget", "gadget"), ("widget has", "gadget have")))
    assert nature_of("A widget activates and takes.", "A widget activate and take.", renames=(widget,)) == (
        Nature.SUBSTANTIVE
    )
    # ... nor a word that lost its plural, nor a verb in another clause or not after the subject.
    they = (cast,)
    base = "If he or she casts a spell, "
    for then, now in (
        ("players draw.", "player draw."),  # (no list of the subject's verbs: no "or" or "and")
        ("they draw cards.", "they draw card."),  # (a noun after the verb)
        ("they activates abilities.", "they activate ability."),  # (a noun after the verb)
        ("the creature is tapped.", "the creature are tapped."),  # (not after the subject)
    ):
        assert nature_of(base + then, base.replace("he or she casts", "they cast") + now, renames=they) == (
            Nature.SUBSTANTIVE
        ), now
    after = "If he or she casts a spell, it ends. Then tap, untaps, or sacrifices."
    assert nature_of(after, "If they cast a spell, it ends. Then tap, untap, or sacrifice.", renames=they) == (
        Nature.SUBSTANTIVE
    )  # (a list after the sentence the subject ends)
    # An adverb between the subject and its verb: 2018-04-27's example of 702.14d, "they also controls".
    also = "If he or she has a creature and also controls a Forest, ..."
    assert nature_of(also, "If they have a creature and also control a Forest, ...", renames=they) == (Nature.RENAMED)


def test_an_inflected_form_of_a_rename_is_one_of_its_spellings_however_few_rules_use_it() -> None:
    # "him or her" -> "them" in six rules, "himself or herself" -> "themselves" in two: its reflexive form.
    old_rules = [f"Widget {k} is given to him or her at once." for k in range(6)]
    new_rules = [f"Widget {k} is given to them at once." for k in range(6)]
    old_rules += ["A player removes a counter from himself or herself.", "A player may target himself or herself."]
    new_rules += ["A player removes a counter from themselves.", "A player may target themselves."]
    old, new = _pair(old_rules, new_rules)
    al = align(old, new)
    assert [r.spellings for r in al.renames] == [(("him or her", "them"), ("himself or herself", "themselves"))]
    assert all(ch.nature == Nature.RENAMED for ch in al.changes if ch.nature is not None)
    # The notes name the form, so a reader sees why those two rules are "only renamed".
    assert forms(al.renames[0].spellings, al.renames[0].old) == (("himself or herself", "themselves"),)
    # ("him or her at" -> "them at" here: every use of it is followed by "at")
    assert "→ them at (also himself or herself → themselves), 8 rules" in to_markdown(al)
    assert "<ins>them at</ins> (also <del>himself or herself</del> → <ins>themselves</ins>), 8 rules" in to_html(al)
    # ... and the JSON gives every spelling and the forms apart, as the schema says, for a bot to apply them.
    ((old_term, new_term),) = {(r.old, r.new) for r in al.renames}
    given = {**al.renames[0].as_dict(), "old": old_term, "new": new_term}
    given |= {"spellings": [["him or her", "them"], ["himself or herself", "themselves"]]}
    given |= {"forms": [["himself or herself", "themselves"]]}
    assert to_dict(al)["renames"] == notes_dict(al)["renames"] == [given]
    _valid(to_dict(al), "diff")
    _valid(notes_dict(al), "notes")
    # Most of the edited rules that used it reworded it otherwise: no spelling of the rename.
    reworded = [*old_rules[:6], *(r.replace("himself or herself", "that player") for r in old_rules[6:])]
    reworded += ["A player may give a card to himself or herself.", "A player may pay himself or herself."]
    news = [*new_rules[:6], *(r.replace("himself or herself", "that player") for r in old_rules[6:])]
    news += ["A player may give a card to themselves.", "A player may pay that player."]
    old2, new2 = _pair([*reworded[:6], *reworded[6:8]] + reworded[8:], news)
    assert [r.spellings for r in align(old2, new2).renames] == [(("him or her", "them"),)]
    # Still used in the new release (one rule kept it): no spelling of the rename.
    old, new = _pair([*old_rules, "Keep himself or herself."], [*new_rules, "Keep himself or herself."])
    assert [r.spellings for r in align(old, new).renames] == [(("him or her", "them"),)]


_ENTERS = Rename(
    "enters the battlefield",
    "enters",
    (("enter the battlefield", "enter"), ("enters the battlefield", "enters")),
    quoted=True,
)


def test_a_text_that_keeps_one_spelling_is_read_in_those_it_took() -> None:
    # 2024-07-30's example of 118.12 quotes "would enter the battlefield" still, and "it enters" already.
    old = "A spell says \u201cIf it would enter the battlefield, it enters the battlefield tapped.\u201d"
    new = "A spell says \u201cIf it would enter the battlefield, it enters tapped.\u201d"
    assert nature_of(old, new, renames=(_ENTERS,)) == Nature.RENAMED
    # ... but a text that kept a spelling and changed other words is an edit.
    assert nature_of(old, new.replace("tapped", "untapped"), renames=(_ENTERS,)) == Nature.SUBSTANTIVE
    # A rename of quoted text is read in the quotations the new text took it in: outside them its old spelling stays.
    kept = "It enters the battlefield. A spell says \u201cIf it would enter the battlefield, it enters the battlefield"
    kept += " tapped.\u201d"
    took = "It enters the battlefield. A spell says \u201cIf it would enter the battlefield, it enters tapped.\u201d"
    assert nature_of(kept, took, renames=(_ENTERS,)) == Nature.RENAMED
    # A spelling whose new form holds the old one is never taken for one the text kept ("cost" in "total cost").
    total = Rename("cost", "total cost", (("cost", "total cost"),))
    assert nature_of(f"Pay the cost. {kept}", f"Pay the total cost. {took}", renames=(_ENTERS, total)) == (
        Nature.RENAMED
    )
    # The rules' own words, outside quotations, are not read for a rename of quoted text.
    outside = "It would enter the battlefield. A spell says \u201cIt enters the battlefield tapped.\u201d"
    assert nature_of(outside, outside.replace("enters the battlefield", "enters"), renames=(_ENTERS,)) == (
        Nature.RENAMED
    )


def test_a_quotation_closed_with_an_opening_mark_is_read_as_one() -> None:
    # 2024-06-07's 614.1c: \u201c[This permanent] enters the battlefield as . . . \u201c are replacement effects.
    old = (
        "\u201c[It] enters the battlefield with . . . ,\u201d or \u201c[It] enters the battlefield as . . . \u201c are."
    )
    new = "\u201c[It] enters with . . . ,\u201d or \u201c[It] enters as . . . \u201c are."
    assert nature_of(old, new, renames=(_ENTERS,)) == Nature.RENAMED


def test_the_agreeing_form_of_a_rename_of_quoted_text_is_one_of_its_spellings() -> None:
    old_rules = [f"Card {k} says \u201cWidget {k} enters the battlefield tapped.\u201d" for k in range(6)]
    new_rules = [f"Card {k} says \u201cWidget {k} enters tapped.\u201d" for k in range(6)]
    old_rules += [f"Card {k} says \u201cYou may have it enter the battlefield as a copy.\u201d" for k in (6, 7)]
    new_rules += [f"Card {k} says \u201cYou may have it enter as a copy.\u201d" for k in (6, 7)]
    al = align(*_pair(old_rules, new_rules))
    assert [r.spellings for r in al.renames] == [
        (("enter the battlefield", "enter"), ("enters the battlefield", "enters"))
    ]
    assert all(ch.nature == Nature.RENAMED for ch in al.changes if ch.nature is not None)


@needs_cr_corpus
def test_2018_04_agreement_and_the_reflexive_form_follow_the_pronoun_renames() -> None:
    old, new, al = official_pair("2018-01-19", "2018-04-27")
    nature = {str(old.rules[ch.old[0]].number): ch.nature for ch in al.changes if ch.old and ch.nature}
    # "he or she doesn\u2019t" (curly), "casts ..., activates ..., or takes", "himself or herself"
    for number in ("112.4", "505.4b", "701.12a", "116.3c", "107.14", "714.9"):
        assert nature[number] == Nature.RENAMED, number
    # "He or she" -> "That player" is a rewording the renames do not say.
    assert nature["104.3a"] == Nature.SUBSTANTIVE


@needs_cr_corpus
def test_2024_07_enter_the_battlefield_in_quoted_card_text_follows_enters() -> None:
    old, new, al = official_pair("2024-06-07", "2024-07-30")
    nature = {str(old.rules[ch.old[0]].number): ch.nature for ch in al.changes if ch.old and ch.nature}
    # "You may have this permanent enter the battlefield ..." -> "... enter ..." in quotations; 614.1c closes a
    # quotation with an opening mark; 118.12's example keeps one "enter the battlefield" and takes one "enters".
    for number in ("702.98a", "702.150a", "707.3", "614.1c", "118.12"):
        assert nature[number] == Nature.RENAMED, number


# --- every consecutive pair of the corpus ---------------------------------------------------------------

EXPECTED = {
    ("2005-02-01", "2005-08-01"): {("local enchantment", "Aura")},
    ("2006-05-01", "2006-07-15"): {("snow-covered", "snow")},
    ("2009-05-01", "2009-07-11"): {
        ("in play", "on the battlefield"),
        ("comes into play", "enters the battlefield"),
        ("into play", "onto the battlefield"),
        ("to play", "to cast"),  # "play" became "cast" in some contexts, "activate" and "the battlefield" in others
        ("state-based effect", "state-based action"),
        ("removed from the game", "exiled"),
        ("from play", "from the battlefield"),
        ("removed-from-the-game", "exile"),
        ("in-play zone", "battlefield"),
        ("comes-into-play", "enters-the-battlefield"),
    },
    ("2009-07-11", "2009-09-04"): {("Grizzly", "Runeclaw")},  # the examples' Grizzly Bears
    ("2010-10-01", "2011-02-04"): {("EDH", "Commander"), ("general", "commander")},
    ("2011-06-17", "2011-07-15"): {("Planar Magic", "Planechase")},
    ("2017-01-20", "2017-04-28"): {("name a card", "choose a card name")},
    ("2018-01-19", "2018-04-27"): {
        ("his or her", "their"),
        ("he or she", "they"),
        ("him or her", "them"),
        ("target creature or player", "any target"),
    },
    ("2020-08-07", "2020-09-25"): {("checklist", "substitute")},
    ("2021-02-15", "2021-04-22"): {("converted mana cost", "mana value")},
    ("2021-11-19", "2022-02-18"): {("Activate this ability", "Activate")},
    ("2024-04-12", "2024-06-07"): {("tribal", "kindred"), ("Totem armor", "Umbra armor")},
    ("2024-06-07", "2024-07-30"): {("enters the battlefield", "enters")},  # in quoted card text only
    ("2025-07-25", "2025-09-19"): {
        ("transforming double", "nonmodal double"),
        ("transforming token", "double-faced token"),
    },
}


@needs_cr_corpus
def test_renames_across_every_consecutive_pair() -> None:
    docs = [parse(str(p)) for p in cr_txt_files()]
    found: dict[tuple[str, str], set[tuple[str, str]]] = {}
    counts: dict[tuple[str, str, str, str], int] = {}
    for a, b in zip(docs, docs[1:], strict=False):
        al = align(a, b)
        if al.renames:
            key = (a.version.label, b.version.label)
            found[key] = {(r.old, r.new) for r in al.renames}
            counts.update({(*key, r.old, r.new): r.rules for r in al.renames})
    assert found == EXPECTED
    assert counts[("2010-10-01", "2011-02-04", "EDH", "Commander")] >= 15
    assert counts[("2024-04-12", "2024-06-07", "tribal", "kindred")] >= 6


_WORDS = st.sampled_from(["a", "an", "EDH", "general", "generals", "generally", "General", "game", "deck", "in", "."])


@given(st.lists(_WORDS, max_size=12))
def test_substitute_leaves_no_old_word_and_touches_nothing_else(words: list[str]) -> None:
    r = (Rename("EDH", "Commander", (("EDH", "Commander"),)),)
    text = " ".join(words)
    got = substitute(text, r)
    assert "EDH" not in got.split()
    assert got.count("Commander") == words.count("EDH")
    if "EDH" not in words:
        assert got == text
    # Only the renamed word and the article before it change: as many words as before.
    assert len(got.split()) == len(words)


def _renamed_rule_by_rule(doc: Document, renames: tuple[Rename, ...], new: Document) -> Document:
    """What renames.renamed makes, as it made it before it looked only at the rules the renames touch: every
    rule read, every text of the new release normalised."""
    kept_raw, kept = {r.text for r in new.rules}, {x.norm for x in new.rules}
    rules = []
    for r in doc.rules:
        text, title = substitute(r.text, renames), substitute(r.title, renames) if r.title else r.title
        examples = tuple(
            e if (t := substitute(e.text, renames)) == e.text else replace(e, text=t, norm_cache=None)
            for e in r.examples
        )
        changed = text != r.text or title != r.title or examples != r.examples
        if changed and r.text not in kept_raw and r.norm not in kept:
            r = replace(r, text=text, title=title, examples=examples, norm_cache=None, digest_cache=None)
        rules.append(r)
    return replace(doc, rules=tuple(rules))


def _read(doc: Document) -> list[tuple[str | None, str, str | None, list[str]]]:
    return [(str(r.number), r.text, r.title, [e.text for e in r.examples]) for r in doc.rules]


def test_the_rules_read_in_the_new_words_are_the_ones_every_rule_read_gives() -> None:
    old, new = _edh()
    renames = align(old, new).renames
    assert renames  # (EDH -> Commander, general -> commander)
    assert _read(renamed(old, renames, new)) == _read(_renamed_rule_by_rule(old, renames, new))
    # Made up: a use in a title only, in an example only, none at all, and a rule the new release keeps in
    # other typography (left alone: the old word lives on there).
    # ("gizmo" has an "o" more than "widget": the counts renamed compares by are the old text's, not the read one's)
    rename = (Rename("widget", "gizmo", (("Widget", "Gizmo"), ("widget", "gizmo"))),)
    head = "Magic: The Gathering Comprehensive Rules\n\nThese rules are effective as of {}.\n\n1. Game Concepts\n\n"
    old_body = (
        "100. General\n\n100.1. Filler.\n\n101. Widgets\n\n"
        "101.1. A widget game is won by the player with the most widgets.\n\n101.2. Nothing here yet.\n\n"
        "Example: A widget is played.\n\n101.3. The \u201cwidget\u201d rule is old\u2014but kept, son.\n\n"
    )
    new_body = (
        "100. General\n\n100.1. Filler.\n\n101. Gizmos\n\n101.1. Something else.\n\n101.2. Nothing here.\n\n"
        '101.3. The "widget" rule is old-but kept, son.\n\n'
    )
    old_doc, new_doc = (
        parse_bytes((head.format(date) + body + "Glossary\n\nCredits\n").encode(), f"{date}.txt")
        for date, body in (("May 1, 2020", old_body), ("June 1, 2020", new_body))
    )
    read = renamed(old_doc, rename, new_doc)
    assert _read(read) == _read(_renamed_rule_by_rule(old_doc, rename, new_doc))
    texts = [r.text for r in read.rules]
    assert "Gizmos" in texts and "A gizmo game is won by the player with the most gizmos." in texts
    assert "Example: A gizmo is played." in [e.text for r in read.rules for e in r.examples]
    assert "The \u201cwidget\u201d rule is old\u2014but kept, son." in texts


def test_renames_are_detected_again_only_when_the_second_matching_links_something_new(monkeypatch) -> None:
    """Detecting renames again from the links the first detection already read finds the same renames: it is
    skipped when matching the old release in the new words links nothing new (2018-04-27's "his or her" ->
    "their", 33 ms of its pair), and still made when it does."""
    import rulediff.matcher.renames as renames_module

    calls: list[int] = []
    real = renames_module._detect_pairs

    def counting(old: Document, new: Document, pairs: list) -> tuple[Rename, ...]:  # type: ignore[type-arg]
        calls.append(len(pairs))
        return real(old, new, pairs)

    monkeypatch.setattr(renames_module, "_detect_pairs", counting)
    old_rules = [f"A widget may enter play {k} times in a widget game." for k in range(6)]
    new_rules = [f"A gadget may enter play {k} times in a gadget game." for k in range(6)]
    assert [(r.old, r.new, r.rules) for r in _detect(*_pair(old_rules, new_rules))] == [("widget", "gadget", 6)]
    assert len(calls) == 1
    calls.clear()
    # A first matching that left five renamed rules unlinked, as many as a rename needs (as the gate left 903's
    # subrules once, before the leftovers of the whole release were paired): the second links them, and the
    # renames are detected again.
    import rulediff.matcher.classify as classify_module

    def missing_five(old: Document, new: Document, likeness=None, **kw) -> list:  # type: ignore[no-untyped-def,type-arg]
        pairs = match(old, new, likeness, **kw)
        return [p for p in pairs if old.rules[p.old].text not in old_rules[:5]]

    monkeypatch.setattr(classify_module, "match", missing_five)
    old_rules = [f"A widget may enter play {k} times in a widget game." for k in range(10)]
    new_rules = [f"A gadget may enter play {k} times in a gadget game." for k in range(10)]
    al = align(*_pair(old_rules, new_rules))
    assert [(r.old, r.new, r.rules) for r in al.renames] == [("widget", "gadget", 10)]
    assert len(calls) == 2
    assert not [ch for ch in al.changes if ch.kind == Kind.REMOVED]
    # Fewer rules linked again than a rename needs is no reason to detect again.
    calls.clear()
    monkeypatch.setattr(
        classify_module,
        "match",
        lambda old, new, likeness=None, **kw: [
            p for p in match(old, new, likeness, **kw) if old.rules[p.old].text not in old_rules[:4]
        ],
    )
    assert [(r.old, r.new, r.rules) for r in align(*_pair(old_rules, new_rules)).renames] == [("widget", "gadget", 10)]
    assert len(calls) == 1


@needs_cr_corpus
def test_a_bot_applying_the_json_spellings_gets_the_new_text_of_each_rule_only_renamed() -> None:
    # 2018-01-19 -> 2018-04-27, read as a bot reads the diff JSON: each rename's spellings applied to the old text
    # of every change only renamed (whole words, case kept, longest first, an apostrophe matching either kind, as the
    # schema says) give its new text, but for the references that follow the number map and the verbs of a list after a
    # renamed subject (116.3c, "they cast a spell, activates an ability, or takes ..."), which have no spelling.
    _, _, al = official_pair("2018-01-19", "2018-04-27")
    doc = json.loads(json.dumps(to_dict(al)))
    _valid(doc, "diff")
    pairs = sorted((p for r in doc["renames"] for p in r["spellings"]), key=lambda p: -len(p[0]))
    pattern = re.compile("|".join(r"\b" + re.escape(a).replace("'", "['\u2019]") + r"\b" for a, _ in pairs))
    by_old = dict(pairs)

    def apply(text: str) -> str:
        def sub(m: re.Match[str]) -> str:
            new = by_old[m.group(0).replace("\u2019", "'")]
            return new.replace("'", "\u2019") if "\u2019" in m.group(0) else new

        return pattern.sub(sub, text)

    only = [c for c in doc["changes"] if c["nature"] == "renamed"]
    missed = [
        c["old"][0]
        for c in only
        if normalize(apply(c["old_text"])) != normalize(c["new_text"])
        and mask_references(normalize(apply(c["old_text"]))) != mask_references(normalize(c["new_text"]))
    ]
    assert len(only) >= 200
    assert missed == ["116.3c"]
