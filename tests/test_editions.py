"""Editions are not re-releases: a release's Word or PDF edition stands beside its text, and says where it differs."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from rulediff.archive import Archive
from rulediff.cli import main

from .conftest import CR_CORPUS, FIXTURES, cr_file, needs_cr_corpus
from .test_parsers_docx import _docx

# A real release cut short (2014-05-01, see its SOURCE), and a Word edition made of its lines.
TXT = FIXTURES / "parsers" / "official-text" / "curly-quotes-utf8" / "input.txt"


def _docx_of(text: str) -> bytes:
    """A Word file of ``text``, a paragraph a line (tests/test_parsers_docx.py's builder)."""
    from xml.sax.saxutils import escape

    return _docx([f'<w:r><w:t xml:space="preserve">{escape(ln)}</w:t></w:r>' for ln in text.splitlines()])


def _texts() -> tuple[str, str]:
    text = TXT.read_text(encoding="utf-8")
    rule = next(ln for ln in text.splitlines() if ln.startswith("100.2. "))
    return text, text.replace(rule, rule.replace("each player", "every player"), 1)


def _cli(*args: str) -> tuple[int, str, str]:
    r = CliRunner().invoke(main, list(args))
    return r.exit_code, r.stdout, r.stderr


def test_a_word_edition_stands_beside_its_text(tmp_path: Path) -> None:
    text, _ = _texts()
    docx = tmp_path / "cr-20140501.docx"
    docx.write_bytes(_docx_of(text))
    arc = str(tmp_path / "a.sqlite")
    assert _cli("archive", "add", str(TXT), "--archive", arc)[0] == 0
    code, out, err = _cli("archive", "add", str(docx), "--archive", arc)
    assert code == 0, err
    assert out.startswith("edition           2014-05-01 (docx)") and "re-release" not in out
    assert "disagrees" not in err
    rows = [json.loads(x) for x in _cli("archive", "list", "--json", "--archive", arc)[1].splitlines()]
    assert [(r["label"], r["edition_of"]) for r in rows] == [("2014-05-01", None), ("2014-05-01 (docx)", "2014-05-01")]
    assert "(docx edition of 2014-05-01)" in _cli("archive", "list", "--archive", arc)[1]
    with Archive.open(arc) as a:
        assert [v.label for v in a.versions.timeline()] == ["2014-05-01"]
        assert a.versions.in_force("2020-01-01").format == "official-text"


def test_an_edition_added_first_gives_way_to_the_text_and_takes_its_label_back(tmp_path: Path) -> None:
    text, _ = _texts()
    docx = tmp_path / "cr-20140501.docx"
    docx.write_bytes(_docx_of(text))
    arc = str(tmp_path / "a.sqlite")
    assert _cli("archive", "add", str(docx), "--archive", arc)[1].startswith("added             2014-05-01  (docx")
    code, out, _ = _cli("archive", "add", str(TXT), "--archive", arc)
    # (the text added after its Word edition is added, not a re-release: the edition stands beside it)
    assert code == 0 and out.startswith("added             2014-05-01") and "re-release" not in out
    with Archive.open(arc) as a:
        assert sorted(v.label for v in a.versions.all()) == ["2014-05-01", "2014-05-01 (docx)"]
        assert [v.format for v in a.versions.timeline()] == ["official-text"]
    assert _cli("archive", "remove", "2014-05-01", "--archive", arc)[0] == 0
    with Archive.open(arc) as a:
        assert [(v.label, v.format) for v in a.versions.timeline()] == [("2014-05-01", "docx")]


def test_an_edition_that_disagrees_says_where_rule_and_words(tmp_path: Path) -> None:
    _, changed = _texts()
    docx = tmp_path / "cr-20140501.docx"
    docx.write_bytes(_docx_of(changed))
    arc = str(tmp_path / "a.sqlite")
    _cli("archive", "add", str(TXT), "--archive", arc)
    code, out, err = _cli("archive", "add", str(docx), "--archive", arc)
    assert code == 0 and out.startswith("edition")
    lines = err.splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith(
        "rulediff: warning: cr-20140501.docx: disagrees with the text of its release: rule 100.2:"
    )
    assert "\u201ceach\u201d" not in lines[0] and "each" in lines[0] and "every" in lines[0]
    with Archive.open(arc) as a:  # the text stays the reference
        assert "each player" in a.versions.document(a.versions.in_force("2014-05-01").id).get("100.2").text  # type: ignore[union-attr]


def test_an_edition_archived_before_its_text_says_where_it_disagrees_once_the_text_comes(tmp_path: Path) -> None:
    _, changed = _texts()
    docx = tmp_path / "cr-20140501.docx"
    docx.write_bytes(_docx_of(changed))
    arc = str(tmp_path / "a.sqlite")
    assert "disagrees" not in _cli("archive", "add", str(docx), "--archive", arc)[2]  # no text yet to differ from
    code, out, err = _cli("archive", "add", str(TXT), "--archive", arc)
    assert code == 0 and out.split()[1] == "2014-05-01", out + err  # the label of the date, taken back
    assert err.splitlines() == [line for line in err.splitlines() if "cr-20140501.docx: disagrees" in line] != []
    assert "rule 100.2:" in err and "every" in err
    with Archive.open(arc) as a:  # the text is the reference now
        assert "each player" in a.versions.document(a.versions.in_force("2014-05-01").id).get("100.2").text  # type: ignore[union-attr]


@needs_cr_corpus
def test_the_2026_word_edition_is_no_re_release(tmp_path: Path) -> None:
    """The case of the issue: the 2026-01-16 DOCX beside its TXT was "2026-01-16 (re-release 2)", in force."""
    docx = CR_CORPUS / "docx" / "cr-20260116.docx"
    if not docx.is_file():
        pytest.skip(f"{docx} not found")
    arc = str(tmp_path / "a.sqlite")
    _cli("archive", "add", str(cr_file("2026-01-16")), "--archive", arc)
    code, out, err = _cli("archive", "add", str(docx), "--archive", arc)
    assert code == 0 and out.startswith("edition           2026-01-16 (docx)"), out + err
    with Archive.open(arc) as a:
        assert len(a.versions.timeline()) == 1
