"""History as a researcher asks it, on five real releases cut small (tests/fixtures/history): a headed rule
read whole through renumbering, glossary terms through renames, search over the glossary, and steps that
only changed typography or cross-references kept apart from real edits."""

from __future__ import annotations

import json
import re

import pytest
from click.testing import CliRunner
from hypothesis import given
from hypothesis import strategies as st

from rulediff.cli import main
from rulediff.history.timeline import stretches
from rulediff.words.diff import Op, Piece
from rulediff.words.edits import edit_nature, marked_lines, whole_diff

from .conftest import FIXTURES

RELEASES = FIXTURES / "history" / "mana-burn-obsolete-2009"


@pytest.fixture(scope="module")
def arc(tmp_path_factory: pytest.TempPathFactory) -> str:
    path = str(tmp_path_factory.mktemp("history") / "h.sqlite")
    r = CliRunner().invoke(main, ["archive", "add", str(RELEASES), "--archive", path])
    assert r.exit_code == 0, r.output
    assert r.stdout.count("added") == 5
    return path


def run(arc: str, *args: str) -> str:
    r = CliRunner().invoke(main, [*args, "--archive", arc])
    assert r.exit_code == 0, r.output
    return r.stdout


def test_history_of_a_headed_rule_reads_the_whole_rule(arc: str) -> None:
    out = run(arc, "history", "lifelink")
    lines = out.splitlines()
    assert lines[0] == "Lifelink"
    assert [ln.split()[0] for ln in lines[1:4]] == ["502.68", "702.13", "702.15"]
    # The first step prints the whole rule: heading and every subrule.
    first = out.split("2009-05-01: 502.68 first seen\n", 1)[1].split("2009-07-11", 1)[0]
    assert first.splitlines() == [
        "    502.68. Lifelink",
        '    502.68a Lifelink is a triggered ability. "Lifelink" means "Whenever this permanent deals damage,'
        ' you gain that much life."',
        "    502.68b If a permanent has multiple instances of lifelink, each triggers separately.",
    ]
    # The M10 rewrite: renumbered, and the subrule's words changed, marked as a word diff.
    assert "2009-07-11: 702.13 renumbered and edited from 502.68" in out
    assert "702.13a Lifelink is a [-triggered-]{+static+} ability." in out
    # 2011 added subrules 702.13c and 702.13d: the diff is of the whole rule, not of the heading alone.
    step_2011 = out.split("2011-02-04: 702.13 edited\n", 1)[1]
    assert "{+" in step_2011 and "702.13c If a permanent leaves the battlefield" in step_2011


def test_history_json_carries_the_whole_rule_at_each_step(arc: str) -> None:
    d = json.loads(run(arc, "history", "702.13", "--as-of", "2011-02-04", "--format", "json"))
    whole = d["stretches"]
    assert [s["number"] for s in whole] == ["502.68", "702.13", "702.13", "702.15"]
    assert whole[2]["text"].splitlines()[:2] == ["702.13. Lifelink", "702.13a Lifelink is a static ability."]
    assert whole[1]["previous"] == "502.68" and whole[1]["nature"] == "substantive"


def test_glossary_term_followed_through_its_rename(arc: str) -> None:
    out = run(arc, "history", "mana burn")
    assert out.startswith("Mana Burn (Obsolete) (glossary)\n")
    assert "  Mana Burn            2009-05-01\n" in out
    assert "  Mana Burn (Obsolete) 2009-07-11 .. 2014-05-01\n" in out
    assert "2009-07-11 .. 2014-02-01: Mana Burn (Obsolete) renamed and edited from 'Mana Burn'" in out
    assert "{+no longer exists+}" in out
    # The rule that defined it, and when it stopped: the answer to "when did mana burn go?"
    mentions = out.split("rules that mention 'mana burn'", 1)[1].splitlines()[1:]
    assert [ln.split() for ln in mentions] == [["300.3", "2009-05-01"]]
    d = json.loads(run(arc, "history", "Mana Burn (Obsolete)", "--format", "json"))
    assert [t["term"] for t in d["terms"]] == ["Mana Burn", "Mana Burn (Obsolete)"]
    assert d["gone_after"] is None


def test_history_interrupt_finds_the_obsolete_term(arc: str) -> None:
    out = run(arc, "history", "interrupt")
    assert out.startswith("Interrupt (Obsolete) (glossary)\n")
    assert "2009-07-11 .. 2011-02-04: Interrupt (Obsolete) edited" in out


def test_glossary_flag_prefers_the_term_over_the_rule(arc: str) -> None:
    assert run(arc, "history", "lifelink", "--glossary").startswith("Lifelink (glossary)\n")
    r = CliRunner().invoke(main, ["history", "trample", "--glossary", "--archive", arc])
    assert r.exit_code == 2 and "no glossary term 'trample'" in r.stderr


def test_quiet_steps_are_collapsed_and_substantive_hides_them(arc: str) -> None:
    out = run(arc, "history", "lifelink", "--glossary")
    assert "2014-02-01: Lifelink edited (references only; collapsed)" in out
    assert "2014-05-01: Lifelink edited (typography only; collapsed)" in out
    quiet = run(arc, "history", "lifelink", "--glossary", "--substantive")
    timeline = quiet.split("rules that mention", 1)[0]
    assert "collapsed" not in timeline and "2014-05-01" not in timeline.split("\n", 2)[2]
    assert "(2 typography or cross-reference steps hidden by --substantive)" in quiet
    assert "2009-07-11 .. 2011-02-04: Lifelink edited" in quiet


def test_history_html_renders_either_kind(arc: str) -> None:
    for query in ("lifelink", "interrupt"):
        page = run(arc, "history", query, "--format", "html")
        assert page.startswith("<!DOCTYPE html>") and "</html>" in page
    assert 'class="quiet"' in run(arc, "history", "lifelink", "--glossary", "--format", "html")


def test_search_covers_the_glossary(arc: str) -> None:
    out = run(arc, "search", "That rule no longer exists")
    assert out.startswith("glossary ") and "Mana Burn (Obsolete): Older versions of the rules" in out
    assert "2009-07-11 .. 2014-05-01" in out
    hits = [json.loads(ln) for ln in run(arc, "search", "mana burn", "--json").splitlines()]
    kinds = {(h["kind"], h.get("term")) for h in hits}
    assert ("glossary", "Mana Burn (Obsolete)") in kinds
    assert any(h["kind"] == "rule" and "300.3" in h["numbers"] for h in hits)
    r = CliRunner().invoke(main, ["search", "no such words anywhere", "--archive", arc])
    assert r.exit_code == 0 and "no archived rule or glossary entry" in r.stderr


def test_show_a_glossary_term_by_name(arc: str) -> None:
    out = run(arc, "show", "mana burn", "--as-of", "2009-06-01")
    assert out.startswith("Mana Burn\n  When a phase ends")


# -- the timeline's own rules --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("old", "new", "want"),
    [
        ("See rule 118.3.", "See rule 119.3.", "references_only"),
        ('called "mana burn."', "called \u201cmana burn.\u201d", "typography_only"),
        ("Lifelink is a triggered ability.", "Lifelink is a static ability.", "substantive"),
        ("See rules 118.3 and 118.4.", "See rules 119.3 and 119.3.", "references_only"),
        ("See rule 118.3 and rule 118.3.", "See rule 119.3 and rule 120.3.", "substantive"),
        ("same", "same", None),
    ],
)
def test_edit_nature(old: str, new: str, want: str | None) -> None:
    got = edit_nature(old, new)
    assert (got.value if got else None) == want


def test_stretches_group_equal_readings_and_note_gaps() -> None:
    entries = [
        ("v1", "702.13", "Lifelink", "702.13. Lifelink", True),
        ("v2", "702.13", "Lifelink", "702.13. Lifelink", True),
        ("v3", "702.14", "Lifelink", "702.14. Lifelink", True),
        ("v5", "702.14", "Lifelink", "702.14. Lifelink", False),
    ]
    got = stretches(entries)
    assert [(s.first, s.last, s.change, s.diff) for s in got] == [
        ("v1", "v2", "first seen", []),
        ("v3", "v3", "renumbered", []),
        ("v5", "v5", "reappears", []),
    ]
    assert got[1].previous == "702.13" and not got[1].quiet


def test_a_term_whose_name_changed_only_in_case_is_respelled_not_renamed() -> None:
    # The diff calls "Global Enchantment (obsolete)" -> "(Obsolete)" typography; the timeline says the same.
    entries = [
        ("v1", None, "Global Enchantment", "An older term for a non-Aura enchantment.", True),
        ("v2", None, "Global Enchantment (obsolete)", "An older term for a non-Aura enchantment.", True),
        ("v3", None, "Global Enchantment (Obsolete)", "An older term for a non-Aura enchantment.", True),
    ]
    got = stretches(entries)
    assert [(s.change, s.previous) for s in got] == [
        ("first seen", None),
        ("renamed", "Global Enchantment"),
        ("respelled", "Global Enchantment (obsolete)"),
    ]


def test_marked_lines_flag_only_lines_an_edit_touches() -> None:
    diff = [
        Piece(Op.EQUAL, "702.15. Lifelink\n702.15a Lifelink is a "),
        Piece(Op.DELETE, "triggered"),
        Piece(Op.INSERT, "static"),
        Piece(Op.EQUAL, " ability.\n702.15b "),
        Piece(Op.MUTED, "\u201cquoted\u201d", '"quoted"'),
    ]
    assert marked_lines(diff) == [
        (False, "702.15. Lifelink"),
        (True, "702.15a Lifelink is a [-triggered-]{+static+} ability."),
        (False, "702.15b \u201cquoted\u201d"),
    ]


_LINES = st.sampled_from(
    [
        "702.15. Lifelink",
        "702.15a Lifelink is a static ability.",
        "702.15b Lifelink is a triggered ability.",
        "702.16b See rule 119.3.",
        "702.16b See rule 120.3.",
        "Example: A player controls Ajani\u2019s Pridemate.",
        "Example: A player controls Ajani's Pridemate.",
        "",
    ]
)


@given(st.lists(_LINES, max_size=8), st.lists(_LINES, max_size=8))
def test_whole_diff_rebuilds_both_sides(a: list[str], b: list[str]) -> None:
    old, new = "\n".join(a), "\n".join(b)
    d = whole_diff(old, new)
    assert "".join(p.old if p.op == Op.MUTED else p.text for p in d if p.op != Op.INSERT) == old
    assert "".join(p.text for p in d if p.op != Op.DELETE) == new


def test_whole_diff_matches_lines_past_shifted_letters() -> None:
    old = "702.13. Lifelink\n702.13a Static.\n702.13b Redundant."
    new = "702.13. Lifelink\n702.13a Static.\n702.13b Damage.\n702.13c Redundant."
    assert marked_lines(whole_diff(old, new)) == [
        (False, "702.13. Lifelink"),
        (False, "702.13a Static."),
        (True, "{+702.13b Damage.+}"),
        (True, "702.13c (was 702.13b) Redundant."),  # renumbered, not an edit of its words
    ]


def test_whole_diff_pairs_subrules_as_the_matcher_did_and_never_runs_across_them() -> None:
    """2009-07-11 rewrote Lifelink's two subrules: each pair's words are diffed on its own line (the new 702.13a
    never sits on the old 702.13b's line); a subrule the matcher pairs with another number is renumbered."""
    old = (
        "702.13. Lifelink\n702.13a Lifelink is a triggered ability. It means you gain that much life.\n"
        "702.13b If a permanent has multiple instances of lifelink, each triggers separately."
    )
    new = (
        "702.13. Lifelink\n702.13a Lifelink is a static ability. Damage dealt by a source with lifelink causes "
        "that source's controller to gain that much life.\n702.13b Multiple instances of lifelink are redundant."
    )
    lines = [text for _, text in marked_lines(whole_diff(old, new, (("702.13a", "702.13a"), ("702.13b", "702.13b"))))]
    assert len(lines) == 3 and lines[1].startswith("702.13a ") and lines[2].startswith("702.13b ")
    assert "triggered" in lines[1] and "Damage dealt" in lines[1] and "instances" not in lines[1]
    assert "If a permanent has multiple" in lines[2] and "are redundant" in lines[2] and "Damage" not in lines[2]
    # The matcher paired the old 702.13b with the new 702.13c: renumbered, its words diffed with its own.
    newer = new.replace("702.13b Multiple", "702.13b A new rule.\n702.13c Multiple")
    pairs = (("702.13a", "702.13a"), ("702.13b", "702.13c"))
    d = whole_diff(old, newer, pairs)
    assert Piece(Op.MUTED, "702.13c", "702.13b") in d
    lines = [text for _, text in marked_lines(d)]
    assert lines[2] == "{+702.13b A new rule.+}"
    assert lines[3].startswith("702.13c (was 702.13b) [-If a permanent has")


def test_the_history_of_a_headed_rule_diffs_each_subrule_on_its_own(arc: str) -> None:
    out = run(arc, "history", "lifelink")
    step = out.split("2009-07-11: 702.13 renumbered and edited from 502.68\n", 1)[1].split("2011-02-04", 1)[0]
    lines = [ln.strip() for ln in step.splitlines()]
    first = next(ln for ln in lines if ln.startswith("702.13a "))
    second = next(ln for ln in lines if ln.startswith("702.13b "))
    assert "Damage dealt" in first and "Multiple instances" not in first
    assert "If a permanent has multiple instances" in second and "Multiple instances" in second
    later = out.split("2011-02-04: 702.13 edited\n", 1)[1].split("2014-02-01", 1)[0]
    assert "702.13e (was 702.13b) Multiple instances of lifelink on the same object are redundant." in later
    assert not re.search(r"\[-702\.13[a-z]-\]", later), later  # no number shown as a word edit
    data = json.loads(run(arc, "history", "lifelink", "--format", "json"))
    step_2011 = next(s for s in data["stretches"] if s["from"] == "2011-02-04")
    assert [2, "702.13e", "702.13b"] in step_2011["diff"]


def test_a_quote_style_change_is_typography_in_history_and_diff(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """2002-02-20 -> 2002-10-07: 420.5e's 'the Legend rule.' became "the Legend rule." and nothing else changed.
    The step is typography only: hidden by --substantive, in brief in the diff, never a substantive edit."""
    releases = FIXTURES / "history" / "quote-style-legend-rule-2002"
    path = str(tmp_path / "q.sqlite")
    r = CliRunner().invoke(main, ["archive", "add", str(releases), "--archive", path])
    assert r.exit_code == 0, r.output
    data = json.loads(run(path, "history", "420.5e", "--format", "json"))
    assert [(v["label"], v["change"], v["nature"]) for v in data["versions"]][1] == (
        "2002-10-07",
        "edited",
        "typography_only",
    )
    assert [s["nature"] for s in data["stretches"]] == [None, "typography_only"]
    shown = run(path, "history", "420.5e", "--substantive")
    assert "\n2002-10-07" not in shown and "1 typography or cross-reference step" in shown, shown
    notes = json.loads(run(path, "diff", "2002-02-20", "2002-10-07", "--format", "notes"))
    assert "420.5e" not in json.dumps(notes.get("changes", []))
    assert {"number": "420.5e", "old_number": "420.5e"} in notes["typography_only"], notes["typography_only"]
