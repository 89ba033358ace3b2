"""The one list of dated quirks the parsers read through, each with the releases it applies to."""

# The one list of dated quirks: every fix or reading the parsers apply because of particular published releases,
# registered with the releases it applies to (tests/test_quirks.py checks each list on the corpus).

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum

from ..model import ParseWarning
from ..numbering import RuleNumber, letter_index

LineFix = Callable[[str], str]


class Kind(StrEnum):
    LINE = "line"  # one printed line, found by its exact text, rewritten before reading
    NUMBER = "number"  # a printed rule number read as the number it means
    TYPO = "typo"  # a misprint around a rule number, read through and reported
    LAYOUT = "layout"  # how the release's lines make paragraphs
    BYTES = "bytes"  # how the release's bytes make text and lines


@dataclass(frozen=True, slots=True)
class Quirk:
    """One named quirk. ``seen_in`` lists the effective dates of the official releases it applies to,
    single dates or inclusive ``"FIRST..LAST"`` spans of consecutive releases; ``doc`` says what and why."""

    name: str
    kind: Kind
    seen_in: tuple[str, ...]
    doc: str
    marker: str | None = None  # Kind.LINE: the stripped line, found only in the affected release(s)
    fix: LineFix | None = None

    def applies_to(self, effective: str) -> bool:
        """Whether the release effective on ``effective`` (YYYY-MM-DD) is one this quirk lists."""
        for span in self.seen_in:
            first, _, last = span.partition("..")
            if first <= effective <= (last or first):
                return True
        return False


QUIRKS: dict[str, Quirk] = {}


def register(
    name: str, kind: Kind, seen_in: tuple[str, ...], doc: str, marker: str | None = None, fix: LineFix | None = None
) -> Quirk:
    q = Quirk(name, kind, seen_in, " ".join(doc.split()), marker, fix)
    if name in QUIRKS:
        raise ValueError(f"quirk {name!r} registered twice")
    QUIRKS[name] = q
    return q


def _doc(fn: Callable[..., object]) -> str:
    return fn.__doc__ or ""


# --- bytes and line breaks (parsers/base.py) ------------------------------------------------------

MAC_ROMAN = register(
    "mac_roman_encoding",
    Kind.BYTES,
    ("1999-04-23", "2004-02-01"),
    """Single-byte text whose curly quotes and dashes sit at 0xD0-0xD5 is Mac Roman, not cp1252
    (base._decode_single_byte weighs the bytes only the one or the other uses).""",
)
CR_CR_LF = register(
    "cr_cr_lf_line_breaks",
    Kind.BYTES,
    (
        "2003-03-15",
        "2003-07-01",
        "2004-10-01",
        "2019-05-03",
        "2019-08-23",
        "2020-04-17",
        "2020-09-25..2020-11-20",
        "2021-09-24",
        "2022-02-18..2022-09-08",
        "2023-02-03..2023-04-14",
        "2023-09-01",
        "2023-11-17",
        "2024-03-08",
        "2025-04-04",
        "2025-07-25",
        "2026-01-16",
    ),
    """CR CR LF is one line break, not two (base.lf_text): these releases end some lines with it, and
    reading it as two would split paragraphs and glossary entries.""",
)

LINE_SEPARATOR = register(
    "line_separator_in_entries",
    Kind.BYTES,
    ("2026-08-07",),
    """U+2028 inside glossary entries (the 2026-08-19 re-release of 2026-08-07): no line break
    (base.split_lines breaks at CR and LF only, unlike str.splitlines), but a new paragraph of the
    entry (official._entry_text).""",
)

# --- layout (parsers/official.py) -----------------------------------------------------------------

DATE_IN_TITLE_LINE = register(
    "date_in_title_line",
    Kind.LAYOUT,
    ("1999-04-23",),
    """The release has no "These rules are effective as of ..." line; its date is in its title line,
    "COMPREHENSIVE RULES 04/23/99" (official._title_line_date reads it, and the sniffer counts that
    line as the dated title).""",
)
INTRODUCTION_WITHOUT_CONTENTS = register(
    "introduction_without_contents",
    Kind.LAYOUT,
    ("1999-04-23..1999-11-01", "2003-05-26"),
    """No Contents follows the Introduction: it ends at the first section line, "1. The Game"
    (official.locate).""",
)
BACK_MATTER_SECTIONS = register(
    "back_matter_sections",
    Kind.LAYOUT,
    ("1999-04-23..2003-03-15", "2003-07-01..2013-05-01"),
    """Back matter besides Glossary and Credits: "Index" (1999), "Questions?" (1999-2009), "Customer
    Service Information" (2010-2013). The rules end at the first of them (official.locate), and each is
    kept as the document's back matter.""",
)
UNDERLINED_TITLES = register(
    "underlined_titles",
    Kind.LAYOUT,
    ("1999-04-23",),
    """Titles underlined with a line of dashes, equals signs or asterisks (numbered.UNDERLINE_RE): such a
    line is no paragraph of the rules, the glossary or the back matter, and the rules' body ends before
    it.""",
)

# --- layout (parsers/numbered.py) -----------------------------------------------------------------

HARD_WRAPPED = register(
    "hard_wrapped",
    Kind.LAYOUT,
    ("1999-04-23", "2001-07-23..2002-02-20", "2003-10-01..2004-02-01"),
    """These releases break paragraphs across lines (numbered.is_wrapped detects it): a line continues
    the paragraph unless it starts the plausible next rule after a finished sentence, so a wrapped
    cross-reference ("see rule" / "119.3.") at a line start is not read as a rule.""",
)

# --- misprinted rule numbers (parsers/numbered.py read_body) --------------------------------------

_SPLIT_NUMBER_RE = re.compile(r"^(?P<rule>[0-9]{1,3}[a-z]{0,2})(?P<dot>\.?)[ \t]+(?P<rest>\S.*)$", re.S)


def split_number_typo(heading: int, rest: str, current: int | None) -> tuple[str, str] | None:
    """'606. 8b Players win ...' (2005-2007) and '702. 37a Storm ...' (2009-07-11): a space slipped
    in after the heading's period. Read as 606.8b when 606 is the heading we are in."""
    if heading != current:
        return None
    m = _SPLIT_NUMBER_RE.match(rest)
    if not m:
        return None
    return f"{heading}.{m['rule']}{m['dot']} ", m["rest"]


def transposed(num: RuleNumber, current: int | None) -> RuleNumber | None:
    """'423.3' inside rule 432 (2006-10 to 2007-09), '501.2' inside 510 (2006-05-01): the heading
    digits were transposed. Read the number under the heading we are in."""
    if current is None or num.heading is None or num.heading == current:
        return None
    if sorted(str(num.heading)) != sorted(str(current)):
        return None
    return RuleNumber(current // 100, current, num.rule, num.letters)


def stray_subrule(num: RuleNumber, last: RuleNumber | None) -> RuleNumber | None:
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


SPLIT_NUMBER = register(
    "split_number_typo",
    Kind.NUMBER,
    ("2005-08-01..2007-05-01", "2009-07-11"),
    _doc(split_number_typo),
)
TRANSPOSED = register("transposed_heading", Kind.NUMBER, ("2006-05-01", "2006-10-01..2007-09-07"), _doc(transposed))
STRAY_SUBRULE = register("stray_subrule", Kind.NUMBER, ("2005-08-01",), _doc(stray_subrule))

# --- typos around rule numbers (parsers/numbered.py read_body) ------------------------------------

SUBRULE_PERIOD = register(
    "subrule_with_period",
    Kind.TYPO,
    ("1999-04-23..2001-09-24", "2003-07-01..2013-05-01", "2018-07-13..2026-08-07"),
    """A subrule printed with the period only rules carry ('119.1d.'); read as the subrule.""",
)
RULE_WITHOUT_PERIOD = register(
    "rule_without_period",
    Kind.TYPO,
    ("1999-04-23..2003-03-15", "2003-07-01..2010-10-01", "2021-06-18..2026-08-07"),
    """A rule printed without its period ('606.5 If ...'); read as the rule.""",
)
NUMBER_TWICE = register(
    "number_printed_twice",
    Kind.TYPO,
    ("2005-08-01",),
    """A rule number printed twice in a row ('502.2 502.2 ...'); read once.""",
)
NO_SPACE = register(
    "no_space_after_number",
    Kind.TYPO,
    ("1999-04-23..1999-11-01", "2022-10-07..2025-02-07"),
    """No space between a rule number and its text ('901.4.All'); read as the number and the text.""",
)

GLUED_TERM = register(
    "glossary_term_glued_to_sense",
    Kind.TYPO,
    ("2021-06-18",),
    """A glossary term printed glued to its first numbered sense ('Exile1. A zone. ...', the next line
    '2. To put ...'); read as the term and its sense 1.""",
)

SENTENCE_TERM = register(
    "glossary_term_at_end_of_entry",
    Kind.TYPO,
    ("2003-05-26",),
    """A glossary term printed as the last line of the entry before, its text after a blank line ('Echo ... /
    Effect / / "Ability" and "effect" are often confused ...'): the sentence is no term; read as the text of
    the term printed before it.""",
)

# --- printed lines rewritten before reading (parsers/official.py) ---------------------------------

LINE_FIXES: list[Quirk] = []


def line_fix(marker: str, seen_in: tuple[str, ...]) -> Callable[[LineFix], LineFix]:
    """Register a fix for the line ``marker`` of the releases ``seen_in`` (which alone contain it)."""

    def add(fn: LineFix) -> LineFix:
        LINE_FIXES.append(register(fn.__name__, Kind.LINE, seen_in, _doc(fn), marker=marker, fix=fn))
        return fn

    return add


@line_fix(
    "505.54. Third, the active player gets priority. Players may cast spells and activate abilities. "
    "The active player may play a land.",
    ("2010-06-18",),
)
def rule_505_5_printed_as_505_54(line: str) -> str:
    """2010-06-18: rule 505.5 is printed "505.54." (505.4 comes before it and 505.5a after); read as 505.5."""
    return line.replace("505.54.", "505.5.", 1)


def apply(lines: list[str], source: str, text: str | None = None) -> tuple[list[str], list[ParseWarning]]:
    """Run every line fix whose marker line occurs in ``lines``; each fix it makes is reported as a
    warning on its line. ``lines`` is not modified (a fixed copy is returned). ``text`` is the lines with
    their line breaks (any: a marker holds none), when the caller has it (then they are not joined here)."""
    markers = {q.marker: q for q in LINE_FIXES}
    warnings: list[ParseWarning] = []
    joined = "\n".join(lines) if text is None else text
    if not any(m and m in joined for m in markers):
        # A marker line is in the text only if the marker is: one C-speed search each, most releases.
        return lines, warnings
    heads = {m[:12] for m in markers if m}
    fixed = lines
    for k, ln in enumerate(lines):
        # A first-characters check keeps the full strip and lookup off almost every line.
        if ln[:12] in heads and (q := markers.get(ln.strip())) is not None and q.fix is not None:
            if fixed is lines:
                fixed = list(lines)
            fixed[k] = q.fix(ln)
            warnings.append(ParseWarning(k + 1, f"{q.name}: {q.doc}", "quirk", quirk=q.name))
    return fixed, warnings
