"""A heading folded into another that goes on: it, and its texts a rule there now says, join that rule's link."""

# A rule is removed only when no new text carries most of its words. 2023-04-14 folded 713 "Meld Cards" into 712
# "Double-Faced Cards": 713's rules went under 712 (713.3 is 712.4a word for word, 713.5 is 712.21), while its
# texts that said for meld cards what 712 said for double-faced cards were left removed, though a rule under 712
# now says them for both (713.10, "If an effect allows a player to cast a meld card as a face-down spell ...", is
# 712.15 but for "meld card", and 712.15 continues the old 712.11), and 713 itself, whose rules all went under 712,
# was removed too. Such a text carries no words its new rule gained (the texts absorbed.py joins to a link beside
# them do): it was a copy, and the copies became one. Here a heading left unpaired whose rules with a counterpart
# mostly went under one node of the other side at its own level, one continuing a heading of its own side, joins
# that link as a merge; and of its texts left unpaired, one whose words are mostly (CONTAINED) in a rule under
# there continuing another joins that one's link. Only under a heading folded whole: a copy of a template whose own
# heading goes on (2015-09-26's 702.72b, "Multiple instances of changeling ... are redundant", as 702.15e says of
# lifelink; 2013-07-13's legend rule 801.12, as 801.13 says of the world rule) was removed, not folded. Read the
# other way, a heading made of rules from under one that goes on is split off it. Both ways under one rule, so
# aligning B -> A mirrors A -> B. Flagged uncertain: a merge of copies, not of the same text.

from __future__ import annotations

from collections import Counter
from dataclasses import replace

from .leftovers import texts
from .meaning import content, likeness
from .records import Grouping
from .sides import Side
from .thresholds import CONTAINED, CONTAINED_WORDS

# A heading folds into a node its rules with a counterpart went under: two of them at least, to two nodes there at
# least, and more than half of them.
FOLDED_RULES = 2

# What the reason of the link joined says: old to new, of a heading and of a text; new to old, the same.
_INTO = (
    "{} folded into it ({} of the {} rules under it with a counterpart went there)",
    "{} went there too, a copy under the heading folded into it ({:.0%} of its words are there)",
)
_OUT_OF = (
    "{0} came out of it ({1} of the {2} rules under {0} with a counterpart came from there)",
    "{} came out of it too, a copy under the heading split off it ({:.0%} of its words were there)",
)

_Found = dict[int, tuple[int, str]]  # node of a -> (the node of b it joins, what the link's reason says of it)


def folds(
    a: Side,
    b: Side,
    dest: dict[int, list[int]],
    b2a: dict[int, int],
    taken: tuple[set[int], set[int]],
    free: set[int],
    says: tuple[str, str],
) -> _Found:
    """The unpaired nodes of ``a`` (``free``) that join a link of a node of ``b`` continuing another node of
    ``a`` (``b2a``): headings whose rules' counterparts (``dest``) mostly went under one such node at their own
    level, and their texts mostly said by such a node under there. ``taken``: the nodes of a and of b already in a
    split or a merge, left as they are. ``says``: what the link's reason says of a heading (given its label, how
    many of its rules went there and how many anywhere) and of a text (its label and the share of its words)."""
    taken_a, taken_b = taken
    out: _Found = {}

    def joinable(x: int) -> bool:
        return x in b2a and x not in taken_b and b2a[x] not in taken_a

    for h in sorted(free):
        if not a.rules[h].title or not a.children[h]:
            continue
        went, there, places = _gone_under(a, b, h, dest)
        if not there:
            continue
        (into, n), *_ = there.most_common(1)
        # (into a heading that continues a heading: a text whose subrules went under another text's is no fold; and
        # to two rules there at least: 2009-07-11's 111.1 split into the old 401.1 and 401.2 is no heading's rules)
        if (
            min(n, len(places[into])) < FOLDED_RULES
            or 2 * n <= went
            or not joinable(into)
            or not (b.rules[into].title and a.rules[b2a[into]].title)
        ):
            continue
        out[h] = (into, says[0].format(a.labels[h], n, went))
        under = [x for x in b.descendants(into) if joinable(x)]
        for i in texts(a, [k for k in a.descendants(h) if k in free]):
            if (found := _said_there(a, b, i, under)) is not None:
                out[i] = (found[0], says[1].format(a.labels[i], found[1]))
    return out


def _gone_under(a: Side, b: Side, h: int, dest: dict[int, list[int]]) -> tuple[int, Counter[int], dict[int, set[int]]]:
    """How many of heading ``h``'s rules went anywhere (``dest``); how many of them went under each node of ``b`` at
    ``h``'s level (the node itself or its descendants), and the nodes they went to there."""
    level, parent = b.level, b.parent
    want = a.level[h]
    went = 0
    there: Counter[int] = Counter()
    places: dict[int, set[int]] = {}
    for c in a.children[h]:
        if c not in dest:
            continue
        went += 1
        ups = set()
        for x in dest[c]:
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
    if len(content(text)) < CONTAINED_WORDS:
        return None
    best: tuple[float, float, int] | None = None
    tied = False
    for x in under:
        like = likeness(text, b.masked(x))
        if like.kept_a < CONTAINED:
            continue
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
    to_b: dict[int, list[int]] = {i: [j] for i, j in a2b.items()}
    to_a: dict[int, list[int]] = {j: [i] for j, i in b2a.items()}
    for i, js in splits.items():
        to_b.setdefault(i, []).extend(js)
        for j in js:
            to_a.setdefault(j, []).append(i)
    for j, olds in merges.items():
        to_a.setdefault(j, []).extend(olds)
        for i in olds:
            to_b.setdefault(i, []).append(j)
    into = folds(a, b, to_b, b2a, (taken_a, taken_b), set(free_a), _INTO)
    out_of = folds(b, a, to_a, a2b, (taken_b, taken_a), set(free_b), _OUT_OF)
    # (each found its old and new nodes: where one found either way touches one found the other way, neither)
    nodes_into = {i: ({i, b2a[x]}, {x}) for i, (x, _) in into.items()}
    nodes_out = {j: ({y}, {j, a2b[y]}) for j, (y, _) in out_of.items()}
    olds_out = set().union(*(o for o, _ in nodes_out.values()))
    news_out = set().union(*(n for _, n in nodes_out.values()))
    olds_into = set().union(*(o for o, _ in nodes_into.values()))
    news_into = set().union(*(n for _, n in nodes_into.values()))
    said: dict[int, list[str]] = {}
    for i, (x, why) in sorted(into.items()):
        its_old, its_new = nodes_into[i]
        if its_old.isdisjoint(olds_out) and its_new.isdisjoint(news_out):
            merges.setdefault(x, [b2a[x]]).append(i)
            said.setdefault(b2a[x], []).append(why)
    for j, (y, why) in sorted(out_of.items()):
        its_old, its_new = nodes_out[j]
        if its_old.isdisjoint(olds_into) and its_new.isdisjoint(news_into):
            splits.setdefault(y, [a2b[y]]).append(j)
            said.setdefault(y, []).append(why)
    for members in (*merges.values(), *splits.values()):
        members[1:] = sorted(members[1:])
    g.pairs = [
        replace(p, reason=f"{p.reason}; {'; '.join(said[p.old])}", uncertain=True) if p.old in said else p
        for p in g.pairs
    ]
