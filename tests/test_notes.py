"""Release notes: one definition of what a reader must see, the same counts everywhere."""

from __future__ import annotations

import os

import lxml.html
import pytest

from rulediff import align, parse
from rulediff.matcher.records import MUST_READ, Shown, glossary_shown, reader_changes, reader_counts, shown_as
from rulediff.render.html import to_html
from rulediff.render.markdown import to_markdown
from rulediff.render.notes_json import notes_dict
from rulediff.render.view import headline

from .conftest import FIXTURES, cr_file, needs_cr_corpus

PAIR = FIXTURES / "report"


def test_every_change_is_counted_once() -> None:
    al = align(parse(str(PAIR / "old.txt")), parse(str(PAIR / "new.txt")))
    counts = reader_counts(al.summary())
    shown = [shown_as(ch) for ch in al.changes] + [glossary_shown(g) for g in al.glossary]
    for s in Shown:
        assert counts[s] == shown.count(s), s
    assert reader_changes(al.summary()) == len(al.substantive()) == sum(shown.count(s) for s in MUST_READ)
    assert headline(al.summary()) == (
        "7 changes to read: 3 edited, 3 added, 1 split; glossary: 2 terms; "
        "in brief: 2 reference updates, 1 typography fix, 7 renumbered."
    )


def test_no_changes_says_so() -> None:
    doc = parse(str(PAIR / "old.txt"))
    al = align(doc, doc)
    assert headline(al.summary()) == "No changes."
    md = to_markdown(al)
    assert "No changes." in md and "## Changes" not in md and "Why:" not in md
    page = lxml.html.document_fromstring(to_html(al))
    assert page.find_class("empty")[0].text_content() == "No changes."


def test_link_base_links_numbers_and_references(tmp_path) -> None:  # type: ignore[no-untyped-def]
    from click.testing import CliRunner

    from rulediff.cli import main

    out = tmp_path / "notes.md"
    r = CliRunner().invoke(
        main,
        ["diff", str(PAIR / "old.txt"), str(PAIR / "new.txt"), "-o", str(out), "--link-base", "https://x.test/cr/"],
    )
    assert r.exit_code == 0, r.output
    md = out.read_text("utf-8")
    page = "https://x.test/cr/diff/2030-01-01--2030-02-01.html"
    assert f"**[702.2]({page}#r702.2)** Defender" in md
    assert f"### [702.4b]({page}#r702.4b) (in 702.4 Lifelink)" in md
    # "See rule 702.2" in the new glossary entry links too; a rule not changed here goes to its history page.
    assert f"See rule [702.2]({page}#r702.2)." in md
    from rulediff.render.links import Links
    from rulediff.render.notes import build_notes

    links = Links("https://x.test/cr/", build_notes(align(parse(str(PAIR / "old.txt")), parse(str(PAIR / "new.txt")))))
    assert links.rule("100.1") == "https://x.test/cr/rules/100.1.html", "the site keeps history at the number"
    assert "wrote" in r.stderr and "7 changes to read" in r.stderr


def test_notes_json(tmp_path) -> None:  # type: ignore[no-untyped-def]
    import json

    from click.testing import CliRunner

    from rulediff.cli import main

    r = CliRunner().invoke(main, ["diff", str(PAIR / "old.txt"), str(PAIR / "new.txt"), "--format", "notes"])
    assert r.exit_code == 0, r.output
    d = json.loads(r.stdout)
    assert d["schema"] == "rulediff.notes/1.1"
    assert d["headline"].startswith("7 changes to read")
    assert [g["label"] for g in d["new_rules"]] == ["New keyword: Defender (702.2)"]
    lifelink = next(c for c in d["changes"] if c["number"] == "702.4b")
    assert lifelink["old_numbers"] == ["702.3b"] and lifelink["why"] is None
    added = [x["text"] for x in lifelink["new"][0]["runs"] if x.get("changed")]
    assert added == ["controller, or its owner if it has no controller,"]


NOTES_CASES = sorted(p.name for p in (FIXTURES / "notes").iterdir() if p.is_dir())


@pytest.mark.parametrize("case", NOTES_CASES)
@pytest.mark.parametrize("name", ["expected.md", "expected.html"])
def test_golden_notes_of_real_pairs(case: str, name: str) -> None:
    """Three real pairs cut small (tests/fixtures/cut.py): a keyword release, the 2020-04 layer renumbering,
    the split of 500.5. Regenerate with RULEDIFF_UPDATE_GOLDEN=1 and read the diff."""
    d = FIXTURES / "notes" / case
    al = align(parse(str(d / "old.txt")), parse(str(d / "new.txt")))
    got = to_markdown(al) if name.endswith(".md") else to_html(al)
    want = d / name
    if os.environ.get("RULEDIFF_UPDATE_GOLDEN"):
        want.write_text(got, encoding="utf-8")
    assert want.exists(), f"{want} missing: run with RULEDIFF_UPDATE_GOLDEN=1 and review it"
    assert got == want.read_text(encoding="utf-8")
    if name.endswith(".html"):
        tree = lxml.html.document_fromstring(got)
        ids = [e.get("id") for e in tree.iter() if e.get("id")]
        assert len(ids) == len(set(ids))


def test_a_number_printed_twice_is_said_and_told_apart_in_every_format() -> None:
    """2009-09-04 prints 702.30d twice: its two changes are headed "702.30d (printed twice: first)" and
    "(printed twice: second)" in the Markdown, the HTML and the notes, never two identical headings, and their
    anchors stay unique."""
    d = FIXTURES / "notes" / "number-printed-twice-702.30d-2009"
    al = align(parse(str(d / "old.txt")), parse(str(d / "new.txt")))
    md = to_markdown(al)
    headings = [ln for ln in md.splitlines() if ln.startswith("#")]
    assert len(headings) == len(set(headings)), headings
    assert "### 702.30d (printed twice: first) (in 702.30 Kicker)" in headings
    assert "### 702.30d (printed twice: second) (in 702.30 Kicker)" in headings
    tree = lxml.html.document_fromstring(to_html(al))
    said = [" ".join(h.text_content().split()) for h in tree.iter("h3") if "702.30d" in h.text_content()]
    # (in new-document order: the second, split into 702.30b and 702.30d since the kicked-definition came out of it,
    # is told where 702.30b stands)
    assert sorted(said) == ["702.30d (printed twice: first)", "702.30d (printed twice: second)"], said
    ids = [e.get("id") for e in tree.iter() if e.get("id")]
    assert len(ids) == len(set(ids)) and {"r702.30d", "r702.30d-2"} <= set(ids)
    notes = notes_dict(al)
    printed = [(e["number"], e["printed"]) for e in notes["changes"] if e["number"] == "702.30d"]
    assert sorted(printed) == [("702.30d", "printed twice: first"), ("702.30d", "printed twice: second")]
    assert all(e["printed"] is None for e in notes["changes"] if e["number"] != "702.30d")


@needs_cr_corpus
@pytest.mark.parametrize(
    ("old", "new", "said"),
    [
        (
            "2009-10-01",
            "2010-02-01",
            [
                "- 702.30d (printed twice: first) shifted by +2 (now 702.30f)",
                "- 702.30d (printed twice: second) shifted by +3 (now 702.30g)",
            ],
        ),
        ("2024-09-20", "2024-11-08", ["- 702.175 (printed twice: second) shifted by +1 (now 702.176)"]),
        ("2024-07-30", "2024-09-20", ["### New keyword: Impending (702.175, printed twice: second)"]),
        ("2004-02-01", "2004-06-01", ["**502.35b** (printed twice: second) If a spell or ability has multiple"]),
    ],
)
def test_a_number_printed_twice_is_told_apart_wherever_it_is_shown(old: str, new: str, said: list[str]) -> None:
    """Renumbering ranges and new rules say which printing of a number they are about, as headings do
    (2009-10-01 still printed 702.30d twice; 2010-02-01 gave them 702.30f and 702.30g)."""
    from click.testing import CliRunner

    from rulediff.cli import main

    r = CliRunner().invoke(main, ["diff", str(cr_file(old)), str(cr_file(new)), "--format", "md"])
    assert r.exit_code == 0, r.output
    lines = r.stdout.splitlines()
    for want in said:
        assert any(ln.startswith(want) for ln in lines), (want, [ln for ln in lines if "printed" in ln])
