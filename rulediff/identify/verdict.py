"""The verdict line and the summary of what the next release changed ("EDH \u2192 Commander")."""

from __future__ import annotations

import re
from collections import Counter
from typing import TYPE_CHECKING

from ..text import normalize
from ..words.diff import Op
from .compare import Candidate, Difference

if TYPE_CHECKING:
    from . import Identification

_WORDY = re.compile(r"\w")


def summarize(diffs: list[Difference], limit: int = 3) -> list[str]:
    """The most frequent word changes among differences, as "old -> new" (the diff goes release ->
    dump; read backwards it says what the release changed in the dump's text)."""
    seen: Counter[str] = Counter()
    whole = {d.release_number or d.dump_number for d in diffs if d.kind in ("missing", "extra")}
    for d in diffs:
        if d.kind in ("missing", "extra"):
            number = d.release_number or d.dump_number or ""
            if number.rstrip("abcdefghijkmnpqrstuvwxyz") in whole - {number}:
                continue  # a subrule of a rule already named
            # Read from the dump's side: a rule only the release has was added by it.
            sign = "+" if d.kind == "missing" else "-"
            seen[f"{sign}{d.release_number or d.dump_number or ''} {_short(d.title or '', 30)}".strip()] += 1
            continue
        if d.kind == "heading" and d.dump_title and d.title:
            seen[f"{_short(d.dump_title)} \u2192 {_short(d.title)}"] += 1
        pieces = [p for p in d.diff if p.op in (Op.DELETE, Op.INSERT)]
        k = 0
        while k < len(pieces):
            p = pieces[k]
            nxt = pieces[k + 1] if k + 1 < len(pieces) else None
            if p.op == Op.DELETE and nxt is not None and nxt.op == Op.INSERT:
                if _WORDY.search(p.text + nxt.text) and normalize(p.text) != normalize(nxt.text):
                    seen[f"{_short(nxt.text)} \u2192 {_short(p.text)}"] += 1
                k += 2
                continue
            if _WORDY.search(p.text):
                seen[f"{'+' if p.op == Op.DELETE else '-'}{_short(p.text)}"] += 1
            k += 1
    return [s for s, _ in sorted(seen.items(), key=lambda t: (-t[1], t[0]))[:limit]]


def _short(s: str, width: int = 40) -> str:
    s = " ".join(s.split())
    return s if len(s) <= width else s[: width - 1] + "\u2026"


def _span(cands: list[Candidate]) -> str:
    if len(cands) == 1:
        return cands[0].version.label
    return f"{cands[0].version.label} \u2026 {cands[-1].version.label}"


def verdict(ident: Identification) -> str:
    """One line: which release's text this is, how sure, and what the next release changed."""
    b = ident.best
    counts = f"{b.identical} of {b.compared} rules identical, {b.typography_only} typography only"
    if b.differing:
        counts += f", {b.substantive} differ, {b.missing} missing, {b.extra} extra"
    tied = ident.tied
    if not ident.confident:
        head = f"no archived release explains this text well; the closest is {b.version.label} ({counts})"
    elif len(tied) > 1:
        head = f"tie: the text of {len(tied)} releases, {_span(tied)} ({counts})"
        if ident.in_force_on:
            head += f"; in force on the dump's date {ident.in_force_on}: {b.version.label}"
    elif b.differing == 0:
        head = f"text of {b.version.label} ({counts})"
    else:
        head = f"closest to {b.version.label} ({counts})"
    if ident.next_release is None:
        return head + "; no later release is archived"
    n = ident.next_release
    changes = f" ({', '.join(ident.next_changes)}, ...)" if ident.next_changes else ""
    rules = f"{ident.next_differs} rule{'' if ident.next_differs == 1 else 's'}"
    return f"{head}; the next release, {n.version.label}, differs in {rules}{changes}"
