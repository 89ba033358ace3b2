"""The edits of a pair of releases a rename is looked for in, their term pairs, and the release-wide texts."""

# The edits of a pair of releases a rename is looked for in (the texts and examples of paired rules that differ, and
# the titles of unpaired rules that kept their number), the words that may tell a rename in them, the term pairs
# of their changed stretches (phrases.py), and each release's words as one text where a term is counted.

from __future__ import annotations

import re
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from functools import lru_cache
from itertools import filterfalse
from operator import attrgetter
from typing import NamedTuple

from rapidfuzz import fuzz

from ..model import Document, Example, Rule
from ..words.renames import quoted
from .phrases import changed, is_term, plain, spell, term_pairs, tokens
from .records import Pair, positions
from .sides import PerDocument

# A substitution is a rename only when the same word pair changed in at least this many rules: a word
# changed in a handful of rules is an edit.
MIN_RULES = 5
# ... or in this many when one of them is a rule's title: the name of the thing changed ("702.89. Totem
# Armor" -> "Umbra Armor", and its rule's text with it).
MIN_NAMED = 2
# ... and the old term (mostly) left the release: at most this share of its occurrences remain.
MAX_LEFT = 0.2
# A text longer than this is no evidence of a rename (no rule comes near: the longest is 2,804 characters), and is
# not read word by word: a rename shows in many rules, not in one text of a hostile size.
MOST_CHARS = 20_000


class Edit(NamedTuple):
    """An edited text of a paired rule (its old position): the rule's text, an example of it, or its title."""

    rule: int
    old: str
    new: str
    old_title: str | None = None
    new_title: str | None = None


def edited(a: Rule, b: Rule) -> bool:
    """The two texts differ beyond typography (compared as normalised text, computed once and kept)."""
    return a.text != b.text and a.norm != b.norm


def edits(old: Document, new: Document, pairs: list[Pair]) -> list[Edit]:
    """The edits a rename may show in: each paired rule's text that differs beyond typography, each of its
    examples that does (the card text they quote: 2018-04-27's "target creature or player" -> "any target"),
    and the titles of unpaired titled rules that kept their number."""
    out: list[Edit] = []
    ra, rb = old.rules, new.rules
    for p in filterfalse(_SAME, pairs):  # (equal raw content, most pairs, skipped at C speed: nothing edited)
        a, b = ra[p.old], rb[p.new]
        if edited(a, b):
            out.append(Edit(p.old, a.text, b.text, a.title, b.title))
        if a.examples and b.examples and a.examples != b.examples:
            out.extend(Edit(p.old, x, y) for x, y in _paired_examples(a.examples, b.examples) if x != y)
    titled = same_number_titles(old, new, pairs)
    out.extend(Edit(i, ra[i].text, rb[j].text, ra[i].title, rb[j].title) for i, j in titled)
    return out


def _paired_examples(a: tuple[Example, ...], b: tuple[Example, ...]) -> list[tuple[str, str]]:
    """Examples of two paired rules, paired: in order when they are as many, else each old one with the most
    alike new one (at least 0.6)."""
    if len(a) == len(b):
        return [(x.text, y.text) for x, y in zip(a, b, strict=True)]
    out = []
    for x in a:
        best = max(b, key=lambda y: fuzz.ratio(x.text, y.text))
        if fuzz.ratio(x.text, best.text) >= 60:
            out.append((x.text, best.text))
    return out


_WORD = re.compile(r"[^\W\d_][\w]*(?:'\w+)?")


@lru_cache(maxsize=1 << 14)
def _word_list(text: str) -> list[str]:
    # Remembered (and shared: not to be changed): consecutive releases share most texts, and a series aligns each
    # release twice.
    t = plain(text)
    if not t.isascii():
        # Marks no word holds (curly quotes, dashes) part words as a space does: the words are the same.
        for c in _MARKS:
            if c in t:
                t = t.replace(c, " ")
        if not t.isascii():
            return _WORD.findall(t)
    # An ASCII text: its words are in its runs of word characters and apostrophes, split at C speed (no word
    # reaches past one), each from its first letter on (the digits and "_" before it start no word; the pattern's
    # \w* then takes the rest of the run), but for an apostrophe that ends it. A run that an apostrophe starts,
    # or that holds two, is read with the pattern.
    spaced = _NO_LETTER_FIRST.sub(" ", " " + t.encode("ascii").translate(_NOT_WORD_BYTES).decode("ascii"))
    runs = spaced.split()
    if "'" not in spaced:
        return runs
    ends = spaced + " "
    if "' " not in ends and " '" not in ends and "''" not in spaced and _TWO_APOSTROPHES.search(spaced) is None:
        return runs
    out = []
    for run in runs:
        if run[0] != "'" and run.count("'") == 1:
            out.append(run[:-1] if run[-1] == "'" else run)
        elif "'" in run:
            out.extend(_WORD.findall(run))
        else:
            out.append(run)
    return out


# Every byte that is neither a word character (ASCII letters, digits, "_") nor an apostrophe, as a space.
_NOT_WORD_BYTES = bytes(c if chr(c).isalnum() or chr(c) in "_'" else 32 for c in range(128)) + bytes([32] * 128)
# The digits and "_" that start a run (after a space), before its first letter.
_NO_LETTER_FIRST = re.compile(r" [0-9_]+")
_TWO_APOSTROPHES = re.compile(r"'\w+'")
# Marks of the releases' texts outside ASCII that no word holds.
_MARKS = "\u201c\u201d\u2018\u2013\u2014\u2122\u00ae\u221e\u00a0\u2028"


@lru_cache(maxsize=1 << 14)
def _words(text: str) -> frozenset[str]:
    return frozenset(_word_list(text))


def words_of(text: str) -> frozenset[str]:
    """The words of ``text`` as the telling words are read (remembered per text)."""
    return _words(text)


def _ends(spellings: tuple[str, ...], text: str) -> list[int]:
    """Where each whole-word occurrence of any of ``spellings`` in ``text`` ends (its ending included).
    str.find, not a regex: a release is a megabyte, and a regex scan of it costs ten times as much."""
    out: list[int] = []
    for s in spellings:
        k = text.find(s)
        while k >= 0:
            end = k + len(s)
            if text.startswith(("'s", "\u2019s"), end):
                end += 2
            elif text.startswith("s", end):
                end += 1
            if (k == 0 or not _inside(text[k - 1])) and (end == len(text) or not _inside(text[end])):
                out.append(end)
            k = text.find(s, k + 1)
    return out


def _inside(c: str) -> bool:
    return c.isalnum() or c in "_'\u2019"


class Release:
    """Every word of a document as one string (see :func:`_text`), and where spellings end in it, each found
    once: the detection after a rename's second matching, and :func:`_widen`, ask about the same spellings in
    the same releases again (a scan of a release is a millisecond). The string is made on first use: most
    pairs judge no term pair far enough to count it."""

    __slots__ = ("_doc", "_text", "_ends", "_quoted", "_quoted_ends")

    def __init__(self, doc: Document) -> None:
        self._doc = doc
        self._text: str | None = None
        self._ends: dict[tuple[str, ...], list[int]] = {}
        self._quoted: str | None = None
        self._quoted_ends: dict[tuple[str, ...], int] = {}

    @property
    def text(self) -> str:
        t = self._text
        if t is None:
            t = self._text = release_text(self._doc)
        return t

    def ends(self, spellings: tuple[str, ...]) -> list[int]:
        """:func:`_ends` of ``spellings`` in the release (shared: not to be changed)."""
        found = self._ends.get(spellings)
        if found is None:
            found = self._ends[spellings] = _ends(spellings, self.text)
        return found

    def count(self, spellings: tuple[str, ...]) -> int:
        return len(self.ends(spellings))

    def count_quoted(self, spellings: tuple[str, ...]) -> int:
        """How often ``spellings`` occur inside the release's quotations (the card text its rules quote)."""
        n = self._quoted_ends.get(spellings)
        if n is None:
            if self._quoted is None:
                self._quoted = quoted(self.text)
            n = self._quoted_ends[spellings] = len(_ends(spellings, self._quoted))
        return n


# Each document's release text, kept as the matcher keeps its sides.
release = PerDocument(Release)


def release_text(doc: Document) -> str:
    """Every word of ``doc`` (rules, examples, glossary) as one string, one text a line: one regex scan
    counts a term in the whole release."""
    out = [r.text for r in doc.rules]
    out.extend(e.text for r in doc.rules for e in r.examples)
    out.extend(g.text for g in doc.glossary)
    out.extend(g.term for g in doc.glossary)
    return "\n".join(out)


@lru_cache(maxsize=1 << 12)
def middles(a: str, b: str) -> tuple[str, str]:
    """The stretches of two texts that hold every difference between them, each with a word more on either side
    (what lies around them is the same in both): what the telling words are read in. A few slices compared at C
    speed, where reading every word of both texts costs ten times as much."""
    lo, hi = 0, min(len(a), len(b))
    while lo < hi:  # the longest common prefix, by halves
        mid = (lo + hi + 1) // 2
        if a[:mid] == b[:mid]:
            lo = mid
        else:
            hi = mid - 1
    start, hi, end = lo, min(len(a), len(b)) - lo, 0
    while end < hi:  # the longest common suffix after it
        mid = (end + hi + 1) // 2
        if a[len(a) - mid :] == b[len(b) - mid :]:
            end = mid
        else:
            hi = mid - 1
    return _around(a, start, len(a) - end), _around(b, start, len(b) - end)


def _around(text: str, start: int, end: int) -> str:
    """``text[start:end]`` widened to whole words, and one word more on either side."""
    k = text.rfind(" ", 0, start)
    k = text.rfind(" ", 0, k) if k > 0 else -1
    e = text.find(" ", end)
    e = text.find(" ", e + 1) if e >= 0 else -1
    return text[k + 1 : e if e >= 0 else len(text)]


def telling_words(edits: list[Edit]) -> tuple[set[str], set[str]]:
    """The words a rename may show in (a cheap filter first: most pairs have none and stop there), read in what
    each edit changed (:func:`middles`): lost by several edits and kept by almost none (the old term: a word of a
    phrase of kept words too, "creature" of "target creature or player" -> "any target"), or gained so (the new
    one)."""
    # (Every edit's words listed, and counted once at the end: a Counter's update costs more than the list's.)
    lost_in: list[str] = []
    gained_in: list[str] = []
    kept_in: list[str] = []
    titled: set[str] = set()  # words a rule's title lost
    for e in edits:
        ma, mb = middles(e.old, e.new)
        wa, wb = _words(ma), _words(mb)
        lost_in.extend(wa - wb)
        gained_in.extend(wb - wa)
        kept_in.extend(wa & wb)
        if e.old_title and e.old_title != e.new_title:
            titled |= _words(e.old_title) - _words(e.new_title or "")
    lost, gained, kept = Counter(lost_in), Counter(gained_in), Counter(kept_in)
    return (
        {w for w, n in lost.items() if n >= (MIN_NAMED if w in titled else MIN_RULES) and kept[w] <= MAX_LEFT * n},
        {w for w, n in gained.items() if n >= MIN_RULES and kept[w] <= MAX_LEFT * n},
    )


@dataclass(slots=True)
class TermPairs:
    """The term pairs seen in the edited rules: by (old, new) casefolded, the old positions that show it, its
    spellings and how often, the agreeing phrases around it, and those an old title names."""

    seen: dict[tuple[str, str], set[int]] = field(default_factory=lambda: defaultdict(set))
    spelled: dict[tuple[str, str], Counter[tuple[str, str]]] = field(default_factory=lambda: defaultdict(Counter))
    agreeing: dict[tuple[str, str], Counter[tuple[str, str]]] = field(default_factory=lambda: defaultdict(Counter))
    named: set[tuple[str, str]] = field(default_factory=set)
    # A term pair seen only with a kept word before or after it: the term pair without it, as spelled.
    core: dict[tuple[str, str], tuple[str, str]] = field(default_factory=dict)
    # Term pairs that only drop words ("transforming double" -> "double").
    dropped: set[tuple[str, str]] = field(default_factory=set)
    # The term pairs that replace each old term by words (not only drop it).
    by_old: dict[str, set[tuple[str, str]]] = field(default_factory=lambda: defaultdict(set))


def gather(edits: list[Edit], lost_words: set[str], gained_words: set[str]) -> TermPairs:
    """The term pairs (phrases.term_pairs) of the changed stretches of ``edits`` that hold a telling word."""
    out = TermPairs()
    for e in edits:
        i, text_a, text_b = e.rule, e.old, e.new
        if len(text_a) > MOST_CHARS or len(text_b) > MOST_CHARS:
            continue
        # (What the texts changed lies in their middles, with a word of context either side.)
        ma, mb = middles(text_a, text_b)
        if _no_word_token_in(lost_words, ma) and _no_word_token_in(gained_words, mb):
            continue
        toks_a, toks_b = tokens(ma), tokens(mb)
        for stretch in changed(ma, mb):
            a0, a1, b0, b1 = stretch
            if lost_words.isdisjoint(toks_a[a0:a1]) and gained_words.isdisjoint(toks_b[b0:b1]):
                continue
            for a, b, agreeing, core in term_pairs(toks_a, toks_b, stretch):
                if not is_term(a) or not is_term(b):
                    continue
                spelled = (spell(a), spell(b))
                key = (spelled[0].casefold(), spelled[1].casefold())
                if key[0] == key[1]:
                    continue
                if core is not None:
                    out.core.setdefault(key, core)
                elif a0 == a1 or b0 == b1:
                    out.dropped.add(key)
                if key not in out.dropped:
                    out.by_old[key[0]].add(key)
                out.seen[key].add(i)
                out.spelled[key][spelled] += 1
                if agreeing is not None:
                    out.agreeing[key][agreeing] += 1
                if e.old_title and spelled[0] in plain(e.old_title):
                    out.named.add(key)
    return out


def _no_word_token_in(words: set[str], text: str) -> bool:
    """None of ``words`` (each a letter first) is a token of ``text``, told from its _words (already known) where
    they say it: a token that starts with a letter is the _WORD match starting there, unless the match before it
    took the apostrophe its token had left ("3'Z'Z": tokens "3'Z", "'", "Z"; words "Z'Z"), which needs two
    apostrophes in one chain of word characters -- such a text is tokenised."""
    if ("'" in text or "\u2019" in text) and _CHAINED.search(plain(text)):
        return False
    return words.isdisjoint(_words(text))


# (Starting with the apostrophe, looked behind after: searched for at C speed, where a leading \w is tried at
# nearly every position. test_shortcuts holds it to r"\w'\w+'".)
_CHAINED = re.compile(r"'(?<=\w')\w+'")


_OLD, _NEW, _SAME = attrgetter("old"), attrgetter("new"), attrgetter("same")


def same_number_titles(old: Document, new: Document, pairs: list[Pair]) -> list[tuple[int, int]]:
    """Unpaired titled rules that kept their number: "702.89. Totem Armor" -> "702.89. Umbra Armor".
    Their titles are evidence of a rename (the matcher could not pair them because of it)."""
    # Unpaired positions only (set differences at C speed): a few per pair, where walking every rule with
    # its number would cost more.
    free_a = sorted(positions(len(old.rules)).difference(map(_OLD, pairs)))
    lone = {str(old.rules[i].number): i for i in free_a if old.rules[i].title}
    if not lone:
        return []
    out = []
    for j in sorted(positions(len(new.rules)).difference(map(_NEW, pairs))):
        rb = new.rules[j]
        if not rb.title or rb.number is None:
            continue
        i = lone.get(str(rb.number))
        if i is not None and old.rules[i].number is not None and old.rules[i].title != rb.title:
            out.append((i, j))
    return sorted(out)
