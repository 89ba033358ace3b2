"""Numbered paragraphs -> rule tree: the reading shared by the text, PDF-paste, Markdown, DOCX and HTML parsers."""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from typing import NamedTuple

from ..model import LOST_RULE
from ..numbering import RuleNumber, disguised_number, new_number
from . import quirks
from .build import TreeBuilder

# A rule's number as printed: "702.15." (a rule, with its period), "702.15a" (a subrule).
_NUMBER = r"(?P<num>(?P<heading>[1-9][0-9]{2})\.(?P<rule>[0-9]{1,3})(?P<letters>[a-z]{1,2})?)(?P<dot>\.?)"
RULE_RE = re.compile(rf"^{_NUMBER}(?P<space>[ \t\u00a0]*)(?P<rest>.*)$", re.S)
NUMBER_TOKEN_RE = re.compile(_NUMBER)  # (fullmatch: the number alone, as read before its first space)
HEADING_RE = re.compile(r"^(?P<num>[1-9][0-9]{2})\.[ \t\u00a0]+(?P<rest>\S.*)$", re.S)
SECTION_RE = re.compile(r"^(?P<num>[1-9])\.[ \t\u00a0]+(?P<rest>\S.*)$", re.S)
EXAMPLE_RE = re.compile(r"^(?:Example|EXAMPLE)s?\s*[:.]")
UNDERLINE_RE = re.compile(r"^\s*(?:-{3,}|={3,}|\*{3,})\s*$")  # the underlined_titles quirk
_END_OF_PARAGRAPH = re.compile(r"""[.:!?)"\u201d]\s*$""")


# A paragraph of a body as read_body reads it: its 1-based line, its text, whether its line was
# indented, and the anchor (``id``) a web page gave it. paragraphs() makes plain tuples (thousands per
# release; a named tuple's constructor is a Python call); read_body unpacks each in one step.
ParagraphTuple = tuple[int, str, bool, str | None]


class Paragraph(NamedTuple):
    """The same tuple with names, for readers that make and read paragraphs one by one (HTML)."""

    line: int
    text: str
    indented: bool
    anchor: str | None = None


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


def paragraphs(lines: list[str], start: int, end: int, wrapped: bool) -> Iterator[ParagraphTuple]:
    """Group the lines of a region into paragraphs, 1-based line numbers, underlines dropped.

    In hard-wrapped text a line that begins with a number starts a new item only after a finished
    sentence, or when it is the plausible next rule and the previous line does not lead into a
    cross-reference ("...see rule" / "119.3.").

    Made as they are read: a reading refused early (a rule repeated past any release's count, a text past
    MAX_TEXT) stops here too, whatever the size of the rest.
    """
    if not wrapped:
        # One line, one paragraph (the release's every line passes here once).
        return (
            (i + 1, s, raw[:1].isspace(), None)
            for i, raw in enumerate(lines[start:end], start)
            if (s := raw.strip()) and not (s[0] in "-=*" and UNDERLINE_RE.match(s))
        )
    return _wrapped_paragraphs(lines, start, end)


def _wrapped_paragraphs(lines: list[str], start: int, end: int) -> Iterator[ParagraphTuple]:
    buf: list[str] = []
    first = 0
    indented = False
    last: RuleNumber | None = None

    for i in range(start, end):
        raw = lines[i]
        s = raw.strip()
        if not s or UNDERLINE_RE.match(s):
            if buf:
                yield (first + 1, " ".join(buf), indented, None)
                buf.clear()
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
            yield (first + 1, " ".join(buf), indented, None)
            buf.clear()
        if not buf:
            first = i
            indented = raw[:1].isspace()
            # An out-of-place number after a blank line is still a paragraph (lint reports it), but
            # it does not move the expected sequence.
            if num is not None and plausible_successor(last, num):
                last = num
        buf.append(s)
    if buf:
        yield (first + 1, " ".join(buf), indented, None)


# A rule's number as printed before the first space of its paragraph ("702.15.", "702.15a") -> what
# RULE_RE reads there: (number, str(number), spelling without the period, letters, period). RULE_RE
# reads the same from such a paragraph as NUMBER_TOKEN_RE from its token (the number's grammar ends
# where the token does, and the blanks after it are RULE_RE's space), so the token alone is read, once
# per process: releases print the same numbers again and again. Emptied when full.
_Reading = tuple[RuleNumber, str, str, str, str]
_TOKENS: dict[str, _Reading] = {}
_TOKENS_MAX = 1 << 15
_BLANKS = " \t\u00a0"  # what RULE_RE's space group takes


def _reading(spelled: str, heading: str, rule: str, letters: str | None, dot: str) -> _Reading:
    """The number from the parts the regex read: what RuleNumber.parse makes of the spelling. Only a
    leading zero ("100.01") or a digit of another script reads other than it is spelled."""
    head = int(heading)
    letters = letters or ""
    if spelled.isascii() and (rule[0] != "0" or len(rule) == 1):
        # An ASCII spelling without a leading zero (nearly every one) is the canonical one: the number keeps it.
        return new_number(head // 100, head, int(rule), letters, spelled), spelled, spelled, letters, dot
    number = new_number(head // 100, head, int(rule), letters, "")
    return number, str(number), spelled, letters, dot


def _read_token(token: str) -> _Reading | None:
    m = NUMBER_TOKEN_RE.fullmatch(token)
    if m is None:
        return None
    reading = _reading(*m.groups())
    if len(_TOKENS) >= _TOKENS_MAX:
        _TOKENS.clear()
    _TOKENS[token] = reading
    return reading


def _other_shape(
    builder: TreeBuilder, s: str, line: int, indented: bool, anchor: str | None, current: int | None, wrapped: bool
) -> tuple[int | None, tuple[_Reading, str, str] | None]:
    """A numbered paragraph of any shape but the common one: no blank after the number, another blank, a
    heading, a section, a typo. Read into the builder when it is no rule (None); for a rule, its reading, the
    blank after its number and its text. The heading read so far, updated, comes first."""
    # A rule ("702.15.") and a heading ("702. ") differ at the character after the first period (a digit or a
    # blank), so a paragraph RULE_RE reads is never a heading: it is tried first.
    h = None
    m = RULE_RE.match(s)
    if m is None and (h := HEADING_RE.match(s)) is not None:
        fixed = quirks.split_number_typo(int(h["num"]), h["rest"], current)
        if fixed:
            msg = f"stray space in rule number '{s[:8]}'; read as {fixed[0].strip()}"
            builder.warn(line, msg, "typo", quirk=quirks.SPLIT_NUMBER.name)
            s = fixed[0] + fixed[1]
            h = None
            m = RULE_RE.match(s)
    if m is not None:
        spelled, heading, rule, letters, dot, space, rest = m.groups()
        if space or dot or not rest:
            return current, (_reading(spelled, heading, rule, letters, dot), space, rest)
    if h:
        current = int(h.group("num"))
        builder.rule(RuleNumber.parse(h.group("num")), h.group("rest"), line, anchor)
    elif sec := SECTION_RE.match(s):
        builder.rule(RuleNumber.parse(sec.group("num")), sec.group("rest"), line, anchor)
    elif len(s) <= 2 and not s.isdigit():
        builder.warn(line, f"stray text {s!r} between rules; dropped", "stray")
    else:
        warn_disguised(builder, s, line)
        builder.continuation(s, line, " " if wrapped and not indented else "\n")
    return current, None


def warn_disguised(builder: TreeBuilder, s: str, line: int) -> None:
    """Say so when a paragraph read as text starts with a rule number in characters the grammar does not
    read (numbering.disguised_number): the rule it would be is lost, folded into the text before it."""
    found = disguised_number(s)
    if found is not None:
        number, odd = found
        builder.warn(
            line,
            f"{s[:16]!r} looks like rule {number} but holds {odd}, which no rule number has: read as text of "
            "the rule before it (a rule is lost here)",
            LOST_RULE,
        )


def read_body(paras: Iterable[ParagraphTuple], builder: TreeBuilder, wrapped: bool) -> None:
    """Numbered paragraphs into the builder: sections, headings, rules, subrules, examples and
    continuations, reading through the misprints registered in parsers/quirks.py."""
    current: int | None = None
    last: RuleNumber | None = None  # the last rule or subrule read
    tokens = _TOKENS
    warn = builder.warn
    add_rule = builder.rule
    # builder.rule written out for a number read the first time (nearly every one): four appends.
    numbers, texts, lines, anchors, seen = builder.columns()
    add_number, add_text, add_line, add_anchor = numbers.append, texts.append, lines.append, anchors.append
    for line, s, indented, anchor in paras:
        if not s[:1].isdigit():
            # Neither a number nor a typo around one: the cheap common case.
            if EXAMPLE_RE.match(s):
                builder.example(s, line)
            elif len(s) <= 2:
                warn(line, f"stray text {s!r} between rules; dropped", "stray")
            else:
                if not s[0].isascii():
                    warn_disguised(builder, s, line)
                builder.continuation(s, line, " " if wrapped and not indented else "\n")
            continue
        token, space, rest = s.partition(" ")
        reading = (tokens.get(token) or _read_token(token)) if space else None
        if reading is not None:
            num, key, spelled, letters, dot = reading
            rest = rest.lstrip(_BLANKS)
        else:
            current, other = _other_shape(builder, s, line, indented, anchor, current, wrapped)
            if other is None:
                continue
            (num, key, spelled, letters, dot), space, rest = other
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
        if key in seen:
            add_rule(num, rest, line, anchor, key)
            continue
        seen[key] = 1
        add_number(num)
        add_text(rest or None)
        add_line(line)
        add_anchor(anchor)
