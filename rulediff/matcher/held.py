"""Texts left unpaired that a text left unpaired on the other side holds whole: linked, split or merged there."""

# A rule is removed only when no new text carries most of its words. The passes pair whole texts by likeness, and a
# text held inside a much longer one is too unlike it in characters to pair: 2009-07-11's 405.6b opens with the old
# 408.2b word for word and goes on, and the old 217.1c's seven exceptions are now rules of their own (400.7a-f),
# each left added while what they came from was left removed. Here, after the links and groups are made, what is
# still unpaired on both sides meets: a text whose content words (CONTAINED_WORDS of them at least; fewer, every one
# and nearly character for character) are all but one in nine in a text of the other side, which has its sentences
# nearly as they stand, went there -- linked to the one text it is held in, or a part of a split (new texts held in
# one old text) or of a merge (old texts held in one new text). Flagged uncertain: held, not matched. Both ways under
# one rule, so aligning B -> A mirrors A -> B.

from __future__ import annotations

from collections import Counter, defaultdict
from fractions import Fraction
from itertools import chain

from rapidfuzz import fuzz

from .leftovers import SHORT_HELD_WORDS, texts
from .meaning import content, likeness
from .records import Grouping, Pair
from .sides import Side
from .thresholds import CONTAINED, CONTAINED_WORDS, RESCUE_NEAR

# A text is held in another when the other has at least this share of its content words: the share at which
# Likeness.part counts containment (0.9 x the share is CONTAINED), 8 in 9, told in whole numbers (in floats 0.9 x
# 16/18 falls short of 0.8, and 2009's 203.1b, which holds 116.6a's 16 of 18 words word for word, was left out) ...
HELD = Fraction(CONTAINED).limit_denominator(100) / Fraction(9, 10)
# ... compared in integers (n < HELD x m is n x _HELD_BELOW < _HELD_ABOVE x m; the least whole number at least
# HELD x m is ceil_held(m)): a Fraction made and compared per candidate pair was a fifth of this stage on a long jump.
_HELD_ABOVE, _HELD_BELOW = HELD.numerator, HELD.denominator
# ... and its characters are found in the other nearly as they stand (rapidfuzz's partial_ratio, the likeness of the
# shorter text to the best stretch of the longer): 2009's 217.1c, seven exceptions in 1,500 characters, has every
# word of 112.1b ("An ability can be an activated or triggered ability on the stack ...") but not its sentence,
# 0.48; its exceptions, now 400.7a-f, are there at 0.75 to 0.97.
HELD_TEXT = 0.7
# A text of fewer content words than CONTAINED_WORDS (leftovers.SHORT_HELD_WORDS at least) is held in another only
# with every one of its words there and its characters nearly as they stand: 2009-05-01's 205.4b, five content
# words, opens the new 204.4c word for word (0.996), which goes on about the older cards that did not say "basic".
SHORT_HELD_TEXT = 0.95


def held_whole(a: Side, b: Side, free_a: list[int], free_b: list[int]) -> dict[tuple[int, int], tuple[bool, float]]:
    """The pairs of a text node of ``free_a`` and one of ``free_b`` of which one holds the other whole
    (Likeness.part): (old, new) -> (the old text is the one held, their text likeness)."""
    bags_a, bags_b = _bags(a, free_a), _bags(b, free_b)
    if not bags_a or not bags_b:
        return {}
    cands = _candidates(bags_a, bags_b)
    cands.update((i, j) for j, i in _candidates(bags_b, bags_a))
    out: dict[tuple[int, int], tuple[bool, float]] = {}
    for i, j in sorted(cands):
        na, nb, shared = len(bags_a[i]), len(bags_b[j]), len(bags_a[i] & bags_b[j])
        if shared * _HELD_BELOW < _HELD_ABOVE * min(na, nb):  # (shared < HELD * min(na, nb), in integers)
            continue
        text_a, text_b = a.masked(i), b.masked(j)
        like = likeness(text_a, text_b)
        if min(na, nb) < CONTAINED_WORDS:
            # (a short text, every word of it there -- the share above asks that of a text of eight words or fewer
            # -- held only as it stands, nearly character for character)
            if like.ratio < RESCUE_NEAR and fuzz.partial_ratio(text_a, text_b) >= SHORT_HELD_TEXT * 100:
                out[(i, j)] = (na < nb, like.ratio)
            continue
        # (Likeness.part but for the share: not near-identical, and held rather than alike -- of texts as long as
        # each other, the likeness counts)
        if (
            like.ratio < RESCUE_NEAR
            and like.meaning > like.dice
            and fuzz.partial_ratio(text_a, text_b) >= HELD_TEXT * 100
        ):
            out[(i, j)] = (na < nb, like.ratio)
    return out


def _bags(s: Side, nodes: list[int]) -> dict[int, frozenset[str]]:
    """The content words of the text nodes of ``nodes`` that say enough to be held (SHORT_HELD_WORDS; those short of
    CONTAINED_WORDS only as they stand: :func:`held_whole`)."""
    return {k: bag for k in texts(s, nodes) if len(bag := content(s.masked(k))) >= SHORT_HELD_WORDS}


def _candidates(held: dict[int, frozenset[str]], holders: dict[int, frozenset[str]]) -> set[tuple[int, int]]:
    """The pairs (node of ``held``, node of ``holders``) whose second may hold the first whole: one missing at most
    ``m`` of its words has one at least of any ``m`` + 1 of them, and of its rarest among ``holders`` few nodes have
    any. (A jump of years adds a thousand rules, and few have the words of what it removed: the holders are counted,
    then indexed, by those words only.)"""
    if len(holders) > len(held):
        words = frozenset().union(*held.values())
        counts = Counter(chain.from_iterable(bag & words for bag in holders.values()))
    else:
        counts = Counter(chain.from_iterable(holders.values()))
    known = frozenset(counts)
    asked: dict[int, list[str]] = {}
    for k, bag in held.items():
        there = bag & known
        may_miss = len(there) - ceil_held(len(bag))
        if may_miss >= 0:
            asked[k] = sorted(there, key=lambda w: (counts[w], w))[: may_miss + 1]
    rare = frozenset(w for ws in asked.values() for w in ws)
    where: defaultdict[str, list[int]] = defaultdict(list)
    for x, bag in holders.items():
        for w in bag & rare:
            where[w].append(x)
    return {(k, x) for k, ws in asked.items() for w in ws for x in where[w]}


def ceil_held(n: int) -> int:
    """``ceil(HELD * n)``, in integers."""
    return -(-_HELD_ABOVE * n // _HELD_BELOW)


def regroup_held(a: Side, b: Side, g: Grouping, cut: tuple[set[int], set[int]] = (set(), set())) -> None:
    """The text nodes no pair or group holds, paired where one side holds the other whole (:func:`held_whole`): a
    text held in one text of the other side, and holding none, is linked to it; the new texts held in one old text
    are the parts of its split, the old texts held in one new text merge into it. A text held in several, or both
    held and holding, is left as it is (which of them it went to is not told by its words). ``g`` is added to.
    ``cut``: the old and new nodes a hand correction unlinked, left alone."""
    a2b, b2a, splits, merges = g.a2b, g.b2a, g.splits, g.merges
    free_a, free_b = g.free(len(a.rules), len(b.rules), cut)
    edges = held_whole(a, b, free_a, free_b)
    if not edges:
        return
    held_in: defaultdict[tuple[int, int], list[int]] = defaultdict(list)  # (side, node) -> the nodes holding it
    holds: defaultdict[tuple[int, int], list[int]] = defaultdict(list)  # (side, node) -> the nodes it holds
    for (i, j), (old_held, _) in sorted(edges.items()):
        if old_held:
            held_in[(0, i)].append(j)
            holds[(1, j)].append(i)
        else:
            held_in[(1, j)].append(i)
            holds[(0, i)].append(j)
    # (a node held in one and holding none; a holder each of whose held nodes is held there only)
    plain = {k: ks[0] for k, ks in held_in.items() if len(ks) == 1 and k not in holds}
    made: list[Pair] = []
    for (side, k), ks in sorted(holds.items()):
        if (side, k) in held_in:
            continue
        mine = [x for x in ks if plain.get((1 - side, x)) == k]
        if len(mine) != len(ks):
            continue
        if side == 0:
            i, parts = k, ks
            ratio = edges[(i, parts[0])][1]
            why = _held_in([str(b.labels[j]) for j in parts], str(a.labels[i]), ratio)
            made.append(Pair(i, parts[0], ratio, why, uncertain=True))
            a2b[i], b2a[parts[0]] = parts[0], i
            if len(parts) > 1:
                splits[i] = list(parts)
        else:
            j, olds = k, ks
            ratio = edges[(olds[0], j)][1]
            why = _held_in([str(a.labels[i]) for i in olds], str(b.labels[j]), ratio)
            made.append(Pair(olds[0], j, ratio, why, uncertain=True))
            a2b[olds[0]], b2a[j] = j, olds[0]
            if len(olds) > 1:
                merges[j] = list(olds)
    if made:
        g.pairs = sorted([*g.pairs, *made], key=lambda p: p.old)


def _held_in(held: list[str], holder: str, ratio: float) -> str:
    """The reason of a link, split or merge made here: "text 0.51; 408.2b is held whole in 405.6b"."""
    return f"text {ratio:.2f}; {', '.join(held)} {'is' if len(held) == 1 else 'are'} held whole in {holder}"
