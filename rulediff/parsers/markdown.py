"""Parser for Markdown dumps, slipped bold markers included."""

# Parser for Markdown dumps: `# **702.** Keyword Abilities`, `**702.15.** Lifelink`, `+ **702.15a** ...`, bold
# markers that slipped inside numbers (`+ **702.10**a`), and indented `Example:` paragraphs.

from __future__ import annotations

import re

from ..errors import ParseError
from ..model import Document
from .base import Format, Source
from .build import TreeBuilder, document, partial_coverage
from .numbered import paragraphs, read_body

NAME = "markdown"
DESCRIPTION = "Markdown dump: '**702.15.** Lifelink', '+ **702.15a** ...', indented examples (e.g. the 2022 seed)"

_BOLD_NUMBER = re.compile(r"^\s*(?:#{1,6}\s+|[+*-]\s+)?\*\*\s*[0-9]{1,3}(?:\.[0-9]{1,3})?")
# Markup around a leading rule number: heading hashes, list bullets, bold/italic markers (also the
# ones that slipped inside the number: "**702.10**a" is 702.10a).
_LEAD = re.compile(
    r"^(?P<indent>\s*)(?:#{1,6}\s+|[+*-]\s+)?(?P<num>(?:\*{1,2}|_{1,2})?[\d.]+(?:\*{1,2}|_{1,2})?[a-z]{0,2}\.?(?:\*{1,2}|_{1,2})?)"
)
_MARKERS = re.compile(r"\*{1,2}|_{1,2}")


def sniff(src: Source) -> float:
    text = src.text_or_none
    if text is None:
        return 0.0
    head = src.head_lines(50000)
    hits = sum(1 for ln in head if _BOLD_NUMBER.match(ln))
    return 0.9 if hits >= 3 else 0.0


def strip_markup(line: str) -> str:
    """'+ **702.10**a Haste' -> '702.10a Haste'; other lines keep their text (indent kept)."""
    m = _LEAD.match(line)
    if not m or not any(c.isdigit() for c in m["num"]):
        return line
    number = _MARKERS.sub("", m["num"])
    return m["indent"] + number + line[m.end() :]


_SLIPPED = re.compile(r"^\s*(?:[+*-]\s+)?\*\*[0-9.]+\*\*[a-z]")


def parse(src: Source) -> Document:
    source = src.name
    raw = src.lines
    lines = [strip_markup(ln) for ln in raw]
    builder = TreeBuilder(source)
    slipped = [i for i, ln in enumerate(raw) if _SLIPPED.match(ln)]
    if slipped:
        builder.warn(
            slipped[0] + 1,
            f"bold markers slip inside {len(slipped)} subrule numbers from here on "
            f"({raw[slipped[0]].split()[1][:14]}); read as the number they wrap",
            "markup",
        )
    read_body(paragraphs(lines, 0, len(lines), wrapped=False), builder, wrapped=False)
    if not len(builder):
        raise ParseError("no numbered rules found; expected lines like '**702.15.** Lifelink'", source=source, line=1)
    rules, warns = builder.build()
    return document(src, NAME, rules, coverage=partial_coverage(rules, "Markdown dump"), warnings=warns)


FORMAT = Format(NAME, DESCRIPTION, sniff, parse)
