"""Parser for the official PDF edition: its lines rejoined into paragraphs by where they end on the page."""

# Parser for the official PDF edition, read with PDFium (pypdfium2). The PDF prints each paragraph wrapped at the
# right margin, with no mark of where a paragraph ends; a line ends its paragraph when the first word of the next
# line would have fit after it (a word processor wraps only a word that does not fit), and else the two are one
# paragraph. The paragraphs are then lines of the official layout, read as the text and Word editions are.

from __future__ import annotations

import itertools
import re
from collections import Counter
from dataclasses import dataclass
from typing import Any

from ..errors import ParseError
from ..model import Document
from .base import Format, Source
from .numbered import EXAMPLE_RE, HEADING_RE, RULE_RE
from .official import parse_lines

NAME = "pdf"
DESCRIPTION = "official PDF edition (.pdf), read with PDFium"

# Room a space takes between two words at the body's size (a quarter of a 10-point font), in points.
_SPACE = 2.5
# How far past the widest line a word may end and still be said to fit: PDFium's boxes are measured to the
# hundredth of a point, and a word processor wraps at its own rounding of the same widths.
_SLACK = 0.5
# PDFium's mark for a hyphen that ends a line (a compound broken there: "turn-" / "based"); it runs the two lines
# into one, so the hyphen is all that is left of the break.
_LINE_END_HYPHEN = "\ufffe"
# A numbered sense of a glossary entry ("2. A status a permanent may have.").
_SENSE = re.compile(r"[1-9]\. ")
# A release is some 300 pages; a file of thousands is no Comprehensive Rules, and would take minutes to read.
MAX_PAGES = 2000


@dataclass(frozen=True, slots=True)
class Line:
    """One printed line: its text (no trailing blanks), where its ink ends, and how wide its first word is."""

    text: str
    page: int
    right: float
    first_word: float
    top: float  # the baseline of its first character
    bottom: float  # and of its last (lower when PDFium ran a line broken at a hyphen into the next)
    bold: bool = False  # set in a bold face from its first character (a glossary term, a heading)


def sniff(src: Source) -> float:
    return 0.95 if src.data[:5] == b"%PDF-" else 0.0


def _open(data: bytes, source: str) -> Any:
    import pypdfium2 as pdfium  # here: a command that reads no PDF does not load PDFium

    try:
        return pdfium.PdfDocument(data)
    except pdfium.PdfiumError as e:
        raise ParseError(
            f"not a readable PDF file ({e}); expected the official PDF edition", source=source, line=1
        ) from None


def _page_lines(textpage: Any, page: int) -> list[Line]:
    """The page's lines as PDFium breaks them (it marks each line end with a generated CR LF)."""
    n = textpage.count_chars()
    text = textpage.get_text_range(0, n) if n > 0 else ""
    if len(text) != n:  # a character outside the BMP counts twice: boxes would no longer match the text
        return _plain_lines(text, page)
    out: list[Line] = []
    start = 0
    for piece in text.replace("\r\n", "\n\n").split("\n"):
        end = start + len(piece)
        body = piece.strip()
        if body:
            first = start + len(piece) - len(piece.lstrip())
            last = start + len(piece.rstrip()) - 1
            word = len(body.split(" ", 1)[0])
            left = textpage.get_charbox(first)[0]
            right = textpage.get_charbox(last)[2]
            width = textpage.get_charbox(first + word - 1)[2] - left
            top, bottom = _baseline(textpage, first), _baseline(textpage, last)
            text = body.replace(_LINE_END_HYPHEN, "-")
            out.append(Line(text, page, right, width, top, bottom, _bold(textpage, first)))
        start = end + 1
    return out


def _baseline(textpage: Any, index: int) -> float:
    """The height of a character's baseline on the page (its origin), in points from the page's foot."""
    import ctypes

    import pypdfium2.raw as pdfium_c

    x, y = ctypes.c_double(), ctypes.c_double()
    pdfium_c.FPDFText_GetCharOrigin(textpage.raw, index, ctypes.byref(x), ctypes.byref(y))
    return float(y.value)


def _bold(textpage: Any, index: int) -> bool:
    """Is a character set in a bold face (its font's name says so: PDFium reports no weight for these fonts)?"""
    import ctypes

    import pypdfium2.raw as pdfium_c

    name = ctypes.create_string_buffer(128)
    flags = ctypes.c_int()
    pdfium_c.FPDFText_GetFontInfo(textpage.raw, index, name, len(name), ctypes.byref(flags))
    return b"Bold" in name.value


def _plain_lines(text: str, page: int) -> list[Line]:
    """Lines without geometry: each taken as ending its paragraph where it does not fill the measure."""
    return [
        Line(ln.strip().replace(_LINE_END_HYPHEN, "-"), page, 0.0, 0.0, 0.0, 0.0)
        for ln in text.replace("\r\n", "\n").split("\n")
        if ln.strip()
    ]


def read_lines(data: bytes, source: str) -> list[Line]:
    """Every printed line of the PDF, page after page."""
    pdf = _open(data, source)
    try:
        pages = len(pdf)
        if pages > MAX_PAGES:
            raise ParseError(f"{pages} pages: no Comprehensive Rules edition has so many", source=source, line=1)
        out: list[Line] = []
        for k in range(pages):
            page = pdf[k]
            textpage = page.get_textpage()
            try:
                out.extend(_page_lines(textpage, k + 1))
            finally:
                textpage.close()
                page.close()
        return out
    except ParseError:
        raise
    except Exception as e:  # PDFium reports a damaged page as an error of its own
        raise ParseError(f"cannot read the PDF's text: {e}", source=source, line=1) from None
    finally:
        pdf.close()


def _pitch(lines: list[Line]) -> float:
    """The usual distance between the baselines of two lines of one paragraph (the most common one)."""
    steps = Counter(round(a.bottom - b.top) for a, b in itertools.pairwise(lines) if a.page == b.page)
    usual = [d for d, _ in steps.most_common() if d > 0]
    return float(usual[0]) if usual else 0.0


def _opens_rule(text: str) -> bool:
    """Does a line open a rule or a heading (a number of three digits and more, then a capital)?"""
    m = RULE_RE.match(text)
    return bool(m and m["space"] and m["rest"][:1].isupper()) or bool(HEADING_RE.match(text))


def _joins_page(ln: Line, nxt: Line, full: bool) -> tuple[bool, bool]:
    """(run on, blank line between) for the last line of a page and the first of the next, whose distance the
    page does not show: a rule, a heading or a bold line (a glossary term) opens a paragraph after a blank line,
    an example or a numbered sense of a glossary entry one without; else a full line runs on. A paragraph that
    ends at the page's end has a blank line after it, but a bold one (a term: its text follows)."""
    if _opens_rule(nxt.text) or (nxt.bold and not ln.bold):
        return False, True
    if EXAMPLE_RE.match(nxt.text) or _SENSE.match(nxt.text):
        return False, False
    if full:
        return True, False
    return False, not ln.bold


def paragraphs(lines: list[Line]) -> list[str]:
    """Lines rejoined into the text edition's lines. A blank line stands where the PDF leaves more room between
    two lines than between two lines of a paragraph (where the text edition has one). In a block of lines set
    close, a line ends its paragraph when the next one's first word would have fit at its end (measured against
    the widest line of the document, the measure's end), or the next one is an example; at a page's end, see
    ``_joins_page``."""
    measure = max((ln.right for ln in lines), default=0.0)
    gap = 1.5 * _pitch(lines)
    out: list[str] = []
    buf: list[str] = []
    for k, ln in enumerate(lines):
        buf.append(ln.text)
        if k + 1 == len(lines):
            break
        nxt = lines[k + 1]
        full = ln.right > 0 and ln.right + _SPACE + nxt.first_word > measure + _SLACK
        if nxt.page != ln.page:
            run_on, blank = _joins_page(ln, nxt, full)
            if run_on:
                continue
        elif gap > 0 and ln.bottom - nxt.top > gap:
            blank = True
        elif full and not EXAMPLE_RE.match(nxt.text):
            continue
        else:
            blank = False
        out.append(" ".join(buf))
        buf = []
        if blank:
            out.append("")
    if buf:
        out.append(" ".join(buf))
    return out


def parse(src: Source) -> Document:
    lines = read_lines(src.data, src.name)
    if not lines:
        raise ParseError("the PDF holds no text (a scan?); expected the official PDF edition", source=src.name, line=1)
    return parse_lines(src, paragraphs(lines), NAME)


FORMAT = Format(NAME, DESCRIPTION, sniff, parse)
