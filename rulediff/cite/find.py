"""Rule citations in a text (Markdown, HTML, plain): where each number is written and what it names."""

# Rule citations in an article, a rulings database or a bot's text: "rule 702.15a", "rules 702.15 and 702.16",
# "CR 613.1", "[702.15]", ranges "506.7a-f" and "119.9-10". The grammar is the one rule text cites rules with
# (references.find_references), plus "CR 613" for a heading; what the format says is no prose (HTML tags and their
# attributes, scripts and styles, comments, Markdown link targets, URLs) is not read, so an address keeps its bytes.

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from ..numbering import RuleNumber
from ..references import find_references

FORMATS = ("markdown", "html", "plain")
_DASHES = "\u2013\u2014\u2012-"
_NUMBER = r"[1-9]\d{2}(?:\.\d{1,3}[a-z]{0,2})?"
# A number as written in a citation, and the tail of a range after it: a number, a rule's digits, or letters.
_WRITTEN = re.compile(
    rf"(?P<first>{_NUMBER})(?!\d)(?:(?P<dash>\s?[{_DASHES}]\s?)(?P<tail>{_NUMBER}|\d{{1,3}}[a-z]{{0,2}}|[a-z]{{1,2}})(?![\w.]\w))?"
)
_CR_HEADING = re.compile(r"\bCR\s+(?P<n>[1-9]\d{2})(?!\d|\.\d)")
_URL = re.compile(r"\b(?:https?://|www\.)[^\s<>\"')\]]+")
_NOT_PROSE = {
    "html": re.compile(r"<!--.*?-->|<(script|style)\b.*?</\1\s*>|<[^>]*>", re.S | re.I),
    "markdown": re.compile(
        r"<!--.*?-->|<[A-Za-z/!][^>]*>|\]\([^)\s]*(?:\s+\"[^\"]*\")?\)|^\s{0,3}\[[^\]]+\]:\s*\S+.*$", re.S | re.M
    ),
    "plain": re.compile(r"(?!)"),
}


def format_of(path: str, text: str) -> str:
    """The format of a file by its name, else by what it holds."""
    suffix = Path(path).suffix.lower()
    if suffix in (".md", ".markdown", ".mdown"):
        return "markdown"
    if suffix in (".html", ".htm", ".xhtml"):
        return "html"
    if suffix in (".txt", ".text"):
        return "plain"
    return "html" if re.search(r"<(?:html|body|p|div)\b", text[:4096], re.I) else "plain"


@dataclass(frozen=True, slots=True)
class Written:
    """One number as a citation writes it: ``[start, end)`` in the text; ``full`` is the number it stands for
    ("h" in "601.2a-h" stands for 601.2h); ``first`` says it opens a range (or stands alone), else it is a
    range's end."""

    start: int
    end: int
    full: str
    first: bool
    tail: str = ""  # for a range's end: "letters", "rule" (digits after the dot) or "number" (written whole)


@dataclass(frozen=True, slots=True)
class Citation:
    """A citation: its place, its text, the numbers as written, and every rule it names (ranges expanded)."""

    start: int
    end: int
    line: int
    text: str
    written: tuple[Written, ...]
    names: tuple[str, ...]

    @property
    def ranges(self) -> list[tuple[Written, Written]]:
        w = self.written
        return [(w[k], w[k + 1]) for k in range(len(w) - 1) if w[k].first and not w[k + 1].first]


# Characters HTML writes as references where a citation has them (a range's dash, a space): read as the character.
_ENTITY = re.compile(r"&(?:ndash|mdash|nbsp|#8211|#8212|#160|#x2013|#x2014|#xa0);", re.I)
_ENTITY_CHAR = {"ndash": "\u2013", "mdash": "\u2014", "nbsp": " ", "#8211": "\u2013", "#8212": "\u2014", "#160": " "}
_ENTITY_CHAR |= {"#x2013": "\u2013", "#x2014": "\u2014", "#xa0": " "}


def _masked(text: str, fmt: str) -> tuple[str, list[int]]:
    """``text`` with what is not prose blanked, and (HTML) the references to a dash or a space read as that
    character; with the offset in ``text`` of each character of it (and of its end)."""

    def blank(m: re.Match[str]) -> str:
        return re.sub(r"[^\n]", " ", m.group())

    masked = _URL.sub(blank, _NOT_PROSE[fmt].sub(blank, text))
    if fmt != "html" or "&" not in masked:
        return masked, list(range(len(masked) + 1))
    out: list[str] = []
    where: list[int] = []
    pos = 0
    for m in _ENTITY.finditer(masked):
        out.append(masked[pos : m.start()])
        where.extend(range(pos, m.start()))
        out.append(_ENTITY_CHAR[m.group()[1:-1].lower()])
        where.append(m.start())
        pos = m.end()
    out.append(masked[pos:])
    where.extend(range(pos, len(masked) + 1))
    return "".join(out), where


def _full(first: str, tail: str) -> tuple[str, str]:
    """What a range's end stands for, and how it is written."""
    if re.fullmatch(_NUMBER, tail):
        return tail, "number"
    if tail.isalpha():
        return re.sub(r"[a-z]+$", "", first) + tail, "letters"
    return first.split(".", 1)[0] + "." + tail, "rule"


def find_citations(text: str, fmt: str) -> list[Citation]:
    """Every citation of a rule in ``text`` read as ``fmt`` (one of FORMATS), in order."""
    masked, at = _masked(text, fmt)
    spans: list[tuple[int, int, tuple[str, ...]]] = [
        (r.start, r.end, tuple(str(t) for t in r.targets))
        for r in find_references(masked)
        if any(t.heading is not None for t in r.targets)  # "section 7" is no rule of a release to follow
    ]
    taken = [(a, b) for a, b, _ in spans]
    for m in _CR_HEADING.finditer(masked):
        if not any(a <= m.start("n") < b for a, b in taken):
            spans.append((m.start("n"), m.end("n"), (m.group("n"),)))
    out = []
    for start, end, names in sorted(spans):
        written: list[Written] = []
        for w in _WRITTEN.finditer(masked, start, end):
            first = w.group("first")
            if RuleNumber.try_parse(first) is None:
                continue
            written.append(Written(at[w.start("first")], at[w.end("first")], first, True))
            if w.group("tail"):
                full, how = _full(first, w.group("tail"))
                written.append(Written(at[w.start("tail")], at[w.end("tail")], full, False, how))
        if written:
            a, b = at[start], at[end]
            out.append(Citation(a, b, text.count("\n", 0, a) + 1, text[a:b], tuple(written), names))
    return out
