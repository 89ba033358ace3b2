"""Parser for the official Comprehensive Rules text files, 1999 to today, in every encoding and layout."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date
from pathlib import PurePath

from ..errors import ParseError
from ..model import Coverage, Document, GlossaryEntry, ParseWarning, VersionInfo
from ..numbering import RuleNumber
from . import quirks
from .base import decode, parse_date_text, sha256, split_lines
from .build import TreeBuilder

NAME = "official-text"
DESCRIPTION = "official .txt release, 1999-today (any encoding and line ending, old and new layouts)"

RULE_RE = re.compile(
    r"^(?P<num>[1-9]\d{2}\.\d{1,3}(?P<letters>[a-z]{1,2})?)(?P<dot>\.?)(?P<space>[ \t\u00a0]*)(?P<rest>.*)$", re.S
)
HEADING_RE = re.compile(r"^(?P<num>[1-9]\d{2})\.[ \t\u00a0]+(?P<rest>\S.*)$", re.S)
SECTION_RE = re.compile(r"^(?P<num>[1-9])\.[ \t\u00a0]+(?P<rest>\S.*)$", re.S)
EXAMPLE_RE = re.compile(r"^(?:Example|EXAMPLE)s?\s*[:.]")
UNDERLINE_RE = re.compile(r"^\s*(?:-{3,}|={3,}|\*{3,})\s*$")
FIRST_RULE_RE = re.compile(r"^\s*100\.1(?:\.|\s)")
_EFFECTIVE_RE = re.compile(r"(?:effective|current)\s+as\s+of\s+(?P<rest>.{6,40})", re.I)
_END_OF_PARAGRAPH = re.compile(r"""[.:!?)"\u201d]\s*$""")
_BACK_MATTER = ("glossary", "credits", "index", "questions?", "customer service information")


@dataclass(frozen=True, slots=True)
class Paragraph:
    line: int
    text: str
    indented: bool


def sniff(data: bytes, text: str | None) -> float:
    if text is None:
        return 0.0
    head = text[:6000]
    score = 0.0
    if re.search(r"Comprehensive Rules|COMPREHENSIVE RULES", head):
        score += 0.3
    if _EFFECTIVE_RE.search(head) or re.search(r"^COMPREHENSIVE RULES\s+\d\d/\d\d/\d\d", head, re.M):
        score += 0.2
    if re.search(r"^\s*100\.1\.? ", text, re.M):
        score += 0.3
    if re.search(r"^-{0,3}\s*Glossary\s*$", text, re.M):
        score += 0.2
    return min(score, 1.0)


def _effective_date(lines: list[str]) -> date | None:
    head = lines[:80]
    for ln in head:
        m = _EFFECTIVE_RE.search(ln)
        if m:
            d = parse_date_text(m.group("rest"))
            if d:
                return d
    for ln in head[:12]:
        if "COMPREHENSIVE RULES" in ln.upper():
            d = parse_date_text(ln)
            if d:
                return d
    return None


def _is_wrapped(lines: list[str], start: int, end: int) -> bool:
    """Hard-wrapped releases (1999, 2001-02, late 2003-04) break paragraphs across lines."""
    nonblank = joined = 0
    for i in range(start, min(end, start + 3000)):
        s = lines[i].strip()
        if not s:
            continue
        nonblank += 1
        nxt = lines[i + 1].strip() if i + 1 < end else ""
        if nxt and not (RULE_RE.match(nxt) or HEADING_RE.match(nxt) or EXAMPLE_RE.match(nxt)) and not (
            lines[i + 1][:1].isspace()
        ):
            joined += 1
    return nonblank > 0 and joined / nonblank > 0.1


def _starts_item(s: str) -> bool:
    return bool(RULE_RE.match(s) or HEADING_RE.match(s) or SECTION_RE.match(s) or EXAMPLE_RE.match(s))


def paragraphs(lines: list[str], start: int, end: int, wrapped: bool) -> list[Paragraph]:
    """Group the lines of a region into paragraphs, 1-based line numbers, underlines dropped."""
    out: list[Paragraph] = []
    if not wrapped:
        for i in range(start, end):
            raw = lines[i]
            s = raw.strip()
            if s and not UNDERLINE_RE.match(s):
                out.append(Paragraph(i + 1, s, raw[:1].isspace()))
        return out
    buf: list[str] = []
    first = 0
    indented = False

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
        # A wrapped line that begins with a number ("See rule\n217.5c.") continues its paragraph;
        # only a line after a finished sentence can start a new item.
        if buf and _starts_item(s) and (EXAMPLE_RE.match(s) or _END_OF_PARAGRAPH.search(buf[-1])):
            flush()
        if not buf:
            first = i
            indented = raw[:1].isspace()
        buf.append(s)
    flush()
    return out


@dataclass(slots=True)
class Layout:
    body_start: int
    body_end: int
    glossary: tuple[int, int] | None
    credits: tuple[int, int] | None
    intro: tuple[int, int] | None
    others: list[tuple[str, int, int]]


def locate(lines: list[str], source: str) -> Layout:
    """Find the rules body (skipping Contents, which repeats headings), glossary and credits."""
    first_rule = next((i for i, ln in enumerate(lines) if FIRST_RULE_RE.match(ln)), None)
    if first_rule is None:
        raise ParseError("no rule 100.1 found; expected the rules to begin with '100.1.'", source=source, line=1)
    start = first_rule
    j = first_rule - 1
    while j >= 0:
        s = lines[j].strip()
        if not s or UNDERLINE_RE.match(s):
            j -= 1
            continue
        if HEADING_RE.match(s):
            start = j
            j -= 1
            continue
        if SECTION_RE.match(s):
            start = j
        break
    marks: list[tuple[str, int]] = []
    for i in range(first_rule, len(lines)):
        key = lines[i].strip().lower()
        if key in _BACK_MATTER and not any(k == key for k, _ in marks):
            marks.append((key, i))
    body_end = marks[0][1] if marks else len(lines)
    while body_end > start and (not lines[body_end - 1].strip() or UNDERLINE_RE.match(lines[body_end - 1])):
        body_end -= 1
    spans: dict[str, tuple[int, int]] = {}
    others: list[tuple[str, int, int]] = []
    for k, (key, i) in enumerate(marks):
        stop = marks[k + 1][1] if k + 1 < len(marks) else len(lines)
        if key in ("glossary", "credits"):
            spans[key] = (i + 1, stop)
        else:
            others.append((lines[i].strip(), i + 1, stop))
    intro = None
    intro_at = next((i for i in range(min(first_rule, 200)) if lines[i].strip().lower() == "introduction"), None)
    if intro_at is not None:
        stop = next(
            (i for i in range(intro_at + 1, start) if lines[i].strip().lower() in ("contents", "1. the game")),
            start,
        )
        intro = (intro_at + 1, stop)
    return Layout(start, body_end, spans.get("glossary"), spans.get("credits"), intro, others)


def _plain(lines: list[str], span: tuple[int, int] | None) -> str:
    if span is None:
        return ""
    chunk = [ln.rstrip() for ln in lines[span[0] : span[1]] if not UNDERLINE_RE.match(ln)]
    return "\n".join(chunk).strip()


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


def read_body(paras: list[Paragraph], builder: TreeBuilder, wrapped: bool) -> None:
    current: int | None = None
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
            swapped = _transposed(num, current)
            if swapped is not None:
                builder.warn(p.line, f"rule {num} sits inside rule {current}; read as {swapped}", "typo")
                num = swapped
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
            builder.rule(num, rest, p.line)
            continue
        m = HEADING_RE.match(s)
        if m:
            current = int(m.group("num"))
            builder.rule(RuleNumber.parse(m.group("num")), m.group("rest"), p.line)
            continue
        m = SECTION_RE.match(s)
        if m:
            builder.rule(RuleNumber.parse(m.group("num")), m.group("rest"), p.line)
            continue
        if EXAMPLE_RE.match(s):
            builder.example(s, p.line)
            continue
        if len(s) <= 2 and not s.isdigit():
            builder.warn(p.line, f"stray text {s!r} between rules; dropped", "stray")
            continue
        builder.continuation(s, p.line, " " if wrapped and not p.indented else "\n")


_SENSE_RE = re.compile(r"^\d{1,2}\.\s+\S")


def read_glossary(lines: list[str], span: tuple[int, int] | None, wrapped: bool) -> list[GlossaryEntry]:
    """Entries are a term line after a blank line, then text; indented lines continue the entry."""
    if span is None:
        return []
    entries: list[GlossaryEntry] = []
    term: str | None = None
    term_line = 0
    body: list[str] = []

    def flush() -> None:
        if term is not None:
            entries.append(_entry(term, body, term_line, wrapped))

    prev_blank = True
    for i in range(span[0], span[1]):
        raw = lines[i]
        s = raw.strip()
        if not s or UNDERLINE_RE.match(s):
            prev_blank = True
            continue
        nxt = lines[i + 1].strip() if i + 1 < span[1] else ""
        starts_entry = prev_blank and not raw[:1].isspace() and (bool(nxt) or term is None)
        if starts_entry:
            flush()
            term, term_line, body = s, i + 1, []
        elif term is not None:
            if prev_blank and body:
                body.append("")
            body.append(raw.rstrip())
        prev_blank = False
    flush()
    return entries


def _entry(term: str, body: list[str], line: int, wrapped: bool) -> GlossaryEntry:
    # Paragraphs: a blank line (kept as ""), an indented continuation, or U+2028 starts one.
    paras: list[str] = []
    for raw in body:
        for k, piece in enumerate(raw.split("\u2028")):
            s = piece.strip()
            if not s:
                if raw == "":
                    paras.append("")
                continue
            new = not paras or paras[-1] == "" or k > 0 or not wrapped or _SENSE_RE.match(s)
            if new:
                if paras and paras[-1] == "":
                    paras[-1] = s
                else:
                    paras.append(s)
            else:
                paras[-1] = f"{paras[-1]} {s}"
    paras = [p for p in paras if p]
    senses = tuple(p for p in paras if _SENSE_RE.match(p))
    return GlossaryEntry.make(term, "\n".join(paras), line, senses)


def parse(data: bytes, source: str) -> Document:
    dec = decode(data, source)
    lines = split_lines(dec.text)
    lines = quirks.apply(lines, source)
    layout = locate(lines, source)
    wrapped = _is_wrapped(lines, layout.body_start, layout.body_end)
    builder = TreeBuilder()
    read_body(paragraphs(lines, layout.body_start, layout.body_end, wrapped), builder, wrapped)
    rules, warns = builder.build()
    warnings = list(warns)
    eff = _effective_date(lines)
    if eff is None:
        warnings.append(ParseWarning(1, "no effective date found ('These rules are effective as of ...')", "date"))
    complete = layout.glossary is not None
    coverage = Coverage(complete=True, glossary=True, description="the whole Comprehensive Rules")
    if not complete:
        last = rules[-1] if rules else None
        if last is None or last.number is None:
            raise ParseError("no rules found after the Contents", source=source, line=layout.body_start + 1)
        raise ParseError(
            f"file ends inside the rules (after {last.number}) with no Glossary: truncated release",
            source=source,
            line=len(lines),
        )
    glossary = read_glossary(lines, layout.glossary, wrapped)
    label = eff.isoformat() if eff else PurePath(source).stem
    version = VersionInfo(label, eff, source, NAME, sha256(data), era=None)
    return Document(
        version=version,
        rules=rules,
        glossary=tuple(glossary),
        coverage=coverage,
        warnings=tuple(warnings),
        introduction=_plain(lines, layout.intro),
        credits=_plain(lines, layout.credits),
        back_matter=tuple((name, _plain(lines, (a, b))) for name, a, b in layout.others),
    )
