"""Where the excerpts of a long changed text start and end: at one sentence or clause bound on both sides."""

# An excerpt cut differently on the two sides reads as a change that is not there ("Old: ... or a ..." beside "New:
# ... or ..."). So the bounds are chosen once, in the text both sides share (the diff's equal stretches), and each
# side is cut there: the same words around each change, old and new. A bound is a sentence's start or end when one
# is near enough, else a clause's (after a comma, a semicolon, a colon, a dash, before a parenthesis), else a
# word's, CONTEXT_WORDS away: never inside a word.

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from collections.abc import Iterator

from ..words.diff import Op, Piece

# Context runs to a sentence's bound at most this many words away, else to a clause's, else CONTEXT_WORDS words.
LIMIT_WORDS = 30
CONTEXT_WORDS = 12
# A clause's bound this near is passed over for a further one (within LIMIT_WORDS): "changes, ..." says little.
MIN_CLAUSE_WORDS = 6
# Two excerpts this few words apart are one.
JOIN_WORDS = 3
# Shown whole unless the excerpts leave out at least this share of the words.
LEFT_OUT = 0.2

Span = tuple[int, int]
_SENTENCE, _CLAUSE, _WORD = 0, 1, 2
_TOKEN = re.compile(r"\S+")
_CLOSERS = "\"')]\u201d\u2019"


def _ends(word: str) -> str:
    """The punctuation that ends ``word``, closing quotes and brackets passed over ("611.2f)." -> ".")."""
    stripped = word.rstrip(_CLOSERS)
    return stripped[-1:] if stripped else ""


class _Shared:
    """The new side's words and the stretches both sides share (the diff's equal pieces), in new-side offsets."""

    def __init__(self, pieces: list[Piece]) -> None:
        self.changes: list[Span] = []  # each DELETE or INSERT piece, as new-side offsets
        self.equal: list[tuple[int, int, int]] = []  # (new start, new end, old start) of each equal piece
        o = n = 0
        new: list[str] = []
        for p in pieces:
            if p.op == Op.EQUAL:
                self.equal.append((n, n + len(p.text), o))
                o, n = o + len(p.text), n + len(p.text)
                new.append(p.text)
            elif p.op == Op.MUTED:
                o, n = o + len(p.old), n + len(p.text)
                new.append(p.text)
            elif p.op == Op.DELETE:
                self.changes.append((n, n))
                o += len(p.text)
            else:
                self.changes.append((n, n + len(p.text)))
                n += len(p.text)
                new.append(p.text)
        self.old_length, self.text = o, "".join(new)
        self.old_words = sum(
            len(_TOKEN.findall(p.old if p.op == Op.MUTED else p.text)) for p in pieces if p.op != Op.INSERT
        )
        found = [(m.start(), m.end()) for m in _TOKEN.finditer(self.text)]
        self.starts = [a for a, _ in found]
        self.ends = [b for _, b in found]
        self._equal_starts = [a for a, _, _ in self.equal]

    def old_at(self, at: int, start: bool) -> int | None:
        """The old side's offset of new-side offset ``at`` where both sides share the text there (inside or at the
        edge of an equal piece, or at the text's ends); None inside what only one side has. A deletion at ``at``
        is inside the excerpt: a start is read before it, an end after it."""
        k = bisect_right(self._equal_starts, at) - 1
        if k < 0 or at > self.equal[k][1]:
            return 0 if at == 0 else self.old_length if at == len(self.text) else None
        a, b, o = self.equal[k]
        if start and at == a:
            if k >= 1 and self.equal[k - 1][1] == at:
                pa, pb, po = self.equal[k - 1]
                return po + pb - pa
            return 0 if at == 0 else o
        if not start and at == b:
            if k + 1 < len(self.equal) and self.equal[k + 1][0] == at:
                return self.equal[k + 1][2]
            return self.old_length if at == len(self.text) else o + b - a
        return o + at - a

    def kind_before(self, k: int) -> int:
        """What bound the start of word ``k`` is: a sentence's, a clause's or a word's."""
        if k == 0:
            return _SENTENCE
        prev, gap = self.text[self.starts[k - 1] : self.ends[k - 1]], self.text[self.ends[k - 1] : self.starts[k]]
        end = _ends(prev)
        if end in ".!?" and end or "\n" in gap:
            return _SENTENCE
        word = self.text[self.starts[k] : self.ends[k]]
        if end in ",;:\u2014\u2013" and end or word[:1] in "(\u2014\u2013":
            return _CLAUSE
        return _WORD

    def kind_after(self, k: int) -> int:
        """What bound the end of word ``k`` is."""
        if k + 1 == len(self.starts):
            return _SENTENCE
        return self.kind_before(k + 1)


def _pick(candidates: Iterator[tuple[int, int, int]]) -> int | None:
    """The bound to cut at among (offset, words of context, kind), nearest first: the nearest sentence bound
    within LIMIT_WORDS, else a clause bound (one at least MIN_CLAUSE_WORDS away if any), else CONTEXT_WORDS
    words away (or the nearest past that), else the furthest there is."""
    clause = near_clause = word = last = None
    for at, words, kind in candidates:
        last = at
        if words > LIMIT_WORDS and (clause or near_clause or word) is not None:
            break
        if kind == _SENTENCE and words <= LIMIT_WORDS:
            return at
        if kind == _CLAUSE and words <= LIMIT_WORDS:
            near_clause = at if near_clause is None else near_clause
            if clause is None and words >= MIN_CLAUSE_WORDS:
                clause = at
        if word is None and words >= CONTEXT_WORDS:
            word = at
            if words > LIMIT_WORDS:
                break
    for choice in (clause, near_clause, word):
        if choice is not None:
            return choice
    return last


def _back(s: _Shared, first: int) -> Iterator[tuple[int, int, int]]:
    """Where an excerpt may start before word ``first``, nearest first: (offset, words of context, kind)."""
    for k in range(first - 1, -1, -1):
        if s.old_at(s.starts[k], True) is not None:
            yield s.starts[k], first - k, s.kind_before(k)


def _forth(s: _Shared, after: int) -> Iterator[tuple[int, int, int]]:
    """Where an excerpt may end from word ``after`` on, nearest first."""
    for k in range(after, len(s.starts)):
        if s.old_at(s.ends[k], False) is not None:
            yield s.ends[k], k - after + 1, s.kind_after(k)


def _window(s: _Shared, change: Span) -> Span:
    """The new-side stretch an excerpt shows around one change, cut where both sides share the text."""
    p, e = change
    start = _pick(_back(s, bisect_left(s.starts, p)))
    end = _pick(_forth(s, bisect_left(s.starts, e)))
    return (0 if start is None else start, len(s.text) if end is None else end)


def shared_windows(pieces: list[Piece]) -> tuple[list[Span], list[Span]] | None:
    """The stretches each side of a long changed text shows, old and new (character offsets), cut at the same
    bounds of the text they share; None when they would leave out too little (the text is shown whole) or
    nothing changed visibly."""
    s = _Shared(pieces)
    if not s.changes:
        return None
    windows: list[Span] = []
    for a, b in sorted(_window(s, c) for c in s.changes):
        if windows and bisect_left(s.starts, a) - bisect_left(s.starts, windows[-1][1]) <= JOIN_WORDS:
            windows[-1] = (windows[-1][0], max(windows[-1][1], b))
        else:
            windows.append((a, b))
    kept = sum(bisect_left(s.starts, b) - bisect_left(s.starts, a) for a, b in windows)
    left_out = len(s.starts) - kept
    if left_out < LEFT_OUT * max(len(s.starts), s.old_words) or left_out <= JOIN_WORDS:
        return None
    old: list[Span] = []
    for a, b in windows:
        oa, ob = s.old_at(a, True), s.old_at(b, False)
        if oa is None or ob is None:  # (never: every bound chosen is one both sides share)
            return None
        old.append((oa, ob))
    return old, windows
