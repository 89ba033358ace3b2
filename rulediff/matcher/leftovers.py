"""After the structural passes: the unpaired nodes of the whole release against each other, and better counterparts."""

# After the structural passes, what is left unpaired is compared across the whole release -- every level, every
# section, whatever its parent -- so text that moved is paired wherever it went (2019-07-12's subrules 110.5a-g
# became rules 111.2-111.8 word for word; 2009's 410.7 became 603.2f). And a link made on weak text gives way to an
# unpaired node that is clearly the better counterpart (2023-10's 702.124g is 702.124j, not 702.124f).

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable, Iterator
from typing import Protocol

from ..numbering import Level
from .meaning import Likeness, content, likeness, stands
from .sides import Side
from .thresholds import (
    BETTER_BY,
    PLACED_MEANING,
    RESCUE_NEAR,
    RESCUE_TEXT,
    STANDS,
)

# A link whose texts are less alike than this stands on its place alone: a candidate alike in text may take it.
WEAK_LINK = 0.5
# A text of fewer content words than this is never taken for the same rule by being held whole in another.
SHORT_HELD_WORDS = 3
# A word held by more nodes than this (or than a fiftieth of them) brings no candidate (leftovers._Index).
COMMON_FROM = 20

# Nodes compared here: numbered texts, not titles (headings and titled rules pair by their titles and children) nor
# unnumbered keyword summaries (which pair by their keywords).
_TEXT_LEVELS = frozenset({int(Level.RULE), int(Level.SUBRULE)})


class Matcher(Protocol):
    """What this stage reads of a matcher under way (passes.Matcher)."""

    a: Side
    b: Side
    a2b: dict[int, int]
    b2a: dict[int, int]
    open_a: set[int]
    open_b: set[int]
    same: set[int]
    score: dict[int, float]
    reason: dict[int, str]
    uncertain: set[int]
    rejected: set[tuple[int, int]]
    refused: set[tuple[int, int]]

    def pair(self, i: int, j: int, score: float, reason: str) -> bool: ...

    def unpair(self, i: int) -> None: ...


def sure(like: Likeness, placed: float) -> bool:
    """A link made here stands on text alone: near-identical, or alike with most of each side's meaning, or a
    part held whole in the other under a paired parent."""
    return like.ratio >= RESCUE_NEAR or like.strong or (like.part and placed >= 10)


def texts(s: Side, nodes: Iterable[int]) -> list[int]:
    """The nodes of ``nodes`` compared as texts: numbered rules and subrules without a title, with some words."""
    level, rules = s.level, s.rules
    return [k for k in nodes if level[k] in _TEXT_LEVELS and not rules[k].title and content(s.masked(k))]


class ContentIndex:
    """The content words of the unpaired text nodes of one side, by word: which of them share enough meaning with
    a text. Nodes are added as they are found unpaired (a later pass may free some) and skipped once paired. Words
    many nodes hold ("player", "creature") find no candidate: each would bring dozens, and a text sharing only
    those with another shares no meaning of its own with it."""

    def __init__(
        self, s: Side, paired: dict[int, int], asked: frozenset[str] | None = None, earlier: ContentIndex | None = None
    ) -> None:
        # ``earlier``: an index of the same side made before, whose lists are taken (:meth:`_from_earlier`).
        self.side, self.paired, self.earlier = s, paired, earlier
        # The words of every text :meth:`near` will be asked about, when known: only those are indexed (the same
        # nodes found; a long jump's removed rules against a thousand homes, 46,000 words listed for 600 read).
        self.asked = asked
        self.where: defaultdict[str, list[int]] = defaultdict(list)
        self.size: dict[int, int] = {}
        self.common = COMMON_FROM
        # The nodes near a text, paired or not, as long as no node is indexed anew (the matcher asks again about
        # the same weak links each round).
        self.found: dict[str, list[int]] = {}

    def add(self, nodes: list[int]) -> list[int]:
        """Index those of ``nodes`` (unpaired) not indexed yet; all of them that are text nodes, in order."""
        fresh = [k for k in nodes if k not in self.size]
        if fresh and self.earlier is not None:
            fresh = self._from_earlier(fresh)
        if fresh:
            where, size, masked = self.where, self.size, self.side.masked
            level, rules, asked = self.side.level, self.side.rules, self.asked
            indexed = []
            for k in fresh:
                # (texts() written out: each node's words looked up once)
                if level[k] not in _TEXT_LEVELS or rules[k].title:
                    continue
                bag = content(masked(k))
                if not bag:
                    continue
                indexed.append(k)
                size[k] = len(bag)
                for w in bag if asked is None else bag & asked:
                    where[w].append(k)
            for k in fresh:
                size.setdefault(k, 0)
            common, self.common = self.common, max(COMMON_FROM, sum(1 for n in size.values() if n) // 50)
            if indexed and self.found:
                # What is near a text sharing no word with the nodes indexed now is what it was.
                if common != self.common:
                    self.found.clear()
                else:
                    now: set[str] = set()
                    for k in indexed:
                        now.update(content(masked(k)))
                    self.found = {t: ks for t, ks in self.found.items() if now.isdisjoint(content(t))}
        return [k for k in nodes if self.size[k]]

    def _from_earlier(self, fresh: list[int]) -> list[int]:
        """The first ``fresh`` nodes taken from an earlier index of the side holding most: its lists less the nodes
        ``fresh`` lacks (as indexing ``fresh`` makes them, in another order: :meth:`near` counts). The rest left."""
        earlier, self.earlier = self.earlier, None
        if earlier is None or earlier.side is not self.side or (earlier.asked, self.asked) != (None, None):
            return fresh
        have, wanted = earlier.size, set(fresh)
        gone, taken = [k for k, n in have.items() if n and k not in wanted], [k for k in fresh if k in have]
        if len(gone) > len(taken):
            return fresh  # (indexing afresh costs less)
        where, masked = self.where, self.side.masked
        where.update((w, ks.copy()) for w, ks in earlier.where.items())
        for k in gone:
            for w in content(masked(k)):
                where[w].remove(k)  # (a word's list left empty brings nothing, as a word not held)
        self.size.update((k, have[k]) for k in taken)
        self.found.clear()  # (asked about before anything was indexed: nothing was near)
        self.common = max(COMMON_FROM, sum(1 for n in self.size.values() if n) // 50)
        return [k for k in fresh if k not in have]

    def unpaired(self) -> bool:
        """Some indexed text node is unpaired."""
        paired = self.paired
        return any(n and k not in paired for k, n in self.size.items())

    def near(self, text: str) -> list[int]:
        """The unpaired nodes sharing at least two of the words of ``text`` that are not common, and two fifths
        of the smaller text's words."""
        paired = self.paired
        found = self.found.get(text)
        if found is None:
            get, common = self.where.get, self.common
            # (The lists of its words joined, and counted once: a Counter's update costs more than a list's.)
            held: list[int] = []
            bag = content(text)
            for w in bag:
                ks = get(w)
                if ks is not None and len(ks) <= common:
                    held += ks
            hits = Counter(held)
            size, sizes = len(bag), self.size
            found = self.found[text] = sorted(k for k, n in hits.items() if n >= 2 and n * 5 >= 2 * min(size, sizes[k]))
        return [k for k in found if k not in paired]


def _kin(m: Matcher, i: int, j: int) -> float:
    """Points for the places of a candidate pair: 10 when their parents are paired with each other, 5 when one's
    parent is paired with an ancestor of the other's further up (a rule that became a subrule under a sibling).
    The same read from either side."""
    up_a, up_b = m.a.parent[i], m.b.parent[j]
    if up_a >= 0 and m.a2b.get(up_a, -1) == up_b >= 0:
        return 10.0
    if _above(m.b.parent, up_b, m.a2b.get(up_a, -1) if up_a >= 0 else -1):
        return 5.0
    if _above(m.a.parent, up_a, m.b2a.get(up_b, -1) if up_b >= 0 else -1):
        return 5.0
    return 0.0


def _above(parent: list[int], k: int, target: int) -> bool:
    """``target`` is a strict ancestor of node ``k`` (``parent`` the side's parents)."""
    if target < 0 or k < 0:
        return False
    k = parent[k]
    while k >= 0:
        if k == target:
            return True
        k = parent[k]
    return False


def _placed(m: Matcher, i: int, j: int) -> float:
    """Points for the places of a candidate pair (:func:`_kin`), and 10 for a text that names the other's heading
    of two words or more (2007-10's "The illustration credit ..." under 209 Illustration Credit went to 210.1a, not
    to the new general rule 210.1)."""
    points = _kin(m, i, j)
    if points >= 10:
        return points  # (under parents paired with each other, a text naming their heading tells nothing apart)
    up_a, up_b = m.a.parent[i], m.b.parent[j]
    if (up_a >= 0 and " " in (t := m.a.title(up_a)) and t in m.b.folded(j)) or (
        up_b >= 0 and " " in (t := m.b.title(up_b)) and t in m.a.folded(i)
    ):
        points += 10  # (a title of one word, "Activate", is named by texts about many things)
    return points


def _own_number(m: Matcher, i: int, j: int, placed: float) -> bool:
    """Nodes ``i`` and ``j`` have the same number, under parents paired with each other (``placed``)."""
    return placed >= 10 and m.a.labels[i] is not None and m.a.labels[i] == m.b.labels[j]


def _keeps_every_word(m: Matcher, i: int, j: int, like: Likeness) -> bool:
    """A short rule rewritten at its own number that keeps every word of its meaning (2020-04-17's 100.5: "There
    is no maximum deck size." grew a sentence before it): too short for containment to count anywhere else
    (CONTAINED_WORDS), at its own place it is the same rule."""
    na, nb = len(content(m.a.masked(i))), len(content(m.b.masked(j)))
    return min(na, nb) >= SHORT_HELD_WORDS and (like.kept_a if na <= nb else like.kept_b) >= 1.0


def _structure(m: Matcher, i: int, j: int, placed: float) -> float:
    """Points for structure around a candidate pair: its places (``placed``: :func:`_placed`), its neighbours."""
    points = placed
    if i > 0 and j > 0 and m.a2b.get(i - 1) == j - 1:
        points += 4
    if m.a2b.get(i + 1, -1) == j + 1:
        points += 4
    return points


class Leftovers:
    """The unpaired text nodes of both sides paired across the whole release (:func:`rescue`), then weak links
    given up for clearly better counterparts (:func:`prefer_better`), as often as the matcher asks (what is
    unpaired is indexed once). ``kept``: an earlier matching's indexes by their side's id, given these (a rename's
    second matching indexes nearly the same nodes of the release it did not read anew)."""

    def __init__(self, m: Matcher, kept: dict[int, ContentIndex]) -> None:
        self.m = m
        kept[id(m.a)] = self.into_a = ContentIndex(m.a, m.a2b, earlier=kept.get(id(m.a)))
        kept[id(m.b)] = self.into_b = ContentIndex(m.b, m.b2a, earlier=kept.get(id(m.b)))
        # The links whose texts are too alike for a clearly closer counterpart (asked again each round).
        self.stand: dict[tuple[int, int], bool] = {}
        # The links made as closer counterparts than the ones by place.
        self.closer: set[tuple[int, int]] = set()

    def __call__(self) -> bool:
        """True when a link was made or moved."""
        m = self.m
        fa, fb = self.into_a.add(sorted(m.open_a)), self.into_b.add(sorted(m.open_b))
        if not fa and not fb:
            return False
        made = rescue(m, fa, self.into_b)
        return prefer_better(m, self.into_a, self.into_b, self.stand, self.closer) or made


_FOUND = "found among the unpaired rules of the whole release"
_AT_NUMBER = "the same rule rewritten at its own number, under parents paired with each other"


def rescue(m: Matcher, fa: list[int], into_b: ContentIndex) -> bool:
    """Every unpaired text node of one release against every unpaired text node of the other, whatever their
    levels and places: each pair that is near-identical, or alike with most of each side's meaning in the
    other (or, in places that agree, alike with half its meaning; or at its own number under parents paired with
    each other, half its meaning however unlike the text: 2025-07-25's 903.12c, the Brawl commander rule rewritten
    with Vehicles and Spacecraft, text 0.45, 64% of the meaning), and the best for both, is made (best first;
    structure decides between equals, as between the repeated sentences of a release). True when something was
    paired."""
    # (points, i, j, likeness, the link is sure, where it was found)
    cands: list[tuple[float, int, int, Likeness, bool, str]] = []
    for i in fa:
        text = m.a.masked(i)
        for j in into_b.near(text):
            if (i, j) in m.rejected:
                continue
            like = likeness(text, m.b.masked(j))
            placed = _placed(m, i, j)
            own = _own_number(m, i, j, placed)
            in_place = own and _keeps_every_word(m, i, j, like)
            alike = like.strong or (placed and like.placed) or in_place
            # (at its own number with half its meaning, however unlike the text: the same rule rewritten)
            at_number = own and not alike and like.meaning >= PLACED_MEANING
            if alike or at_number:
                points = like.rank + _structure(m, i, j, placed) * (2 if like.part else 1)
                cands.append((points, i, j, like, in_place or sure(like, placed), _AT_NUMBER if at_number else _FOUND))
    if not cands:
        return False
    cands.sort(key=lambda t: (-t[0], t[1], t[2]))
    best_a: dict[int, float] = {}
    best_b: dict[int, float] = {}
    for total, i, j, *_ in cands:
        best_a.setdefault(i, total)
        best_b.setdefault(j, total)
    made = False
    for total, i, j, like, certain, where in cands:
        if i in m.a2b or j in m.b2a or total < best_a[i] or total < best_b[j]:
            continue
        why = "same text" if like.ratio >= 1.0 else f"text {like.ratio:.2f}, {like.meaning:.0%} of the meaning"
        if m.pair(i, j, like.ratio, f"{why}; {where}"):
            made = True
            if not certain:
                m.uncertain.add(i)
    return made


def prefer_better(
    m: Matcher,
    into_a: ContentIndex,
    into_b: ContentIndex,
    stand: dict[tuple[int, int], bool] | None = None,
    closer: set[tuple[int, int]] | None = None,
) -> bool:
    """A link made on weak text gives way to unpaired nodes that are clearly the better counterparts (much closer
    text, or much more of the meaning): 2016-09-30's 503.1 is 503.1a's, not the new 503.1 it shares a number
    with -- or, both ends at once, to an unpaired node on each side (2016-09-30's 511.1 and 511.2 traded their
    texts). The nodes it leaves are unpaired again, for the passes that follow. True when something was
    relinked. ``stand``: of the links weighed before, those whose texts are too alike to give way."""
    if not (into_a.unpaired() or into_b.unpaired()):
        return False  # (no counterpart to give way to)
    level_a, level_b, same, score = m.a.level, m.b.level, m.same, m.score
    moves: list[tuple[float, int, int, list[tuple[int, int]]]] = []  # (gain, i, j, the links instead)
    cutoff = STANDS * 100
    a2b = m.a2b
    # (The links of equal texts, most of them, left out before sorting: every link has its score.)
    for i in sorted([i for i, s in score.items() if s < 1.0]):
        j = a2b[i]
        if i in same or level_a[i] not in _TEXT_LEVELS or level_b[j] not in _TEXT_LEVELS:
            continue
        if m.a.rules[i].title or m.b.rules[j].title:
            continue
        ta, tb = m.a.masked(i), m.b.masked(j)
        alike = stand.get((i, j)) if stand is not None else None
        if alike is None:
            alike = stands(ta, tb, cutoff)
            if stand is not None:
                stand[i, j] = alike
        if alike:
            continue  # texts this alike: no other can be clearly closer in both text and meaning
        xs = [x for x in into_b.near(ta) if x not in m.b2a and (i, x) not in m.rejected]
        ys = [y for y in into_a.near(tb) if y not in m.a2b and (y, j) not in m.rejected]
        if not xs and not ys:
            continue
        now = likeness(ta, tb)
        # A counterpart elsewhere, in a place worse than this one's, is a better one only when it is strong:
        # boilerplate ("Second, the active player gets priority") reads much the same under every step. The
        # places weigh in the comparison too (a tenth for a paired parent or a named heading).
        here = _placed(m, i, j)
        ends_b = _better_ends(now, here, ((x, likeness(ta, m.b.masked(x)), _placed(m, i, x)) for x in xs))
        ends_a = _better_ends(now, here, ((y, likeness(m.a.masked(y), tb), _placed(m, y, j)) for y in ys))
        moves.extend((gain, i, j, [(i, x)]) for x, gain, better in ends_b if better)
        moves.extend((gain, i, j, [(y, j)]) for y, gain, better in ends_a if better)
        if ends_b and ends_a:
            (x, gain_b, _), (y, gain_a, _) = ends_b[0], ends_a[0]
            if gain_a + gain_b + now.mean >= BETTER_BY:
                # (each end at least as good a counterpart as the link it leaves, the two together clearly better)
                moves.append((gain_a + gain_b + now.mean, i, j, [(i, x), (y, j)]))
    moves.sort(key=lambda t: (-t[0], t[1], t[3]))
    moved = False
    for _, i, j, links in moves:
        if m.a2b.get(i) != j or any((x != i and x in m.a2b) or (y != j and y in m.b2a) for x, y in links):
            continue
        m.unpair(i)
        for x, y in links:
            like = likeness(m.a.masked(x), m.b.masked(y))
            why = (
                f"text {like.ratio:.2f}, {like.meaning:.0%} of the meaning; a closer counterpart than the one by place"
            )
            m.pair(x, y, like.ratio, why)
            if closer is not None:
                closer.add((x, y))
            if not sure(like, _placed(m, x, y)):
                m.uncertain.add(x)
        moved = True
    return moved


def _better_ends(
    now: Likeness, here: float, cands: Iterator[tuple[int, Likeness, float]]
) -> list[tuple[int, float, bool]]:
    """The candidates for one end of a link (node, its likeness with the other end, the points of its place) no
    worse than the link and in no worse place unless strong, or unless the link stands on weak text and the
    candidate is alike in text with half the meaning (a long jump's 103.1a, 2020-01-24 -> 2023-06-16, went by
    place to a subrule about supplementary decks, text 0.46, while 103.2a, text 0.74, is its sideboard rule):
    (node, gain in text and meaning, clearly better), the best first."""
    out = []
    weak = now.ratio < WEAK_LINK
    for x, like, there in cands:
        better_text = weak and like.ratio >= RESCUE_TEXT and like.meaning >= PLACED_MEANING
        if not (like.strong or there >= here or better_text) or like.mean + (there - here) / 100 < now.mean:
            continue
        out.append((x, like.mean - now.mean, like.better_than(now, (there - here) / 100)))
    out.sort(key=lambda t: (-t[1], t[0]))
    return out
