"""The match passes: exact anchors, titles, parents' votes, siblings, similarity, one-to-one."""

# Align two documents node by node: exact anchors, titles, parents' votes, siblings, similarity, one-to-one.
#
# The matcher only pairs nodes and says why; ``classify`` turns the pairs into classified changes. Identity inside a
# document is the node's position (``Rule.key`` can repeat when a release publishes a number twice), so every map
# here is position -> position.

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable
from operator import itemgetter
from typing import TypeVar

from rapidfuzz import fuzz

from ..model import Document, covered
from ..numbering import Level
from ..support.constructors import slot_filler
from .evidence import gate, has_other_source, may_follow, readmit, up_to
from .leftovers import Leftovers
from .likeness import Likeness
from .records import Pair, positions
from .refusals import drop_unkept
from .sides import UNNUMBERED as _UNNUMBERED
from .sides import prepared
from .similar import similar, similarity
from .slots import in_slot
from .thresholds import STRUCTURAL_CUTOFF

K = TypeVar("K")

# A keyword summary without a number compares as a rule.
_RULE_OR_UNNUMBERED = {int(Level.RULE), _UNNUMBERED}


class Matcher:
    def __init__(self, old: Document, new: Document, likeness: Likeness | None) -> None:
        self.a = prepared(old)
        self.b = prepared(new)
        self.likeness = likeness if likeness is not None else Likeness(STRUCTURAL_CUTOFF)
        # A complete source covers everything: no test per node.
        self.a_seen_by_b = [True] * len(old.rules) if new.coverage.complete else [covered(new, r) for r in old.rules]
        self.b_seen_by_a = [True] * len(new.rules) if old.coverage.complete else [covered(old, r) for r in new.rules]
        self.a2b: dict[int, int] = {}
        self.b2a: dict[int, int] = {}
        # The unpaired positions, kept as pairs are made and undone: after the first pass they are few.
        self.open_a: set[int] = set(positions(len(old.rules)))
        self.open_b: set[int] = set(positions(len(new.rules)))
        self.score: dict[int, float] = {}
        self.reason: dict[int, str] = {}
        # Pairs the evidence gate turned down: no later pass may make them again.
        self.rejected: set[tuple[int, int]] = set()
        # ... of which those it turned down for want of content there: looked at again once the leftovers moved some.
        self.turned_down: set[tuple[int, int]] = set()
        # ... of which the uncertain links given up at the end (refusals.drop_unkept): a removed rule's refusal
        # names the text its link went to (refusals.py).
        self.refused: set[tuple[int, int]] = set()
        # The links the leftovers made as closer counterparts than the ones by place (leftovers.prefer_better).
        self.closer: set[tuple[int, int]] = set()
        self.uncertain: set[int] = set()
        self.same: set[int] = set()  # old positions paired on equal raw content

    # -- bookkeeping ---------------------------------------------------------------------------

    def pair(self, i: int, j: int, score: float, reason: str) -> bool:
        if (i, j) in self.rejected:
            return False
        self.a2b[i] = j
        self.b2a[j] = i
        self.open_a.discard(i)
        self.open_b.discard(j)
        self.score[i] = score
        self.reason[i] = reason
        return True

    def unpair(self, i: int) -> None:
        j = self.a2b.pop(i)
        self.uncertain.discard(i)
        self.same.discard(i)
        del self.b2a[j]
        self.open_a.add(i)
        self.open_b.add(j)
        del self.score[i]
        del self.reason[i]
        self.rejected.add((i, j))

    def keep(self, pairs: Iterable[Pair], flipped: bool) -> None:
        """Make ``pairs`` (the caller's way round: ``flipped`` when this matcher runs new -> old) before the
        passes, as they were made: a second matching of the same releases re-pairs only what changed."""
        for p in pairs:
            i, j = (p.new, p.old) if flipped else (p.old, p.new)
            self.a2b[i] = j
            self.b2a[j] = i
            self.score[i] = p.score
            self.reason[i] = p.reason
            if p.uncertain:
                self.uncertain.add(i)
            if p.same:
                self.same.add(i)
        self.open_a.difference_update(self.a2b)
        self.open_b.difference_update(self.b2a)

    def free_a(self) -> list[int]:
        return sorted(self.open_a)

    def free_b(self) -> list[int]:
        return sorted(self.open_b)

    def compatible(self, i: int, j: int) -> bool:
        la, lb = self.a.level[i], self.b.level[j]
        if la == _UNNUMBERED or lb == _UNNUMBERED:
            return la == lb or int(Level.RULE) in (la, lb)
        return la == lb

    # -- passes ---------------------------------------------------------------------------------

    def same_content(self) -> None:
        """Nodes of one level whose raw text and examples occur once in each document pair first: equal raw
        text is equal comparison text, so these are the pairs ``exact_unique`` would make of them, found
        without normalising or masking anything -- most nodes of every real pair, whose comparison forms are
        then never worked out. (Counted without the level: a text printed at two levels waits for the
        later passes, which compare it with its level.)"""
        lv_a, lv_b = self.a.level, self.b.level
        a2b, b2a, score, reason = self.a2b, self.b2a, self.score, self.reason
        kept = bool(a2b)  # pairs kept from an earlier matching (see keep): never overwritten
        made: list[int] = []
        unique_b = self.b.unique_raw
        for k, i in self.a.unique_raw.items():
            j = unique_b.get(k)
            if j is None:
                continue
            if kept and (i in a2b or j in b2a):
                continue
            la, lb = lv_a[i], lv_b[j]
            if la == lb or {la, lb} == _RULE_OR_UNNUMBERED:
                # ``pair`` written out (nothing is rejected yet): most nodes of a pair pair here.
                a2b[i] = j
                b2a[j] = i
                score[i] = 1.0
                reason[i] = "same text"
                made.append(i)
        self.same.update(made)
        self.open_a.difference_update(a2b)
        self.open_b.difference_update(b2a)

    def exact_unique(self) -> None:
        """Heckel/patience anchors: a comparison text that occurs once on each side pairs."""
        fa, fb = self.free_a(), self.free_b()
        key_a, key_b = self.a.key, self.b.key
        for i, j in _once_on_both(fa, [key_a(i) for i in fa], fb, [key_b(j) for j in fb]):
            self.pair(i, j, 1.0, "same text")  # (a pair the gate turned down is not made again)

    def titles(self) -> None:
        """Headed rules, headings and sections pair by a title that is unique on both sides."""
        ta, tb = self.a.title, self.b.title
        for levels in ((int(Level.SECTION),), (int(Level.HEADING),), (int(Level.RULE), _UNNUMBERED)):
            fa = [i for i in self.free_a() if self.a.level[i] in levels and ta(i)]
            fb = [j for j in self.free_b() if self.b.level[j] in levels and tb(j)]
            for i, j in _once_on_both(fa, [ta(i) for i in fa], fb, [tb(j) for j in fb]):
                sim = fuzz.ratio(self.a.body(i), self.b.body(j)) / 100
                self.pair(i, j, max(sim, 0.9), f"same title {self.a.rules[i].title!r}; text {sim:.2f}")

    def titles_across_levels(self) -> None:
        """A titled rule that became a heading, or the reverse (the July 2009 rewrite: 212.2 Artifacts
        became 301 Artifacts, 217.2 Library 401 Library): a numbered title that occurs once in each
        whole document pairs whatever the levels; the children then follow by ``siblings``."""
        levels = (int(Level.SECTION), int(Level.HEADING), int(Level.RULE), int(Level.SUBRULE))
        ta, tb = self.a.title, self.b.title
        titled_b = [j for j in self.free_b() if self.b.level[j] in levels and tb(j)]
        titled_a = [i for i in self.free_a() if self.a.level[i] in levels and ta(i)]
        if not titled_a or not titled_b:
            return  # the whole documents' titles are counted only when there is something to pair
        count_a, count_b = self.a.title_count, self.b.title_count
        where_b = {tb(j): j for j in titled_b if count_b[tb(j)] == 1}
        for i in titled_a:
            t = ta(i)
            if count_a[t] != 1 or t not in where_b:
                continue
            j = where_b[t]
            if j in self.b2a:
                continue
            la, lb = self.a.rules[i].number, self.b.rules[j].number
            assert la is not None and lb is not None
            self.pair(
                i,
                j,
                0.9,
                f"same title {self.a.rules[i].title!r}; {la.level.name.lower()} became {lb.level.name.lower()}",
            )

    def parent_votes(self) -> None:
        """An unpaired parent follows the majority of its paired children."""
        changed = True
        while changed:
            changed = False
            for i in self.free_a():
                kids = self.a.children[i]
                if not kids:
                    continue
                lv = self.a.level[i]
                votes = Counter(self._voted(i, self.b.parent[self.a2b[c]], lv) for c in kids if c in self.a2b)
                votes.pop(-1, None)
                if not votes:
                    continue
                j, n = votes.most_common(1)[0]
                if j in self.b2a or not may_follow(self, i, j) or n * 2 < len([c for c in kids if c in self.a2b]):
                    continue
                sim = fuzz.ratio(self.a.key(i), self.b.key(j)) / 100
                ta, tb = self.a.title(i), self.b.title(j)
                # (a majority of either side's children: read from either side, both orientations agree -- 2009's
                # 217.7 Removed from the Game sent three of its four subrules to 406 Exile's seven)
                weak = n * 2 < min(len(kids), len(self.b.children[j])) and (n < 2 or (ta and tb and ta != tb))
                if weak and sim < 0.6:
                    # One stray child (or two under differently named rules) is not a majority vote.
                    continue
                if bool(ta) != bool(tb) and self.own_text_from_elsewhere(i, j):
                    continue
                if self.pair(i, j, max(sim, 0.8), f"{n} of its {len(kids)} subrules went with it; text {sim:.2f}"):
                    changed = True

    def _voted(self, i: int, up: int, level: int) -> int:
        """The node a child of ``i`` votes for, ``up`` the parent of its counterpart: that parent or its ancestor at
        ``i``'s level, or the parent itself when it is a titled rule ``i`` may follow (2009's heading 406 Exile is
        217.7 Removed from the Game's, the other way round)."""
        if up >= 0 and self.b.level[up] > level and self.b.rules[up].title and may_follow(self, i, up):
            return up
        return up_to(self.b, up, level)

    def own_text_from_elsewhere(self, i: int, j: int) -> bool:
        """One of the two has words of its own, the other only a title: those words need a source, and
        an unpaired node under the counterpart of their parent is like them (2009-07: 204.1 "The type
        line is printed ..." came from 205.1, not from 212.1 General, whose subrules moved under it).
        Read from either side, so both orientations agree."""
        if self.a.title(i):
            return has_other_source(self.b, j, self.a, self.b2a, self.a2b, i)
        return has_other_source(self.a, i, self.b, self.a2b, self.b2a, j)

    def siblings(self) -> None:
        """Under paired parents, unpaired children pair in order: identical texts first (there are
        dozens of repeated sentences in a release), then the most similar."""
        # Only parents with an unpaired child have work; in order (one's pairs are the next's bonus).
        parents = sorted({p for p in (self.a.parent[c] for c in self.open_a) if p in self.a2b})
        for i in parents:
            j = self.a2b[i]
            ka = [c for c in self.a.children[i] if c not in self.a2b]
            kb = [c for c in self.b.children[j] if c not in self.b2a]
            if not ka or not kb:
                continue
            self._pair_in_order(ka, kb, "same text, same parent")
            ka = [c for c in ka if c not in self.a2b]
            kb = [c for c in kb if c not in self.b2a]
            if ka and kb:
                similar(self, ka, kb, STRUCTURAL_CUTOFF, "same parent", bonus_same_number=True)

    def _pair_in_order(self, ka: list[int], kb: list[int], reason: str) -> None:
        by_key: dict[str, list[int]] = defaultdict(list)
        for j in kb:
            by_key[self.b.key(j)].append(j)
        seen: Counter[str] = Counter()
        for i in ka:
            k = self.a.key(i)
            cands = by_key.get(k)
            if cands and seen[k] < len(cands):
                j = cands[seen[k]]
                seen[k] += 1
                if j not in self.b2a:
                    self.pair(i, j, 1.0, reason)

    def duplicates(self) -> None:
        """Texts repeated within a release pair by order of position, among nodes of the same level
        whose parents are paired to each other, or else in document order."""
        fa, fb = self.free_a(), self.free_b()
        ga: dict[str, list[int]] = defaultdict(list)
        gb: dict[str, list[int]] = defaultdict(list)
        for i in fa:
            ga[self.a.key(i)].append(i)
        for j in fb:
            gb[self.b.key(j)].append(j)
        for k, ia in ga.items():
            jb = gb.get(k)
            if not jb:
                continue
            for i in ia:
                pi = self.a.parent[i]
                want = self.a2b.get(pi, -2)
                found = next((j for j in jb if j not in self.b2a and self.b.parent[j] == want), None)
                if found is None and len(ia) == len(jb):
                    found = next((j for j in jb if j not in self.b2a), None)
                if found is not None:
                    self.pair(i, found, 1.0, "same text; repeated text paired by parent and order")

    def similarity(self) -> None:
        """Everything left, by level: similarity with a cut-off, greedy one-to-one (similar.py)."""
        similarity(self)

    def run(self, flipped: bool = False) -> list[Pair]:
        """The pairs, by old position; ``flipped``: this matcher runs new -> old, so each pair is turned
        round (and ordered by the caller's old position) as it is made."""
        self.same_content()
        self.exact_unique()
        self.titles()
        self.titles_across_levels()
        self.parent_votes()
        self.siblings()
        self.duplicates()
        self.exact_unique()
        self.similarity()
        self.parent_votes()
        self.siblings()
        # Passes run again after the gate may make new weak links; the last gate has the final word.
        for _ in range(4):
            if not gate(self):
                break
            self.similarity()
            self.parent_votes()
            self.siblings()
        else:
            gate(self)
        # What is left, against what is left of the whole release; the passes again for what that freed or paired.
        leftovers = Leftovers(self, self.likeness.indexes)
        for _ in range(2):
            if not (leftovers() | readmit(self)):
                break
            self.parent_votes()
            self.siblings()
            gate(self)
        drop_unkept(self)
        slotted = in_slot(self)
        # (a rule rewritten in its slot is kept on less than half of its meaning, as a closer counterpart is)
        self.closer = leftovers.closer | slotted
        score, reason, uncertain, same = self.score, self.reason, self.uncertain, self.same
        # In the caller's old order, each pair the caller's way round.
        items = sorted(self.a2b.items(), key=_second) if flipped else sorted(self.a2b.items())
        make = _turned_pair if flipped else _pair
        return [
            make(i, j, s if (s := score[i]) == 1.0 else round(s, 4), reason[i], i in uncertain, i in same)
            for i, j in items
        ]


# One per paired node: made without the frozen __init__'s cost (support/constructors.py).
_pair = slot_filler(Pair, "old new score reason uncertain same")
_second = itemgetter(1)


# The pair (i, j) of a matcher that ran new -> old, as its caller reads it: the same constructor, its first two
# arguments the other way round.
_turned_pair = slot_filler(Pair, "new old score reason uncertain same")


def match(
    old: Document,
    new: Document,
    likeness: Likeness | None = None,
    kept: Iterable[Pair] = (),
    refused: set[tuple[int, int]] | None = None,
    closer: set[tuple[int, int]] | None = None,
) -> list[Pair]:
    """Pair the nodes of ``old`` with those of ``new`` one-to-one (positions into ``.rules``).

    The passes are greedy, so they run in one canonical orientation (by content hash) and the result
    is inverted when asked the other way round: aligning A->B and B->A gives inverse maps. ``likeness``
    remembers text similarities between calls (one alignment matches twice when a term was renamed);
    it must be made with STRUCTURAL_CUTOFF. ``kept``: pairs of an earlier matching that stand as they were
    (the second matching after a rename re-pairs the rules it touched). ``refused`` and ``closer`` get the
    links (old, new) this matching gave up and those it made as closer counterparts than the ones by place."""
    flipped = _orientation(old) > _orientation(new)
    m = Matcher(new, old, likeness) if flipped else Matcher(old, new, likeness)
    m.keep(kept, flipped=flipped)
    pairs = m.run(flipped=flipped)
    for theirs, ours in ((refused, m.refused), (closer, m.closer)):
        if theirs is None:
            continue
        if flipped:
            theirs.update((j, i) for i, j in ours)
        else:
            theirs.update(ours)
    return pairs


def _once_on_both(a: Iterable[int], keys_a: list[K], b: Iterable[int], keys_b: list[K]) -> list[tuple[int, int]]:
    """The positions of ``a`` and ``b`` whose key occurs exactly once among each side's keys, paired (Heckel's
    unique anchors), in ``a``'s order."""
    count_a, count_b = Counter(keys_a), Counter(keys_b)
    where_b = {k: j for j, k in zip(b, keys_b, strict=True) if count_b[k] == 1}
    return [(i, where_b[k]) for i, k in zip(a, keys_a, strict=True) if count_a[k] == 1 and k in where_b]


def _orientation(doc: Document) -> tuple[str, str, int]:
    return (doc.version.sha256, doc.version.label, len(doc.rules))
