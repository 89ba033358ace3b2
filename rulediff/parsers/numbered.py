"""Numbered paragraphs -> rule tree: the reading shared by the text, PDF-paste, Markdown, DOCX and HTML parsers."""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..numbering import RuleNumber, letter_index
from .build import TreeBuilder

RULE_RE = re.compile(
    r"^(?P<num>[1-9]\d{2}\.\d{1,3}(?P<letters>[a-z]{1,2})?)(?P<dot>\.?)(?P<space>[ \t\u00a0]*)(?P<rest>.*)$", re.S
)
HEADING_RE = re.compile(r"^(?P<num>[1-9]\d{2})\.[ \t\u00a0]+(?P<rest>\S.*)$", re.S)
SECTION_RE = re.compile(r"^(?P<num>[1-9])\.[ \t\u00a0]+(?P<rest>\S.*)$", re.S)
EXAMPLE_RE = re.compile(r"^(?:Example|EXAMPLE)s?\s*[:.]")
UNDERLINE_RE = re.compile(r"^\s*(?:-{3,}|={3,}|\*{3,})\s*$")
_END_OF_PARAGRAPH = re.compile(r"""[.:!?)"\u201d]\s*$""")


@dataclass(frozen=True, slots=True)
class Paragraph:
    line: int
    text: str
    indented: bool
    anchor: str | None = None


def is_wrapped(lines: list[str], start: int, end: int) -> bool:
    """Hard-wrapped releases (1999, 2001-02, late 2003-04) break paragraphs across lines."""
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
        for i in range(start, end):
            raw = lines[i]
            s = raw.strip()
            if s and not (s[0] in "-=*" and UNDERLINE_RE.match(s)):
                out.append(Paragraph(i + 1, s, raw[:1].isspace()))
        return out
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


_SPLIT_NUMBER_RE = re.compile(r"^(?P<rule>\d{1,3}[a-z]{0,2})(?P<dot>\.?)[ \t]+(?P<rest>\S.*)$", re.S)


def _split_number_typo(heading: int, rest: str, current: int | None) -> tuple[str, str] | None:
    """'606. 8b Players win ...' (2005-2007) and '702. 37a Storm ...' (2009-07-11): a space slipped
    in after the heading's period. Read as 606.8b when 606 is the heading we are in."""
    if heading != current:
        return None
    m = _SPLIT_NUMBER_RE.match(rest)
    if not m:
        return None
    return f"{heading}.{m['rule']}{m['dot']} ", m["rest"]


def _transposed(num: RuleNumber, current: int | None) -> RuleNumber | None:
    """'423.3' inside rule 432 (2006-10 to 2007-09), '501.2' inside 510 (2006-05-01): the heading
    digits were transposed. Read the number under the heading we are in."""
    if current is None or num.heading is None or num.heading == current:
        return None
    if sorted(str(num.heading)) != sorted(str(current)):
        return None
    return RuleNumber(current // 100, current, num.rule, num.letters)


def _stray_subrule(num: RuleNumber, last: RuleNumber | None) -> RuleNumber | None:
    """'605.2c' right after 609.2b (2005-08-01): a subrule whose three-digit part slipped but whose rule
    and letter continue the rule we are in. Read it under that rule."""
    if last is None or not num.letters or last.heading is None or num.heading == last.heading:
        return None
    if num.rule != last.rule:
        return None
    try:
        expected = letter_index(last.letters) + 1 if last.letters else 0
        if letter_index(num.letters) != expected:
            return None
    except KeyError:
        return None
    return RuleNumber(last.section, last.heading, last.rule, num.letters)


def read_body(paras: list[Paragraph], builder: TreeBuilder, wrapped: bool) -> None:
    current: int | None = None
    last: RuleNumber | None = None  # the last rule or subrule read
    for p in paras:
        s = p.text
        h = HEADING_RE.match(s)
        if h:
            fixed = _split_number_typo(int(h["num"]), h["rest"], current)
            if fixed:
                builder.warn(p.line, f"stray space in rule number '{s[:8]}'; read as {fixed[0].strip()}", "typo")
                s = fixed[0] + fixed[1]
        m = RULE_RE.match(s)
        if m and (m.group("space") or m.group("dot") or not m.group("rest")):
            num = RuleNumber.parse(m.group("num"))
            swapped = _transposed(num, current) or _stray_subrule(num, last)
            if swapped is not None:
                builder.warn(p.line, f"rule {num} sits inside rule {current}; read as {swapped}", "typo")
                num = swapped
            last = num
            rest = m.group("rest")
            has_letters = bool(m.group("letters"))
            if has_letters and m.group("dot"):
                builder.warn(p.line, f"subrule {num} is written with a period ('{num}.'); read as {num}", "typo")
            elif not has_letters and not m.group("dot"):
                builder.warn(p.line, f"rule {num} is written without its period; read as {num}", "typo")
            if rest.startswith(f"{m.group('num')} "):
                builder.warn(p.line, f"rule number {num} is printed twice; read once", "typo")
                rest = rest[len(m.group("num")) + 1 :]
            if rest and not m.group("space"):
                builder.warn(p.line, f"no space after rule number {num}; read as {num}", "typo")
            builder.rule(num, rest, p.line, anchor=p.anchor)
            continue
        m = HEADING_RE.match(s)
        if m:
            current = int(m.group("num"))
            builder.rule(RuleNumber.parse(m.group("num")), m.group("rest"), p.line, anchor=p.anchor)
            continue
        m = SECTION_RE.match(s)
        if m:
            builder.rule(RuleNumber.parse(m.group("num")), m.group("rest"), p.line, anchor=p.anchor)
            continue
        if EXAMPLE_RE.match(s):
            builder.example(s, p.line)
            continue
        if len(s) <= 2 and not s.isdigit():
            builder.warn(p.line, f"stray text {s!r} between rules; dropped", "stray")
            continue
        builder.continuation(s, p.line, " " if wrapped and not p.indented else "\n")
