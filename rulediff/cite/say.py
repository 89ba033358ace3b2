"""What `rulediff cite` prints: a line per citation and the words that changed, then the counts."""

from __future__ import annotations

from collections import Counter

from ..words.diff import Op, Piece
from .cited import Cited
from .follow import SEVERITY, Followed, Status
from .lock import Locked

# Context kept either side of a change in a word diff's excerpt, and the changed lines shown of one rule (a
# heading cited whole reads its every rule: --json has them all).
CONTEXT = 40
LINES = 8


def _what(f: Followed, new_label: str) -> str:
    """What became of one rule, in a few words (without its number)."""
    if f.status == Status.GONE:
        return f"gone in {new_label}" + (f"; its words are in {new_label}'s {f.went}" if f.went else "")
    if f.status in (Status.AMBIGUOUS, Status.UNKNOWN):
        return f"{f.status}: {f.note}"
    said = str(f.status)
    if f.status == Status.EDITED and f.nature:
        said += f" ({f.nature})"
    elif f.nature:
        said += f" (only {f.nature.removesuffix(' only')} changed)"
    return said + (f"; {f.note}" if f.note else "")


def _rule(f: Followed, new_label: str) -> str:
    moved = f.new is not None and f.new != f.number
    return f"{f.number}{f' -> {f.new}' if moved else ''} {_what(f, new_label)}"


def excerpt(pieces: tuple[Piece, ...]) -> list[str]:
    """The lines of a word diff that changed, changes marked [-gone-] and {+new+} (a line each side of a line
    break), unchanged runs cut to CONTEXT characters either side of a change."""
    lines: list[list[str]] = [[]]
    changed = [False]
    last = len(pieces) - 1
    for k, p in enumerate(pieces):
        text = p.text
        if p.op not in (Op.DELETE, Op.INSERT):
            before = text[:CONTEXT] if k > 0 else ""  # what follows the change before it
            after = text[-CONTEXT:] if k < last else ""  # what leads to the change after it
            if "\n" not in text and len(text) > len(before) + len(after) + 5:
                text = f"{before}...{after}"
        for n, part in enumerate(text.split("\n")):
            if n:
                lines.append([])
                changed.append(False)
            if p.op == Op.DELETE and part:
                lines[-1].append(f"[-{part}-]")
                changed[-1] = True
            elif p.op == Op.INSERT and part:
                lines[-1].append(f"{{+{part}+}}")
                changed[-1] = True
            else:
                lines[-1].append(part)
    return ["".join(line) for line, hit in zip(lines, changed, strict=True) if hit]


def citation_lines(name: str, c: Cited, new_label: str) -> list[str]:
    """A citation's line, FILE:LINE: as written [-> as it should read]: what became of it; the words that
    changed of a rule cited alone, and a line for each rule of a range or list that changed."""
    head = c.citation.text if c.new_text == c.citation.text else f"{c.citation.text} -> {c.new_text}"
    if len(c.rules) == 1:
        f = c.rules[0]
        lines = [f"{name}:{c.citation.line}: {head}: {_what(f, new_label)}"]
        shown = excerpt(f.diff)
        lines.extend(f"    {line}" for line in shown[:LINES])
        if len(shown) > LINES:
            lines.append(f"    ... and {len(shown) - LINES} more lines changed (--json has every word)")
        return lines
    lines = [f"{name}:{c.citation.line}: {head}: {c.status}" + (f" ({c.note})" if c.note else "")]
    lines.extend(f"    {_rule(f, new_label)}" for f in c.rules if f.status != Status.UNCHANGED or f.nature)
    return lines


def locked_lines(name: str, c: Locked, new_label: str) -> list[str]:
    lines = [f"{name}:{c.line}: {c.text}: {c.status} since the lock"]
    lines.extend(f"    {_rule(f, new_label)}" for f in c.rules if f.status != Status.UNCHANGED)
    return lines


def counts(statuses: list[Status]) -> str:
    """ "4 citations: 1 renumbered, 1 edited, 1 gone, 1 ambiguous" (the worst first)."""
    n = Counter(statuses)
    said = ", ".join(f"{n[s]} {s}" for s in reversed(SEVERITY) if n[s])
    return f"{len(statuses)} citation{'s' if len(statuses) != 1 else ''}" + (f": {said}" if said else "")
