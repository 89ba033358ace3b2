"""Parser for rules text copied out of the PDF and pasted into a page."""

# Parser for rules text copied out of the PDF and pasted elsewhere (a blog): hard-wrapped lines, no blank lines
# between rules, words split by line-end hyphens, and the host page's header and footer around it.

from __future__ import annotations

import re

from ..errors import ParseError
from ..model import Document, ParseWarning
from .base import Format, Source, parse_date_text
from .build import TreeBuilder, document, partial_coverage
from .numbered import HEADING_RE, RULE_RE, SECTION_RE, paragraphs, read_body

NAME = "pdf-paste"
DESCRIPTION = "rules copied from the PDF and pasted into a page (hard-wrapped, page header/footer), e.g. the 2011 blog"

_FOOTER = re.compile(
    r"^(?:No comments:|\d+ comments?:|Post a Comment|Posted by\b|Labels?:|Newer Post|Older Post|"
    r"Subscribe to:|Share this|Email This|BlogThis!)"
)
_START = (SECTION_RE, HEADING_RE, RULE_RE)
_SPLIT_WORD = re.compile(r"(?P<head>[A-Za-z]+)-$")
_NEXT_WORD = re.compile(r"^(?P<tail>[a-z]+)(?P<rest>.*)$", re.S)
_WORD = re.compile(r"[A-Za-z]+(?:-[A-Za-z]+)*")


def _is_rule_line(s: str) -> bool:
    m = RULE_RE.match(s)
    if m:
        return bool(m.group("rest")) and bool(m.group("space"))
    return bool(HEADING_RE.match(s) or SECTION_RE.match(s))


def sniff(src: Source) -> float:
    text = src.text_or_none
    if text is None:
        return 0.0
    lines = src.head_lines(200000)
    rules = sum(1 for ln in lines if _is_rule_line(ln))
    if rules < 5 or "\n100.1" in text[:200000] and re.search(r"^Glossary\s*$", text, re.M):
        return 0.0
    # Hard wrapping: rule lines packed together, or paragraphs continued on the next line.
    packed = sum(1 for i in range(1, len(lines)) if _is_rule_line(lines[i]) and lines[i - 1].strip())
    wrapped = sum(
        1 for i in range(1, len(lines)) if lines[i].strip() and lines[i - 1].strip() and not _is_rule_line(lines[i])
    )
    return 0.85 if packed > rules * 0.3 or wrapped > rules * 0.5 else 0.3


def repair_hyphenation(lines: list[str], first_line: int = 1) -> tuple[list[str], list[ParseWarning]]:
    """Rejoin words split by a line-end hyphen. The fragment moves up to the first line; the hyphen is
    dropped when the joined word occurs elsewhere in the text and the hyphenated one does not (so
    "state-\\nbased" stays "state-based" and "permanen-\\nt" becomes "permanent")."""
    vocab: set[str] | None = None  # every word of the text, made at the first split word (most pages have few)
    out = list(lines)
    warnings: list[ParseWarning] = []
    for i in range(len(out) - 1):
        if not out[i].rstrip().endswith("-"):
            continue  # (most lines: the pattern below needs a hyphen at the end)
        m = _SPLIT_WORD.search(out[i].rstrip())
        n = _NEXT_WORD.match(out[i + 1].lstrip())
        if not m or not n:
            continue
        head, tail = m["head"], n["tail"]
        if vocab is None:
            vocab = {w.lower() for ln in lines for w in _WORD.findall(ln)}
        joined = head + tail
        soft = joined.lower() in vocab and f"{head}-{tail}".lower() not in vocab
        word = joined if soft else f"{head}-{tail}"
        out[i] = out[i].rstrip()[: -len(head) - 1] + word
        out[i + 1] = n["rest"].lstrip()
        warnings.append(ParseWarning(first_line + i, f"word split across lines rejoined as {word!r}", "hyphenation"))
    return out, warnings


def parse(src: Source) -> Document:
    source = src.name
    lines = src.lines
    start = next((i for i, ln in enumerate(lines) if any(p.match(ln.strip()) for p in _START)), None)
    if start is None:
        raise ParseError("no numbered rules found; expected lines like '702.15. Lifelink'", source=source, line=1)
    header = "\n".join(lines[:start])
    end = next((i for i in range(start, len(lines)) if _FOOTER.match(lines[i].strip())), len(lines))
    body, warnings = repair_hyphenation(lines[start:end], first_line=start + 1)
    # Keep 1-based line numbers of the original file.
    body = [""] * start + body
    builder = TreeBuilder(source)
    if start:
        builder.warn(1, f"page header dropped (lines 1-{start})", "page")
    if end < len(lines):
        builder.warn(end + 1, f"page footer dropped (lines {end + 1}-{len(lines)})", "page")
    read_body(paragraphs(body, start, len(body), wrapped=True), builder, wrapped=True)
    rules, warns = builder.build()
    posted = parse_date_text(header)
    era = str(posted.year) if posted else None
    return document(
        src,
        NAME,
        rules,
        label=f"{posted.isoformat()} paste" if posted else None,
        era=era,
        coverage=partial_coverage(rules, "PDF paste"),
        warnings=(*warns, *warnings),
        introduction=header.strip(),
        credits="\n".join(ln for ln in lines[end:] if ln.strip()),
    )


FORMAT = Format(NAME, DESCRIPTION, sniff, parse)
