"""Texts taken into a rule that continues another: merges into a rule that existed, parts split off beside one."""

# A rule is removed only when no new text carries most of its words. The passes pair one to one, so an old text
# whose words went into a new rule that continues another old rule is left removed, or linked by place to a worse
# counterpart: 2003-07-01's 406.4 continues 406.1e and opens with 406.1d's sentence (406.1d was linked to 406.5).
# Here such a text joins that rule's link as a merge; read the other way, a new text made of what an old rule gave
# while going on as another is a part of its split (2009-07-11's 511.2, out of 311.1, which goes on as 511.1). Both
# ways under one rule, so aligning B -> A mirrors A -> B.

from __future__ import annotations

from dataclasses import replace

from .leftovers import texts
from .meaning import content, likeness
from .records import Grouping, positions
from .sides import Side
from .thresholds import ABSORBED, ABSORBED_GAIN, ABSORBED_OWN, CONTAINED_WORDS, STANDS


def absorbed(
    a: Side,
    b: Side,
    links: tuple[dict[int, int], dict[int, int]],
    flagged: tuple[set[int], set[int]],
    taken_a: set[int],
    taken_b: set[int],
) -> dict[int, tuple[int, float]]:
    """The text nodes of ``a``, unlinked or linked uncertainly on weak text, most of whose meaning (ABSORBED of
    their content words, CONTAINED_WORDS of them at least) a node of ``b`` continuing another node of ``a`` holds
    -- more of it, and more alike, than their own link: node -> (that node of ``b``, the share of its words held
    there). Old to new, merges into a rule that already existed; new to old, parts split off a rule that goes on.
    The text stands beside the node of ``a`` that continues: under the same parent, or under it (1999-11's 420.5a
    "A player with 0 life or less loses the game" beside 420.5g; every step's "Then the active player gets
    priority" is its own step's). A text that is itself the node another one continues is left alone, as is one
    whose new home's partner went elsewhere too. ``links``: the links, node of a -> node of b and back;
    ``flagged``: the nodes of a whose link is uncertain, and those whose link joins equal raw texts; ``taken_a`` /
    ``taken_b``: nodes already in a split or merge, left as they are."""
    a2b, b2a = links
    uncertain, same = flagged
    n_old = len(a.rules)
    # (the nodes unlinked, then those linked uncertainly: set operations over the release, not a walk of its links)
    loose = [*positions(n_old).difference(a2b, taken_a)]
    loose += [i for i in uncertain if i not in taken_a and a2b[i] not in taken_b]
    loose = [i for i in texts(a, sorted(loose)) if len(content(a.masked(i))) >= CONTAINED_WORDS]
    if not loose:
        return {}

    # The words each node of b gained over the node of a it continues (a text's words went to those holding them
    # as gains: few words each, an edit's), worked out for the homes asked about: those beside a loose text.
    gains: dict[int, frozenset[str] | None] = {}
    out: dict[int, tuple[int, float]] = {}
    for i in loose:
        up = a.parent[i]
        if up < 0:
            continue
        text = a.masked(i)
        own = content(text)
        need = max(2, ABSORBED_OWN * len(own))
        cands = []
        for k in (up, *a.children[up]):
            x = _continuing(k, a2b, same, (taken_a, taken_b))
            if x is None or k == i:
                continue
            if x not in gains:
                gains[x] = _gain(a, b, k, x)
            gain = gains[x]
            # (held as gains: a share of its own words, and most of what the rule gained, not a word here and there
            # of a rewritten rule's many new ones)
            if gain is not None and (n := len(own & gain)) >= need and n >= ABSORBED_GAIN * len(gain):
                cands.append(x)
        if not cands:
            continue
        cands.sort()
        at = a2b.get(i, -1)
        here = likeness(text, b.masked(at)) if at >= 0 else None
        if here is not None and here.ratio >= STANDS:
            continue
        best: tuple[float, float, int] | None = None
        for x in cands:
            like = likeness(text, b.masked(x))
            if like.kept_a < ABSORBED or (here is not None and (x == at or not like.better_than(here))):
                continue
            # (where it is most alike, text and meaning together, as counterparts are told apart everywhere:
            # 2022-06-10's 608.3a, "... it becomes a permanent and enters the battlefield under the control of the
            # spell's controller", has as many words of 608.3, the rule it sits under, as of 608.3b but one, "no"; it
            # is 608.3's second sentence)
            if best is None or (like.mean, like.kept_a) > best[:2]:
                best = (like.mean, like.kept_a, x)
        if best is not None:
            out[i] = (best[2], best[1])
    # (one that continues where another went, or goes where its home's partner went too, is left as it is: each
    # node in one group)
    continued = {b2a[x] for x, _ in out.values()}
    return {i: (x, share) for i, (x, share) in out.items() if i not in continued and b2a[x] not in out}


def _continuing(k: int, a2b: dict[int, int], same: set[int], taken: tuple[set[int], set[int]]) -> int | None:
    """The node of b that node ``k`` of a continues by an edited link (not one of ``same`` raw texts), outside any
    split or merge (``taken``: the nodes of a and of b in one); None if none."""
    x = a2b.get(k)
    if x is None or k in same or k in taken[0] or x in taken[1]:
        return None
    return x


def one_group_each(a: Side, b: Side, splits: dict[int, list[int]], merges: dict[int, list[int]]) -> None:
    """A pair both split (its old node gave words to new ones) and merged into (its new node took words of old
    ones) is told once: the group with more members stands, or, as many, the one whose other members say more
    (content words); on a tie neither (the pair stays a link). The same either way round. 2009's 420.1 went to
    704.1 and 704.1a; the heading 408.2, whose six words 704.1 also took, was dissolved."""
    for j, olds in list(merges.items()):
        i = olds[0]
        parts = splits.get(i)
        if parts is None or j not in parts:
            continue
        said_a = sum(len(content(a.masked(k))) for k in olds[1:])
        said_b = sum(len(content(b.masked(k))) for k in parts[1:])
        split_size, merge_size = (len(parts), said_b), (len(olds), said_a)
        if split_size >= merge_size:
            del merges[j]
        if merge_size >= split_size:
            del splits[i]


def regroup_absorbed(a: Side, b: Side, g: Grouping) -> None:
    """Old texts taken into a new node that continues another old one join its link as a merge, and new texts
    made of words an old node gave while going on as another are parts of its split (:func:`absorbed` both ways
    round, from the same links); a weak link of theirs is given up. ``g`` is added to."""
    splits, merges, a2b, b2a = g.splits, g.merges, g.a2b, g.b2a
    taken_old, taken_new = g.grouped()
    uncertain = {p.old for p in g.pairs if p.uncertain}
    same = {p.old for p in g.pairs if p.same}
    flagged_new = ({a2b[i] for i in uncertain}, set(map(a2b.__getitem__, same)))
    into = absorbed(a, b, (a2b, b2a), (uncertain, same), taken_old, taken_new)  # old text -> (its new node, share)
    out_of = absorbed(b, a, (b2a, a2b), flagged_new, taken_new, taken_old)  # new part -> (the old node, share)
    keep_into, keep_out_of = _one_way(into, out_of, a2b, b2a)
    said: dict[int, list[str]] = {}
    for i in sorted(keep_into):
        x, share = into[i]
        if i in a2b:
            del b2a[a2b.pop(i)]
        merges.setdefault(x, [b2a[x]]).append(i)
        said.setdefault(b2a[x], []).append(f"{a.labels[i]} went there too ({share:.0%} of its words are there)")
    for j in sorted(keep_out_of):
        y, share = out_of[j]
        if j in b2a:
            del a2b[b2a.pop(j)]
        splits.setdefault(y, [a2b[y]]).append(j)
        said.setdefault(y, []).append(f"{b.labels[j]} came out of it ({share:.0%} of {b.labels[j]}'s words were its)")
    for olds in merges.values():
        olds[1:] = sorted(olds[1:])
    for parts in splits.values():
        parts[1:] = sorted(parts[1:])
    if not said:
        return  # (nothing joined a link: the pairs, each of a node still linked, stand as they are)
    # (A merge or split made on most, not all, of a text's words: read by hand over every consecutive pair, right
    # about nine times in ten, below what an unflagged link must be.)
    g.pairs = [
        replace(p, reason=f"{p.reason}; {'; '.join(said[p.old])}", uncertain=True) if p.old in said else p
        for p in g.pairs
        if p.old in a2b
    ]


def _one_way(
    into: dict[int, tuple[int, float]], out_of: dict[int, tuple[int, float]], a2b: dict[int, int], b2a: dict[int, int]
) -> tuple[set[int], set[int]]:
    """Of the merges (``into``) and splits (``out_of``) found, those to make: where one of each touches the same
    node (the text, its home, the home's partner, the text's own partner), the one on the larger share of words
    stands; on equal shares neither. The same either way round. (2009's 502.10c went into 702.19c, all its words;
    702.19d's "must attack the same player" came out of 502.10b, which goes on as 702.19c: one group each.)"""
    found = [(share, 0, i, {i, b2a[x]}, {x, *_partner(a2b, i)}) for i, (x, share) in into.items()]
    found += [(share, 1, j, {y, *_partner(b2a, j)}, {j, a2b[y]}) for j, (y, share) in out_of.items()]
    kept: tuple[set[int], set[int]] = (set(), set())
    taken = [(set[int](), set[int]()), (set[int](), set[int]())]  # per way: the old and new nodes of those kept
    for share, way, k, olds, news in sorted(found, key=lambda f: -f[0]):
        other = taken[1 - way]
        if olds & other[0] or news & other[1]:
            continue
        if any(s == share and w != way and (o & olds or n & news) for s, w, _, o, n in found):
            continue  # (as much either way: neither)
        kept[way].add(k)
        taken[way][0].update(olds)
        taken[way][1].update(news)
    return kept


def _partner(links: dict[int, int], k: int) -> tuple[int, ...]:
    """Node ``k``'s partner, if it has one (the weak link a merge or split gives up)."""
    return (links[k],) if k in links else ()


def _gain(a: Side, b: Side, k: int, x: int) -> frozenset[str] | None:
    """The content words node ``x`` of ``b`` has that node ``k`` of ``a``, which it continues, has not; None when
    either is no text (a heading, or a text continuing one: they pair by title, not by words)."""
    if not texts(a, [k]) or not texts(b, [x]):
        return None
    return content(b.masked(x)).difference(content(a.masked(k)))
