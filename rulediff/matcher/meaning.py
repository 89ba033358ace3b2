"""How alike two texts are in what they say: the words that carry their meaning, and Likeness over them."""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache

from rapidfuzz import fuzz

from ..text import word_tuple
from .thresholds import (
    BETTER_BY,
    CONTAINED,
    CONTAINED_WORDS,
    PLACED_MEANING,
    PLACED_TEXT,
    RESCUE_CARRIED,
    RESCUE_NEAR,
    RESCUE_TEXT,
    WORSE_TEXT_BY,
)

# Words that carry no meaning of their own in the rules: function words, the ordinals of numbered steps ("Second,
# the active player gets priority"), and the words of a cross-reference.
_STOP = frozenset(
    """a an the and or but nor of to in on at by for from with as into onto than that this these those it its
    they them their there is are was were be been being has have had do does did may must shall should will would
    so such any each all some which who whom whose what when where while if then also only
    first second third fourth fifth sixth seventh eighth ninth tenth see rule rules section ref""".split()
)


# CONTAINED as a fraction (4 in 5), so that a share of words is told in whole numbers: 0.8 x 35 is
# 28.000000000000004, and 28 of 35 words would fall short of it.
_CONTAINED = Fraction(CONTAINED).limit_denominator(100)


def most_of(n: int) -> int:
    """The fewest of ``n`` content words that are CONTAINED of them (rounded up, in whole numbers)."""
    return -(-n * _CONTAINED.numerator // _CONTAINED.denominator)


@lru_cache(maxsize=1 << 14)
def content(text: str) -> frozenset[str]:
    """The distinct words of ``text`` that carry its meaning (remembered: one alignment asks about a text often). Read
    in its remembered words (text.word_tuple): most masked texts hold no reference and are their comparison text,
    whose words the split and merge search counts too."""
    return frozenset(word_tuple(text)).difference(_STOP)


class Likeness:
    """How alike two texts are, in characters and in meaning: ``ratio`` (rapidfuzz, 0..1), ``dice`` (of the
    content words: 2 x shared / both), and the share of each side's content words the other holds."""

    __slots__ = ("ratio", "dice", "kept_a", "kept_b", "meaning")

    def __init__(self, a: str, b: str) -> None:
        self.ratio = fuzz.ratio(a, b) / 100
        ca, cb = content(a), content(b)
        na, nb = len(ca), len(cb)
        shared = len(ca & cb)
        self.dice = 2 * shared / (na + nb) if na + nb else 0.0
        self.kept_a = shared / na if na else 0.0
        self.kept_b = shared / nb if nb else 0.0
        # A text held whole inside a longer one (a part split off, or merged in) shares its meaning, though not
        # the longer one's: containment counts when the smaller text says enough to be told apart.
        contained = 0.9 * max(self.kept_a, self.kept_b) if min(na, nb) >= CONTAINED_WORDS else 0.0
        self.meaning = max(self.dice, contained)

    @property
    def mean(self) -> float:
        return (self.ratio + self.meaning) / 2

    def better_than(self, other: Likeness, placed: float = 0.0) -> bool:
        """Clearly the better match: text and meaning together (and ``placed``, what its place adds over the
        other's) much closer, neither much further."""
        return (
            self.mean + placed >= other.mean + BETTER_BY
            and self.meaning >= other.meaning
            and self.ratio >= other.ratio - WORSE_TEXT_BY
        )

    @property
    def part(self) -> bool:
        """One text is a part of the other: held in it (CONTAINED of its meaning), not near-identical."""
        return self.ratio < RESCUE_NEAR and self.meaning >= CONTAINED and self.meaning > self.dice

    @property
    def rank(self) -> float:
        """The order of candidates: text and meaning; for a part of a text split in several, its meaning only (the
        parts of a split are each held whole, and their lengths say nothing of which continues it: the place does,
        weighed twice for them)."""
        if self.part:
            return self.meaning * 50
        return self.ratio * 100 + self.dice * 10

    @property
    def placed(self) -> bool:
        """Alike enough for nodes whose places agree: half the meaning, and text that is alike or held inside the
        other's."""
        return self.meaning >= PLACED_MEANING and (self.ratio >= PLACED_TEXT or self.meaning >= CONTAINED)

    @property
    def strong(self) -> bool:
        """Near-identical, or alike in text with most of each side's meaning in the other."""
        return self.ratio >= RESCUE_NEAR or (
            self.ratio >= RESCUE_TEXT and min(self.kept_a, self.kept_b) >= RESCUE_CARRIED
        )


@lru_cache(maxsize=1 << 12)
def likeness(a: str, b: str) -> Likeness:
    """``Likeness(a, b)``, remembered per pair of texts (shared: callers must not change it): the leftovers weigh the
    same links round after round, and a rename's second matching weighs again every link it did not touch."""
    return Likeness(a, b)


@lru_cache(maxsize=1 << 12)
def stands(a: str, b: str, cutoff: float) -> bool:
    """``a`` and ``b`` are at least ``cutoff`` alike (rapidfuzz ``ratio``, 0-100), remembered per pair of texts (a
    rename's second matching asks again about every link it did not touch)."""
    return bool(fuzz.ratio(a, b, score_cutoff=cutoff))
