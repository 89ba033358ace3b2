"""Where the inflected forms of a rename found are looked for: the edits holding one, and their words."""

from __future__ import annotations

from bisect import bisect_left

from ..words.agreement import agreeing_forms
from .terms import Edit, middles, words_of


def extending(edits: list[Edit], stems_old: set[str], stems_new: set[str]) -> tuple[list[Edit], set[str], set[str]]:
    """The edits whose changed stretch holds a form of a word of ``stems_old`` other than that word (with more
    letters after it, or agreeing otherwise: "himself" of "him", "enter" of "enters"), however few, with the words
    they lost that are one of ``stems_old`` or such a form, and those they gained that are so of ``stems_new``
    ("themselves" of "them"): where the inflected forms of a rename found are, which take its number of rules from
    it."""
    read: list[tuple[Edit, frozenset[str], frozenset[str]]] = []
    for e in edits:
        ma, mb = middles(e.old, e.new)
        read.append((e, words_of(ma), words_of(mb)))
    said: frozenset[str] = frozenset().union(*(wa for _, wa, _ in read), *(wb for _, _, wb in read))
    stems_a, others_a = _forms(said, stems_old)
    stems_b, others_b = _forms(said, stems_new)
    out: list[Edit] = []
    lost: set[str] = set()
    gained: set[str] = set()
    related_a, related_b = stems_a | others_a, stems_b | others_b
    for e, wa, wb in read:
        if wa.isdisjoint(others_a):
            continue
        out.append(e)
        lost.update((wa - wb) & related_a)
        gained.update((wb - wa) & related_b)
    return out, lost, gained


def _forms(words: frozenset[str], stems: set[str]) -> tuple[set[str], set[str]]:
    """Of ``words``, those that are one of ``stems`` (casefolded), and those that are another form of one: with more
    letters after it, or agreeing otherwise ("enter" of "enters"). Looked up by the stems: the words starting with
    each, in order, and the few each agrees with."""
    folded: dict[str, list[str]] = {}
    for w in words:
        folded.setdefault(w.casefold(), []).append(w)
    order = sorted(folded)
    same: set[str] = set()
    other: set[str] = set()
    for st in stems:
        same.update(folded.get(st, ()))
        k = bisect_left(order, st)
        while k < len(order) and order[k].startswith(st):
            if order[k] != st:
                other.update(folded[order[k]])
            k += 1
        other.update(w for f in agreeing_forms(st) for w in folded.get(f, ()))
    return same, other - same
