"""A rule rewritten at its own number, between neighbours that kept theirs: linked, or its weak link flagged."""

# A rule is removed only when no new text carries most of its words -- or when its own place holds it rewritten. A
# short rule rewritten at its own number shares too few words with its new text for any pass (2019-05-03's 117.9b,
# "Alternative costs are always optional." -> "Alternative costs are generally optional. An effect that allows you
# to cast a spell may require ..."; 2020-01-24's 702.102c, which the Update Bulletin calls revised), so it came out
# removed and its new text added. Here, after every other pass, an old text left unpaired whose neighbours before
# and after went to the nodes before and after the new text of its number, under parents paired with each other,
# is linked to that text when they share a quarter of their meaning (KEPT_MEANING, the least a link keeps) and no
# text left unpaired on either side shares more of the meaning of one of them. Read by hand over every consecutive
# pair, the six such links are right; without that last guard a seventh was wrong (2016-04-08's 711.1a, whose words
# went nowhere: the new 711.1a is half of the old 711.1b, which holds more of its meaning). Flagged uncertain; and so
# are the links the passes made in such a slot on as little of the meaning (:func:`_weak_in_slot`).

from __future__ import annotations

from .leftovers import Matcher, texts
from .meaning import content, likeness
from .thresholds import KEPT_MEANING, PLACED_MEANING, RESCUE_TEXT


def in_slot(m: Matcher) -> set[tuple[int, int]]:
    """Pair each text node of ``m.a`` left unpaired with the unpaired text node of ``m.b`` in its slot
    (:func:`_framed`) when they share KEPT_MEANING of their meaning and nothing left unpaired shares more; then flag
    the weak links already in a slot (:func:`_weak_in_slot`). Both flagged uncertain, the same read from either side.
    The links made or flagged, which stand though they keep less than half of the meaning (refusals.unkept)."""
    a, b, a2b, b2a = m.a, m.b, m.a2b, m.b2a
    made: set[tuple[int, int]] = set()
    # (in document order: a link made changes what is left unpaired for the next)
    for i in texts(a, sorted(k for k in m.open_a if 0 < k < len(a.rules) - 1)):
        before = a2b.get(i - 1)
        if before is None or (j := before + 1) in b2a or not _framed(m, i, j) or not texts(b, [j]):
            continue
        like = likeness(a.masked(i), b.masked(j))
        if like.meaning < KEPT_MEANING or not _best_of_both(m, i, j, like.meaning):
            continue
        why = f"text {like.ratio:.2f}, {like.meaning:.0%} of the meaning"
        if m.pair(i, j, like.ratio, f"{why}; the same rule rewritten at its own number, its neighbours kept theirs"):
            m.uncertain.add(i)
            made.add((i, j))
    return made | _weak_in_slot(m)


def _framed(m: Matcher, i: int, j: int) -> bool:
    """Node ``j`` of ``m.b`` is node ``i``'s slot: ``i``'s neighbours before and after went to the nodes just before
    and after ``j``, which has ``i``'s number, under ``i``'s parent's counterpart."""
    a, b, a2b = m.a, m.b, m.a2b
    return (
        i > 0
        and a2b.get(i - 1) == j - 1
        and a2b.get(i + 1, -1) == j + 1
        and a.labels[i] is not None
        and a.labels[i] == b.labels[j]
        and a.parent[i] >= 0
        and a2b.get(a.parent[i]) == b.parent[j]
    )


def _weak_in_slot(m: Matcher) -> set[tuple[int, int]]:
    """The links the passes made in a slot (:func:`_framed`) on texts sharing less than half their meaning and not
    alike as text (RESCUE_TEXT), neither held whole in the other: flagged uncertain, as the slot links are, and kept
    as they are. Read by hand over every consecutive pair, such links were right about nine times in ten: 2002-10-07's
    214.7b, "Plurality and gender are ignored when determining creature types." -> "Use the Oracle card reference
    when determining creature types", was not."""
    a, b, a2b = m.a, m.b, m.a2b
    out: set[tuple[int, int]] = set()
    for i in [i for i, s in m.score.items() if s < 1.0 and i not in m.uncertain and i not in m.same]:
        j = a2b[i]
        if not _framed(m, i, j) or not texts(a, [i]) or not texts(b, [j]):
            continue
        like = likeness(a.masked(i), b.masked(j))
        # (one text held whole in the other is the same rule grown or cut: 2020-04-17's 100.5, "There is no maximum
        # deck size.", grew a sentence before it)
        if like.meaning < PLACED_MEANING and like.ratio < RESCUE_TEXT and max(like.kept_a, like.kept_b) < 1.0:
            m.uncertain.add(i)
            m.reason[i] += f"; uncertain: only {like.meaning:.0%} of the meaning, at its own number"
            out.add((i, j))
    return out


def _best_of_both(m: Matcher, i: int, j: int, meaning: float) -> bool:
    """No text node left unpaired on either side shares more of the meaning of ``j`` (an old one) or of ``i`` (a new
    one) than the two share with each other."""
    a, b = m.a, m.b
    ta, tb = a.masked(i), b.masked(j)
    ca, cb = content(ta), content(tb)
    for k in texts(a, m.open_a):
        if k != i and not cb.isdisjoint(content(t := a.masked(k))) and likeness(t, tb).meaning > meaning:
            return False
    for k in texts(b, m.open_b):
        if k != j and not ca.isdisjoint(content(t := b.masked(k))) and likeness(ta, t).meaning > meaning:
            return False
    return True
