"""Splits and merges by word-count containment, between edited pairs and of whole nodes."""

# Splits and merges, by word-count containment: between edited pairs (an added node whose words came out of an old
# node that went on elsewhere, a removed node whose words went into a new node that absorbed them), and of whole
# nodes (an unpaired old node whose words went to several new ones, or several to one).

from __future__ import annotations

import math
from collections import Counter, defaultdict
from dataclasses import dataclass, field

from rapidfuzz import fuzz

from ..model import Document, Rule
from ..text import shared_words, word_bag, word_tuple
from .records import positions
from .sides import Side, prepared, title_key
from .thresholds import STRUCTURAL_CUTOFF

# Share of a node's words that must come from (or go to) one other node to call it a split (merge).
CONTAINMENT = 0.7
# Share of what a node let go of that each part must carry beyond the parts before it, or share of the part's own
# words that must be words of it no part before it carried.
PART_SHARE = 0.1
PART_OWN = 0.25
# A part must be a real passage, not a title or a short cross-reference sentence.
MIN_WORDS = 6


def _minus(a: Counter[str], b: Counter[str]) -> Counter[str]:
    """``a - b`` (the words ``a`` has more of), without Counter's per-word calls for words ``b`` lacks."""
    return Counter({w: n - m for w, n in a.items() if (m := b.get(w, 0)) < n})


def _given(a: str, b: str) -> tuple[Counter[str], Counter[str]]:
    """The words text ``a`` has more of than ``b`` (an edit let go of), and those ``b`` has more of (it took in), with
    repeats; those both open and end with cancel out, left out before counting (an edit changes a few words)."""
    x, y = word_tuple(a), word_tuple(b)
    n = min(len(x), len(y))
    first = 0
    while first < n and x[first] == y[first]:
        first += 1
    last = 0
    while last < n - first and x[-1 - last] == y[-1 - last]:
        last += 1
    bx, by = Counter(x[first : len(x) - last]), Counter(y[first : len(y) - last])
    return _minus(bx, by), _minus(by, bx)


def _level(r: Rule) -> int | None:
    return int(r.number.level) if r.number is not None else None


class _Pool:
    """Word bags of some nodes, indexed by word, grouped by level (a bag under its node's level and the one below):
    which bag contains most of a part (of ``least`` words or more)?"""

    def __init__(self, bags: dict[int, Counter[str]], levels: dict[int, int | None], least: int = 1) -> None:
        self.bags, self.least = bags, least
        # A bag of fewer words than a part needs cannot hold enough of it.
        self.sizes = {k: sum(bag.values()) for k, bag in bags.items()}
        # level -> word -> the bags holding it (a dict per level: no (level, word) key made per word looked up); a bag
        # too small for CONTAINMENT of any part (most: an edit's few words) is left out, as if it held none of them.
        self.index: dict[int | None, dict[str, list[int]]] = {}
        fewest = _needed(least)
        for k, bag in bags.items():
            if self.sizes[k] < fewest:
                continue
            # Found by parts of its level and of the level below (2025-11-14's rule 500.5 gave subrule 500.5a).
            lv = levels[k]
            for at in (lv,) if lv is None else (lv, lv + 1):
                by_word = self.index.setdefault(at, {})
                for w in bag:
                    held = by_word.get(w)
                    if held is None:
                        by_word[w] = [k]
                    else:
                        held.append(k)

    def containing(self, part: Counter[str], level: int | None) -> int | None:
        """The bag that holds at least CONTAINMENT of ``part``'s words (counted with repeats), the one holding
        most (the first on ties); None if none does.

        Only bags holding one of the part's rarest words can: whichever holds none of the words making up
        its first ``total - need + 1`` words, rarest first, holds at most ``need - 1`` of them. Those few
        are counted, not every bag sharing a "the" (prefix filtering)."""
        total = sum(part.values())
        if not total or total < self.least:
            return None
        need = _needed(total)
        left = total - need + 1
        # The words no bag holds come first (rarest of all) and bring no candidate: most parts' first words.
        get = self.index.get(level, _NONE).get
        held: list[tuple[int, str, int, list[int]]] = []
        for w, n in part.items():
            bags = get(w)
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
        best: tuple[int, float, int] | None = None
        sizes = self.sizes
        for k in sorted(cands):
            if sizes[k] < need:
                continue
            got = shared_words(part, self.bags[k])
            # Of two bags holding as much of the part, the one it is more of (2023-10's "'Partner' means ..." is
            # in what 702.124a and 702.124f both let go of, and most of what 702.124a did).
            if got >= need and (best is None or (got, got / sizes[k]) > best[:2]):
                best = (got, got / sizes[k], k)
        return best[2] if best else None


_NONE: dict[str, list[int]] = {}


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
    lost_bags: dict[int, Counter[str]] = {}
    gained_bags: dict[int, Counter[str]] = {}
    for i, j in edited:
        lost_bags[i], gained_bags[j] = _given(old.rules[i].norm, new.rules[j].norm)
    lost = _Pool(lost_bags, {i: _level(old.rules[i]) for i, _ in edited}, MIN_WORDS)
    gained = _Pool(gained_bags, {j: _level(new.rules[j]) for _, j in edited}, MIN_WORDS)
    return _taken_from(new, b2a, a2b, lost, gained), _taken_from(old, a2b, b2a, gained, lost)


def _taken_from(
    doc: Document, partner: dict[int, int], back: dict[int, int], pool: _Pool, opposite: _Pool
) -> dict[int, list[int]]:
    """The unpaired nodes of ``doc`` made of the words an edited node of the other document let go of: by that
    node (its position -> its counterpart in ``doc``, from ``back``, then those unpaired nodes). On the new
    side (``pool`` the words each old node lost, ``opposite`` those each new node gained), the splits; on the
    old side, the other way round, the merges."""
    out: dict[int, list[int]] = {}
    contained: dict[int, list[int]] = {}
    for x in sorted(positions(len(doc.rules)).difference(partner)):
        r = doc.rules[x]
        bag = word_bag(r.norm)
        if sum(bag.values()) < MIN_WORDS:
            continue
        k = pool.containing(bag, _level(r))
        if k is not None:
            contained.setdefault(k, []).append(x)
            continue
        k = _absorbed_by_sibling(x, doc, partner, pool.bags, opposite.bags)
        if k is not None:
            out.setdefault(k, [back[k]]).append(x)
    for k, parts in sorted(contained.items()):
        kept = _carrying(doc, parts, pool.bags[k], back[k])
        if kept:
            out.setdefault(k, [back[k]]).extend(kept)
            out[k] = [out[k][0], *sorted(out[k][1:])]
    return out


def _carrying(doc: Document, parts: list[int], given: Counter[str], near: int) -> list[int]:
    """Of the ``parts`` made of the words ``given`` (what one node let go of), those that carry a share of them no
    part before them did: two words or more, and PART_SHARE of them or PART_OWN of the part's own words (a short
    sentence split off a long rule: 2016-11-11's 603.10b) -- the part holding most first, the one
    nearest ``near`` (where the node went) on ties. 2009-07's 303.1 gave its "the active player gets priority"
    to its upkeep step's 503.2, not also to the same sentence under each of the eight steps after it."""
    total = sum(given.values()) or 1
    bags = {x: word_bag(doc.rules[x].norm) for x in parts}
    order = sorted(parts, key=lambda x: (-shared_words(bags[x], given), abs(x - near), x))
    left = Counter(given)
    kept = []
    for x in order:
        gain = shared_words(bags[x], left)
        if gain >= 2 and (gain >= PART_SHARE * total or gain >= PART_OWN * sum(bags[x].values())):
            kept.append(x)
            left = _minus(left, bags[x])
    return sorted(kept)


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


# Share of a part's words (its whole subtree's) that must lie in the whole (its whole subtree's).
PART_OF = 0.7
# Share of the whole's words the parts together must account for.
COVERED = 0.5


@dataclass(slots=True)
class Regrouped:
    """Whole-node splits (old position -> new parts) and merges (new position -> old parts), and the pairs
    of their children made inside them (old -> new, with a reason)."""

    splits: dict[int, list[int]] = field(default_factory=dict)
    merges: dict[int, list[int]] = field(default_factory=dict)
    children: dict[int, tuple[int, float, str]] = field(default_factory=dict)


def regroup(
    old: Document,
    new: Document,
    a2b: dict[int, int],
    b2a: dict[int, int],
    taken: tuple[set[int], set[int]] = (set(), set()),
) -> Regrouped:
    """Find the splits and merges of nodes the matcher left unpaired on both sides.

    2007-10-01 merged 209 Illustration Credit, 210 Legal Text and 211 Collector Number into a new
    210 Information Below the Text Box (and gave 209 to Loyalty); 2025-11-14 split 500.5 into 500.4,
    500.5a and 500.5b. No one-to-one link is right there, and "removed" + "added" loses the story. A
    group needs two parts or more, each mostly made of the whole's words, under the same paired parent
    (or below it), and together most of the whole. The same test read from either side, so aligning
    the other way round finds the mirror image (a split is a merge backwards). ``taken``: the old and new nodes
    already in a split or merge, not unpaired for this (2001-07-23 -> 2016-01-16: 601.4 and 602.5, parts of
    409.1's split, were parts of 409's as well)."""
    a, b = prepared(old), prepared(new)
    out = Regrouped()
    # Set differences at C speed: the unpaired are few, the positions thousands.
    free_a = sorted(positions(len(a.rules)).difference(a2b, taken[0]))
    free_b = sorted(positions(len(b.rules)).difference(b2a, taken[1]))
    if not free_a or not free_b:
        return out
    out.splits = _wholes(a, b, free_a, free_b, a2b)
    merged = _wholes(b, a, free_b, free_a, b2a)
    # A node cannot be a part of a split and a whole of a merge: the larger group wins, splits on ties.
    taken_b = {j for parts in out.splits.values() for j in parts}
    taken_a = set(out.splits)
    for j, parts in merged.items():
        if j in taken_b or taken_a.intersection(parts):
            continue
        out.merges[j] = parts
    for i, parts in out.splits.items():
        _pair_children(a, b, a.descendants(i), [d for j in parts for d in b.descendants(j)], out, "split", a2b, b2a)
    for j, parts in out.merges.items():
        _pair_children(a, b, [d for i in parts for d in a.descendants(i)], b.descendants(j), out, "merge", a2b, b2a)
    return out


def _subtree_bag(s: Side, i: int) -> Counter[str]:
    kids = s.descendants(i)
    if not kids:
        return word_bag(s.rules[i].norm)  # shared: read, never changed
    bag = Counter(word_tuple(s.rules[i].norm))
    for d in kids:
        bag.update(word_tuple(s.rules[d].norm))
    return bag


def _ancestors(s: Side, i: int) -> set[int]:
    out: set[int] = set()
    p = s.parent[i]
    while p >= 0:
        out.add(p)
        p = s.parent[p]
    return out


def _wholes(x: Side, y: Side, free_x: list[int], free_y: list[int], x2y: dict[int, int]) -> dict[int, list[int]]:
    """Unpaired nodes of ``x`` that went, as a whole, into two or more unpaired nodes of ``y``."""
    free = set(free_x)
    parts_of: dict[int, list[int]] = defaultdict(list)
    bags: dict[int, Counter[str]] = {}
    # Candidates for a whole: unpaired x nodes whose parent is paired; by that parent's counterpart.
    under: dict[int, list[int]] = defaultdict(list)
    for i in free_x:
        p = x.parent[i]
        if p >= 0 and p in x2y:
            under[x2y[p]].append(i)
    if not under:
        return {}
    for j in free_y:
        if y.parent[j] < 0:
            continue
        homes = [h for h in _ancestors(y, j) if h in under]
        if not homes:
            continue
        # A part is its own words, or those with its children's (a heading's words are its children's).
        own = word_bag(y.rules[j].norm)
        forms = [(bag, sum(bag.values())) for bag in (own, _subtree_bag(y, j))]
        forms = [(bag, total) for bag, total in forms if total >= MIN_WORDS]
        if not forms:
            continue
        best: tuple[float, int] | None = None
        for h in homes:
            for i in under[h]:
                if y.level[j] - x.level[i] not in (0, 1) or i not in free:
                    continue  # a part is at the whole's level or one below (its children's)
                if i not in bags:
                    bags[i] = _subtree_bag(x, i)
                share = max(shared_words(part, bags[i]) / total for part, total in forms)
                if share >= PART_OF and (best is None or share > best[0]):
                    best = (share, i)
        if best is not None:
            parts_of[best[1]].append(j)
    out: dict[int, list[int]] = {}
    for i, parts in parts_of.items():
        # A part inside another part is carried by it.
        tops = [j for j in parts if not _ancestors(y, j).intersection(parts)]
        if len(tops) < 2:
            continue
        together: Counter[str] = Counter()
        for j in tops:
            together |= _subtree_bag(y, j)
        whole = bags[i]
        if shared_words(whole, together) / (sum(whole.values()) or 1) >= COVERED:
            out[i] = sorted(tops)
    return out


def _pair_children(
    a: Side,
    b: Side,
    kids_a: list[int],
    kids_b: list[int],
    out: Regrouped,
    what: str,
    a2b: dict[int, int],
    b2a: dict[int, int],
) -> None:
    """Inside a split or merge of headed nodes the children follow their text, best first; a child that
    names its old heading ("The illustration credit ..." under 209 Illustration Credit) is told by it."""
    ka = [i for i in kids_a if i not in a2b]
    kb = [j for j in kids_b if j not in b2a]
    cands: list[tuple[float, int, int]] = []
    for i in ka:
        name_a = a.title(a.parent[i]) if a.parent[i] >= 0 else ""
        text_a = title_key(a.body(i))
        for j in kb:
            if a.title(i) != b.title(j):
                continue  # a differently named pair needs the matcher's evidence, not a neighbourhood
            s = fuzz.ratio(a.body(i), b.body(j))
            name_b = b.title(b.parent[j]) if b.parent[j] >= 0 else ""
            if (name_a and name_a in title_key(b.body(j))) or (name_b and name_b in text_a):
                s += 10
            if s >= STRUCTURAL_CUTOFF:
                cands.append((s, i, j))
    cands.sort(key=lambda t: (-t[0], t[1], t[2]))
    used_a: set[int] = set()
    used_b: set[int] = set()
    for s, i, j in cands:
        if i in used_a or j in used_b:
            continue
        used_a.add(i)
        used_b.add(j)
        out.children[i] = (j, min(1.0, s / 100), f"part of a {what}; text {min(s, 100) / 100:.2f}")
