"""Old and new text of a change with the words each side lacks marked, cut to what changed."""

# Old and new text of a change with the words each side lacks marked, whole words only; long texts cut down to the
# stretches around their changes, long lists to the items that came and went.

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from collections import Counter
from dataclasses import dataclass
from itertools import accumulate

from ..references import find_references
from ..words.diff import Op, Piece, word_diff
from .excerpts import shared_windows

# A rule longer than this shows only the stretches around its changes (whole words, "…" between), cut at the
# same sentence or clause bounds on both sides (excerpts.py).
LONG = 600
# A run of at least this many short comma-separated items is a list (205.3m's creature types).
LIST_ITEMS = 12


@dataclass(frozen=True, slots=True)
class Run:
    """A stretch of one side's text: ``changed`` marks whole words removed (old side) or added (new
    side); ``ref`` is the rule number a reference names (new side only); ``gap`` is an elision."""

    text: str
    changed: bool = False
    ref: str | None = None
    gap: bool = False


@dataclass(slots=True)
class Passage:
    """One side of a change as shown: a label ("Old", "New", "702.15a"), its runs, whether elided."""

    label: str
    runs: list[Run]
    excerpt: bool = False

    @property
    def text(self) -> str:
        return "".join(r.text for r in self.runs)


_TOKEN = re.compile(r"\s+|\S+")
_NUMBER = re.compile(r"[1-9]\d{2}(?:\.\d{1,3}[a-z]{0,2})?")


def _flags(pieces: list[Piece]) -> tuple[tuple[str, list[bool]], tuple[str, list[bool]]]:
    """Each side's text and a changed flag per character."""
    old: list[str] = []
    new: list[str] = []
    fo: list[bool] = []
    fn: list[bool] = []
    for p in pieces:
        if p.op == Op.EQUAL:
            old.append(p.text)
            new.append(p.text)
            fo += [False] * len(p.text)
            fn += [False] * len(p.text)
        elif p.op == Op.MUTED:
            old.append(p.old)
            new.append(p.text)
            fo += [False] * len(p.old)
            fn += [False] * len(p.text)
        elif p.op == Op.DELETE:
            old.append(p.text)
            fo += [True] * len(p.text)
        else:
            new.append(p.text)
            fn += [True] * len(p.text)
    return ("".join(old), fo), ("".join(new), fn)


# A token of one side as _words reads it: (text, is space, changed, the rule number it names).
_Word = tuple[str, bool, bool, "str | None"]


def _number_spans(text: str) -> list[tuple[int, int, str]]:
    """(start, end, number) of each rule number the references in ``text`` name, in order (references never
    overlap, and come sorted; a number holds no space, so it lies inside one token)."""
    out: list[tuple[int, int, str]] = []
    for ref in find_references(text):
        for m in _NUMBER.finditer(ref.text):
            out.append((ref.start + m.start(), ref.start + m.end(), m.group()))
    return out


def _words(text: str, flags: list[bool], link: bool) -> list[_Word]:
    """Tokens of one side; a word is changed when any of its characters is (whole words, never cut)."""
    refs = _number_spans(text) if link else []
    # Looked up by position, not scanned per word (a long rule has hundreds of words): changed characters
    # counted up to each position, and the references in order.
    changed_before = [0, *accumulate(flags)]
    starts = [r[0] for r in refs]
    out: list[_Word] = []
    add = out.append
    for m in _TOKEN.finditer(text):
        a, b = m.span()
        t = m.group()
        if t[0].isspace():  # (a token is all spaces or none)
            add((t, True, False, None))
            continue
        changed = changed_before[b] > changed_before[a]
        if not refs or (x := bisect_left(starts, a)) == len(starts) or starts[x] > b:
            add((t, False, changed, None))
            continue
        at = a
        for s, e, n in refs[x : bisect_right(starts, b)]:  # (each ends inside the token: it holds no space)
            if s > at:
                add((text[at:s], False, changed, None))
            add((text[s:e], False, changed, n))
            at = e
        if at < b:
            add((text[at:b], False, changed, None))
    return out


def _runs(words: list[_Word], shown: list[tuple[int, int]] | None) -> tuple[list[Run], bool]:
    """Merge words into runs; a changed run spans the spaces between its words. With ``shown`` (the stretches
    of the side's text an excerpt keeps, at word bounds), keep only the words inside them and put a gap where
    others were."""
    keep: list[bool] | None = None
    elided = False
    if shown:
        elided = True
        keep = [False] * len(words)
        at = span = 0
        for k, w in enumerate(words):
            while span < len(shown) and shown[span][1] <= at:
                span += 1
            keep[k] = not w[1] and span < len(shown) and shown[span][0] <= at
            at += len(w[0])
        for k in range(1, len(words) - 1):
            if words[k][1] and keep[k - 1] and keep[k + 1]:
                keep[k] = True
    # Runs made whole: the texts of the run under way (one that may take the next piece: neither a reference
    # nor a gap) gathered and joined once it ends, not a run made again for every word it takes.
    runs: list[Run] = []
    parts: list[str] = []
    marked = False  # whether the run under way is changed
    last = len(words) - 1

    def close() -> None:
        """End the run under way, if any."""
        if parts:
            runs.append(Run("".join(parts), marked))
            parts.clear()

    for k, (text, space, changed, ref) in enumerate(words):
        if keep is not None and not keep[k]:
            if parts or not runs or not runs[-1].gap:
                close()
                runs.append(Run(" \u2026 " if runs else "\u2026 ", False, None, True))
            continue
        if space:
            changed = 0 < k < last and words[k - 1][2] and words[k + 1][2]
        elif ref is not None:
            close()
            runs.append(Run(text, changed, ref))
            continue
        if parts and marked != changed:
            close()
        if not parts:
            marked = changed
        parts.append(text)
    close()
    if runs and runs[-1].gap:
        runs[-1] = Run(" \u2026", gap=True)
    return runs, elided


def marked(old: str, new: str, number_map: dict[str, str | list[str]], link: bool = True) -> tuple[Passage, Passage]:
    """The old and the new text, each with the words the other lacks marked; long texts excerpted."""
    pieces = word_diff(old, new, number_map)
    (ot, of), (nt, nf) = _flags(pieces)
    shown = shared_windows(pieces) if max(len(old), len(new)) > LONG else None
    o_runs, o_cut = _runs(_words(ot, of, False), shown[0] if shown else None)
    n_runs, n_cut = _runs(_words(nt, nf, link), shown[1] if shown else None)
    return Passage("Old", o_runs, o_cut), Passage("New", n_runs, n_cut)


def marked_by_parts(
    whole: str, parts: list[str], number_map: dict[str, str | list[str]], new: bool, link: bool = True
) -> Passage:
    """``whole`` (a split's old text, or with ``new`` a merge's new one) with the words none of ``parts`` has marked:
    read against the parts put together and against each alone, a character is marked only when every reading
    lacks it (a part that says the first sentences may stand anywhere in the release: 2009-07-11's 419.6h opens
    with 613.11's two sentences, and its split stands by 613.11a). Long texts excerpted as against the parts put
    together; references linked (``link``) in a new text only."""
    side = int(new)

    def read(other: str) -> tuple[list[Piece], tuple[str, list[bool]]]:
        pieces = word_diff(other, whole, number_map) if new else word_diff(whole, other, number_map)
        return pieces, _flags(pieces)[side]

    together, (text, flags) = read("\n".join(parts))
    for part in parts if len(parts) > 1 else ():
        alone, kept = read(part)[1]
        if alone == text:
            flags = [a and b for a, b in zip(flags, kept, strict=True)]
    shown = shared_windows(together) if len(whole) > LONG else None
    runs, cut = _runs(_words(text, flags, link and new), shown[side] if shown else None)
    return Passage("", runs, cut)


def plain(label: str, text: str, link: bool = False) -> Passage:
    """``text`` with nothing marked: one run, cut where (with ``link``) a reference names a rule number. The
    runs _runs makes of its words, without making a word each (a new rule, most of a long jump's notes)."""
    runs: list[Run] = []
    at = 0
    for s, e, n in _number_spans(text) if link else ():
        if s > at:
            runs.append(Run(text[at:s]))
        runs.append(Run(text[s:e], False, n))
        at = e
    if at < len(text):
        runs.append(Run(text[at:]))
    return Passage(label, runs)


_ITEM_SPLIT = re.compile(r",\s+(?:and\s+|or\s+)?")


def _items(text: str) -> tuple[str, list[str]] | None:
    """The longest comma list in ``text`` (its sentence) and its items, when it is a real list."""
    best: tuple[str, list[str]] | None = None
    for sentence in re.split(r"(?<=[.:;])\s+", text):
        items = [i.strip().rstrip(".") for i in _ITEM_SPLIT.split(sentence)]
        short = sum(len(i.split()) for i in items) <= 3 * len(items)
        if len(items) >= LIST_ITEMS and short and (best is None or len(items) > len(best[1])):
            best = (sentence, items)
    return best


def list_change(old: str, new: str) -> tuple[list[str], list[str]] | None:
    """Items added to and removed from a long list, when the list is all that changed."""
    a, b = _items(old), _items(new)
    if a is None or b is None or old.replace(a[0], "\0") != new.replace(b[0], "\0"):
        return None
    # The first item carries the list's lead-in ("...one word long: Advisor"): compare the last word.
    first_a, first_b = a[1][0], b[1][0]
    ia = [first_a.split()[-1], *a[1][1:]] if first_a else a[1]
    ib = [first_b.split()[-1], *b[1][1:]] if first_b else b[1]
    if a[1][0].rsplit(" ", 1)[0] != b[1][0].rsplit(" ", 1)[0]:
        return None
    added = list((Counter(ib) - Counter(ia)).elements())
    removed = list((Counter(ia) - Counter(ib)).elements())
    if not added and not removed:
        return None
    return added, removed
