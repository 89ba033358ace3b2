"""Rule-number grammar: parse, format, order, parents, and cross-references found in rule text."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from enum import IntEnum
from functools import lru_cache, total_ordering

from .support.constructors import slot_filler

# Subrule letters skip "l" and "o" (they read as 1 and 0); after "z" come "aa", "ab", ...
LETTERS = "abcdefghijkmnpqrstuvwxyz"
_LETTER_INDEX = {c: i for i, c in enumerate(LETTERS)}


class Level(IntEnum):
    """Depth of a number in the tree: 7 < 702 < 702.15 < 702.15b."""

    SECTION = 0
    HEADING = 1
    RULE = 2
    SUBRULE = 3


_LOWER = "abcdefghijklmnopqrstuvwxyz"
_NUMBER_RE = re.compile(
    r"^(?:(?P<heading>[1-9]\d{2})(?:\.(?P<rule>\d{1,3})(?P<letters>[a-z]{1,2})?)?|(?P<section>[1-9]))$"
)


@total_ordering
@dataclass(frozen=True, slots=True)
class RuleNumber:
    """A Comprehensive Rules number such as ``7``, ``702``, ``702.15`` or ``704.5aa``.

    ``section`` is always set; ``heading`` is the three-digit rule (702), ``rule`` the part after the
    dot (15), ``letters`` the subrule letters ("b", "aa").
    """

    section: int
    heading: int | None = None
    rule: int | None = None
    letters: str = ""
    # The canonical spelling ("702.15b"), worked out once: str() of a number is asked for every node of
    # every alignment. Not part of equality, order or hash.
    # Not an __init__ argument, so dataclasses.replace() (or any RuleNumber(...)) never carries one over.
    spelled: str = field(default="", init=False, compare=False, repr=False)

    @classmethod
    def make(
        cls, section: int, heading: int | None = None, rule: int | None = None, letters: str = "", spelled: str = ""
    ) -> RuleNumber:
        """``RuleNumber(section, heading, rule, letters)``, the same object, for the thousands a parse
        makes, without the frozen __init__'s cost (support/constructors.py). The caller vouches for the parts (as the
        grammar would read them: ``section == heading // 100``), and for ``spelled``: the canonical spelling or ""."""
        return _number(section, heading, rule, letters, spelled)

    @classmethod
    def parse(cls, text: str) -> RuleNumber:
        """Parse ``"702.15b"``; a trailing period (``"702.15."``) is accepted. Raises ValueError."""
        # Numbers are immutable and repeat in every release: each spelling is parsed once.
        n = _PARSED.get(text)
        if n is None:
            n = cls._parse(text)
            if len(_PARSED) >= _PARSED_MAX:
                _PARSED.clear()
            _PARSED[text] = n
        return n

    @classmethod
    def _parse(cls, text: str) -> RuleNumber:
        make = RuleNumber.make
        s = text.strip()
        if s.endswith(".") and len(s) > 1:
            s = s[:-1]
        if s.isascii():
            # The spellings of every release ("702", "702.15", "704.5aa") without the regex; anything
            # else (and every error) goes through it below.
            head, dot, tail = s.partition(".")
            if len(head) == 3 and head.isdigit() and head[0] != "0":
                heading = int(head)
                if not dot:
                    return make(heading // 100, heading)
                k = len(tail.rstrip(_LOWER))
                if 1 <= k <= 3 and len(tail) - k <= 2 and tail[:k].isdigit():
                    return make(heading // 100, heading, int(tail[:k]), tail[k:])
        m = _NUMBER_RE.match(s)
        if not m:
            raise ValueError(f"not a rule number: {text!r}")
        if m.group("section"):
            return make(int(m.group("section")))
        heading = int(m.group("heading"))
        rule = m.group("rule")
        return make(
            heading // 100,
            heading,
            int(rule) if rule is not None else None,
            m.group("letters") or "",
        )

    @classmethod
    def try_parse(cls, text: str) -> RuleNumber | None:
        try:
            return cls.parse(text)
        except ValueError:
            return None

    @property
    def level(self) -> Level:
        if self.heading is None:
            return Level.SECTION
        if self.rule is None:
            return Level.HEADING
        return Level.SUBRULE if self.letters else Level.RULE

    @property
    def parent(self) -> RuleNumber | None:
        if self.letters:
            return RuleNumber(self.section, self.heading, self.rule)
        if self.rule is not None:
            return RuleNumber(self.section, self.heading)
        if self.heading is not None:
            return RuleNumber(self.section)
        return None

    def ancestors(self) -> list[RuleNumber]:
        out: list[RuleNumber] = []
        p = self.parent
        while p is not None:
            out.append(p)
            p = p.parent
        return out

    def is_ancestor_of(self, other: RuleNumber) -> bool:
        return self in other.ancestors()

    @property
    def sort_key(self) -> tuple[int, int, int, int, str]:
        # Headings sort after their section, before their rules; "z" < "aa" (length first).
        return (
            self.section,
            -1 if self.heading is None else self.heading,
            -1 if self.rule is None else self.rule,
            len(self.letters),
            self.letters,
        )

    def __lt__(self, other: object) -> bool:
        if not isinstance(other, RuleNumber):
            return NotImplemented
        return self.sort_key < other.sort_key

    def __str__(self) -> str:
        s = self.spelled
        if not s:
            if self.heading is None:
                s = str(self.section)
            elif self.rule is None:
                s = str(self.heading)
            else:
                s = f"{self.heading}.{self.rule}{self.letters}"
            object.__setattr__(self, "spelled", s)
        return s

    def __repr__(self) -> str:
        return f"RuleNumber({str(self)!r})"

    @property
    def letters_valid(self) -> bool:
        """False for subrule letters the CR never uses (``l``, ``o``)."""
        return "l" not in self.letters and "o" not in self.letters

    def with_letters(self, letters: str) -> RuleNumber:
        return RuleNumber(self.section, self.heading, self.rule, letters)


_number = slot_filler(RuleNumber, "section heading rule letters spelled")
# RuleNumber.make without the classmethod's call, for the parsers' loops (as model.new_rule for rules).
new_number = _number
# Spelling -> number, emptied when full (a plain dict: a hit costs a lookup, not an LRU's bookkeeping).
_PARSED: dict[str, RuleNumber] = {}
_PARSED_MAX = 1 << 15


def letter_index(letters: str) -> int:
    """Ordinal of subrule letters: a=0 ... z=23, aa=24, ab=25 (l and o skipped)."""
    if len(letters) == 1:
        return _LETTER_INDEX[letters]
    return len(LETTERS) * (1 + _LETTER_INDEX[letters[0]]) + _LETTER_INDEX[letters[1]]


def letters_at(index: int) -> str:
    """Inverse of :func:`letter_index`."""
    n = len(LETTERS)
    if index < n:
        return LETTERS[index]
    hi, lo = divmod(index - n, n)
    return LETTERS[hi] + LETTERS[lo]


def letter_range(first: str, last: str) -> list[str]:
    """Letters from ``first`` to ``last`` inclusive, skipping l and o; empty when out of order."""
    try:
        a, b = letter_index(first), letter_index(last)
    except KeyError:
        return []
    return [letters_at(i) for i in range(a, b + 1)] if a <= b and b - a < 60 else []


# --- cross-references -------------------------------------------------------------------------

_DASH = "\u2013\u2014\u2012-"
_NUM = r"[1-9]\d{2}(?:\.\d{1,3}[a-z]{0,2})?"
# A dotted number anywhere is a reference; a bare three-digit one only after "rule(s)".
_DOTTED = r"[1-9]\d{2}\.\d{1,3}[a-z]{0,2}"
_RANGE_TAIL = rf"(?:\s?[{_DASH}]\s?(?:{_NUM}|\d{{1,3}}[a-z]{{0,2}}|[a-z]{{1,2}})(?![\w.]\w))?"
_REF_RE = re.compile(
    rf"(?P<lead>\b(?:[Rr]ules?|[Ss]ections?)\s+)?"
    rf"(?P<first>(?(lead){_NUM}|{_DOTTED}))(?!\d)(?P<tail>{_RANGE_TAIL})"
)
_SECTION_RE = re.compile(r"\b[Ss]ections?\s+(?P<n>[1-9])\b(?![.,]\d)")
_LIST_CONT_RE = re.compile(rf"(?:,\s*(?:and\s+|or\s+)?|\s+(?:and|or|through)\s+)(?P<n>{_NUM})(?P<tail>{_RANGE_TAIL})")


@dataclass(frozen=True, slots=True)
class Reference:
    """One cross-reference in rule text: where it is and every number it names (ranges expanded)."""

    start: int
    end: int
    text: str
    targets: tuple[RuleNumber, ...]


def _expand(first: RuleNumber, tail: str) -> tuple[RuleNumber, ...]:
    tail = tail.strip().lstrip(_DASH).strip()
    if not tail:
        return (first,)
    last = RuleNumber.try_parse(tail)
    if last is not None and last.heading is not None:
        # Full number: "601.2b-601.2h" or "702.2-702.5".
        if last.heading == first.heading and last.rule is not None and first.rule is not None:
            if last.letters and first.letters and last.rule == first.rule:
                return tuple(first.with_letters(x) for x in letter_range(first.letters, last.letters)) or (first, last)
            if not last.letters and not first.letters and first.rule <= last.rule:
                return tuple(RuleNumber(first.section, first.heading, r) for r in range(first.rule, last.rule + 1))
        return (first, last)
    if tail.isdigit() and first.rule is not None and not first.letters:
        # "119.9-10"
        hi = int(tail)
        if first.rule <= hi <= first.rule + 60:
            return tuple(RuleNumber(first.section, first.heading, r) for r in range(first.rule, hi + 1))
        return (first,)
    if tail.isdigit() and first.rule is None and first.heading is not None:
        hi = int(tail)
        if first.heading <= hi <= first.heading + 60:
            return tuple(RuleNumber(h // 100, h) for h in range(first.heading, hi + 1))
        return (first,)
    if tail.isalpha() and first.letters:
        # "601.2b-h"
        return tuple(first.with_letters(x) for x in letter_range(first.letters, tail)) or (first,)
    return (first,)


def find_references(text: str) -> list[Reference]:
    """All cross-references in ``text``, with ranges and lists expanded.

    Handles "rule 702.15", "rules 601.2b–h", "601.2f-h", "rules 119.9–10", "rules 702.15 and
    702.16", "section 7", and bare dotted numbers ("see 613.1d").
    """
    return list(_references(text))


_ANY_DIGIT = re.compile(r"[1-9]")


# The words a lead-in ends with, and the most letters one has ("sections").
_LEAD_LONGEST = 8
_LEAD_SHORTEST = 4


# Where a number the grammar reads can start: three digits not followed by a fourth (it reads no longer run,
# and a dotted number has its dot there), so a run of digits holds one candidate at most.
_NUMBER_START = re.compile(r"[1-9]\d\d(?!\d)")


def _search_reference(text: str, pos: int) -> re.Match[str] | None:
    """``_REF_RE.search(text, pos)``, with the grammar tried only where a match can start. Every number it
    reads starts with three digits not followed by a fourth (_NUMBER_START, found at C speed), and a match
    starts either there or at its lead-in: "rule(s)" or "section(s)" right before the run of spaces that
    ends at those digits (a lead-in holds no digit, so no other number is between). The regex's own scan
    tries its whole pattern at every position of the text, which made the grammar most of the cost of
    reading references. Each stretch of text is read a bounded number of times: linear, like the scan."""
    while True:
        d = _NUMBER_START.search(text, pos)
        if d is None:
            return None
        at = d.start()
        k = pos + len(text[pos:at].rstrip())  # where the spaces before the digits start (str.isspace is \s)
        if k < at:  # spaces before the digits: a lead-in may end where they start
            for s in range(max(pos, k - _LEAD_LONGEST), k - _LEAD_SHORTEST + 1):
                m = _REF_RE.match(text, s)
                if m is not None:
                    return m
        m = _REF_RE.match(text, at)
        if m is not None:
            return m
        pos = at + 1


@lru_cache(maxsize=1 << 15)
def _references(text: str) -> tuple[Reference, ...]:
    # One grammar run per distinct text: matching, natures, muting and reports all ask about the same
    # texts, and most repeat unchanged from release to release. Every reference holds a digit 1-9.
    if not _ANY_DIGIT.search(text):
        return ()
    refs: list[Reference] = []
    pos = 0
    while True:
        m = _search_reference(text, pos)
        if not m:
            break
        first = RuleNumber.try_parse(m.group("first"))
        end = m.end()
        if first is None:
            pos = m.end()
            continue
        start = m.start("first")
        targets = list(_expand(first, m.group("tail")))
        if m.group("lead"):
            # A list after "rules": "rules 702.15, 702.16, and 702.17".
            while True:
                c = _LIST_CONT_RE.match(text, end)
                if not c:
                    break
                n = RuleNumber.try_parse(c.group("n"))
                if n is None:
                    break
                targets.extend(_expand(n, c.group("tail")))
                end = c.end()
        refs.append(Reference(start, end, text[start:end], tuple(targets)))
        pos = end
    if "ection" not in text:
        return tuple(refs)
    seen = {(r.start, r.end) for r in refs}
    for m in _SECTION_RE.finditer(text):
        s, e = m.start("n"), m.end("n")
        if not any(a <= s < b for a, b in seen):
            refs.append(Reference(s, e, text[s:e], (RuleNumber(int(m.group("n"))),)))
    refs.sort(key=lambda r: r.start)
    return tuple(refs)


def references_follow(old: str, new: str, number_map: dict[str, str | list[str]]) -> bool:
    """Every cross-reference in ``new`` is what the matching one in ``old`` became under ``number_map``
    (old number -> new number, or the list a split became); a number the map does not know stays put."""
    ra, rb = find_references(old), find_references(new)
    if len(ra) != len(rb):
        return False
    for x, y in zip(ra, rb, strict=True):
        if len(x.targets) == len(y.targets):
            if not all(_maps_to(ta, tb, number_map) for ta, tb in zip(x.targets, y.targets, strict=True)) and not (
                _same_named_target(old, x, new, y)
            ):
                return False
        elif not (
            # A range whose ends follow the map follows it, whatever came in or went out between its
            # ends ("601.2a-g" -> "601.2a-h" when a subrule was inserted before g).
            _is_range(x)
            and _is_range(y)
            and _maps_to(x.targets[0], y.targets[0], number_map)
            and _maps_to(x.targets[-1], y.targets[-1], number_map)
        ):
            return False
    return True


# A reference that names its target: 'rule 728, "Day and Night"' (after normalize, quotes are straight).
_NAMED = re.compile(r'\s*,\s*"([^"]{3,80}?)[.,]?"')


def _same_named_target(old: str, x: Reference, new: str, y: Reference) -> bool:
    """Both references name the same rule by its title: only the number beside the title changed. The
    number caught up with a renumbering of that heading made in an earlier release (2024-09-20
    corrected "rule 727, "Day and Night"" to 728, which Day and Night had been since 2024-07-30)."""
    ma, mb = _NAMED.match(old, x.end), _NAMED.match(new, y.end)
    return ma is not None and mb is not None and ma.group(1) == mb.group(1)


def _maps_to(a: RuleNumber, b: RuleNumber, number_map: dict[str, str | list[str]]) -> bool:
    mapped = number_map.get(str(a), str(a))
    return str(b) in (mapped if isinstance(mapped, list) else [mapped])


def _is_range(ref: Reference) -> bool:
    return len(ref.targets) > 1 and any(c in ref.text for c in _DASH) and not any(c in ref.text for c in ",&")
