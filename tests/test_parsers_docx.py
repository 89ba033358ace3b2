"""The official Word edition: equal to the text release of the same date rule for rule (up to typography),
and a small hand-built document for the WordprocessingML details (tracked deletions, breaks, hyphens)."""

from __future__ import annotations

import io
import zipfile

import pytest

from rulediff import parse
from rulediff.errors import ParseError
from rulediff.parsers import detect, parse_bytes

from .conftest import CR_CORPUS, needs_cr_corpus

PAIRS = [
    ("cr-20140501.docx", "cr-20140501.txt"),
    ("cr-20170707.docx", "cr-20170708.txt"),
    ("cr-20200807.docx", "cr-20200807.txt"),
    ("cr-20230203.docx", "cr-20230203.txt"),
    ("cr-20260116.docx", "cr-20260116.txt"),
]


@needs_cr_corpus
@pytest.mark.parametrize(("docx", "txt"), PAIRS)
def test_docx_equals_text_release(docx: str, txt: str) -> None:
    a = parse(str(CR_CORPUS / "docx" / docx))
    b = parse(str(CR_CORPUS / "txt" / txt))
    assert a.version.format == "docx"
    assert a.version.effective_date == b.version.effective_date
    assert [str(r.number) for r in a.rules] == [str(r.number) for r in b.rules]
    for ra, rb in zip(a.rules, b.rules, strict=True):
        assert ra.norm == rb.norm, ra.number
        assert [e.norm for e in ra.examples] == [e.norm for e in rb.examples], ra.number
    assert [(g.term, g.norm) for g in a.glossary] == [(g.term, g.norm) for g in b.glossary]


W = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"'


def _docx(paragraphs: list[str]) -> bytes:
    body = "".join(f"<w:p>{p}</w:p>" for p in paragraphs)
    xml = f'<?xml version="1.0" encoding="UTF-8"?><w:document {W}><w:body>{body}</w:body></w:document>'
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        z.writestr("[Content_Types].xml", "<Types/>")
        z.writestr("word/document.xml", xml)
    return buf.getvalue()


def _run(text: str) -> str:
    return f'<w:r><w:t xml:space="preserve">{text}</w:t></w:r>'


MINIMAL = [
    _run("Magic: The Gathering Comprehensive Rules"),
    _run("These rules are effective as of January 16, 2026."),
    _run("Contents"),
    _run("1. Game Concepts"),
    _run("1. Game Concepts"),
    _run("100. General"),
    _run("100.1. These ") + "<w:r><w:rPr><w:i/></w:rPr><w:t>Magic</w:t></w:r>" + _run(" rules apply to any game."),
    _run("100.1a A two")
    + "<w:r><w:noBreakHyphen/></w:r>"
    + _run("player game")
    + "<w:del><w:r><w:delText>deleted words</w:delText></w:r></w:del>"
    + _run(" begins with two players."),
    _run("Example: One line.") + "<w:r><w:br/></w:r>" + _run("Example: Another line."),
    _run("Glossary"),
    "",
    _run("Ability"),
    _run("1. Text on an object."),
    _run("2. An ability on the stack."),
    "",
    _run("Credits"),
    _run("Everyone."),
]


def test_hand_built_docx() -> None:
    data = _docx(MINIMAL)
    assert detect(data, "x.docx").name == "docx"
    doc = parse_bytes(data, "x.docx")
    assert [str(r.number) for r in doc.rules] == ["1", "100", "100.1", "100.1a"]
    assert doc.get("100.1").text == "These Magic rules apply to any game."  # type: ignore[union-attr]
    sub = doc.get("100.1a")
    assert sub is not None and sub.text == "A two-player game begins with two players."
    assert [e.text for e in sub.examples] == ["Example: One line.", "Example: Another line."]
    assert doc.glossary[0].senses == ("1. Text on an object.", "2. An ability on the stack.")


@pytest.mark.parametrize(
    ("data", "needle"),
    [
        (b"PK\x03\x04not really a zip", "zip"),
        (_docx([]).replace(b"word/document.xml", b"word/other000.xml"), "word/document.xml"),
    ],
)
def test_broken_docx_is_a_parse_error(data: bytes, needle: str) -> None:
    with pytest.raises(ParseError) as e:
        parse_bytes(data, "bad.docx", "docx")
    assert needle in str(e.value)
    assert str(e.value).startswith("bad.docx")
