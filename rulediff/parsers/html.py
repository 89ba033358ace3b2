"""Parser for the rules saved as a web page, read with lxml.html."""

# Parser for the rules saved as a web page: rules as paragraphs, list items or headings, perhaps with an `id` anchor
# per rule, perhaps with a glossary as a definition list. Read with lxml.html.

from __future__ import annotations

import dataclasses
import re
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from lxml import etree

from ..coverage import Coverage
from ..errors import ParseError
from ..model import Document, GlossaryEntry
from .base import Format, Source, parse_date_text
from .build import TreeBuilder, document, partial_coverage
from .numbered import Paragraph, read_body

NAME = "html"
DESCRIPTION = "the rules saved as a web page (paragraphs or list items, optional id anchors per rule)"

_BLOCKS = {"p", "li", "h1", "h2", "h3", "h4", "h5", "h6", "dt", "dd", "div", "td", "blockquote", "pre"}
_SKIP = {"script", "style", "nav", "head", "noscript", "template"}
_FIRST_RULE = re.compile(r"^100\.1\.?\s")
_NUMBERED = re.compile(r"^[1-9][0-9]{2}\.(?:[0-9]{1,3}[a-z]{0,2}\.?)?\s")
# A glossary term: a capitalised phrase that does not end like a sentence ("For Mirrodin!" is a term).
_TERM = re.compile(r"^(?!\d+\.\s)[\"'\u201c\[(]?[A-Z0-9].{0,90}(?<![.:;,])(?<![.:;,][\"\u201d'])$")
_EFFECTIVE = re.compile(r"effective as of (?P<rest>.{6,40})", re.I)


def sniff(src: Source) -> float:
    text = src.text_or_none
    if text is None:
        return 0.0
    head = text[:5000].lower()
    if "<html" not in head and "<!doctype html" not in head and "<body" not in head and "<p" not in head:
        return 0.0
    return 0.9 if re.search(r">\s*(?:<[^>]+>\s*)*[1-9]\d{2}\.\d{1,3}[a-z]{0,2}\.?\s", text) else 0.2


def _anchor(el: etree._Element) -> str | None:
    if el.get("id"):
        return str(el.get("id"))
    for a in el.iter("a"):
        if a.get("id") or a.get("name"):
            return str(a.get("id") or a.get("name"))
    return None


def _own_text(el: etree._Element) -> str:
    """Text of ``el`` up to its first block-level child: a list item's own words before its sub-list."""
    parts = [el.text or ""]
    for child in el:
        if isinstance(child.tag, str) and (child.tag in _BLOCKS or child.tag in ("ul", "ol", "dl", "table")):
            break
        if isinstance(child.tag, str) and child.tag not in _SKIP:
            parts.append(child.text_content())
        parts.append(child.tail or "")
    return "".join(parts)


def blocks(root: etree._Element) -> list[tuple[str, Paragraph]]:
    """(tag, paragraph) for every block element's own text, in document order, whitespace collapsed.
    A block that holds other blocks (a list item with a sub-list) contributes the text before them."""
    out: list[tuple[str, Paragraph]] = []
    for el in root.iter():
        if not isinstance(el.tag, str) or el.tag not in _BLOCKS:
            continue
        if any(a.tag in _SKIP for a in el.iterancestors()):
            continue
        nested = any(isinstance(c.tag, str) and c.tag in _BLOCKS for c in el.iterdescendants())
        text = " ".join((_own_text(el) if nested else el.text_content()).split())
        if text:
            out.append((el.tag, Paragraph(el.sourceline or 0, text, el.tag == "dd", _anchor(el))))
    return out


def _glossary(items: list[tuple[str, Paragraph]]) -> list[GlossaryEntry]:
    entries: list[GlossaryEntry] = []
    term: Paragraph | None = None
    body: list[str] = []

    def flush() -> None:
        if term is not None and body:
            entries.append(GlossaryEntry.make(term.text, "\n".join(body), term.line))

    for k, (tag, p) in enumerate(items):
        is_term = tag == "dt" or (
            tag != "dd" and k + 1 < len(items) and _TERM.match(p.text) is not None and len(p.text.split()) <= 10
        )
        if is_term:
            flush()
            term, body = p, []
        elif term is not None:
            body.append(p.text)
    flush()
    return entries


def parse(src: Source) -> Document:
    source = src.name
    text = src.decoded
    # here: a command that reads no web page does not load lxml
    import lxml.html
    from lxml import etree

    try:
        root = lxml.html.document_fromstring(text)
    except (etree.ParserError, ValueError) as e:
        raise ParseError(f"not readable as HTML: {e}", source=source, line=1) from None
    items = blocks(root)
    texts = [p.text for _, p in items]
    start = next((i for i, t in enumerate(texts) if _FIRST_RULE.match(t)), None)
    if start is None:
        start = next((i for i, t in enumerate(texts) if _NUMBERED.match(t)), None)
    if start is None:
        raise ParseError("no numbered rules found in the page", source=source, line=1)
    # Back up over the section and three-digit headings right above the first rule ("1. Game
    # Concepts", "100. General") -- once each, so a Contents list just above is not taken too.
    for pattern in (r"^[1-9]\d\d\.\s", r"^[1-9]\.\s"):
        if start > 0 and re.match(pattern, texts[start - 1]):
            start -= 1
    gloss_at = next((i for i in range(start, len(texts)) if texts[i].strip().lower() == "glossary"), None)
    credits_at = next((i for i in range(gloss_at or start, len(texts)) if texts[i].strip().lower() == "credits"), None)
    end = gloss_at if gloss_at is not None else credits_at if credits_at is not None else len(items)
    paras = [p for _, p in items[start:end]]
    b = TreeBuilder(source)
    read_body(paras, b, wrapped=False)
    rules, warns = b.build()
    glossary: list[GlossaryEntry] = []
    if gloss_at is not None:
        glossary = _glossary(items[gloss_at + 1 : credits_at if credits_at is not None else len(items)])
    complete = bool(rules) and str(rules[0].number) in ("1", "100", "100.1") and gloss_at is not None
    eff = None
    for t in texts[:start]:
        m = _EFFECTIVE.search(t)
        if m and (eff := parse_date_text(m["rest"])):
            break
    title = root.findtext(".//title")
    label = eff.isoformat() if eff else (" ".join(title.split()) if title and title.strip() else None)
    coverage = (
        Coverage(complete=True, glossary=True, description="the whole Comprehensive Rules")
        if complete
        else partial_coverage(rules, "web page")
    )
    if not complete and glossary:
        coverage = dataclasses.replace(coverage, glossary=True)
    return document(
        src,
        NAME,
        rules,
        label=label,
        effective=eff,
        glossary=glossary,
        coverage=coverage,
        warnings=warns,
        introduction="\n".join(texts[:start]),
        credits="\n".join(texts[credits_at + 1 :]) if credits_at is not None else "",
    )


FORMAT = Format(NAME, DESCRIPTION, sniff, parse)
