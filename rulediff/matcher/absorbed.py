"""Old texts taken into a new rule that continues another: merges into a rule that already existed."""

# A rule is removed only when no new text carries most of its words. The passes pair one to one, so an old text
# whose words went into a new rule that continues another old rule is left removed, or linked by place to a worse
# counterpart: 2003-07-01's 406.4 continues 406.1e and opens with 406.1d's sentence (406.1d was linked to 406.5);
# 2023-04-14's 712.4 continues 713.1 and says what 712.1g said. Here such a text joins that rule's link as a merge.

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import replace

from .leftovers import texts
from .meaning import Likeness, content
from .records import Pair
from .sides import Side
from .thresholds import ABSORBED, ABSORBED_GAIN, ABSORBED_OWN, CONTAINED_WORDS, STANDS


def absorbed(
    a: Side,
    b: Side,
    links: Iterable[tuple[int, int, bool, bool]],
    taken_a: set[int],
    taken_b: set[int],
    beside: bool = False,
) -> dict[int, tuple[int, float]]:
    """The text nodes of ``a``, unlinked or linked uncertainly on weak text, most of whose meaning (ABSORBED of
    their content words, CONTAINED_WORDS of them at least) a node of ``b`` continuing another node of ``a`` holds
    -- more of it, and more alike, than their own link: node -> (that node of ``b``, the share of its words held
    there): old to new, merges into a rule that already existed. ``links``: (node of a, node of b, uncertain,
    equal raw text); ``taken_a`` / ``taken_b``: nodes already in a split or merge, left as they are. ``beside``:
    only a text under the same parent as the node of ``a`` continuing the other, or under that node itself (new
    to old: a part split off stays beside the rule that goes on, 1999-11's 420.5a "A player with 0 life or less
    loses the game" beside 420.5g; every step's "Then the active player gets priority" is its own)."""
    linked: dict[int, tuple[int, bool]] = {}
    homes: dict[int, int] = {}  # node of b -> the node of a it continues, for edited links only
    for i, j, uncertain, same in links:
        linked[i] = (j, uncertain)
        if not same and i not in taken_a and j not in taken_b:
            homes[j] = i
    n_old = len(a.rules)
    loose = [i for i in range(n_old) if i not in linked and i not in taken_a]
    loose += [i for i, (j, uncertain) in linked.items() if uncertain and i not in taken_a and j not in taken_b]
    loose = [i for i in texts(a, sorted(loose)) if len(content(a.masked(i))) >= CONTAINED_WORDS]
    if not loose:
        return {}
    # The new nodes by the words each gained over the old node it continues: a text's words went to those holding
    # them as gains (few words each: an edit's), and only there.
    gains: dict[str, list[int]] = {}
    gained: dict[int, int] = {}
    for x in texts(b, sorted(homes)):
        if not texts(a, [homes[x]]):
            continue  # (a text continuing a heading, or a heading: pairs by title, not by words)
        gain = content(b.masked(x)).difference(content(a.masked(homes[x])))
        gained[x] = len(gain)
        for w in gain:
            gains.setdefault(w, []).append(x)
    out: dict[int, tuple[int, float]] = {}
    for i in loose:
        text = a.masked(i)
        own = content(text)
        hits = Counter(x for w in own for x in gains.get(w, ()))
        need = max(2, ABSORBED_OWN * len(own))
        # (held as gains: a share of its own words, and most of what the rule gained, not a word here and there of
        # a rewritten rule's many new ones)
        cands = sorted(x for x, n in hits.items() if n >= need and n >= ABSORBED_GAIN * gained[x] and homes[x] != i)
        if beside:
            up = a.parent[i]
            cands = [x for x in cands if up in (homes[x], a.parent[homes[x]])]
        if not cands:
            continue
        at = linked[i][0] if i in linked else -1
        here = Likeness(text, b.masked(at)) if at >= 0 else None
        if here is not None and here.ratio >= STANDS:
            continue
        best: tuple[float, float, int] | None = None
        for x in cands:
            like = Likeness(text, b.masked(x))
            if like.kept_a < ABSORBED or (here is not None and (x == at or not like.better_than(here))):
                continue
            if best is None or (like.kept_a, like.ratio) > best[:2]:
                best = (like.kept_a, like.ratio, x)
        if best is not None:
            out[i] = (best[2], best[0])
    return out


def one_group_each(splits: dict[int, list[int]], merges: dict[int, list[int]]) -> None:
    """A pair both split (its old node gave words to new ones) and merged into (its new node took words of old
    ones) is told once: the larger group stands, the split on ties -- as for whole nodes (splits.regroup). 2009's
    420.1 went to 704.1 and 704.1a; the heading 408.2 whose six words 704.1 also took was dissolved."""
    for j, olds in list(merges.items()):
        i = olds[0]
        parts = splits.get(i)
        if parts is not None and j in parts:
            if len(olds) > len(parts):
                del splits[i]
            else:
                del merges[j]


def regroup_absorbed(
    a: Side,
    b: Side,
    pairs: list[Pair],
    maps: tuple[dict[int, int], dict[int, int]],
    groups: tuple[dict[int, list[int]], dict[int, list[int]]],
) -> list[Pair]:
    """Old texts taken into a new node that continues another old one join its link as a merge, and new texts
    made of words an old node gave while going on as another, beside it, are parts of its split (absorbed.py); a
    weak link of theirs is given up. The pairs left. ``maps``: old -> new and new -> old, ``groups``: the splits
    and merges, both added to."""
    splits, merges = groups
    a2b, b2a = maps
    la, lb = a.labels, b.labels
    said: dict[int, list[str]] = {}
    for merging in (True, False):
        taken_old = {*splits, *(i for olds in merges.values() for i in olds)}
        taken_new = {*merges, *(j for js in splits.values() for j in js)}
        if merging:
            found = absorbed(a, b, [(p.old, p.new, p.uncertain, p.same) for p in pairs], taken_old, taken_new)
        else:
            links = [(p.new, p.old, p.uncertain, p.same) for p in pairs if p.old in a2b]
            found = absorbed(b, a, links, taken_new, taken_old, beside=True)
        for k, (x, share) in sorted(found.items()):
            if merging:  # old k went into new x, which continues old b2a[x]
                if k in a2b:
                    del b2a[a2b.pop(k)]
                merges.setdefault(x, [b2a[x]]).append(k)
                said.setdefault(b2a[x], []).append(f"{la[k]} went there too ({share:.0%} of its words)")
            else:  # new k came out of old x, which goes on as new a2b[x]
                if k in b2a:
                    del a2b[b2a.pop(k)]
                splits.setdefault(x, [a2b[x]]).append(k)
                said.setdefault(x, []).append(f"{lb[k]} came out of it ({share:.0%} of its words)")
    for olds in merges.values():
        olds[1:] = sorted(olds[1:])
    for parts in splits.values():
        parts[1:] = sorted(parts[1:])
    # (A merge or split made on most, not all, of a text's words: right about nine times in ten when read by hand,
    # below what an unflagged link must be.)
    return [
        replace(p, reason=f"{p.reason}; {'; '.join(said[p.old])}", uncertain=True) if p.old in said else p
        for p in pairs
        if p.old in a2b
    ]
