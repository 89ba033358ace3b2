"""Text similarity for the matcher: which texts of a set are at least so alike a given text, remembered per text
for the length of one alignment (its passes and a rename's second matching ask about the same texts again)."""

from __future__ import annotations

from collections.abc import Set

from rapidfuzz import fuzz, process

# How much text one alignment may compare: the product of two texts' lengths, summed over the pairs compared,
# plus PER_PAIR for each pair (rapidfuzz's cost grows with that product, and each pair has a cost of its own).
# Rule text is untrusted: two releases of long hostile rules (40 of 80 KB each) took 4 minutes to align, and
# at the input limit would take hours. The most demanding pair of real releases (2009-05-01 -> 2026-08-07)
# compares 5.2e10; the budget is BUDGET_TIMES that, some seconds of comparing.
REAL_MOST = 5.2e10
BUDGET_TIMES = 10
BUDGET = REAL_MOST * BUDGET_TIMES
PER_PAIR = 2000


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

    __slots__ = ("cutoff", "budget", "spent", "_rows")

    def __init__(self, cutoff: float, budget: float = BUDGET) -> None:
        self.cutoff = cutoff
        self.budget = budget
        self.spent = 0.0
        self._rows: dict[str, tuple[Set[str], dict[str, float]]] = {}

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
        width = sum(map(len, distinct))
        out: list[list[tuple[int, float]]] = []
        memo = self._rows
        for x, q in enumerate(rows):
            entry = memo.get(q)
            if entry is None:
                self._charge(x, len(q) * width + PER_PAIR * len(distinct))
                hits = self._compare(q, distinct)
                memo[q] = (col_set, hits)  # one shared set per question, not one per row
            else:
                done, hits = entry
                if not col_set <= done:
                    new = [c for c in distinct if c not in done]
                    self._charge(x, len(q) * sum(map(len, new)) + PER_PAIR * len(new))
                    hits.update(self._compare(q, new))
                    memo[q] = (done | col_set, hits)
            out.append([(y, s) for c, s in hits.items() if c in asked for y in where[c]])
        return out

    def _charge(self, row: int, cost: int) -> None:
        if self.spent + cost > self.budget:
            raise OverBudgetError(row)
        self.spent += cost

    def _compare(self, q: str, choices: list[str]) -> dict[str, float]:
        # One C-speed scan of the choices per text asked about.
        found = process.extract(q, choices, scorer=fuzz.ratio, score_cutoff=self.cutoff, limit=None)
        return {c: s for c, s, _ in found}
