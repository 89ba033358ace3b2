"""Splits and merges between edited pairs: an added node whose words came out of an old node that went on
elsewhere (a split), a removed node whose words went into a new node that absorbed them (a merge)."""

from __future__ import annotations

import math
from collections import Counter

from ..model import Document, Rule
from ..text import shared_words, word_bag
from .sides import prepared

# Share of a node's words that must come from (or go to) one other node to call it a split (merge).
CONTAINMENT = 0.7


def _bag(r: Rule) -> Counter[str]:
    return word_bag(r.norm)


def _minus(a: Counter[str], b: Counter[str]) -> Counter[str]:
    """``a - b`` (the words ``a`` has more of), without Counter's per-word calls for words ``b`` lacks."""
    return Counter({w: n - m for w, n in a.items() if (m := b.get(w, 0)) < n})


def _level(r: Rule) -> int | None:
    return int(r.number.level) if r.number is not None else None


class _Pool:
    """Word bags of some nodes, indexed by word, grouped by level: which bag contains most of a part?"""

    def __init__(self, bags: dict[int, Counter[str]], levels: dict[int, int | None]) -> None:
        self.bags = bags
        # A bag of fewer words than a part needs cannot hold enough of it (most bags: an edit's few words).
        self.sizes = {k: sum(bag.values()) for k, bag in bags.items()}
        self.index: dict[tuple[int | None, str], list[int]] = {}
        for k, bag in bags.items():
            for w in bag:
                self.index.setdefault((levels[k], w), []).append(k)

    def containing(self, part: Counter[str], level: int | None) -> int | None:
        """The bag that holds at least CONTAINMENT of ``part``'s words (counted with repeats), the one holding
        most (the first on ties); None if none does.

        Only bags holding one of the part's rarest words can: whichever holds none of the words making up
        its first ``total - need + 1`` words, rarest first, holds at most ``need - 1`` of them. Those few
        are counted, not every bag sharing a "the" (prefix filtering)."""
        total = sum(part.values())
        if not total:
            return None
        need = _needed(total)
        left = total - need + 1
        # The words no bag holds come first (rarest of all) and bring no candidate: most parts' first words.
        get = self.index.get
        held: list[tuple[int, str, int, list[int]]] = []
        for w, n in part.items():
            bags = get((level, w))
            if bags is None:
                left -= n
            else:
                held.append((len(bags), w, n, bags))
        if left <= 0:
            return None
        held.sort()  # rarest first; the words differ, so no two compare past (count, word)
        cands: set[int] = set()
        for _, _, n, bags in held:
            cands.update(bags)
            left -= n
            if left <= 0:
                break
        best: tuple[int, int] | None = None
        sizes = self.sizes
        for k in sorted(cands):
            if sizes[k] < need:
                continue
            got = shared_words(part, self.bags[k])
            if got >= need and (best is None or got > best[0]):
                best = (got, k)
        return best[1] if best else None


def _needed(total: int) -> int:
    """The fewest of ``total`` words that make a share of at least CONTAINMENT (as the float division says)."""
    need = max(1, math.ceil(CONTAINMENT * total))
    while need > 1 and (need - 1) / total >= CONTAINMENT:
        need -= 1
    while need / total < CONTAINMENT:
        need += 1
    return need


def splits_and_merges(
    old: Document, new: Document, a2b: dict[int, int], b2a: dict[int, int], edited: list[tuple[int, int]]
) -> tuple[dict[int, list[int]], dict[int, list[int]]]:
    """Added nodes whose words come from an old node that kept going elsewhere (split), and removed
    nodes whose words went into a new node that absorbed them (merge). Word counts, not sets. Only
    ``edited`` pairs (texts that differ beyond typography) can have given or taken words, which keeps the
    search small."""
    if not edited:
        return {}, {}
    lost = _Pool(
        {i: _minus(_bag(old.rules[i]), _bag(new.rules[j])) for i, j in edited},
        {i: _level(old.rules[i]) for i, _ in edited},
    )
    gained = _Pool(
        {j: _minus(_bag(new.rules[j]), _bag(old.rules[i])) for i, j in edited},
        {j: _level(new.rules[j]) for _, j in edited},
    )
    return _taken_from(new, b2a, a2b, lost, gained), _taken_from(old, a2b, b2a, gained, lost)


def _taken_from(
    doc: Document, partner: dict[int, int], back: dict[int, int], pool: _Pool, opposite: _Pool
) -> dict[int, list[int]]:
    """The unpaired nodes of ``doc`` made of the words an edited node of the other document let go of: by that
    node (its position -> its counterpart in ``doc``, from ``back``, then those unpaired nodes). On the new
    side (``pool`` the words each old node lost, ``opposite`` those each new node gained), the splits; on the
    old side, the other way round, the merges."""
    out: dict[int, list[int]] = {}
    for x in sorted(set(range(len(doc.rules))).difference(partner)):
        r = doc.rules[x]
        bag = _bag(r)
        if sum(bag.values()) < 6:
            continue
        k = pool.containing(bag, _level(r))
        if k is None:
            k = _absorbed_by_sibling(x, doc, partner, pool.bags, opposite.bags)
        if k is not None:
            out.setdefault(k, [back[k]]).append(x)
    return out


_STOP = frozenset("the and that this with from have their which into only under other those these".split())


def _absorbed_by_sibling(
    x: int,
    doc: Document,
    partner: dict[int, int],
    delta: dict[int, Counter[str]],
    opposite: dict[int, Counter[str]],
) -> int | None:
    """An unpaired node whose gist went into (or came out of) an edited sibling: the sibling only gained
    (only lost) words, all of them among this node's, including a telling word. Returns that sibling's
    counterpart. 2020-04-17 dropped sublayer 7d, "changes from counters", and 7c became "Effects and
    counters that modify ..." -- a merge; read backwards, the same rule finds the split. A sibling that
    also lost words ("Second, ..." became "Third, ...") was renumbered in prose, not merged into."""
    rx = doc.rules[x]
    if rx.number is None or rx.number.parent is None:
        return None
    own = word_bag(rx.norm)
    best: tuple[int, int] | None = None
    for k in prepared(doc).siblings(x):
        if k == x or k not in partner:
            continue
        other = partner[k]
        moved = delta.get(other)
        if not moved or opposite.get(k):
            continue
        telling = [w for w in moved if len(w) >= 5 and w not in _STOP]
        if telling and all(w in own for w in moved):
            dist = abs(k - x)
            if best is None or dist < best[0]:
                best = (dist, other)
    return best[1] if best else None
