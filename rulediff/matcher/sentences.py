"""Sentences of a text that a text left unpaired on the other side says nearly as they stand: parts of its split."""

# A rule is removed only when no new text carries most of its words, and a link names every place its text went. The
# passes pair whole texts, so when a rule's sentences went their own ways the link names the one that took most and
# the others are left added: 2009-07-11's 400.3 is the old 217.1a's first sentence, and 400.4 its second ("If an
# instant or sorcery card would come into play, it remains in its previous zone", now "enter the battlefield");
# 613.11 is 419.6h's first two sentences word for word, 613.11a and 613.11b the other two. Here, after the links and
# groups are made, a run of a text's sentences that a text left unpaired on the other side says nearly as they stand
# makes that text a part of its split (or a member of its merge, the other way round). One rule both ways round but
# for what a text left unpaired itself must have said again: an old one, at least half its words (COVERED), for what is
# left of it to be carried (2003-07-01's 308.2c is one of the six sentences of 308.2, which became the whole of the
# steps of declaring attackers: 308.2 is not linked to it); a new one, any run of its sentences, for the old text
# saying it is carried whole (2001-07-23's 214.9a opens with the old 214.9a and goes on). So aligning B -> A mirrors
# A -> B but where an unpaired new text opens with an unpaired old one and says more.

from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import replace
from typing import NamedTuple

from rapidfuzz import fuzz

from ..text import sentences, words
from .held import HELD_TEXT
from .leftovers import texts
from .meaning import content
from .records import Grouping, Pair
from .sides import Side
from .splits import COVERED
from .thresholds import CONTAINED_WORDS


class Said(NamedTuple):
    """A text left unpaired that says a run of a holder's sentences: the node, its likeness to the run, and the run
    (the first sentence and the one past the last, counted from 0)."""

    node: int
    like: float
    first: int
    last: int


# Where a sentence ends inside a text, and another begins (text.sentences splits there).
_ENDS = re.compile(r"[.!?][\"'\u201d\u2019]?\s")

# Runs of at most this many sentences are read against a text (a rule's sentences went to a rule of one, two or three
# of them).
RUN = 3


def said_again(
    s: Side, o: Side, holders: dict[int, list[int]], free: list[int], alone: set[int]
) -> dict[int, list[Said]]:
    """The texts of ``free`` (nodes of ``o``) that say a run of a holder's sentences (a node of ``s``, a key of
    ``holders``, of two sentences or more) nearly as they stand -- HELD_TEXT alike, the likeness the held texts'
    sentences have to their holders (held.py) -- when the holder's counterparts (``holders``' values) do not say
    that run or a stretch of it: holder -> what says its runs. A free text saying runs of several holders, and one
    saying a sentence another free text says too (boilerplate: every step's "Then the active player gets
    priority"), are left out; so are
    those of a holder of ``alone`` (one with no counterpart) whose runs said again are less than COVERED of its
    words (a sentence of a rule rewritten whole: 2003-07-01's 308.2c is one of the six of 308.2, which became the
    steps of declaring attackers)."""
    bags = {x: bag for x in texts(o, free) if len(bag := content(o.masked(x))) >= CONTAINED_WORDS}
    if not bags:
        return {}
    # (headings and titled entries pair by title; a holder of one sentence has no run short of the whole: most rules)
    have = {k: content(t) for k in texts(s, holders) if _ENDS.search(t := s.masked(k))}
    runs: dict[int, list[tuple[str, int, int]]] = {}  # holder -> its runs (text, first sentence, past the last)
    said_by: dict[int, list[str]] = {}
    cutoff = HELD_TEXT * 100
    found: defaultdict[int, list[tuple[int, int, float]]] = defaultdict(list)  # free node -> (holder, run, likeness)
    for x, ks in near(bags, have).items():
        tx = o.masked(x)
        for k in ks:
            if k not in runs:
                runs[k], said_by[k] = _runs(s.masked(k))
            mine = runs[k]
            if not mine:
                continue  # (one sentence: the text whole is the passes' to pair)
            scores = [fuzz.ratio(run, tx) for run, _, _ in mine]
            best = max(range(len(mine)), key=lambda r: (scores[r], -r))
            run, like = mine[best][0], scores[best]
            if like < cutoff or any(fuzz.partial_ratio(run, o.masked(y)) >= cutoff for y in holders[k]):
                continue
            found[x].append((k, best, like / 100))
    # (how many texts say each sentence of a holder, every text found counted, whichever other holders it says)
    told: defaultdict[tuple[int, int], int] = defaultdict(int)
    for hits in found.values():
        for k, r, _ in hits:
            for at in range(*runs[k][r][1:]):
                told[k, at] += 1
    out: defaultdict[int, list[Said]] = defaultdict(list)
    covered: defaultdict[int, set[int]] = defaultdict(set)  # holder -> its sentences said again
    for x, hits in sorted(found.items()):
        if len(hits) != 1:
            continue
        k, r, like = hits[0]
        said = range(*runs[k][r][1:])
        if all(told[k, at] == 1 for at in said):
            out[k].append(Said(x, like, said.start, said.stop))
            covered[k].update(said)
    return {k: xs for k, xs in out.items() if k not in alone or _share(said_by[k], covered[k]) >= COVERED}


def near(bags: dict[int, frozenset[str]], have: dict[int, frozenset[str]]) -> dict[int, list[int]]:
    """For each text of ``bags`` (its content words), the holders of ``have`` with half its words at least: text ->
    those holders, in order. (A bar of this pass, not a bound of the likeness: a text saying a run nearly as it
    stands has most of its words there, and one sharing fewer, as alike in characters, is held to say something
    else: 2009-07-11's 605.4a, 0.72 like a sentence of the old 411.3 on 8 of its 18 words, is not taken.)
    A holder with none of the text's rarest words past that half has too few, so only those with one are counted
    (prefix filtering, as held._candidates)."""
    where: defaultdict[str, list[int]] = defaultdict(list)  # word -> the holders having it
    for k, words_k in have.items():
        for w in words_k:
            where[w].append(k)
    known = frozenset(where)
    rank = {w: len(ks) for w, ks in where.items()}
    out: dict[int, list[int]] = {}
    for x, bag in bags.items():
        need = (len(bag) + 1) // 2
        shared = bag & known
        if len(shared) < need:
            continue
        there = sorted(shared, key=rank.__getitem__)
        ks = [
            k
            for k in sorted({k for w in there[: len(there) - need + 1] for k in where[w]})
            if len(bag & have[k]) >= need
        ]
        if ks:
            out[x] = ks
    return out


def _runs(text: str) -> tuple[list[tuple[str, int, int]], list[str]]:
    """The runs of at most RUN of ``text``'s sentences short of the whole (the text, the first sentence and the one
    past the last), and its sentences; no runs for a text of one sentence."""
    said = sentences(text)
    if len(said) < 2:
        return [], said
    got = [(" ".join(said[i:j]), i, j) for i in range(len(said)) for j in range(i + 1, min(len(said), i + RUN) + 1)]
    return [r for r in got if r[0] != text], said


def _share(said: list[str], kept: set[int]) -> float:
    """The share of the words of sentences ``said`` that those at ``kept`` have."""
    counts = [len(words(x)) for x in said]
    return sum(counts[i] for i in kept) / (sum(counts) or 1)


def regroup_sentences(a: Side, b: Side, g: Grouping, cut: tuple[set[int], set[int]] = (set(), set())) -> None:
    """The text nodes no pair or group holds that say a run of a text's sentences on the other side
    (:func:`said_again`) join that text: a part of its split, old to new, or a member of its merge, new to old; a
    text unpaired as well is linked to the one, or split into (merged from) the several. The texts read are those
    unpaired, linked uncertainly, or whole of a split (merge) of theirs: a sure link names where the text went. A
    pair both split and merged into so is left as it is. ``g`` is added to. ``cut``: the old and new nodes a hand
    correction unlinked, left alone."""
    a2b, b2a, splits, merges = g.a2b, g.b2a, g.splits, g.merges
    free_a, free_b = g.free(len(a.rules), len(b.rules), cut)
    unsure = {p.old for p in g.pairs if p.uncertain}
    parts = {j for i, js in splits.items() for j in js[1:]}
    members = {i for j, olds in merges.items() for i in olds[1:]}
    holders_a: dict[int, list[int]] = {i: [] for i in free_a}
    holders_a.update((i, splits.get(i, [a2b[i]])) for i in unsure if i not in members and a2b[i] not in merges)
    holders_b: dict[int, list[int]] = {j: [] for j in free_b}
    holders_b.update((j, merges.get(j, [b2a[j]])) for i in unsure if (j := a2b[i]) not in parts and i not in splits)
    into_a = said_again(a, b, holders_a, free_b, set(free_a))
    into_b = said_again(b, a, holders_b, free_a, set())
    # (a free text both a part of one and holding parts of its own holds none; a pair both split and merged into
    # here is neither: the same either way round)
    told_a, told_b = _told(into_a), _told(into_b)
    both = {i for i in into_a if a2b.get(i, -1) in into_b}
    into_a = {i: xs for i, xs in into_a.items() if i not in told_b and i not in both}
    into_b = {j: xs for j, xs in into_b.items() if j not in told_a and b2a.get(j, -1) not in both}
    said: dict[int, str] = {}
    made: list[Pair] = []
    for side, found in enumerate((into_a, into_b)):
        s, o = (a, b) if side == 0 else (b, a)
        there, back, groups = (a2b, b2a, splits) if side == 0 else (b2a, a2b, merges)
        for k, xs in sorted(found.items()):
            xs = sorted(xs, key=_first)
            ks = [x.node for x in xs]
            why = _says(str(s.labels[k]), [(str(o.labels[x.node]), x) for x in xs], new=side == 1)
            if k in there:
                # (the holder's pair, or its group, takes them)
                groups[k] = [there[k], *sorted([*groups.get(k, [there[k]])[1:], *ks])]
                said[k if side == 0 else there[k]] = why
                continue
            made.append(Pair(*((k, ks[0]) if side == 0 else (ks[0], k)), xs[0].like, why, uncertain=True))
            there[k], back[ks[0]] = ks[0], k
            if len(ks) > 1:
                groups[k] = [ks[0], *sorted(ks[1:])]
    if said or made:
        pairs = [
            replace(p, reason=f"{p.reason}; {said[p.old]}", uncertain=True) if p.old in said else p for p in g.pairs
        ]
        g.pairs = sorted([*pairs, *made], key=lambda p: p.old)


def _first(x: Said) -> tuple[float, int, int]:
    """The order of the texts saying a holder's runs: the one a new link goes to first, the most alike (on ties,
    the one saying the earliest sentences)."""
    return (-x.like, x.first, x.node)


def _told(found: dict[int, list[Said]]) -> set[int]:
    """The free texts ``found`` makes parts of a holder's group."""
    return {x.node for xs in found.values() for x in xs}


def _says(holder: str, parts: list[tuple[str, Said]], new: bool) -> str:
    """The reason of a group made here: "400.4 is 217.1a's sentence 2 nearly as it stands (text 0.86)", the sides
    named where the numbers are the same ("the old 214.9a is the new 214.9a's sentence 1 ..."); ``new``: the holder
    is the new text."""
    out = []
    for label, x in parts:
        one = x.last == x.first + 1
        which = f"sentence {x.first + 1}" if one else f"sentences {x.first + 1}-{x.last}"
        names = (label, holder)
        if label == holder:
            names = (f"the {'old' if new else 'new'} {label}", f"the {'new' if new else 'old'} {holder}")
        out.append(f"{names[0]} is {names[1]}'s {which} nearly as {'it stands' if one else 'they stand'}")
        out[-1] += f" (text {x.like:.2f})"
    return "; ".join(out)
