"""Text similarity for the matcher, remembered per text for the length of one alignment."""

# Text similarity for the matcher: which texts of a set are at least so alike a given text, remembered per text for
# the length of one alignment (its passes and a rename's second matching ask about the same texts again).

from __future__ import annotations

import re
import sys
from collections.abc import Set
from typing import TYPE_CHECKING

from rapidfuzz import fuzz, process

from ..support.processes import CORES

if TYPE_CHECKING:
    from .leftovers import ContentIndex

try:
    # rapidfuzz's C++ cdist, which the public process.cdist calls and then only hands to numpy (not one of
    # our dependencies): the same scorer over a block of texts, on several threads without the GIL. Its
    # matrix is read through the buffer protocol. A rapidfuzz without it (a pure-Python build, a later
    # reshuffle) is compared row by row as before: test_shortcuts holds both to the same scores.
    from rapidfuzz import process_cpp
    from rapidfuzz.process_cpp_impl import cdist as _cdist

    _FLOAT64 = process_cpp._FLOAT64  # type: ignore[attr-defined]  # (rapidfuzz-private, like cdist)
except (ImportError, AttributeError):  # pragma: no cover - depends on the rapidfuzz build
    _cdist = _FLOAT64 = None
# Blocks are compared at once while the block scorer is there and answers as expected.
_BLOCKS = _cdist is not None

# How much text one alignment may compare: the product of two texts' lengths, summed over the pairs compared,
# plus PER_PAIR for each pair (rapidfuzz's cost grows with that product, and each pair has a cost of its own).
# Rule text is untrusted: two releases of long hostile rules (40 of 80 KB each) took 4 minutes to align, and
# at the input limit would take hours. The most demanding pair of real releases (2009-05-01 -> 2026-08-07)
# compares 5.2e10; the budget is BUDGET_TIMES that, some seconds of comparing.
REAL_MOST = 5.2e10
BUDGET_TIMES = 10
BUDGET = REAL_MOST * BUDGET_TIMES
PER_PAIR = 2000
# New texts asked about at once against the texts they are compared with (the product of their lengths in
# characters) from which they are compared as one block on every core this process may use: below it,
# starting the threads costs more than they save (2 x 100 subrules, 1.3e7, take 0.19 ms row by row and 0.27
# on two threads; 3 x 400, 7.7e7, 1.27 and 0.99 ms; 100 x 1,055, the 2011 -> 2026 jump's subrules, 98 and
# 50 ms).
BLOCK_FROM = 5e7
# ... in pieces of about this many character pairs (some 0.07 s on one thread), between which Ctrl-C is seen.
BLOCK_CHARS = 4e9

# The most threads a block is compared on: a block is milliseconds of work, and a thread costs some tens of
# microseconds to start (on a machine of many cores, one each would cost more than the block).
MOST_THREADS = 4


THREADS = min(CORES, MOST_THREADS)


class OverBudgetError(Exception):
    """Comparing the texts asked about would go over the budget; ``row`` is the text (row) that would."""

    def __init__(self, row: int) -> None:
        super().__init__(row)
        self.row = row


class Likeness:
    """rapidfuzz ``ratio`` scores of at least ``cutoff`` between texts, computed once per pair of texts.

    For each text asked about (a row) it keeps which texts it was compared with and the scores that passed:
    a later question against texts already compared costs no comparison at all (the matcher's later passes
    ask about fewer unpaired texts than its first), and only new texts are compared. What it compares is
    counted against ``budget`` (character pairs); a question that would go over it raises OverBudgetError."""

    __slots__ = ("cutoff", "budget", "spent", "block_from", "_rows", "indexes")

    def __init__(self, cutoff: float, budget: float = BUDGET, block_from: float = BLOCK_FROM) -> None:
        self.cutoff = cutoff
        self.budget = budget
        self.spent = 0.0
        self.block_from = block_from
        self._rows: dict[str, tuple[Set[str], dict[str, float]]] = {}
        # The leftovers' last index of each side (by the side's id; the index holds its side): a rename's second
        # matching indexes nearly the same unpaired nodes of the release it did not read anew (leftovers.py).
        self.indexes: dict[int, ContentIndex] = {}

    def alike(self, rows: list[str], cols: list[str]) -> list[list[tuple[int, float]]]:
        """For each of ``rows``, the positions in ``cols`` of the texts at least ``cutoff`` like it, with
        their scores (0-100), in no particular order."""
        where: dict[str, list[int]] = {}
        for y, c in enumerate(cols):
            spot = where.get(c)
            if spot is None:
                where[c] = [y]
            else:
                spot.append(y)
        asked = where.keys()
        distinct = list(asked)
        col_set = frozenset(distinct)
        memo = self._rows
        # What is to be compared, charged row by row in order before anything is compared (a question over
        # the budget is refused whole, though the rows before the one refused stay charged): texts never asked
        # about against every column; the others against the columns they were not compared with, worked out
        # once for all the texts that were compared with the same columns (they share one set of them).
        fresh: dict[str, None] = {}  # (in order)
        width = 0
        # id of a set of columns compared -> that set, the columns not in it, their characters, its texts
        seen: dict[int, tuple[Set[str], list[str], int, list[str]]] = {}
        later: set[str] = set()
        for x, q in enumerate(rows):
            entry = memo.get(q)
            if entry is None:
                if q in fresh:
                    continue
                if not width:
                    width = sum(map(len, distinct))
                self._charge(x, len(q) * width + PER_PAIR * len(distinct))
                fresh[q] = None
            elif q not in later:
                done = entry[0]
                group = seen.get(id(done))
                if group is None:
                    new = [] if col_set <= done else [c for c in distinct if c not in done]
                    group = seen[id(done)] = (done, new, sum(map(len, new)), [])
                if group[1]:
                    self._charge(x, len(q) * group[2] + PER_PAIR * len(group[1]))
                    group[3].append(q)
                    later.add(q)
        for q, hits in zip(fresh, self._compare_block(list(fresh), distinct, width), strict=True):
            memo[q] = (col_set, hits)  # one shared set per question, not one per row
        for done, new, chars, texts in seen.values():
            if texts:
                grown = done | col_set  # shared again by the texts that share it now
                for q, more in zip(texts, self._compare_block(texts, new, chars), strict=True):
                    hits = memo[q][1]
                    hits.update(more)
                    memo[q] = (grown, hits)
        out: list[list[tuple[int, float]]] = []
        for q in rows:
            hits = memo[q][1]
            out.append([(y, s) for c, s in hits.items() if c in asked for y in where[c]])
        return out

    def _charge(self, row: int, cost: int) -> None:
        if self.spent + cost > self.budget:
            raise OverBudgetError(row)
        self.spent += cost

    def _compare_block(self, qs: list[str], choices: list[str], chars: int) -> list[dict[str, float]]:
        """:meth:`_compare` of each of ``qs`` (``chars``: the characters of ``choices``): a large block at once on
        every thread there is, else row by row."""
        if not _BLOCKS or THREADS < 2 or self.cutoff <= 0 or not qs or not choices:
            return [self._compare(q, choices) for q in qs]
        chars_qs = sum(map(len, qs))
        if chars_qs * chars < self.block_from:
            return [self._compare(q, choices) for q in qs]
        # cdist shares its queries out among its threads: the longer list is the queries (a few new texts
        # against a thousand are as much work, and a single row would go to one thread). The score of two
        # texts is the same whichever is the query (test_shortcuts holds it).
        flip = len(qs) < len(choices)
        queries, others, width = (choices, qs, chars_qs) if flip else (qs, choices, chars)
        out: list[dict[str, float]] = [{} for _ in qs]
        # In pieces of about BLOCK_CHARS character pairs, each cell counted PER_PAIR besides (a piece's
        # matrix is then 2 million cells, 16 MB, at most: thousands of one-character hostile rules made one
        # of 2 GB), between which Ctrl-C is seen (rapidfuzz looks for it too).
        start = size = 0
        cells = PER_PAIR * len(others)
        for end, x in enumerate(queries, 1):
            size += len(x) * width + cells
            if size >= BLOCK_CHARS or end == len(queries):
                if not self._scores(queries, start, end, others, flip, out):
                    return [self._compare(q, choices) for q in qs]
                start, size = end, 0
        return out

    def _scores(
        self, queries: list[str], start: int, end: int, others: list[str], flip: bool, out: list[dict[str, float]]
    ) -> bool:
        """The scores of ``queries[start:end]`` against ``others`` into ``out`` (by row: the queries' when not
        ``flip``, else the others'). False, and nothing read, if the matrix is not the doubles asked for (a
        rapidfuzz that changed its private cdist: the block path is then left for good)."""
        global _BLOCKS
        scores = memoryview(
            _cdist(
                queries[start:end],
                others,
                scorer=fuzz.ratio,
                score_cutoff=self.cutoff,
                dtype=_FLOAT64,
                workers=THREADS,
            )
        )
        if scores.format != "d" or scores.itemsize != 8 or scores.shape != (end - start, len(others)):
            _BLOCKS = False
            return False
        # Row-major doubles, 0 below the cut-off. Every score kept is at least the cut-off, above 0, so the high
        # byte of its double (sign and exponent) is not 0: one C-speed search of those bytes finds the few
        # cells to read.
        cells = scores.cast("B")
        values = cells.cast("d")
        width = len(others)
        for m in _NONZERO.finditer(cells[_HIGH_BYTE::8].tobytes()):
            k = m.start()
            a, b = start + k // width, k % width
            if flip:
                out[b][queries[a]] = values[k]
            else:
                out[a][others[b]] = values[k]
        return True

    def _compare(self, q: str, choices: list[str]) -> dict[str, float]:
        # One C-speed scan of the choices per text asked about.
        found = process.extract(q, choices, scorer=fuzz.ratio, score_cutoff=self.cutoff, limit=None)
        return {c: s for c, s, _ in found}


_NONZERO = re.compile(b"[^\\x00]")
# Where in a double's eight bytes its sign and exponent are.
_HIGH_BYTE = 7 if sys.byteorder == "little" else 0
