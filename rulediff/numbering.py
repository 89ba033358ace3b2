"""Rule-number grammar: parse, format, order, parents, and cross-references found in rule text."""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field
from enum import IntEnum
from functools import total_ordering

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
    r"^(?:(?P<heading>[1-9][0-9]{2})(?:\.(?P<rule>[0-9]{1,3})(?P<letters>[a-z]{1,2})?)?|(?P<section>[1-9]))$"
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


# What a paragraph's start may hide a rule number behind: characters no rule number has, which a copy or an
# edit can slip in (an invisible joiner, fullwidth or other scripts' digits, a combining accent, a keycap).
_DISGUISED = re.compile(
    r"^(?:(?P<rule>[1-9][0-9]{2}\.[0-9]{1,3}[a-z]{0,2})\.?|(?P<head>[1-9][0-9]{2}|[1-9])\.)[ \t\u00a0]+\S"
)
# Long enough to hold any number and the first character after its blank.
_DISGUISED_PREFIX = 24


def disguised_number(text: str) -> tuple[str, str] | None:
    """The rule number the start of ``text`` spells with characters the grammar does not read, and the first
    such character named ("702.15", "U+200D ZERO WIDTH JOINER"); None when its start reads as the grammar
    says (ASCII) or spells no number at all. A rule number is one in any script only if the grammar reads it:
    such a paragraph is text, and whoever reads it must be told that a rule may be lost there."""
    head = text[:_DISGUISED_PREFIX]
    if head.isascii():
        return None
    kept: list[str] = []
    odd = ""
    for c in head:
        if c.isascii() or c == "\u00a0":  # (the grammar reads a no-break space as a blank)
            kept.append(c)
            continue
        if not odd:
            odd = c
        if unicodedata.category(c) in ("Cf", "Mn", "Me", "Cc"):
            continue  # invisible, combining or a control: nothing a reader sees as a character of its own
        folded = unicodedata.normalize("NFKC", c)
        digit = unicodedata.decimal(c, None)
        kept.append(str(digit) if digit is not None else folded)
    m = _DISGUISED.match("".join(kept))
    if m is None or not odd:
        return None
    number = m.group("rule") or m.group("head")
    return number, f"U+{ord(odd):04X} {unicodedata.name(odd, 'an unnamed character')}"
