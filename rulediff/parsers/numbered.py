"""Numbered paragraphs -> rule tree: the reading shared by the text, PDF-paste, Markdown, DOCX and HTML parsers."""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import NamedTuple

from ..numbering import RuleNumber
from . import quirks
from .build import TreeBuilder

RULE_RE = re.compile(
    r"^(?P<num>(?P<heading>[1-9]\d{2})\.(?P<rule>\d{1,3})(?P<letters>[a-z]{1,2})?)"
    r"(?P<dot>\.?)(?P<space>[ \t\u00a0]*)(?P<rest>.*)$",
    re.S,
)
HEADING_RE = re.compile(r"^(?P<num>[1-9]\d{2})\.[ \t\u00a0]+(?P<rest>\S.*)$", re.S)
SECTION_RE = re.compile(r"^(?P<num>[1-9])\.[ \t\u00a0]+(?P<rest>\S.*)$", re.S)
EXAMPLE_RE = re.compile(r"^(?:Example|EXAMPLE)s?\s*[:.]")
UNDERLINE_RE = re.compile(r"^\s*(?:-{3,}|={3,}|\*{3,})\s*$")
_END_OF_PARAGRAPH = re.compile(r"""[.:!?)"\u201d]\s*$""")


class Paragraph(NamedTuple):
    """One paragraph of a body: its 1-based line, its text, whether its line was indented, and the
    anchor (``id``) a web page gave it. A tuple: thousands are made per release, and read_body unpacks
    each in one step."""

    line: int
    text: str
    indented: bool
    anchor: str | None = None


_paragraph = Paragraph._make  # (tuple.__new__ on the values, without the keyword-handling __new__)


def is_wrapped(lines: list[str], start: int, end: int) -> bool:
    """Hard-wrapped releases (1999, 2001-02, late 2003-04) break paragraphs across lines: the
    ``hard_wrapped`` quirk, registered with its releases in parsers/quirks.py."""
    nonblank = joined = 0
    for i in range(start, min(end, start + 800)):
        s = lines[i].strip()
        if not s:
            continue
        nonblank += 1
        nxt = lines[i + 1].strip() if i + 1 < end else ""
        if (
            nxt
            and not (RULE_RE.match(nxt) or HEADING_RE.match(nxt) or EXAMPLE_RE.match(nxt))
            and not (lines[i + 1][:1].isspace())
        ):
            joined += 1
    return nonblank > 0 and joined / nonblank > 0.1


# A wrapped line ending like this is followed by a cross-reference, not by a new rule.
_REFERENCE_LEAD = re.compile(r"(?:\b(?:rules?|see|and|or|of|in|to)|[,\u2013\u2014(-])\s*$", re.I)


def _leading_number(s: str) -> RuleNumber | None:
    m = RULE_RE.match(s) or HEADING_RE.match(s) or SECTION_RE.match(s)
    return RuleNumber.try_parse(m.group("num")) if m else None


def plausible_successor(prev: RuleNumber | None, cand: RuleNumber) -> bool:
    """Could ``cand`` be the next numbered paragraph after ``prev``? Wrapped text puts cross-references
    ("see rule\n119.3.") at line starts; a real next rule is later, nearby and in the same section."""
    if prev is None:
        return True
    if not prev < cand:
        return False
    if cand.section != prev.section:
        return cand.section == prev.section + 1 and cand.heading is None
    if cand.heading is None or prev.heading is None:
        return True
    return cand.heading - prev.heading <= 1


def paragraphs(lines: list[str], start: int, end: int, wrapped: bool) -> list[Paragraph]:
    """Group the lines of a region into paragraphs, 1-based line numbers, underlines dropped.

    In hard-wrapped text a line that begins with a number starts a new item only after a finished
    sentence, or when it is the plausible next rule and the previous line does not lead into a
    cross-reference ("...see rule" / "119.3.").
    """
    out: list[Paragraph] = []
    if not wrapped:
        # One line, one paragraph: a comprehension (the release's every line passes here once).
        return [
            _paragraph((i + 1, s, raw[:1].isspace(), None))
            for i, raw in enumerate(lines[start:end], start)
            if (s := raw.strip()) and not (s[0] in "-=*" and UNDERLINE_RE.match(s))
        ]
    buf: list[str] = []
    first = 0
    indented = False
    last: RuleNumber | None = None

    def flush() -> None:
        if buf:
            out.append(Paragraph(first + 1, " ".join(buf), indented))
            buf.clear()

    for i in range(start, end):
        raw = lines[i]
        s = raw.strip()
        if not s or UNDERLINE_RE.match(s):
            flush()
            continue
        num = _leading_number(s)
        if buf and (
            EXAMPLE_RE.match(s)
            or (
                num is not None
                and plausible_successor(last, num)
                and (_END_OF_PARAGRAPH.search(buf[-1]) or not _REFERENCE_LEAD.search(buf[-1]))
            )
        ):
            flush()
        if not buf:
            first = i
            indented = raw[:1].isspace()
            # An out-of-place number after a blank line is still a paragraph (lint reports it), but
            # it does not move the expected sequence.
            if num is not None and plausible_successor(last, num):
                last = num
        buf.append(s)
    flush()
    return out


# Spelling -> (number, its canonical spelling), for the numbers read_body meets: the same spellings
# come back in every release. Emptied when full.
_SPELLED: dict[str, tuple[RuleNumber, str]] = {}
_SPELLED_MAX = 1 << 15


def _remember(spelled: str, number: RuleNumber) -> tuple[RuleNumber, str]:
    if len(_SPELLED) >= _SPELLED_MAX:
        _SPELLED.clear()
    entry = _SPELLED[spelled] = (number, str(number))
    return entry


def read_body(paras: Iterable[Paragraph], builder: TreeBuilder, wrapped: bool) -> None:
    """Numbered paragraphs into the builder: sections, headings, rules, subrules, examples and
    continuations, reading through the misprints registered in parsers/quirks.py."""
    current: int | None = None
    last: RuleNumber | None = None  # the last rule or subrule read
    parse_number = RuleNumber.parse
    make_number = RuleNumber.make
    known = _SPELLED
    warn = builder.warn
    add_rule = builder.rule
    for line, s, indented, anchor in paras:
        if not s[:1].isdigit():
            # Neither a number nor a typo around one: the cheap common case.
            if EXAMPLE_RE.match(s):
                builder.example(s, line)
            elif len(s) <= 2:
                warn(line, f"stray text {s!r} between rules; dropped", "stray")
            else:
                builder.continuation(s, line, " " if wrapped and not indented else "\n")
            continue
        # A rule ("702.15.") and a heading ("702. ") differ at the character after the first period
        # (a digit or a blank), so a paragraph RULE_RE reads is never a heading: it is tried first.
        h = None
        m = RULE_RE.match(s)
        if m is None and (h := HEADING_RE.match(s)) is not None:
            fixed = quirks.split_number_typo(int(h["num"]), h["rest"], current)
            if fixed:
                msg = f"stray space in rule number '{s[:8]}'; read as {fixed[0].strip()}"
                warn(line, msg, "typo", quirk=quirks.SPLIT_NUMBER.name)
                s = fixed[0] + fixed[1]
                h = None
                m = RULE_RE.match(s)
        if m is not None:
            spelled, heading, rule, letters, dot, space, rest = m.groups()
        if m is not None and (space or dot or not rest):
            # The regex has read the parts: the number is made from them (what RuleNumber.parse makes
            # of the spelling), once per spelling; the builder counts repeats by its canonical spelling.
            entry = known.get(spelled)
            if entry is None:
                head = int(heading)
                entry = _remember(spelled, make_number(head // 100, head, int(rule), letters or ""))
            num, key = entry
            if num.heading != current or (last is not None and num.heading != last.heading):
                # Only a number outside the heading (or the rule) we are in can be one of these misprints.
                swapped, q = quirks.transposed(num, current), quirks.TRANSPOSED
                if swapped is None:
                    swapped, q = quirks.stray_subrule(num, last), quirks.STRAY_SUBRULE
                if swapped is not None:
                    warn(line, f"rule {num} sits inside rule {current}; read as {swapped}", "typo", quirk=q.name)
                    num, key = swapped, str(swapped)
            last = num
            if letters and dot:
                msg = f"subrule {num} is written with a period ('{num}.'); read as {num}"
                warn(line, msg, "typo", quirk=quirks.SUBRULE_PERIOD.name)
            elif not letters and not dot:
                msg = f"rule {num} is written without its period; read as {num}"
                warn(line, msg, "typo", quirk=quirks.RULE_WITHOUT_PERIOD.name)
            if rest.startswith(spelled + " "):
                msg = f"rule number {num} is printed twice; read once"
                warn(line, msg, "typo", quirk=quirks.NUMBER_TWICE.name)
                rest = rest[len(spelled) + 1 :]
            if rest and not space:
                msg = f"no space after rule number {num}; read as {num}"
                warn(line, msg, "typo", quirk=quirks.NO_SPACE.name)
            add_rule(num, rest, line, anchor, key)
            continue
        if h:
            spelled = h.group("num")
            current = int(spelled)
            num, key = known.get(spelled) or _remember(spelled, parse_number(spelled))
            add_rule(num, h.group("rest"), line, anchor, key)
            continue
        m = SECTION_RE.match(s)
        if m:
            spelled = m.group("num")
            num, key = known.get(spelled) or _remember(spelled, parse_number(spelled))
            add_rule(num, m.group("rest"), line, anchor, key)
            continue
        if len(s) <= 2 and not s.isdigit():
            warn(line, f"stray text {s!r} between rules; dropped", "stray")
            continue
        builder.continuation(s, line, " " if wrapped and not indented else "\n")
