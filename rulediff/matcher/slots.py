"""A rule rewritten at its own number, between neighbours that kept theirs: linked, or its weak link flagged."""

# A rule is removed only when no new text carries most of its words -- or when its own place holds it rewritten. A
# short rule rewritten at its own number shares too few words with its new text for any pass (2019-05-03's 117.9b,
# "Alternative costs are always optional." -> "Alternative costs are generally optional. An effect that allows you
# to cast a spell may require ..."; 2020-01-24's 702.102c, which the Update Bulletin calls revised), so it came out
# removed and its new text added. Here, after every other pass, an old text left unpaired whose neighbours before
# and after went to the nodes before and after the new text of its number, under parents paired with each other,
# is linked to that text when they share a quarter of their meaning (KEPT_MEANING, the least a link keeps). Read by
# hand over every consecutive pair, such links were right six times in seven (ONE wrong: 2016-04-08's 711.1a, whose
# words went nowhere, the new 711.1a being half of the old 711.1b, which holds more of its meaning: so a text left
# unpaired on either side that shares more of the meaning of one of them leaves both alone). Flagged uncertain; and
# so are the links the passes made in such a slot on as little of the meaning (:func:`_weak_in_slot`).

from __future__ import annotations

from .leftovers import Matcher, texts
from .meaning import content, likeness
from .thresholds import KEPT_MEANING, PLACED_MEANING, RESCUE_TEXT


def in_slot(m: Matcher) -> set[tuple[int, int]]:
    """Pair each text node of ``m.a`` left unpaired with the unpaired node of ``m.b`` in its slot: the node after
    the one its previous node went to, just before the one its next node went to, at its number and level, under
    its parent's counterpart, when they share KEPT_MEANING of their meaning. Flagged uncertain. The same read from
    either side. The links made, which stand though they keep less than half of the meaning (refusals.unkept)."""
    a, b, a2b, b2a = m.a, m.b, m.a2b, m.b2a
    made: set[tuple[int, int]] = set()
    for i in texts(a, sorted(k for k in m.open_a if 0 < k < len(a.rules) - 1)):
        before, after = a2b.get(i - 1), a2b.get(i + 1)
        if before is None or after != before + 2:
            continue
        j = before + 1
        if j in b2a or a.labels[i] is None or a.labels[i] != b.labels[j] or a.level[i] != b.level[j]:
            continue
        up = a.parent[i]
        if up < 0 or a2b.get(up) != b.parent[j] or not texts(b, [j]):
            continue
        like = likeness(a.masked(i), b.masked(j))
        if like.meaning < KEPT_MEANING or not _best_of_both(m, i, j, like.meaning):
            continue
        why = f"text {like.ratio:.2f}, {like.meaning:.0%} of the meaning"
        if m.pair(i, j, like.ratio, f"{why}; the same rule rewritten at its own number, its neighbours kept theirs"):
            m.uncertain.add(i)
            made.add((i, j))
    return made | _weak_in_slot(m)


def _weak_in_slot(m: Matcher) -> set[tuple[int, int]]:
    """The links the passes made in a slot (at the same number, between neighbours that kept theirs, as
    :func:`in_slot` links) on texts sharing less than half their meaning and not alike as text (RESCUE_TEXT):
    flagged uncertain, as the slot links are, and kept as they are. Read by hand over every consecutive pair, such
    links were right about nine times in ten: 2002-10-07's 214.7b, "Plurality and gender are ignored when
    determining creature types." -> "Use the Oracle card reference when determining creature types", was not."""
    a, b, a2b, score = m.a, m.b, m.a2b, m.score
    out: set[tuple[int, int]] = set()
    for i in sorted(i for i, s in score.items() if s < 1.0 and i not in m.uncertain and i not in m.same):
        j = a2b[i]
        if i < 1 or a2b.get(i - 1) != j - 1 or a2b.get(i + 1, -1) != j + 1 or a.labels[i] != b.labels[j]:
            continue
        if a.labels[i] is None or not texts(a, [i]) or not texts(b, [j]):
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
    for k in texts(a, sorted(m.open_a)):
        if k != i and not cb.isdisjoint(content(t := a.masked(k))) and likeness(t, tb).meaning > meaning:
            return False
    for k in texts(b, sorted(m.open_b)):
        if k != j and not ca.isdisjoint(content(t := b.masked(k))) and likeness(ta, t).meaning > meaning:
            return False
    return True
