"""A heading folded into another that goes on: it, and its texts a rule there now says, join that rule's link."""

# A rule is removed only when no new text carries most of its words. 2023-04-14 folded 713 "Meld Cards" into 712
# "Double-Faced Cards": 713's rules went under 712 (713.3 is 712.4a word for word, 713.5 is 712.21), while its
# texts that said for meld cards what 712 said for double-faced cards were left removed, though a rule under 712
# now says them for both (713.10, "If an effect allows a player to cast a meld card as a face-down spell ...", is
# 712.15 but for "meld card", and 712.15 continues the old 712.11), and 713 itself, whose rules all went under 712,
# was removed too. Such a text is a copy of what the rule it continues said already, not words that rule gained (the
# texts absorbed.py joins to a link beside them): the copies became one. Here a heading left unpaired whose rules
# with a counterpart mostly went under one heading of the other side at its own level, one continuing a heading of
# its own side, and are a good part of its rules, joins that link as a merge; and of its texts left unpaired, one
# whose words are mostly (CONTAINED) in a rule under there continuing another joins that one's link, with the
# heading or not at all. Only under a heading folded whole: a copy of a template whose own heading goes on
# (2015-09-26's 702.72b, "Multiple instances of changeling ... are redundant", as 702.15e says of lifelink;
# 2013-07-13's legend rule 801.12, as 801.13 says of the world rule) was removed, not folded. Read the other way, a
# heading made of rules from under one that goes on is split off it. Both ways under one rule, so aligning B -> A
# mirrors A -> B. Flagged uncertain: a merge of copies, not of the same text. And two headings left unpaired, each
# where the other's rules went (2009-07-11's 421 "Handling 'Infinite' Loops" and the new 713 "Taking Shortcuts"), are
# one heading moved under another name: linked, flagged uncertain.

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import replace

from .leftovers import texts
from .meaning import content, likeness, most_of
from .records import Grouping, Pair
from .sides import Side
from .thresholds import CONTAINED_WORDS

# A heading folds into a node its rules with a counterpart went under: two of them at least, to two nodes there at
# least, more than half of them, and a third of all its rules (2009-07-11's 106 Mana, nine rules of which two came
# from under the old 406 Mana Abilities and the rest are new, did not come out of 406) ...
FOLDED_RULES = 2
FOLDED_SHARE = 3  # (one rule in three)

# What the reason of the link joined says: old to new, of a heading and of a text; new to old, the same.
_INTO = (
    "{} folded into it ({} of the {} rules under it with a counterpart went there)",
    "{} went there too, a copy under the heading folded into it ({:.0%} of its words are there)",
)
_OUT_OF = (
    "{0} came out of it ({1} of the {2} rules under {0} with a counterpart came from there)",
    "{} came out of it too, a copy under the heading split off it ({:.0%} of its words were there)",
)

# What a link between two headings left unpaired, each where the other's rules went, says.
_MOVED = (
    "its rules went there: {2} of the {3} rules under {0} with a counterpart went under {1}, and {4} of the {5} under"
    " {1} came from under {0}"
)

# A heading's fold: node of a -> (the node of b it joins, what the link's reason says of it), the heading first, then
# its copies.
_Fold = dict[int, tuple[int, str]]


def folds(
    a: Side,
    b: Side,
    dest: Callable[[int], list[int]],
    b2a: dict[int, int],
    taken: tuple[set[int], set[int]],
    free: set[int],
    says: tuple[str, str],
) -> list[_Fold]:
    """The headings of ``a`` left unpaired (``free``) whose rules' counterparts (``dest`` of each rule) mostly went
    under one heading of ``b`` at their own level, continuing a heading of ``a`` (``b2a``), each with its unpaired
    texts a rule under there continuing another mostly says: the nodes of ``a`` that join those links, a fold each.
    ``taken``: the nodes of a and of b already in a split or a merge, left as they are. ``says``: what the link's
    reason says of a heading (given its label, how many of its rules went there and how many anywhere) and of a text
    (its label and the share of its words)."""
    taken_a, taken_b = taken
    out: list[_Fold] = []
    claimed: set[int] = set()  # (a text under two headings that fold, one inside the other, joins with the outer)

    def joinable(x: int) -> bool:
        return x in b2a and x not in taken_b and b2a[x] not in taken_a

    for h in sorted(free):
        found = home(a, b, h, dest)
        if found is None:
            continue
        into, n, went = found
        # (into a heading that continues a heading: a text whose subrules went under another text's is no fold)
        if not joinable(into) or not a.rules[b2a[into]].title:
            continue
        fold = {h: (into, says[0].format(a.labels[h], n, went))}
        under = [x for x in b.descendants(into) if joinable(x)]
        for i in texts(a, [k for k in a.descendants(h) if k in free and k not in claimed]):
            if (said := _said_there(a, b, i, under)) is not None:
                fold[i] = (said[0], says[1].format(a.labels[i], said[1]))
                claimed.add(i)
        out.append(fold)
    return out


def home(a: Side, b: Side, h: int, dest: Callable[[int], list[int]]) -> tuple[int, int, int] | None:
    """The titled node of ``b`` at heading ``h``'s level that ``h``'s rules with a counterpart (``dest``) mostly went
    under (FOLDED_RULES of them to as many nodes there, more than half of them, and a FOLDED_SHARE of all its rules),
    with how many went there and how many anywhere; None for a text or a heading with no such home (nowhere, or two
    as many: none)."""
    if not a.rules[h].title or not a.children[h]:
        return None
    went, there, places = _gone_under(a, b, h, dest)
    ranked = there.most_common(2)
    if not ranked or (len(ranked) > 1 and ranked[1][1] == ranked[0][1]):
        return None
    into, n = ranked[0]
    # (to two rules there at least: 2009-07-11's 111.1 split into the old 401.1 and 401.2 is no heading's rules)
    if (
        n < FOLDED_RULES
        or len(places[into]) < FOLDED_RULES
        or 2 * n <= went
        or FOLDED_SHARE * n < len(a.children[h])
        or not b.rules[into].title
    ):
        return None
    return into, n, went


def _gone_under(
    a: Side, b: Side, h: int, dest: Callable[[int], list[int]]
) -> tuple[int, Counter[int], dict[int, set[int]]]:
    """How many of heading ``h``'s rules went anywhere (``dest``); how many of them went under each node of ``b`` at
    ``h``'s level (the node itself or its descendants), and the nodes they went to there."""
    level, parent = b.level, b.parent
    want = a.level[h]
    went = 0
    there: Counter[int] = Counter()
    places: dict[int, set[int]] = {}
    for c in a.children[h]:
        went_to = dest(c)
        if not went_to:
            continue
        went += 1
        ups = set()
        for x in went_to:
            up = x
            while up >= 0 and level[up] > want:
                up = parent[up]
            if up >= 0 and level[up] == want:
                ups.add(up)
                places.setdefault(up, set()).add(x)
        there.update(ups)
    return went, there, places


def _said_there(a: Side, b: Side, i: int, under: list[int]) -> tuple[int, float] | None:
    """The node of ``under`` that says most of text ``i``'s words (CONTAINED of its content words, CONTAINED_WORDS
    of them at least), the most alike (text and meaning together), with that share; None when none does, or two as
    alike do."""
    text = a.masked(i)
    bag = content(text)
    if len(bag) < CONTAINED_WORDS:
        return None
    need = most_of(len(bag))
    best: tuple[float, float, int] | None = None
    tied = False
    for x in under:
        if len(bag & content(b.masked(x))) < need:
            continue
        like = likeness(text, b.masked(x))
        key = (like.mean, like.kept_a, x)
        if best is None or key[:2] > best[:2]:
            best, tied = key, False
        elif key[:2] == best[:2]:
            tied = True
    if best is None or tied:
        return None
    return best[2], best[1]


def regroup_folded(a: Side, b: Side, g: Grouping, cut: tuple[set[int], set[int]]) -> None:
    """Headings folded into another that goes on, and their texts said there, join its link as a merge; read the
    other way, a heading made of rules from under one that goes on, and its texts, are parts of its split
    (:func:`folds` both ways round, from the same links; where the two touch a node, neither). ``g`` is added to."""
    splits, merges, a2b, b2a = g.splits, g.merges, g.a2b, g.b2a
    taken_a, taken_b = g.grouped()
    free_a, free_b = g.free(len(a.rules), len(b.rules), cut)
    if not any(side.rules[h].title and side.children[h] for side, free in ((a, free_a), (b, free_b)) for h in free):
        return  # (no heading left unpaired with rules under it: most pairs; where everything went is not mapped)
    # (where a node went, asked of the rules under the headings left unpaired only: a walk of every link cost more)
    merged_into = {i: j for j, olds in merges.items() for i in olds}
    split_from = {j: i for i, js in splits.items() for j in js}

    def to_b(i: int) -> list[int]:
        return [*((a2b[i],) if i in a2b else ()), *splits.get(i, ()), *((merged_into[i],) if i in merged_into else ())]

    def to_a(j: int) -> list[int]:
        return [*((b2a[j],) if j in b2a else ()), *merges.get(j, ()), *((split_from[j],) if j in split_from else ())]

    moved = _moved(a, b, (to_b, to_a), (free_a, free_b))
    into = folds(a, b, to_b, b2a, (taken_a, taken_b), set(free_a), _INTO)
    out_of = folds(b, a, to_a, a2b, (taken_b, taken_a), set(free_b), _OUT_OF)
    # (each fold's old and new nodes: where a fold either way touches one the other way, neither stands, heading and
    # copies alike)
    nodes_into = [(f, {*f, *(b2a[x] for x, _ in f.values())}, {x for x, _ in f.values()}) for f in into]
    nodes_out = [(f, {y for y, _ in f.values()}, {*f, *(a2b[y] for y, _ in f.values())}) for f in out_of]
    olds_out = set().union(*(o for _, o, _ in nodes_out))
    news_out = set().union(*(n for _, _, n in nodes_out))
    olds_into = set().union(*(o for _, o, _ in nodes_into))
    news_into = set().union(*(n for _, _, n in nodes_into))
    said: dict[int, list[str]] = {}
    grown_new: set[int] = set()  # (the merges and splits this adds to: their members in order)
    grown_old: set[int] = set()
    for fold, its_old, its_new in nodes_into:
        if its_old.isdisjoint(olds_out) and its_new.isdisjoint(news_out):
            for i, (x, why) in sorted(fold.items()):
                merges.setdefault(x, [b2a[x]]).append(i)
                said.setdefault(b2a[x], []).append(why)
                grown_new.add(x)
    for fold, its_old, its_new in nodes_out:
        if its_old.isdisjoint(olds_into) and its_new.isdisjoint(news_into):
            for j, (y, why) in sorted(fold.items()):
                splits.setdefault(y, [a2b[y]]).append(j)
                said.setdefault(y, []).append(why)
                grown_old.add(y)
    for members in [*(merges[x] for x in grown_new), *(splits[y] for y in grown_old)]:
        members[1:] = sorted(members[1:])
    if said:
        g.pairs = [
            replace(p, reason=f"{p.reason}; {'; '.join(said[p.old])}", uncertain=True) if p.old in said else p
            for p in g.pairs
        ]
    if moved:
        for p in moved:
            a2b[p.old], b2a[p.new] = p.new, p.old
        g.pairs = sorted([*g.pairs, *moved], key=lambda p: p.old)


def _moved(
    a: Side,
    b: Side,
    dest: tuple[Callable[[int], list[int]], Callable[[int], list[int]]],
    free: tuple[list[int], list[int]],
) -> list[Pair]:
    """The headings left unpaired on both sides each of which is where the other's rules went (:func:`home`, both ways
    round): one heading moved under another name, its rules with it (2009-07-11's 421 "Handling 'Infinite' Loops",
    whose rules with a counterpart all went under the new 713 "Taking Shortcuts", from which they all came), linked
    and flagged uncertain."""
    to_b, to_a = dest
    free_b = set(free[1])
    homes_a = {h: found for h in free[0] if (found := home(a, b, h, to_b)) is not None and found[0] in free_b}
    out = []
    for h, (x, n, went) in sorted(homes_a.items()):
        back = home(b, a, x, to_a)
        if back is not None and back[0] == h:
            why = _MOVED.format(a.labels[h], b.labels[x], n, went, back[1], back[2])
            out.append(Pair(h, x, n / went, why, uncertain=True))
    return out
