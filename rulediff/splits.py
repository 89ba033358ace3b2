"""Splits and merges between edited pairs: an added node whose words came out of an old node that went on
elsewhere (a split), a removed node whose words went into a new node that absorbed them (a merge)."""

from __future__ import annotations

from collections import Counter

from .model import Document, Rule
from .sides import prepared
from .text import words

# Share of a node's words that must come from (or go to) one other node to call it a split (merge).
CONTAINMENT = 0.7


def _bag(r: Rule) -> Counter[str]:
    return Counter(words(r.norm))


def _level(r: Rule) -> int | None:
    return int(r.number.level) if r.number is not None else None


class _Pool:
    """Word bags of some nodes, indexed by word, grouped by level: which bag contains most of a part?"""

    def __init__(self, bags: dict[int, Counter[str]], levels: dict[int, int | None]) -> None:
        self.bags = bags
        self.index: dict[tuple[int | None, str], list[int]] = {}
        for k, bag in bags.items():
            for w in bag:
                self.index.setdefault((levels[k], w), []).append(k)

    def best(self, part: Counter[str], level: int | None) -> tuple[float, int]:
        total = sum(part.values())
        hits: Counter[int] = Counter()
        for w, n in part.items():
            for k in self.index.get((level, w), ()):
                hits[k] += min(n, self.bags[k][w])
        if not hits or not total:
            return (0.0, -1)
        k, got = max(hits.items(), key=lambda t: (t[1], -t[0]))
        return (got / total, k)


def splits_and_merges(
    old: Document, new: Document, a2b: dict[int, int], b2a: dict[int, int], edited: list[tuple[int, int]]
) -> tuple[dict[int, list[int]], dict[int, list[int]]]:
    """Added nodes whose words come from an old node that kept going elsewhere (split), and removed
    nodes whose words went into a new node that absorbed them (merge). Word counts, not sets. Only
    ``edited`` pairs (texts that differ beyond typography) can have given or taken words, which keeps the
    search small."""
    splits: dict[int, list[int]] = {}
    merges: dict[int, list[int]] = {}
    if not edited:
        return splits, merges
    lost = _Pool(
        {i: _bag(old.rules[i]) - _bag(new.rules[j]) for i, j in edited}, {i: _level(old.rules[i]) for i, _ in edited}
    )
    gained = _Pool(
        {j: _bag(new.rules[j]) - _bag(old.rules[i]) for i, j in edited}, {j: _level(new.rules[j]) for _, j in edited}
    )
    for j in sorted(set(range(len(new.rules))).difference(b2a)):
        rb = new.rules[j]
        wb = _bag(rb)
        if sum(wb.values()) < 6:
            continue
        c, i = lost.best(wb, _level(rb))
        source = i if c >= CONTAINMENT else _absorbed_by_sibling(j, new, b2a, lost.bags, gained.bags)
        if source is not None:
            splits.setdefault(source, [a2b[source]]).append(j)
    for i in sorted(set(range(len(old.rules))).difference(a2b)):
        ra = old.rules[i]
        wa = _bag(ra)
        if sum(wa.values()) < 6:
            continue
        c, j = gained.best(wa, _level(ra))
        if c >= CONTAINMENT:
            merges.setdefault(j, [b2a[j]]).append(i)
        else:
            folded = _absorbed_by_sibling(i, old, a2b, gained.bags, lost.bags)
            if folded is not None:
                merges.setdefault(folded, [b2a[folded]]).append(i)
    return splits, merges


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
    own = set(words(rx.norm))
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
