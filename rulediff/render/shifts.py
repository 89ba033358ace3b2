"""Renumbering as ranges a reader takes in at once."""

# Renumbering as ranges a reader takes in at once: consecutive rules that moved by the same amount (their subrules
# travel with them), letters that moved under one rule, headings that moved together.

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..matcher.records import Alignment, Change, Shown, shown_as
from ..numbering import RuleNumber, letter_index
from .printed import said


@dataclass(slots=True)
class ShiftRange:
    """A run of renumbered rules under one parent that all moved by the same amount. ``items`` are
    (old number, new number, id) for every rule of the run, subrules included; the ids (and ``anchor``,
    the run's own) are given by whoever shows the run, which knows what other ids the page has."""

    first_old: str
    last_old: str
    first_new: str
    last_new: str
    delta: int
    count: int
    anchor: str
    items: list[tuple[str, str, str]]

    @property
    def label(self) -> str:
        sign = "+" if self.delta > 0 else ""
        span = self.first_old if self.first_old == self.last_old else f"{self.first_old}\u2013{self.last_old}"
        target = self.first_new if self.first_new == self.last_new else f"{self.first_new}\u2013{self.last_new}"
        how = f"shifted by {sign}{self.delta}" if self.delta else "renumbered"
        extra = len(self.items) - self.count
        more = f" with {extra} subrule{'s' if extra > 1 else ''}" if extra > 0 else ""
        return f"{span}{more} {how} (now {target})"


def _signature(a: RuleNumber, b: RuleNumber) -> tuple[Any, ...] | None:
    """What kind of shift moved ``a`` to ``b``: a rule (with its subrules) moved by n within a heading
    pair, letters moved by n under one rule, or a three-digit heading moved by n."""
    if a.rule is not None and b.rule is not None and a.letters == b.letters and a.rule != b.rule:
        return ("rule", a.heading, b.heading, b.rule - a.rule)
    if a.letters and b.letters and a.parent is not None and b.parent is not None and a.rule == b.rule:
        try:
            return ("letters", str(a.parent), str(b.parent), letter_index(b.letters) - letter_index(a.letters))
        except KeyError:
            return None
    if a.rule is None and b.rule is None and a.heading is not None and b.heading is not None:
        return ("heading", None, None, b.heading - a.heading)
    if a.letters and b.letters and a.parent is not None and b.parent is not None:
        # Subrules that went to another rule together (613.6g-i became 613.7h-j): one run, no single shift.
        try:
            return ("subrules", str(a.parent), str(b.parent), 0, letter_index(b.letters) - letter_index(a.letters))
        except KeyError:
            return None
    return None


def _travels_inside(al: Alignment, ch: Change, sig: tuple[Any, ...] | None) -> bool:
    number = al.new.rules[ch.new[0]].number if ch.new else None
    return sig is not None and sig[0] == "rule" and number is not None and bool(number.letters)


def shifts(al: Alignment, printed: tuple[dict[int, str], dict[int, str]] = ({}, {})) -> list[ShiftRange]:
    """Every change read as renumbering (shown_as RENUMBERED), grouped into runs; a node without a
    number on one side (an unnumbered keyword entry), or under a number its release prints more than once
    (``printed``: position -> "printed twice: first", old and new release), is a run of its own, the
    printing said beside the number."""
    out: list[ShiftRange] = []
    run: list[tuple[RuleNumber, RuleNumber]] = []
    sig: tuple[Any, ...] | None = None

    def flush() -> None:
        if not run:
            return
        heads = [(a, b) for a, b in run if not (sig and sig[0] == "rule" and a.letters)] or run
        (a0, b0), (a1, b1) = heads[0], heads[-1]
        items = [(str(a), str(b), "") for a, b in run]
        out.append(ShiftRange(str(a0), str(a1), str(b0), str(b1), sig[3] if sig else 0, len(heads), "", items))
        run.clear()

    for ch in al.changes:
        shown = shown_as(ch)
        if shown != Shown.RENUMBERED:
            if shown is not None and not _travels_inside(al, ch, sig):
                # A rule shown elsewhere ends the run, so a range never spans a rule it does not hold
                # (a subrule edited inside a run of shifted rules does not: the rules still moved as one).
                flush()
                sig = None
            continue
        ra, rb = al.old.rules[ch.old[0]], al.new.rules[ch.new[0]]
        if ra.number is None or rb.number is None:
            flush()
            sig = None
            a, b = str(ra.number or ra.title or ra.key), str(rb.number or rb.title or rb.key)
            out.append(ShiftRange(a, a, b, b, 0, 1, "", [(a, b, "")]))
            continue
        s = _signature(ra.number, rb.number)
        twice = printed[0].get(ch.old[0], ""), printed[1].get(ch.new[0], "")
        if any(twice):
            flush()
            sig = None
            a, b = said(str(ra.number), twice[0]), said(str(rb.number), twice[1])
            out.append(ShiftRange(a, a, b, b, s[3] if s else 0, 1, "", [(a, b, "")]))
            continue
        if s is None or s != sig:
            flush()
            sig = s
        run.append((ra.number, rb.number))
    flush()
    return out
