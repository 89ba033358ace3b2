"""Parser for keyword-summary pages with no rule numbers; alignment infers the numbers."""

# Parser for keyword-summary pages with no rule numbers (the 2017 judge page): a keyword heading, then its
# paragraphs and "Notes:" bullets. Nodes are unnumbered, keyed by title; alignment infers their numbers.

from __future__ import annotations

import re

from ..coverage import Coverage
from ..errors import ParseError
from ..model import Document
from .base import Format, Source, parse_date_text
from .build import TreeBuilder, document

NAME = "keyword-page"
DESCRIPTION = (
    "keyword summaries without rule numbers: a heading per keyword, then paragraphs (e.g. the 2017 judge page)"
)

ABILITY = "keyword ability"
ACTION = "keyword action"

_HEADING = re.compile(r"^[A-Z][A-Za-z'\u2019-]*(?: [A-Za-z'\u2019-]+){0,3}$")
_NOTES = re.compile(r"^Notes?:\s*$", re.I)
_BULLET = re.compile(r"^\s*(?:[\u2022\u25cf\u25e6*-]|\d+[.)])\s+(?P<text>\S.*)$")
_UPDATED = re.compile(r"(?:last updated|updated)\s*:?\s*(?P<date>.+)$", re.I)
_DAY_MONTH_YEAR = re.compile(r"^(?P<d>\d{1,2})\s+(?P<m>[A-Z][a-z]+)\s+(?P<y>\d{4})")
_ACTION_TEXT = re.compile(r"^(?:To \w+ |.{0,60}\bkeyword action\b)|^\u201c?[A-Z][a-z]+ N\u201d? on an? ", re.S)
_ABILITY_TEXT = re.compile(r"\babilit(?:y|ies)\b|\bkeyword that represents\b")


def _is_heading(lines: list[str], i: int) -> bool:
    s = lines[i].strip()
    if not _HEADING.match(s) or s.lower().startswith(("downloadable", "class ", "last updated")):
        return False
    prev_blank = i == 0 or not lines[i - 1].strip()
    nxt = next((lines[j].strip() for j in range(i + 1, min(i + 4, len(lines))) if lines[j].strip()), "")
    return prev_blank and len(nxt) > 40


def sniff(src: Source) -> float:
    text = src.text_or_none
    if text is None or re.search(r"^\s*[1-9]\d{2}\.\d", text[:200000], re.M):
        return 0.0
    lines = src.head_lines(100000)
    heads = [i for i in range(len(lines)) if _is_heading(lines, i)]
    defining = sum(
        1
        for i in heads
        for j in range(i + 1, min(i + 3, len(lines)))
        if lines[j].strip().lower().startswith(lines[i].strip().lower().split()[0])
    )
    return 0.8 if len(heads) >= 2 and defining >= len(heads) * 0.5 else 0.0


def kind_of(text: str) -> str:
    """Keyword action (rule 701) or keyword ability (rule 702), judged from how the entry is written."""
    first = text.split("\n", 1)[0]
    if _ACTION_TEXT.search(first):
        return ACTION
    return ABILITY if _ABILITY_TEXT.search(first) else ACTION


def _updated(header: list[str]) -> str | None:
    for ln in header:
        m = _UPDATED.search(ln)
        if not m:
            continue
        d = parse_date_text(m["date"])
        if d:
            return d.isoformat()
        dm = _DAY_MONTH_YEAR.match(m["date"].strip())
        if dm:
            swapped = parse_date_text(f"{dm['m']} {dm['d']}, {dm['y']}")
            if swapped:
                return swapped.isoformat()
    return None


def parse(src: Source) -> Document:
    source = src.name
    lines = src.lines
    heads = [i for i in range(len(lines)) if _is_heading(lines, i)]
    if not heads:
        raise ParseError(
            "no keyword headings found (a short title line followed by its paragraph)", source=source, line=1
        )
    b = TreeBuilder(source)
    bounds = [*heads, len(lines)]
    for k, start in enumerate(heads):
        title = lines[start].strip()
        paras: list[tuple[int, str]] = []
        notes: list[str] = []
        in_notes = False
        for j in range(start + 1, bounds[k + 1]):
            s = lines[j].strip()
            if not s:
                continue
            if _NOTES.match(s):
                in_notes = True
                continue
            bullet = _BULLET.match(lines[j])
            if in_notes and bullet:
                notes.append(bullet["text"].strip())
            elif in_notes and notes and lines[j][:1].isspace():
                notes[-1] += " " + s
            else:
                in_notes = False
                paras.append((j + 1, s))
        text = "\n".join(p for _, p in paras)
        b.unnumbered(title, text, start + 1, category=kind_of(text))
        for n in notes:
            b.note(n)
        if not paras:
            b.warn(start + 1, f"keyword {title!r} has no text", "empty")
    rules, warns = b.build()
    header = lines[: heads[0]]
    updated = _updated(header)
    titles = tuple(r.title or "" for r in rules)
    return document(
        src,
        NAME,
        rules,
        label=f"{updated} keyword page" if updated else None,
        era=updated,
        coverage=Coverage(titles=titles, description=f"{len(titles)} keyword summaries, no rule numbers"),
        warnings=warns,
        introduction="\n".join(ln for ln in header if ln.strip()),
    )


FORMAT = Format(NAME, DESCRIPTION, sniff, parse)
