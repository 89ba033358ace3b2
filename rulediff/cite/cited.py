"""Each citation of a text followed to a newer release, and the text with the numbers that moved rewritten."""

# Each citation of a text followed from OLD to NEW (follow.py): its status is the worst of the rules it names, and
# the numbers it writes that moved are rewritten -- never one that is gone, ambiguous or unknown, and a range only
# when its new ends still make one range written the same way ("601.2a-h" -> "601.2a-i"). Every other byte of the
# text is kept.

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from ..matcher.records import Alignment
from ..words.diff import as_pairs
from .find import Citation, Written, find_citations
from .follow import Followed, Follower, Status, worst


@dataclass(frozen=True, slots=True)
class Cited:
    """A citation, what became of each rule it names, and the edits that bring its numbers up to date."""

    citation: Citation
    rules: tuple[Followed, ...]
    status: Status
    edits: tuple[tuple[int, int, str], ...]  # (start, end, new) in the text
    note: str = ""

    @property
    def new_text(self) -> str:
        """The citation as it reads once its numbers are rewritten."""
        c, out, pos = self.citation, [], self.citation.start
        for start, end, new in self.edits:
            out.append(c.text[pos - c.start : start - c.start])
            out.append(new)
            pos = end
        out.append(c.text[pos - c.start :])
        return "".join(out)

    def as_dict(self) -> dict[str, Any]:
        return {
            "line": self.citation.line,
            "text": self.citation.text,
            "status": str(self.status),
            "new_text": self.new_text,
            "note": self.note,
            "rules": [
                {
                    "number": f.number,
                    "status": str(f.status),
                    "new": f.new,
                    "candidates": list(f.candidates),
                    "nature": f.nature,
                    "diff": as_pairs(list(f.diff)),
                    "went": f.went,
                    "note": f.note,
                }
                for f in self.rules
            ],
        }


def follow_citations(text: str, fmt: str, al: Alignment) -> list[Cited]:
    """Every citation in ``text`` followed through ``al``."""
    follower = Follower(al)
    out = []
    for c in find_citations(text, fmt):
        rules = {n: follower.follow(n) for n in dict.fromkeys(c.names)}
        for w in c.written:  # a number written that the expansion left out (a range read no further)
            if w.full not in rules:
                rules[w.full] = follower.follow(w.full)
        edits, note = _edits(c, rules)
        status = worst([f.status for f in rules.values()])
        if note:
            status = worst([status, Status.AMBIGUOUS])
        out.append(Cited(c, tuple(rules.values()), status, tuple(edits), note))
    return out


def _edits(c: Citation, rules: dict[str, Followed]) -> tuple[list[tuple[int, int, str]], str]:
    """The numbers to rewrite, and why a range is left as it is."""
    moved = (Status.RENUMBERED, Status.EDITED, Status.UNCHANGED)
    edits: list[tuple[int, int, str]] = []
    ends = {id(b) for _, b in c.ranges}
    for k, w in enumerate(c.written):
        if id(w) in ends:
            continue
        end = c.written[k + 1] if k + 1 < len(c.written) and id(c.written[k + 1]) in ends else None
        first = rules[w.full]
        if end is None:
            if first.status in moved and first.new and first.new != w.full:
                edits.append((w.start, w.end, first.new))
            continue
        last = rules[end.full]
        if not (first.status in moved and last.status in moved and first.new and last.new):
            continue
        if (first.new, last.new) == (w.full, end.full):
            continue
        tail = _tail(first.new, last.new, end.tail)
        if tail is None:
            return edits, f"its ends are {first.new} and {last.new} in the newer release: no longer one range"
        if first.new != w.full:
            edits.append((w.start, w.end, first.new))
        if tail != _written(end):
            edits.append((end.start, end.end, tail))
    return edits, ""


def _written(end: Written) -> str:
    if end.tail == "letters":
        return re.sub(r"^.*?(?=[a-z]+$)", "", end.full)
    if end.tail == "rule":
        return end.full.split(".", 1)[1]
    return end.full


def _tail(first: str, last: str, how: str) -> str | None:
    """How the end of a range from ``first`` to ``last`` is written the way it was (letters, a rule's digits,
    or a whole number); None when it cannot be (ends under two rules, or backwards)."""
    if how == "number":
        return last
    if how == "letters":
        stem, letters = re.fullmatch(r"(.*?)([a-z]*)", last).groups()  # type: ignore[union-attr]
        if not letters or not first.startswith(stem) or first == last or re.sub(r"[a-z]+$", "", first) != stem:
            return None
        return letters
    head, _, rule = last.partition(".")
    if not rule or not first.startswith(head + ".") or "." not in first or first[-1].isalpha() or rule[-1].isalpha():
        return None
    return rule if int(rule) > int(first.split(".", 1)[1]) else None


def rewritten(text: str, cited: list[Cited]) -> tuple[str, int]:
    """``text`` with every edit of ``cited`` made, and how many numbers changed."""
    edits = sorted(e for c in cited for e in c.edits)
    out, pos = [], 0
    for start, end, new in edits:
        out.append(text[pos:start])
        out.append(new)
        pos = end
    out.append(text[pos:])
    return "".join(out), len(edits)
