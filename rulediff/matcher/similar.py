"""The similarity passes: unpaired texts alike enough, with their structural points, paired best first."""

from __future__ import annotations

from typing import Protocol

from ..numbering import Level
from .evidence import Matcher as Evidenced
from .evidence import evidence_said, names_disagree
from .likeness import Likeness, OverBudgetError
from .sides import UNNUMBERED as _UNNUMBERED
from .sides import too_much
from .thresholds import LOOSE_CUTOFF, OUTSIDE_CUTOFF, PAIR_CUTOFF, STRUCTURAL_CUTOFF, TITLE_CUTOFF, UNCERTAIN_BELOW


class Matcher(Evidenced, Protocol):
    """What the similarity passes read of a matcher under way (passes.Matcher)."""

    likeness: Likeness
    a_seen_by_b: list[bool]
    b_seen_by_a: list[bool]

    def free_a(self) -> list[int]: ...

    def free_b(self) -> list[int]: ...


def similarity(m: Matcher) -> None:
    """Everything left, by level: similarity with a cut-off, greedy one-to-one."""
    levels = sorted({m.a.level[i] for i in m.open_a})
    for lv in levels:
        fa = [i for i in m.free_a() if m.a.level[i] == lv]
        if lv == _UNNUMBERED:
            fb = [j for j in m.free_b() if m.b.level[j] in (int(Level.RULE), _UNNUMBERED)]
        else:
            fb = [j for j in m.free_b() if m.b.level[j] == lv]
        if fa and fb:
            cutoff = TITLE_CUTOFF if lv <= int(Level.HEADING) else PAIR_CUTOFF if lv == _UNNUMBERED else LOOSE_CUTOFF
            similar(m, fa, fb, cutoff, "similar text", bonus_same_number=False)


def similar(m: Matcher, fa: list[int], fb: list[int], cutoff: float, why: str, *, bonus_same_number: bool) -> None:
    """The nodes ``fa`` and ``fb`` paired on text at least ``cutoff`` alike, or STRUCTURAL_CUTOFF with structure
    (a paired parent, neighbours, and with ``bonus_same_number`` the number), best first, one-to-one."""
    qa = [m.a.body(i) for i in fa]
    qb = [m.b.body(j) for j in fb]
    cands: list[tuple[float, float, int, int]] = []
    a2b, parent_b, rules_b, seen_a = m.a2b, m.b.parent, m.b.rules, m.b_seen_by_a
    try:
        rows = m.likeness.alike(qa, qb)
    except OverBudgetError:
        raise too_much(m.a, m.b, fa, fb) from None
    for x, row in enumerate(rows):
        i = fa[x]
        # What ``_structure`` compares, per row: where i's parent and neighbours went (-2 and -3: nowhere).
        pa = m.a.parent[i]
        up = a2b.get(pa, -2) if pa >= 0 else -2
        before = a2b.get(i - 1, -2) + 1 if i > 0 else -1
        after = a2b.get(i + 1, -2) - 1
        number, outside = m.a.rules[i].number, not m.a_seen_by_b[i]
        for y, s in row:
            j = fb[y]
            structural = (10.0 if parent_b[j] == up else 0.0) + (4.0 if j == before else 0.0)
            if j == after:
                structural += 4.0
            if bonus_same_number and number == rules_b[j].number:
                structural += 8
            # Most texts compared are alike enough only with structural evidence, and have none: the
            # cheap test first.
            if s < cutoff and (s < STRUCTURAL_CUTOFF or structural < 10):
                continue
            if structural < 10 and names_disagree(m, i, j):
                continue
            if s < OUTSIDE_CUTOFF and outside and not seen_a[j]:
                # Neither side's source covers the other's node: only a near-identical text may
                # claim that one moved into the other (partial dumps of different sections).
                continue
            cands.append((s + structural, s, i, j))
    cands.sort(key=lambda t: (-t[0], t[2], t[3]))
    for total, s, i, j in cands:
        if i in m.a2b or j in m.b2a:
            continue
        # The score keeps the structural evidence; the reason says it in words.
        evidence = evidence_said(m, i, j, why) if total > s else ""
        if m.pair(i, j, min(1.0, total / 100), f"{why}; text {s / 100:.2f}{evidence}") and total < UNCERTAIN_BELOW:
            # Text alone, and not much of it alike: kept (the mutation benchmark shows such pairs are
            # mostly right) but marked.
            m.uncertain.add(i)
