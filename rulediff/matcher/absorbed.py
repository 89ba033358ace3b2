"""Old texts taken into a new rule that continues another: merges into a rule that already existed."""

# A rule is removed only when no new text carries most of its words. The passes pair one to one, so an old text
# whose words went into a new rule that continues another old rule is left removed, or linked by place to a worse
# counterpart: 2003-07-01's 406.4 continues 406.1e and opens with 406.1d's sentence (406.1d was linked to 406.5);
# 2023-04-14's 712.4 continues 713.1 and says what 712.1g said. Here such a text joins that rule's link as a merge.

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from .leftovers import texts
from .meaning import Likeness, content
from .records import Pair
from .sides import Side
from .thresholds import ABSORBED, ABSORBED_GAIN, ABSORBED_OWN, CONTAINED_WORDS, STANDS


def absorbed(
    a: Side, b: Side, pairs: Iterable[Pair], taken_old: set[int], taken_new: set[int]
) -> dict[int, tuple[int, float]]:
    """The old text nodes, removed or linked uncertainly on weak text, most of whose meaning (ABSORBED of their
    content words, CONTAINED_WORDS of them at least) a new node continuing another old node holds -- more of it,
    and more alike, than their own link: old position -> (that new node, the share of its words held there).
    ``taken_old`` / ``taken_new``: nodes already in a split or merge, left as they are."""
    linked: dict[int, Pair] = {}
    homes: dict[int, int] = {}  # new node -> the old node it continues, for edited links only
    for p in pairs:
        linked[p.old] = p
        if not p.same and p.old not in taken_old and p.new not in taken_new:
            homes[p.new] = p.old
    n_old = len(a.rules)
    loose = [i for i in range(n_old) if i not in linked and i not in taken_old]
    loose += [i for i, p in linked.items() if p.uncertain and i not in taken_old and p.new not in taken_new]
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
        if not cands:
            continue
        now = linked.get(i)
        at = now.new if now is not None else -1
        here = Likeness(text, b.masked(at)) if now is not None else None
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
