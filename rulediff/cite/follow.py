"""A cited rule followed from one release to another by their direct alignment: what became of it."""

# A cited rule followed from OLD to NEW by the alignment `rulediff diff OLD NEW` makes (the reference: the site's
# compare page follows lineage instead). A rule is read whole -- its text, its subrules, their examples, without
# their numbers -- so "702.15" is edited when 702.15c is, and a renumbering alone is no edit; typography alone
# is no edit either.

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from enum import StrEnum

from ..matcher.records import Alignment, Change, Kind
from ..model import Document
from ..text import normalize
from ..words.diff import Piece, word_diff
from ..words.nature import nature_of
from ..words.records import Nature


class Status(StrEnum):
    UNCHANGED = "unchanged"
    RENUMBERED = "renumbered"  # the same words under another number
    EDITED = "edited"  # its words changed (under its number or another)
    GONE = "gone"
    AMBIGUOUS = "ambiguous"  # split into several rules, or printed twice: no one number to give
    UNKNOWN = "unknown"  # no rule OLD prints under that number, or NEW does not cover it


# Worst first: a citation of several rules says the worst of them.
SEVERITY = (Status.UNKNOWN, Status.AMBIGUOUS, Status.GONE, Status.EDITED, Status.RENUMBERED, Status.UNCHANGED)


def worst(statuses: list[Status]) -> Status:
    """What a citation of several rules says: the worst of them (unchanged when it names none)."""
    return min(statuses, key=SEVERITY.index) if statuses else Status.UNCHANGED


# A gone rule's words are said to be in the rule of NEW nearest to it when that holds at least this share of its
# meaning.
WENT_AT_LEAST = 0.6


@dataclass(frozen=True, slots=True)
class Followed:
    """What became of one cited rule."""

    number: str  # as OLD numbers it
    status: Status
    new: str | None = None  # its number in NEW, when it has one
    candidates: tuple[str, ...] = ()  # what it split into, or where OLD prints it
    nature: str | None = None  # of an edit (substantive, references only, renamed, typography only)
    diff: tuple[Piece, ...] = ()  # its words, old to new, numbers left out
    went: str | None = None  # a gone rule: the rule of NEW that holds most of its words
    note: str = ""


def whole_text(doc: Document, pos: int) -> str:
    """The rule at ``pos`` whole: its text, examples, and those of every rule below it, a line each, without
    their numbers (a renumbering is no edit)."""
    r = doc.rules[pos]
    lines = [r.text, *(e.text for e in r.examples)]
    if r.number is not None:
        for below in doc.rules[pos + 1 :]:
            if below.number is None or not r.number.is_ancestor_of(below.number):
                break
            lines.extend([below.text, *(e.text for e in below.examples)])
    return "\n".join(lines)


def digest(text: str) -> str:
    """What a lock records of a rule's words: typography does not change it."""
    return hashlib.sha256(normalize(text).encode("utf-8")).hexdigest()


class Follower:
    """Follows cited numbers through one alignment."""

    def __init__(self, al: Alignment) -> None:
        self.al = al
        self.where: dict[str, list[int]] = {}
        for k, r in enumerate(al.old.rules):
            if r.number is not None:
                self.where.setdefault(str(r.number), []).append(k)
        self.change: dict[int, Change] = {i: c for c in al.changes for i in c.old}

    def position(self, number: str) -> int | None:
        at = self.where.get(number, [])
        return at[0] if len(at) == 1 else None

    def follow(self, number: str) -> Followed:
        at = self.where.get(number, [])
        old_label = self.al.old.version.label
        if not at:
            return Followed(number, Status.UNKNOWN, note=f"{old_label} prints no rule {number}")
        if len(at) > 1:
            return Followed(number, Status.AMBIGUOUS, note=f"{old_label} prints {number} {len(at)} times")
        c = self.change.get(at[0])
        new = self.al.new
        if c is None or c.kind == Kind.NOT_COVERED:
            return Followed(number, Status.UNKNOWN, note=f"{new.version.label} does not cover {number}")
        if c.kind == Kind.REMOVED:
            return Followed(number, Status.GONE, went=self._went(c))
        numbers = tuple(str(new.rules[j].number) if new.rules[j].number else "(unnumbered)" for j in c.new)
        if c.kind == Kind.SPLIT:
            return Followed(number, Status.AMBIGUOUS, candidates=numbers, note="split into " + " and ".join(numbers))
        note = ""
        if c.kind == Kind.MERGED:
            others = [str(self.al.old.rules[i].number) for i in c.old if i != at[0]]
            note = f"merged with {', '.join(others)} into {numbers[0]}"
        old_text, new_text = whole_text(self.al.old, at[0]), whole_text(new, c.new[0])
        nature = nature_of(old_text, new_text, number_map=self.al.number_map)
        moved = numbers[0] != number
        if nature is None or nature == Nature.TYPOGRAPHY_ONLY:
            status = Status.RENUMBERED if moved else Status.UNCHANGED
            said = "typography only" if nature else None
            return Followed(number, status, numbers[0], nature=said, note=note)
        pieces = tuple(word_diff(old_text, new_text, self.al.number_map))
        said = str(nature).replace("_", " ")
        return Followed(number, Status.EDITED, numbers[0], nature=said, diff=pieces, note=note)

    @staticmethod
    def _went(c: Change) -> str | None:
        """Where a gone rule's words went: the nearest text the matcher found for it (its refusal's evidence,
        Change.closest) when that holds at least WENT_AT_LEAST of its meaning; a long rule that merely shares
        its common words is no home for them."""
        closest = c.closest
        return closest.number if closest is not None and closest.meaning >= WENT_AT_LEAST else None
