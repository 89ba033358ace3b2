"""Parser for the official Word edition, read with lxml; the official layout reader does the rest."""

# Parser for the official Word edition: WordprocessingML read with lxml (zip + XML, no converter); each paragraph
# becomes a line and the official layout reader takes it from there.

from __future__ import annotations

import io
import zipfile

from ..errors import ParseError
from ..model import Document
from .base import Format, Source
from .official import parse_lines

NAME = "docx"
DESCRIPTION = "official Word edition (.docx), read with lxml"

_W = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"
_P, _T, _TAB, _BR, _CR = f"{_W}p", f"{_W}t", f"{_W}tab", f"{_W}br", f"{_W}cr"
_NB_HYPHEN, _SOFT_HYPHEN, _SYM = f"{_W}noBreakHyphen", f"{_W}softHyphen", f"{_W}sym"
_DEL = f"{_W}del"
_MAX_XML = 200 * 1024 * 1024


def sniff(src: Source) -> float:
    data = src.data
    if data[:4] != b"PK\x03\x04":
        return 0.0
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as z:
            return 0.95 if "word/document.xml" in z.namelist() else 0.0
    except (zipfile.BadZipFile, OSError):
        return 0.0


def _symbol(code: str) -> str:
    """A w:sym character; symbol fonts put their glyphs at U+F0xx, which maps back to ASCII."""
    try:
        n = int(code, 16)
    except ValueError:
        return ""
    return chr(n - 0xF000) if 0xF020 <= n <= 0xF0FF else chr(n) if 0x20 <= n < 0xD800 else ""


def paragraphs(xml: bytes, source: str) -> list[str]:
    """The document's paragraphs as text lines, in order. Deleted (tracked) runs are skipped; a manual
    line break inside a paragraph starts a new line, as it does in the text edition."""
    out: list[str] = []
    buf: list[str] = []
    deleted = 0
    from lxml import etree  # here: a command that reads no .docx does not load lxml

    try:
        for event, el in etree.iterparse(io.BytesIO(xml), events=("start", "end"), huge_tree=True):
            tag = el.tag
            if tag == _DEL:
                deleted += 1 if event == "start" else -1
                continue
            if event == "start":
                continue
            if tag == _P:
                out.append("".join(buf))
                buf.clear()
                el.clear()
            elif deleted:
                continue
            elif tag == _T:
                buf.append(el.text or "")
            elif tag == _TAB:
                buf.append("\t")
            elif tag in (_BR, _CR):
                if el.get(f"{_W}type") not in ("page", "column"):
                    buf.append("\n")
            elif tag == _NB_HYPHEN:
                buf.append("-")
            elif tag == _SYM:
                buf.append(_symbol(el.get(f"{_W}char") or ""))
    except etree.XMLSyntaxError as e:
        raise ParseError(f"word/document.xml is not well-formed XML: {e.msg}", source=source, line=e.lineno) from None
    return [ln for p in out for ln in p.split("\n")]


def parse(src: Source) -> Document:
    data, source = src.data, src.name
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as z:
            info = z.getinfo("word/document.xml")
            if info.file_size > _MAX_XML:
                raise ParseError("word/document.xml is implausibly large", source=source)
            xml = z.read(info)
    except KeyError:
        raise ParseError("zip file has no word/document.xml: not a Word document", source=source, line=1) from None
    except (zipfile.BadZipFile, OSError, EOFError) as e:
        raise ParseError(f"not a readable .docx (zip) file: {e}", source=source, line=1) from None
    return parse_lines(src, paragraphs(xml, source), NAME)


FORMAT = Format(NAME, DESCRIPTION, sniff, parse)
