"""Parser for the official Comprehensive Rules text files, 1999 to today, in every encoding and layout."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date

from ..coverage import Coverage
from ..errors import ParseError
from ..model import Document, GlossaryEntry, ParseWarning
from . import quirks
from .base import Format, Source, parse_date_text
from .build import TreeBuilder, document
from .numbered import HEADING_RE, SECTION_RE, UNDERLINE_RE, is_wrapped, paragraphs, read_body

NAME = "official-text"
DESCRIPTION = "official .txt release, 1999-today (any encoding and line ending, old and new layouts)"

FIRST_RULE_RE = re.compile(r"^\s*100\.1(?:\.|\s)")
_EFFECTIVE_RE = re.compile(r"(?:effective|current)\s+as\s+of\s+(?P<rest>.{6,40})", re.I)
# Every release ends with Glossary and Credits; some have more (the back_matter_sections quirk).
_BACK_MATTER = ("glossary", "credits", "index", "questions?", "customer service information")
_BACK_MATTER_LONGEST = max(map(len, _BACK_MATTER))


def sniff(src: Source) -> float:
    # The text as decoded, its line breaks as they are (its LF form would be another copy of the release).
    text = src.decoded_or_none
    if text is None:
        return 0.0
    head = "\n".join(src.head_lines(6000))  # the LF text's first 6,000 characters
    score = 0.0
    if "Comprehensive Rules" in head or "COMPREHENSIVE RULES" in head:
        score += 0.3
    if _EFFECTIVE_RE.search(head) or _DATED_TITLE_LINE.search(head):
        score += 0.2
    if _line_matching(text, "100.1", _FIRST_RULE_LINE):
        score += 0.3
    if _line_matching(text, "Glossary", _GLOSSARY_LINE):
        score += 0.2
    return min(score, 1.0)


# Compiled here, not at the first sniff: a process's first parse would pay for compiling them.
_DATED_TITLE_LINE = re.compile(r"^COMPREHENSIVE RULES\s+\d\d/\d\d/\d\d", re.M)
# Lines made of a word and blanks, matched from a line's start to its end (_line_matching).
_FIRST_RULE_LINE = re.compile(r"\s*100\.1\.? ")
_GLOSSARY_LINE = re.compile(r"-{0,3}\s*Glossary\s*$")


def _line_matching(text: str, word: str, line_re: re.Pattern[str]) -> bool:
    """Does ``line_re``, a pattern of a line made of ``word`` and blanks (matched from the line's start, to its
    end), match a line of ``text`` (broken at CR, LF or both, as split_lines breaks it)? Tried only at the lines
    where ``word`` occurs, each line once, no text searched twice (a megabyte-long line holding the word at
    every few characters took seconds a sniff when each occurrence looked back to the text's start and
    copied its line): str.find skips to them, where a multiline search would try every position."""
    lo = 0  # where the text not yet looked at begins (a line start, or the LF of a CR LF before one)
    i = text.find(word)
    while i != -1:
        start = max(text.rfind("\n", lo, i), text.rfind("\r", lo, i), lo - 1) + 1
        end = _BREAK.search(text, i)
        stop = end.start() if end else len(text)
        if line_re.match(text, start, stop):
            return True
        lo = stop + 1
        i = text.find(word, stop)
    return False


_BREAK = re.compile(r"[\r\n]")


def _effective_date(lines: list[str]) -> date | None:
    return _effective_line_date(lines) or _title_line_date(lines)


def _effective_line_date(lines: list[str]) -> date | None:
    """The date of "These rules are effective as of ...", near the top."""
    for ln in lines[:80]:
        m = _EFFECTIVE_RE.search(ln)
        if m:
            d = parse_date_text(m.group("rest"))
            if d:
                return d
    return None


def _title_line_date(lines: list[str]) -> date | None:
    """The date in the title line, "COMPREHENSIVE RULES 04/23/99": the ``date_in_title_line`` quirk."""
    for ln in lines[:12]:
        if "COMPREHENSIVE RULES" in ln.upper():
            d = parse_date_text(ln)
            if d:
                return d
    return None


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
    longest = _BACK_MATTER_LONGEST
    # Back-matter titles are short lines: the length test spares the strip and lower of the rest, and
    # a comprehension walks the release's lines at a fraction of a loop's cost.
    short = [
        i
        for i, ln in enumerate(lines[first_rule:], first_rule)
        if ln and (len(ln) <= longest or len(ln.strip()) <= longest)
    ]
    for i in short:
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
        # (a release without Contents goes on to its first section: introduction_without_contents)
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


_SENSE_RE = re.compile(r"^\d{1,2}\.\s+\S")


# A term line ending in its first sense's number: "Exile1. A zone." (the term ends in no digit).
_GLUED = re.compile(r"(?P<term>\S.*?[^\d\s])1\.\s+(?P<rest>\S.*)")


_CLOSING = "\"'\u201d\u2019)]"


def _sentence(s: str) -> bool:
    """A line no term is: a sentence of four words or more, ending in a period (a term glued to its first
    sense, "Exile1. A zone. ...", is a term)."""
    return s.rstrip(_CLOSING).endswith(".") and len(s.split()) >= 4 and _GLUED.fullmatch(s) is None


def _term_like(line: str) -> bool:
    """A line that could be a term: short, no sentence."""
    s = line.strip()
    return bool(s) and len(s.split()) <= 8 and not s.rstrip(_CLOSING).endswith((".", ":", ",", ";")) and s[0].isupper()


def _unglued(term: str, body: list[str]) -> tuple[str, list[str]] | None:
    """A term printed glued to its first sense, as the term and a body starting with that sense: only when
    the body goes on with a sense 2 (a term that ends in "1." and says more is not taken apart)."""
    m = _GLUED.fullmatch(term)
    if m is None or not any(b.strip().startswith("2.") and _SENSE_RE.match(b.strip()) for b in body):
        return None
    return m["term"].rstrip(), [f"1. {m['rest']}", *body]


def read_glossary(
    lines: list[str], span: tuple[int, int] | None, wrapped: bool, warnings: list[ParseWarning] | None = None
) -> list[GlossaryEntry]:
    """Entries are a term line after a blank line, then text; indented lines continue the entry. A term
    glued to its first sense is read apart, with a warning in ``warnings``."""
    if span is None:
        return []
    found: list[tuple[str, str, int]] = []
    term: str | None = None
    term_line = 0
    body: list[str] = []

    def flush() -> None:
        if term is None:
            return
        apart = _unglued(term, body)
        if apart is None:
            found.append((term, _entry_text(body, wrapped), term_line))
            return
        found.append((apart[0], _entry_text(apart[1], wrapped), term_line))
        if warnings is not None:
            msg = f"glossary term {apart[0]!r} printed glued to its sense 1 ({term[:40]!r}); read apart"
            warnings.append(ParseWarning(term_line, msg, "typo", quirk=quirks.GLUED_TERM.name))

    prev_blank = True
    last_line = 0  # the line of the entry's last text line
    for i in range(span[0], span[1]):
        raw = lines[i]
        s = raw.strip()
        if not s or (s[0] in "-=*" and UNDERLINE_RE.match(s)):
            prev_blank = True
            continue
        starts_entry = (
            prev_blank and not raw[:1].isspace() and (term is None or (i + 1 < span[1] and bool(lines[i + 1].strip())))
        )
        if starts_entry and term is not None and _sentence(s):
            # A sentence is no term: the entry's term is the short line printed at the end of the one before
            # ("Echo ... / Effect / (blank) / "Ability" and "effect" are often confused ..."), or it goes on.
            moved = body[-1].strip() if body and len(body) > 1 and _term_like(body[-1]) else None
            if warnings is not None:
                said = f"term {moved!r}, printed at the end of {term!r}" if moved else f"more of {term!r}"
                msg = f"a glossary paragraph that starts like a term is a sentence; read as the text of {said}"
                warnings.append(ParseWarning(i + 1, msg, "typo", quirk=quirks.SENTENCE_TERM.name))
            if moved is None:
                body.extend(["", raw.rstrip()])
                prev_blank = False
                continue
            body.pop()
            flush()
            term, term_line, body = moved, last_line, [raw.rstrip()]
        elif starts_entry:
            flush()
            term, term_line, body = s, i + 1, []
        elif term is not None:
            if prev_blank and body:
                body.append("")
            body.append(raw.rstrip())
        last_line = i + 1
        prev_blank = False
    flush()
    return [GlossaryEntry.make(t, text, ln) for t, text, ln in found]


def _entry_text(body: list[str], wrapped: bool) -> str:
    if len(body) == 1 and "\u2028" not in body[0]:
        return body[0].strip()  # one line, one paragraph: most entries of every release since 2009
    # Paragraphs: a blank line (kept as ""), an indented continuation, or U+2028 starts one (the
    # line_separator_in_entries quirk).
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
    return "\n".join(p for p in paras if p)


def parse(src: Source) -> Document:
    return parse_lines(src, src.lines, NAME, src.decoded)


def parse_lines(src: Source, lines: list[str], fmt: str, text: str | None = None) -> Document:
    """The whole official layout from its lines; shared with the DOCX reader, whose paragraphs are lines.
    ``text`` holds the lines and their line breaks, when the source has it at hand (quirks.apply)."""
    source = src.name
    lines, fixed = quirks.apply(lines, source, text)
    layout = locate(lines, source)
    wrapped = is_wrapped(lines, layout.body_start, layout.body_end)
    builder = TreeBuilder(source)
    read_body(paragraphs(lines, layout.body_start, layout.body_end, wrapped), builder, wrapped)
    rules, warns = builder.build()
    warnings = [*fixed, *warns]
    if layout.glossary is None:
        last = rules[-1] if rules else None
        if last is None or last.number is None:
            raise ParseError("no rules found after the Contents", source=source, line=layout.body_start + 1)
        raise ParseError(
            f"file ends inside the rules (after {last.number}) with no Glossary: truncated release",
            source=source,
            line=len(lines),
        )
    if layout.credits is None:
        # The rules are whole, but a release always ends with Credits: the glossary was cut short.
        warnings.append(
            ParseWarning(len(lines), "file ends inside the Glossary (no Credits): truncated release?", "truncated")
        )
    eff = _effective_date(lines)
    if eff is None:
        warnings.append(ParseWarning(1, "no effective date found ('These rules are effective as of ...')", "date"))
    return document(
        src,
        fmt,
        rules,
        label=eff.isoformat() if eff else None,
        effective=eff,
        glossary=read_glossary(lines, layout.glossary, wrapped, warnings),
        coverage=Coverage(complete=True, glossary=True, description="the whole Comprehensive Rules"),
        warnings=warnings,
        introduction=_plain(lines, layout.intro),
        credits=_plain(lines, layout.credits),
        back_matter=[(name, _plain(lines, (a, b))) for name, a, b in layout.others],
    )


FORMAT = Format(NAME, DESCRIPTION, sniff, parse)
