"""Texts set free late that a link made before took the near-identical counterpart of: the link gives way."""

# A link never stands where a text left unpaired on the other side is a clearly better match. The leftovers weigh
# every unpaired text against the links (leftovers.prefer_better), but a text can be set free after that, when its
# own weak link is given up (refusals.drop_unkept, refusals.unkept), and by then its counterpart is taken:
# 2009-07-11's 508.2a is the old 308.3 word for word, yet 308.3 had been linked by place to 508.4 (given up: 14% of
# its meaning) while 508.2a went to 309.3, the blocking rule that reads the same but for "attack" (text 0.95, 80%
# of the meaning). Here the texts set free so meet the links that took their near-identical counterparts: a link
# gives way to one clearly closer (Likeness.better_than, near-identical text), unless it is held at its own number
# (2009's 205.2a is 204.2a's list; 300.1, word for word the same, is a new copy), or made by hand. The node the
# link leaves is unpaired: 309.3 is removed (its refusal names its own nearest text, 509.4f), 2016-04-08's 701.25c
# added. Both ways under one rule, so aligning B -> A mirrors A -> B.

from __future__ import annotations

from bisect import bisect_left, bisect_right
from fractions import Fraction
from typing import NamedTuple

from rapidfuzz import fuzz, process

from .corrections import LINKED_BY_HAND
from .leftovers import texts
from .meaning import Likeness, likeness
from .records import Grouping, Pair
from .sides import Side
from .thresholds import RESCUE_NEAR

# Lengths within which two texts can be RESCUE_NEAR alike (rapidfuzz's ratio: twice the characters in common over
# both lengths), as a ratio of whole numbers.
_NEAR = Fraction(RESCUE_NEAR).limit_denominator(100)
_SHORT, _LONG = (_NEAR / (2 - _NEAR)).as_integer_ratio()


class _Move(NamedTuple):
    """A freed node taking its counterpart: read from the side whose node was freed (``way``: 0 old, 1 new)."""

    mean: float  # how alike the freed text and its counterpart are, text and meaning together
    way: int
    freed: int
    counterpart: int
    partner: int  # the node the counterpart leaves
    like: Likeness  # the freed text and its counterpart
    now: Likeness  # the link that gives way

    def nodes(self) -> set[tuple[int, int]]:
        """The nodes the move touches, as (0 old / 1 new, position)."""
        return {(self.way, self.freed), (1 - self.way, self.counterpart), (self.way, self.partner)}


def reclaim(a: Side, b: Side, g: Grouping, given_up: set[tuple[int, int]], cut: tuple[set[int], set[int]]) -> None:
    """The text nodes left unpaired by a link given up (``given_up``: old, new) take their near-identical
    counterparts from the links that took them before, where clearly closer; ``g`` is changed in place.
    ``cut``: the nodes a hand correction left unpaired, not paired here."""
    # (the ends of the links given up that nothing holds now, asked of each: they are few, the free nodes of the
    # release worked out as a whole cost a walk of it)
    a2b, b2a = g.a2b, g.b2a
    grouped_a, grouped_b = g.grouped()
    late_a = texts(a, sorted({i for i, _ in given_up if i not in a2b and i not in grouped_a and i not in cut[0]}))
    late_b = texts(b, sorted({j for _, j in given_up if j not in b2a and j not in grouped_b and j not in cut[1]}))
    if not late_a and not late_b:
        return
    # The links that may give way: one text to one, not of equal raw text, in no group, not at their own number.
    movable = {
        p.old: p.new
        for p in g.pairs
        if not p.same
        and not p.reason.startswith(LINKED_BY_HAND)
        and p.new not in grouped_b  # (a split's or merge's pair: both its ends are in the group)
        and (a.labels[p.old] is None or a.labels[p.old] != b.labels[p.new])
    }
    moves = _moves(a, b, late_a, {j: i for i, j in movable.items()}, 0)
    moves += _moves(b, a, late_b, movable, 1)
    _apply(a, b, g, _chosen(moves))


def _moves(a: Side, b: Side, late: list[int], links: dict[int, int], way: int) -> list[_Move]:
    """For each freed node of ``a`` (``late``), the linked node of ``b`` (``links``: node of b -> its partner of
    a) near-identical to it and clearly closer to it than to its partner, the closest first: read from the side
    whose node was freed (``way``), turned round for the caller."""
    if not links:
        return []
    # (each freed text against the linked texts of a length that can be RESCUE_NEAR alike to it, at C speed: the
    # ratio is twice the characters in common over both lengths)
    by_length = sorted((len(t), j, t) for j in links if (t := b.masked(j)))
    lengths = [n for n, _, _ in by_length]
    out: list[_Move] = []
    for i in late:
        text = a.masked(i)
        # (the lengths m with 2 min(n, m) / (n + m) >= RESCUE_NEAR: n x 17 / 23 <= m <= n x 23 / 17)
        n = len(text)
        lo, hi = bisect_left(lengths, -(-n * _SHORT // _LONG)), bisect_right(lengths, n * _LONG // _SHORT)
        window = by_length[lo:hi]
        found = process.extract(
            text, [t for _, _, t in window], scorer=fuzz.ratio, score_cutoff=RESCUE_NEAR * 100, limit=None
        )
        moves: list[_Move] = []
        for _, _, at in found:
            j = window[at][1]
            k = links[j]
            if not texts(a, [k]) or not texts(b, [j]):
                continue  # (a heading or a titled node pairs by title)
            like, now = likeness(text, b.masked(j)), likeness(a.masked(k), b.masked(j))
            if like.better_than(now):
                moves.append(_Move(like.mean, way, i, j, k, like, now))
        moves.sort(key=lambda m: -m.mean)
        # (the closest; two as close make none)
        if moves and (len(moves) == 1 or moves[1].mean < moves[0].mean):
            out.append(moves[0])
    return out


def _chosen(moves: list[_Move]) -> list[_Move]:
    """The moves to make, the closest first, each link and node moved once; two as close touching the same link
    make neither (the same either way round)."""
    out: list[_Move] = []
    taken: set[tuple[int, int]] = set()  # (side, node) of the moves made
    for move in sorted(moves, key=lambda m: (-m.mean, m.way, m.freed)):
        nodes = move.nodes()
        if nodes & taken:
            continue
        if any(o is not move and o.mean == move.mean and o.nodes() & nodes for o in moves):
            continue
        out.append(move)
        taken |= nodes
    return out


def _apply(a: Side, b: Side, g: Grouping, moves: list[_Move]) -> None:
    """Each move made in ``g``: the freed node linked to the counterpart, the counterpart's partner unpaired."""
    if not moves:
        return
    made: dict[int, Pair] = {}
    left: set[int] = set()  # old nodes whose link gave way
    for m in moves:
        partner, like, now = m.partner, m.like, m.now
        # (way 0: the old node freed takes the new counterpart from the old partner; way 1 the other way round)
        if m.way == 0:
            old, new = m.freed, m.counterpart
            del g.a2b[partner]
            left.add(partner)
            told, freed = f"the old {a.labels[partner]}", f"the old {a.labels[old]}"
        else:
            old, new = m.counterpart, m.freed
            del g.b2a[partner]
            left.add(old)
            told, freed = f"the new {b.labels[partner]}", f"the new {b.labels[new]}"
        g.a2b[old], g.b2a[new] = new, old
        why = (
            f"text {like.ratio:.2f}, {like.meaning:.0%} of the meaning; a closer counterpart than {told} (text "
            f"{now.ratio:.2f}, {now.meaning:.0%} of the meaning), linked before {freed} was left unpaired"
        )
        # (near-identical text: a link as sure as the leftovers' rescue makes on it)
        made[old] = Pair(old, new, round(like.ratio, 4), why)
    g.pairs = sorted([*(p for p in g.pairs if p.old not in left), *made.values()], key=lambda p: p.old)
