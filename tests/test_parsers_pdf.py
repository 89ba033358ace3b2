"""The official PDF edition: both corpus PDFs read as their text edition (typography aside), bad PDFs refused."""

from __future__ import annotations

import io
import json

import pytest
from click.testing import CliRunner

from rulediff.cli import main
from rulediff.errors import ParseError
from rulediff.matcher.classify import align
from rulediff.matcher.records import Shown
from rulediff.parsers import detect, parse_bytes, parse_file
from rulediff.parsers.pdf import Line, paragraphs

from .conftest import CR_CORPUS, FIXTURES, cr_file

PDFS = sorted((CR_CORPUS / "pdf").glob("cr-*.pdf")) if (CR_CORPUS / "pdf").is_dir() else []
needs_pdfs = pytest.mark.skipif(not PDFS, reason=f"official PDF editions not found in {CR_CORPUS / 'pdf'}")


def _date(pdf_name: str) -> str:
    d = pdf_name[3:11]
    return f"{d[:4]}-{d[4:6]}-{d[6:]}"


@needs_pdfs
@pytest.mark.parametrize("pdf", PDFS, ids=lambda p: p.name)
def test_the_pdf_reads_as_the_text_edition_of_its_date(pdf) -> None:  # type: ignore[no-untyped-def]
    """Inside its coverage (the whole release), the PDF differs from the TXT of its date in typography alone:
    no rule or glossary term added, removed, moved, renumbered or edited in words."""
    txt = cr_file(_date(pdf.name))
    a, b = parse_file(txt), parse_file(pdf)
    assert b.version.format == "pdf" and b.version.effective_date == a.version.effective_date
    assert len(b.rules) == len(a.rules) and len(b.glossary) == len(a.glossary)
    summary = align(a, b).summary()
    read = {s: summary[f"reader_{s.value}"] for s in Shown if s != Shown.TYPOGRAPHY_ONLY}
    assert not any(read.values()), read
    # The same answer through the command a user runs.
    r = CliRunner().invoke(main, ["diff", str(txt), str(pdf), "--format", "json"])
    assert r.exit_code == 0, r.output
    changes = json.loads(r.stdout)["changes"]
    assert {c["kind"] for c in changes} <= {"edited"} and all(c["nature"] == "typography_only" for c in changes)


def test_pdf_fixtures_are_detected_as_pdf() -> None:
    for case in sorted((FIXTURES / "parsers" / "pdf").glob("*/input.pdf")):
        assert detect(case.read_bytes(), str(case)).name == "pdf"


def _line(text: str, right: float, top: float, page: int = 1, bold: bool = False) -> Line:
    return Line(text, page, right, 6.0 * len(text.split(" ", 1)[0]), top, top, bold)


@pytest.mark.parametrize(
    ("lines", "want"),
    [
        # A full line runs on; one the next word would have fit after ends its paragraph.
        (
            [_line("100.1. These rules apply to any", 500, 700), _line("game.", 300, 688)],
            ["100.1. These rules apply to any game."],
        ),
        (
            [_line("Abandon", 60, 700, bold=True), _line("To turn a scheme face down.", 300, 688)],
            ["Abandon", "To turn a scheme face down."],
        ),
        # More room than between two lines of a paragraph: a blank line, as in the text edition.
        (
            [_line("100.1. One.", 500, 700), _line("x", 500, 688), _line("100.2. Two.", 300, 664)],
            ["100.1. One. x", "", "100.2. Two."],
        ),
        # An example opens its own line even after a full one.
        ([_line("100.1. One.", 500, 700), _line("Example: Two.", 300, 688)], ["100.1. One.", "Example: Two."]),
        # At a page's end: a full line runs on, but not into a rule, a bold term or a numbered sense.
        ([_line("a b c", 500, 100), _line("d e.", 300, 700, page=2)], ["a b c d e."]),
        ([_line("a b c", 500, 100), _line("101.1. Next.", 300, 700, page=2)], ["a b c", "", "101.1. Next."]),
        ([_line("a b c", 500, 100), _line("Term", 60, 700, page=2, bold=True)], ["a b c", "", "Term"]),
        ([_line("1. a b c", 500, 100), _line("2. More.", 300, 700, page=2)], ["1. a b c", "2. More."]),
    ],
)
def test_lines_rejoin_by_where_they_end(lines: list[Line], want: list[str]) -> None:
    assert paragraphs(lines) == want


def _blank_pdf(pages: int) -> bytes:
    import pypdfium2 as pdfium

    pdf = pdfium.PdfDocument.new()
    for _ in range(pages):
        pdf.new_page(612, 792)
    buf = io.BytesIO()
    pdf.save(buf)
    return buf.getvalue()


def test_a_pdf_without_text_or_cut_short_is_one_error_naming_the_file() -> None:
    with pytest.raises(ParseError, match="holds no text") as e:
        parse_bytes(_blank_pdf(2), "scan.pdf")
    assert e.value.source == "scan.pdf"
    data = (next((FIXTURES / "parsers" / "pdf").glob("*/input.pdf"))).read_bytes()
    with pytest.raises(ParseError, match="not a readable PDF"):
        parse_bytes(data[: len(data) // 3], "cut.pdf")


def test_archive_add_takes_a_pdf_now(tmp_path) -> None:  # type: ignore[no-untyped-def]
    pdf = next((FIXTURES / "parsers" / "pdf").glob("*/input.pdf"))
    r = CliRunner().invoke(main, ["archive", "add", str(pdf), "--archive", str(tmp_path / "a.sqlite")])
    assert r.exit_code == 0, r.output
    r = CliRunner().invoke(main, ["archive", "list", "--json", "--archive", str(tmp_path / "a.sqlite")])
    assert json.loads(r.stdout.splitlines()[0])["format"] == "pdf"
