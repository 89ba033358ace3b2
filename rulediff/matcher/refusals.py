"""Why a rule left unpaired is removed: the nearest text of the other release, and what refused the link."""

# Why a rule left unpaired is removed: the nearest text of the new release (by text and meaning, the likeness the
# leftovers judge by), and what refused the link -- the text continues another rule, or too little of it is alike.
# A reader judges the refusal ("closest: 603.2f (0.97), refused because ..."); the matcher does not change it.

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from itertools import chain

from .leftovers import ContentIndex, Matcher, texts
from .meaning import Likeness, content, likeness, most_of
from .records import EDITED_KINDS, Change, Closest, Kind, Pair
from .sides import Side
from .thresholds import (
    CONTAINED_WORDS,
    KEPT_MEANING,
    PLACED_MEANING,
    PLACED_TEXT,
    RESCUE_CARRIED,
    RESCUE_NEAR,
    RESCUE_TEXT,
)

_RULE = 2

# The changes whose new nodes may hold a removed rule's words: new, edited, moved and edited, split, merged.
_HOMES = frozenset({Kind.ADDED, Kind.SPLIT, Kind.MERGED, *EDITED_KINDS})


def refusals(a: Side, b: Side, changes: list[Change], given_up: dict[int, int] | None = None) -> dict[int, Closest]:
    """For each removed text node of ``a`` (old position), the nearest node of ``b`` among those its words may
    have gone to (added, edited, split, merged: an unchanged rule carries its own words) and share enough of them
    with it (leftovers.ContentIndex), and those whose text is its text word for word, and why the two are not
    linked. (Not every text against every home: on 2011-02-04 -> 2026-01-16 that was a third of the alignment.)
    ``given_up``: old node -> the new node of a link the matcher gave up, a candidate too."""
    # (One walk of the changes, most of them unchanged: told apart by identity, before any set is asked.)
    removed: list[int] = []
    homes: set[int] = set()
    unchanged, gone = Kind.UNCHANGED, Kind.REMOVED
    for ch in changes:
        kind = ch.kind
        if kind is unchanged:
            continue
        if kind == gone:
            if len(ch.old) == 1:
                removed.append(ch.old[0])
        elif kind in _HOMES:
            homes.update(ch.new)
    removed = texts(a, removed)
    if not removed:
        return {}
    index = ContentIndex(b, {}, frozenset().union(*(content(a.masked(i)) for i in removed)))
    index.add(sorted(homes))
    # The new nodes whose raw text is a removed rule's, by that text (one look at each new rule).
    by_text = b.by_text
    same = {t: by_text[t] for t in {a.rules[i].text for i in removed} if t in by_text}
    # ... and the new node at its own number, if its words may have gone there and it shares some of its meaning
    # (KEPT_MEANING): a short rule rewritten there shares too few words with anything for the index (2019-05-03's
    # 117.9b, "Alternative costs are always optional." -> "generally optional", was such a one, until slots.py
    # linked a rule whose neighbours kept their numbers). (A number whose section was renumbered around it names
    # another rule: 2009-07-11's 500.4 is not the old 500.4.)
    at_number = {b.labels[j]: j for j in homes}
    placed = _in_place(a, b, changes, removed, homes)
    closest: dict[int, tuple[Likeness, int]] = {}
    for i in removed:
        text = a.masked(i)
        cands = {*index.near(text), *same.get(a.rules[i].text, ())}
        if given_up and i in given_up:
            cands.add(given_up[i])
        if not cands:
            # (a text all of whose words many rules hold shares none the index looks up: 2009-07-11's 401.2, "A
            # spell stops being a spell when it resolves ...", most of whose words 111.1 has; failing that, the
            # texts in its own place that share some of its meaning; failing those, the texts holding more than
            # half its words: 2009-07-11's 200.5a, "A spell's owner is the same as the owner of the card that
            # represents it ...", three quarters of whose words 111.2 has)
            cands.update(
                _holding(index, text, most_of)
                or [j for j in placed.get(i, ()) if _kept(text, b.masked(j))]
                or _holding(index, text, _over_half)
            )
        own = at_number.get(a.labels[i])
        if own is not None and _kept(text, b.masked(own)):
            cands.add(own)
        best = max(
            ((likeness(text, b.masked(j)), j) for j in cands if b.labels[j] is not None and b.level[j] >= _RULE),
            key=lambda t: (max(t[0].ratio, t[0].dice), -t[1]),
            default=None,
        )
        if best is not None:
            closest[i] = best
    # The old nodes each closest one continues (what refused the link), looked up for those only.
    owner = _owners(changes, {j for _, j in closest.values()})
    out: dict[int, Closest] = {}
    for i, (like, j) in closest.items():
        if given_up and given_up.get(i) == j and not owner.get(j):
            why = _given_up(like)
        else:
            why = _why(a, b, i, j, like, owner, j in placed.get(i, ()))
        out[i] = Closest(str(b.labels[j]), round(like.ratio, 2), round(like.meaning, 2), why)
    return out


def heading_refusals(a: Side, b: Side, changes: list[Change]) -> dict[int, Closest]:
    """For each removed heading of ``a`` (a titled node, old position), the node of ``b`` most of its rules went under,
    or went to if a heading (two of them, or half; the first on ties, the others said), and why the two are not
    linked: 2009-07-11's 212 "Card Type, Supertype, and Subtype", eight of whose nine rules went under section 3 "Card
    Types", a part of the old section 2's split. Its ``text`` is how alike the two titles are, its ``meaning`` the
    share of its rules that went there (those removed counted: rulediff cite names it where a gone heading's words
    went when that is most of them)."""
    heads = [ch.old[0] for ch in changes if ch.kind == Kind.REMOVED and len(ch.old) == 1 and a.rules[ch.old[0]].title]
    if not heads:
        return {}
    went = {i: ch.new[0] for ch in changes if ch.new for i in ch.old}  # old node -> the first new node of its change
    found: dict[int, tuple[int, int, list[int]]] = {}  # heading -> (its home, rules there, other homes as full)
    for i in heads:
        kids = a.children[i]
        homes = Counter(h for k in kids if k in went and (h := _home(a, b, k, went[k])) is not None)
        if homes:
            (j, n), *rest = sorted(homes.items(), key=lambda t: (-t[1], t[0]))
            if n >= 2 or 2 * n >= len(kids):  # (one rule of several is no sign: 2004-06's 502.14 "Snow-Covered")
                found[i] = (j, n, [h for h, m in rest if m == n])
    owner = _owners(changes, {j for j, _, _ in found.values()})
    out: dict[int, Closest] = {}
    for i, (j, n, tied) in found.items():
        kids, ratio = a.children[i], round(likeness(a.title(i), b.title(j)).ratio, 2)
        went_there = (
            "its one rule went there" if len(kids) == 1 else f"{n} of the {len(kids)} rules under it went there"
        )
        if tied:
            went_there += f" (as many to {', '.join(str(b.labels[h]) for h in tied)})"
        now = b.rules[j].title
        if olds := owner.get(j):
            label, title = a.labels[olds[0]], a.rules[olds[0]].title
            old_one = " ".join(x for x in (label, title and f"({title})") if x)
            # (its own title said where it differs: "3" alone tells a reader little)
            as_now = f' as "{now}"' if now and now != title else ""
            why = f"it continues the old {old_one}{as_now}, though {went_there}"
        elif now:
            why = f'its title, "{now}", is another (text {ratio:.2f}), though {went_there}'
        else:
            why = f"it is a rule with no title, though {went_there}"
        out[i] = Closest(str(b.labels[j]), ratio, round(n / len(kids), 2), why)
    return out


def _owners(changes: list[Change], wanted: set[int]) -> dict[int, tuple[int, ...]]:
    """The old nodes of the change of each of the ``wanted`` new nodes (every part of a split): what it continues."""
    owner: dict[int, tuple[int, ...]] = {}
    for ch in changes:
        # (most changes are of one new node, told apart by one look)
        if len(ch.new) == 1:
            if ch.new[0] in wanted:
                owner[ch.new[0]] = ch.old
        else:
            owner.update((j, ch.old) for j in ch.new if j in wanted)
    return owner


def _home(a: Side, b: Side, k: int, j: int) -> int | None:
    """Where the rule ``k`` of a removed heading went, node ``j``: the node ``j`` is under, or ``j`` itself when ``k``
    is a rule that became a heading or went into one (2003-07-01's 212 "Card Type", both of whose rules merged into
    the new 205 "Type Line"); None where that has no number."""
    home = j if b.rules[j].title and not a.rules[k].title else b.parent[j]
    return home if home >= 0 and b.labels[home] is not None else None


def _kept(text: str, other: str) -> bool:
    """``other`` shares some of the meaning of ``text`` (KEPT_MEANING)."""
    return likeness(text, other).meaning >= KEPT_MEANING


def _in_place(a: Side, b: Side, changes: list[Change], removed: list[int], homes: set[int]) -> dict[int, list[int]]:
    """For each of ``removed``, the texts of ``homes`` under the node of ``b`` its parent went to (one to one, or
    the first of a split): its own place. 2009-07-11's 502.68a, lifelink as a triggered ability, shares with 702.13a,
    lifelink as a static one, only words dozens of rules hold but "lifelink"; 502.68 went to 702.13."""
    ups = {a.parent[i] for i in removed} - {-1}
    went = {ch.old[0]: ch.new[0] for ch in changes if len(ch.old) == 1 and ch.new and ch.old[0] in ups}
    out: dict[int, list[int]] = {}
    for i in removed:
        up = a.parent[i]
        to = went.get(up, -1)
        # (a place is told by its numbers: an unnumbered node's is no place to name)
        if to >= 0 and a.labels[up] is not None and b.labels[to] is not None:
            out[i] = texts(b, [j for j in b.children[to] if j in homes])
    return out


def _holding(index: ContentIndex, text: str, needed: Callable[[int], int]) -> list[int]:
    """The nodes of ``index`` holding ``needed(n)`` of the ``n`` content words of ``text`` (meaning.most_of, or more
    than half), CONTAINED_WORDS of them at least, common words too: what :meth:`ContentIndex.near` cannot
    find for a text all of whose words many nodes hold. (One holding all but ``m`` of its words holds at least ``k``
    of any ``m`` + ``k`` of them: only those holding three of its ``m`` + 3 rarest are read.)"""
    bag = content(text)
    if len(bag) < CONTAINED_WORDS:
        return []
    get, masked = index.where.get, index.side.masked
    need = needed(len(bag))
    spare = len(bag) - need  # (the words a node holding it may lack)
    rarest = sorted(bag, key=lambda w: (len(get(w, ())), w))[: spare + _HITS]
    hits = Counter(chain.from_iterable(get(w, ()) for w in rarest))
    least = len(rarest) - spare
    return sorted(k for k, n in hits.items() if n >= least and len(bag & content(masked(k))) >= need)


# A node holding a share of a text's words holds this many of the rarest of them beyond those it may lack.
_HITS = 3


def _over_half(n: int) -> int:
    """The fewest of ``n`` words that are more than half of them."""
    return n // 2 + 1


def _given_up(like: Likeness) -> str:
    """Why the link the matcher made, then gave up, does not stand."""
    need = KEPT_MEANING if like.meaning < KEPT_MEANING else PLACED_MEANING
    return (
        f"the link to it was given up: only {like.meaning:.0%} of its meaning is there, in text {like.ratio:.2f} alike"
        f" (an uncertain link needs {need:.0%} of the meaning"
        f"{'' if need == KEPT_MEANING else ', unless it is the closer counterpart of both its ends'})"
    )


def _why(
    a: Side, b: Side, i: int, j: int, like: Likeness, owner: dict[int, tuple[int, ...]], in_place: bool = False
) -> str:
    """What refused the link of old ``i`` with new ``j`` (``in_place``: ``j`` is under the node ``i``'s parent
    went to)."""
    olds = owner.get(j, ())
    if olds:
        k = olds[0]
        theirs = likeness(a.masked(k), b.masked(j))
        if theirs.mean >= like.mean:
            if theirs.ratio >= 1.0:
                return f"it continues the old {a.labels[k]} word for word"
            return f"it continues the old {a.labels[k]} (text {theirs.ratio:.2f}, {theirs.meaning:.0%} of its meaning)"
        return (
            f"it continues the old {a.labels[k]}, linked first though less alike (text {theirs.ratio:.2f}, "
            f"{theirs.meaning:.0%} of its meaning): a link to weigh by hand"
        )
    if like.ratio >= RESCUE_NEAR or (like.ratio >= RESCUE_TEXT and min(like.kept_a, like.kept_b) >= RESCUE_CARRIED):
        return "another unpaired rule is as close to it: too ambiguous to link"
    if in_place:
        where = f"in its own place (under {b.labels[b.parent[j]]}, where {a.labels[a.parent[i]]} went)"
        if like.meaning < PLACED_MEANING:
            return (
                f"only {like.meaning:.0%} of its meaning is there, {where}, in text {like.ratio:.2f} alike (a link in"
                f" its place needs {PLACED_MEANING:.0%} of the meaning)"
            )
        return (
            f"{like.meaning:.0%} of its meaning is there, {where}, but its text only {like.ratio:.2f} alike (a link in"
            f" its place needs text {PLACED_TEXT:.2f}, or one held in the other, with {PLACED_MEANING:.0%} of the"
            " meaning)"
        )
    need = f"a link needs text {RESCUE_NEAR:.2f}, or {RESCUE_TEXT:.2f} with {RESCUE_CARRIED:.0%} of each side's meaning"
    if like.meaning >= PLACED_MEANING:
        need += f", or {PLACED_MEANING:.0%} of the meaning in places that agree"
        meaning, text = f"{like.meaning:.0%}", f"{like.ratio:.2f}"
        return f"{meaning} of its meaning is there, but its text only {text} alike, elsewhere ({need})"
    return f"only {like.meaning:.0%} of its meaning is there, in text {like.ratio:.2f} alike ({need})"


def unkept(
    a: Side, b: Side, pairs: list[Pair], grouped: tuple[set[int], set[int]], closer: set[tuple[int, int]]
) -> set[int]:
    """The old ends of the uncertain links a reader should not be handed: one text linked to one text (by place, or
    by text similarity alone) that carries less than half of its meaning (PLACED_MEANING, the bar a link among the
    leftovers in places that agree must pass). In the hand-checked calibration half such links were right about 3
    times in 10 (tests/fixtures/align/hand-checked/). Left alone: splits and merges (``grouped``: their old and new
    nodes), titles, and the ``closer`` links, each the best counterpart of both its ends (2016-09-30's short
    priority steps, 0.40 of the meaning each)."""
    old_grouped, new_grouped = grouped
    out: set[int] = set()
    for p in pairs:
        i, j = p.old, p.new
        if not p.uncertain or p.same or i in old_grouped or j in new_grouped or (i, j) in closer:
            continue
        if texts(a, [i]) and texts(b, [j]) and likeness(a.masked(i), b.masked(j)).meaning < PLACED_MEANING:
            out.add(i)
    return out


def drop_unkept(m: Matcher) -> None:
    """Uncertain links between texts that share too little of their meaning are given up (2009's 217.5d, about
    what has no controller, is not 403.5, the history of the name "in-play zone"): the old text is removed, the
    new one added, and the refusal says where its nearest text was."""
    for i in sorted(m.uncertain):
        j = m.a2b.get(i)
        if j is None or m.a.rules[i].title or m.b.rules[j].title:
            continue
        ta, tb = m.a.masked(i), m.b.masked(j)
        if content(ta) and content(tb) and likeness(ta, tb).meaning < KEPT_MEANING:
            m.unpair(i)
            m.rejected.add((i, j))
            m.refused.add((i, j))
