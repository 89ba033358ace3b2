"""The matcher's evidence: the gate on links between differently named nodes, and structural points."""

# The matcher's evidence: how much of a node's meaning went to a differently named one (the gate that undoes links
# standing on too little of it), the structural points a similar pair earns, and the words that say why.

from __future__ import annotations

from typing import Protocol

from rapidfuzz import fuzz

from ..numbering import Level
from ..text import shared_words, word_bag
from .sides import UNNUMBERED as _UNNUMBERED
from .sides import Side, title_key
from .thresholds import EVIDENCE, GROWN_EVIDENCE, LOOSE_CUTOFF, STRONG_EVIDENCE, STRUCTURAL_CUTOFF

_HEADING, _RULE = int(Level.HEADING), int(Level.RULE)


class Matcher(Protocol):
    """What the evidence reads of a matcher under way (passes.Matcher): both sides, the pairs so far, and
    what the gate records or undoes."""

    a: Side
    b: Side
    a2b: dict[int, int]
    b2a: dict[int, int]
    reason: dict[int, str]
    uncertain: set[int]
    rejected: set[tuple[int, int]]
    turned_down: set[tuple[int, int]]
    open_a: set[int]
    open_b: set[int]

    def pair(self, i: int, j: int, score: float, reason: str) -> bool: ...

    def unpair(self, i: int) -> None: ...


def evidence_said(m: Matcher, i: int, j: int, said: str) -> str:
    """The structural evidence of a pair made on similar text, in words (for its reason)."""
    pa, pb = m.a.parent[i], m.b.parent[j]
    parts = []
    if pa >= 0 and m.a2b.get(pa) == pb and "parent" not in said:
        parts.append("same parent")
    if m.a.rules[i].number == m.b.rules[j].number:
        parts.append("same number")
    if (i > 0 and j > 0 and m.a2b.get(i - 1) == j - 1) or m.a2b.get(i + 1) == j + 1:
        parts.append("same neighbours")
    return "; " + ", ".join(parts) if parts else ""


def evidence(m: Matcher, i: int, j: int) -> float:
    """How much of the meaning went from ``i`` to ``j`` (0..1): the smaller of :func:`shares`."""
    return min(shares(m, i, j))


def shares(m: Matcher, i: int, j: int) -> tuple[float, float]:
    """The word-weighted share of i's descendants paired into j's subtree and of j's descendants paired from
    i's; nodes without descendants compare their words (bags, both ways)."""
    da, db = m.a.descendants(i), m.b.descendants(j)
    if da and db:
        sa, sb = set(da), set(db)
        wa_, wb_ = m.a.weight, m.b.weight
        wa = sum(wa_(d) for d in da) or 1
        wb = sum(wb_(d) for d in db) or 1
        fa = sum(wa_(d) for d in da if m.a2b.get(d, -1) in sb)
        fb = sum(wb_(d) for d in db if m.b2a.get(d, -1) in sa)
        return fa / wa, fb / wb
    ba, bb = word_bag(m.a.body(i)), word_bag(m.b.body(j))
    common = shared_words(ba, bb)
    return common / (sum(ba.values()) or 1), common / (sum(bb.values()) or 1)


def renamed_heading(m: Matcher, i: int, j: int, share_a: float, share_b: float) -> bool:
    """A heading (or titled rule) renamed as it grew or shrank: most of one side's content went to the other, which
    holds a fair share of it besides, under titles that share a word or the number ("716. Ending the Turn" ->
    "716. Ending Turns and Phases", 2019-08-23; 2009's "415. Targeted Spells and Abilities" -> "113. Targets";
    2001-07's section 5, "Additional Combat Rules" -> "Additional Rules")."""
    if not m.a.children[i] or not m.b.children[j]:
        return False
    if max(share_a, share_b) < EVIDENCE or min(share_a, share_b) < GROWN_EVIDENCE:
        return False
    return m.a.rules[i].number == m.b.rules[j].number or not title_stems(m.a.title(i)).isdisjoint(
        title_stems(m.b.title(j))
    )


def title_stems(title: str) -> set[str]:
    """The words of a compared title of four letters or more, cut to their first five ("targeted", "targets"
    -> "targe")."""
    return {w[:5] for w in title.split() if len(w) >= 4}


def text_names_other(m: Matcher, i: int, j: int) -> bool:
    """The texts name the other's keyword and not their own: a page heading that disagrees with its
    paragraph (the 2017 keyword page's "Impulse" defines Surge). The content decides then."""
    ta, tb = m.a.title(i), m.b.title(j)
    text_a, text_b = title_key(m.a.body(i)), title_key(m.b.body(j))
    return (tb in text_a and ta not in text_a) or (ta in text_b and tb not in text_b)


def names_differ(m: Matcher, i: int, j: int) -> bool:
    ra, rb = m.a.rules[i].title, m.b.rules[j].title
    if ra == rb:
        return False  # the same raw title is the same compared title: most pairs stop here
    ta, tb = m.a.title(i), m.b.title(j)
    return bool(ta or tb) and ta != tb


def gate(m: Matcher) -> bool:
    """A link between differently named nodes (titles, keyword names, or a named node and an
    unnamed one) stands only on strong evidence that the content went there; an unnumbered keyword
    entry never links to a differently named keyword. Turned-down parents take with them the
    children that paired only because the parents did. True when something was undone."""
    undone = False
    a2b, b2a = m.a2b, m.b2a
    # (Only a link with a title at one end at least may join differently named nodes: two untitled ones have the
    # same title, none. The titled nodes are a tenth of a release.)
    named = {i for i in m.a.titled if i in a2b}
    named.update(b2a[j] for j in m.b.titled if j in b2a)
    for i, j in [(i, a2b[i]) for i in sorted(named)]:
        if m.a2b.get(i) != j or not names_differ(m, i, j):
            continue
        keyword = m.a.level[i] == _UNNUMBERED or m.b.level[j] == _UNNUMBERED
        if keyword and m.a.title(i) and m.b.title(j) and not text_names_other(m, i, j):
            ok = False
        else:
            share_a, share_b = shares(m, i, j)
            share = min(share_a, share_b)
            ok = share >= EVIDENCE
            if not ok and renamed_heading(m, i, j, share_a, share_b):
                ok = True
                if "renamed" not in m.reason[i]:
                    m.uncertain.add(i)
                    m.reason[i] += (
                        f"; renamed: {max(share_a, share_b):.0%} of one side's content went to the other, "
                        f"{min(share_a, share_b):.0%} the other way"
                    )
            elif ok and share < STRONG_EVIDENCE and i not in m.uncertain:
                # The gate runs more than once: say it once.
                m.uncertain.add(i)
                m.reason[i] += f"; uncertain: only {share:.0%} of the content went there under another name"
        if ok:
            continue
        m.unpair(i)
        m.turned_down.add((i, j))
        undone = True
        for c in m.a.children[i]:
            d = m.a2b.get(c)
            if d is not None and m.b.parent[d] == j and fuzz.ratio(m.a.body(c), m.b.body(d)) < LOOSE_CUTOFF:
                m.unpair(c)
    return undone


def readmit(m: Matcher) -> bool:
    """The links the gate turned down whose two ends are both unpaired still, made again where the content has
    since gone there (the leftovers paired the children that had moved a level down: 2019-08-23's 716 "Ending
    the Turn" kept its number under a new name). True when one was made."""
    made = False
    for i, j in sorted(m.turned_down):
        if i not in m.open_a or j not in m.open_b:
            continue
        share_a, share_b = shares(m, i, j)
        if min(share_a, share_b) < EVIDENCE and not renamed_heading(m, i, j, share_a, share_b):
            continue
        m.turned_down.discard((i, j))
        m.rejected.discard((i, j))
        made |= m.pair(i, j, max(share_a, share_b), f"its content went there: {share_a:.0%} and {share_b:.0%}")
    return made


def names_disagree(m: Matcher, i: int, j: int) -> bool:
    """The two texts sit under differently named rules and each names only its own ("... cards with
    morph" under Morph, "... for more information" under Cloak): boilerplate, not the same rule."""
    pa, pb = m.a.parent[i], m.b.parent[j]
    if pa < 0 or pb < 0:
        return False
    ta, tb = m.a.title(pa), m.b.title(pb)
    if not ta or not tb or ta == tb:
        return False
    text_a, text_b = m.a.folded(i), m.b.folded(j)
    return (ta in text_a and ta not in text_b) or (tb in text_b and tb not in text_a)


def structure_bonus(m: Matcher, i: int, j: int) -> float:
    """Bonus points for structural agreement: the parents are paired with each other, or the
    neighbours before/after are."""
    bonus = 0.0
    pa, pb = m.a.parent[i], m.b.parent[j]
    if pa >= 0 and m.a2b.get(pa) == pb:
        bonus += 10
    if i > 0 and j > 0 and m.a2b.get(i - 1) == j - 1:
        bonus += 4
    if m.a2b.get(i + 1) == j + 1 and j + 1 < len(m.b.rules):
        bonus += 4
    return bonus


def may_follow(m: Matcher, i: int, j: int) -> bool:
    """A parent may follow its children's votes to a node of its level, or to a titled rule or heading when it is
    one of those (2009's titled rule "217.7. Removed from the Game" became the heading "406. Exile")."""
    la, lb = m.a.level[i], m.b.level[j]
    if la == _UNNUMBERED or lb == _UNNUMBERED:
        return la == lb or _RULE in (la, lb)
    if la == lb:
        return True
    titled = (_HEADING, _RULE)
    return la in titled and lb in titled and bool(m.a.rules[i].title) and bool(m.b.rules[j].title)


def up_to(side: Side, k: int, level: int) -> int:
    """``k`` or its nearest ancestor no deeper than ``level``: a child that became a grandchild (2019-08-23's
    716.2 became 716.1f) still votes for its old parent's counterpart."""
    lv, parent = side.level, side.parent
    while k >= 0 and lv[k] > level and level != _UNNUMBERED:
        k = parent[k]
    return k


def has_other_source(
    side: Side, x: int, other: Side, to_other: dict[int, int], from_other: dict[int, int], claimant: int
) -> bool:
    p = side.parent[x]
    k = to_other.get(p, -1) if p >= 0 else -1
    return k >= 0 and any(
        c != claimant and c not in from_other and fuzz.ratio(other.body(c), side.body(x)) >= STRUCTURAL_CUTOFF
        for c in other.children[k]
    )
