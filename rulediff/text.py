"""Normalisation of rule text for comparison only: typography, spacing, references. Raw text is kept elsewhere."""

from __future__ import annotations

import re
from collections import Counter
from functools import lru_cache

from .references import find_references

# Typographic variants and their comparison form. Applied with str.replace, guarded by `in`: both are
# memchr-fast, while str.translate with a dict walks every character in Python-object space.
_REPLACE: tuple[tuple[str, str], ...] = (
    ("\u2018", "'"),
    ("\u2019", "'"),
    ("\u201a", "'"),
    ("\u201b", "'"),
    ("\u2032", "'"),
    ("\u00b4", "'"),
    ("`", "'"),
    ("\u201c", '"'),
    ("\u201d", '"'),
    ("\u201e", '"'),
    ("\u201f", '"'),
    ("\u2033", '"'),
    ("\u200b", ""),
    ("\ufeff", ""),
    ("\u00ad", ""),
    ("\u2122", ""),
    ("\u00ae", ""),
    ("\u2026", "..."),
    ("\u2212", "-"),
    ("\u2010", "-"),
    ("\u2011", "-"),
    ("\u2012", "-"),
    ("\u2013", "-"),
    ("\u2014", "-"),
    ("\u2015", "-"),
    ("\u00c6", "Ae"),
    ("\u00e6", "ae"),
)
_NON_ASCII_REPLACE = tuple((a, b) for a, b in _REPLACE if not a.isascii())
_ASCII_REPLACE = tuple((a, b) for a, b in _REPLACE if a.isascii())

# Every dash, spaced or not, doubled or not, compares as one hyphen: releases swapped "cards\u2014even",
# "cards -- even" and "cards-even" for one another (2019-01-25 turned every em dash into "-").
_DASHES = re.compile(r" ?-+ ?")
_MARKS = re.compile(r"\((?:tm|TM|Tm|R|r)\)")
# Patterns below that look behind a mark start with the mark and only then look behind it (the same test as
# looking behind first): one that starts with a literal is searched for at C speed, one that starts with a
# lookbehind is tried at every position, ten times the cost on a rule's text (test_shortcuts holds each to the
# spelling that looks behind first).
# An italics marker left alone at a word's end is typography too: 2008-07-15 to 2013-07-13 print "Oracle_(TM)".
_STRAY_ITALIC = re.compile(r"_(?<=[A-Za-z]_)(?![\w_])")
# A doubled underscore is italics too: 2010-07-16 and 2010-10-01 wrote "__Magic: The Gathering__".
_ITALIC = re.compile(r"_(?<![\w_]_)_?([^_\n]+?)_{1,2}(?![\w_])")
# Markdown dumps mark emphasis with asterisks where the releases used underscores: "*Magic*", "_Magic_".
_STAR_ITALIC = re.compile(r"\*(?<![\w*]\*)\*?([^*\n]+?)\*{1,2}(?![\w*])")
# A hyphen a PDF copy lost at a line end ("turnbased", "maingame", "nonrepetitive") or a release
# dropped from a compound: inside a word of letters a hyphen compares as nothing. Letters on both sides
# of at least two each, so a range reference ("601.2b-h") keeps its dash.
_WORD_HYPHEN = re.compile(r"-(?<=[A-Za-z]{2}-)(?=[A-Za-z]{2})")
# cp1252 files converted lossily wrote "?" for apostrophes ("can?t") and dashes ("cards?even").
_LOSSY_APOS = re.compile(r"\?(?<=[A-Za-z]\?)(?=(?:s|t|re|ve|ll|d|m)\b)")
_LOSSY_DASH = re.compile(r"\?(?<=[A-Za-z]\?)(?=[A-Za-z])")
# "<Wizards.com/Rules>" became "Wizards.com/Rules" in 2014-05: the angle brackets are typography.
_BRACKETED_URL = re.compile(r"<((?:https?://)?[\w.-]+\.(?:com|net|org)\b[^<>\s]*)>")
# "AEther" and "\u00c6ther" are the same word spelled with and without the ligature.
_AE_LIGATURE = re.compile(r"\bAE(?=[a-z])")
_PUNCT_AFTER_SPACE = (" .", " ,", " ;", " :", " )")


@lru_cache(maxsize=1 << 15)
def normalize(text: str) -> str:
    """Comparison form of ``text``: quotes straight, dashes unified, marks and italics markers gone,
    whitespace collapsed. Two texts that differ only in typography normalise equal. Remembered per
    text: the two sides of a diff, and consecutive releases, share most of their texts."""
    s = text
    if not s.isascii():
        for a, b in _NON_ASCII_REPLACE:
            if a in s:
                s = s.replace(a, b)
    for a, b in _ASCII_REPLACE:
        if a in s:
            s = s.replace(a, b)
    if "(" in s:
        s = _MARKS.sub("", s)
    if "_" in s:
        s = _ITALIC.sub(r"\1", s)
        if "_" in s:
            s = _STRAY_ITALIC.sub("", s)
    if "*" in s:
        s = _STAR_ITALIC.sub(r"\1", s)
    if "<" in s:
        s = _BRACKETED_URL.sub(r"\1", s)
    if "AE" in s:
        s = _AE_LIGATURE.sub("Ae", s)
    if "?" in s:
        s = _LOSSY_APOS.sub("'", s)
        s = _LOSSY_DASH.sub("-", s)
    # str.split() with no argument splits on every Unicode space (no-break, U+2028, tabs...). Every
    # such space but " " is unprintable, so a printable text needs the split only for doubled or
    # outer spaces -- and most texts have none (the check is one C pass; the split builds every word).
    # An ASCII text needs it only for one of its other spaces: nine C-speed looks for a character, where
    # isprintable asks the character table about every character.
    if (_other_ascii_space(s) if s.isascii() else not s.isprintable()) or "  " in s or s[:1] == " " or s[-1:] == " ":
        s = " ".join(s.split())
    if "-" in s:
        if " -" in s or "- " in s or "--" in s:
            s = _DASHES.sub("-", s)
        s = _WORD_HYPHEN.sub("", s)
    for p in _PUNCT_AFTER_SPACE:
        if p in s:
            s = s.replace(p, p[1])
    return s


def _other_ascii_space(s: str) -> bool:
    """``s`` (ASCII) holds a space other than " ": one str.split() splits on."""
    return (
        "\n" in s
        or "\t" in s
        or "\r" in s
        or "\x0b" in s
        or "\x0c" in s
        or "\x1c" in s
        or "\x1d" in s
        or "\x1e" in s
        or "\x1f" in s
    )


# Every dash and hyphen, for search: words either side stay two words ("actions\u2014untapping", "turn-based").
_SEARCH_DASHES = re.compile(r"[-\u2010-\u2015\u2212]+")


def searchable(text: str) -> str:
    """What search looks through: the comparison form (:func:`normalize`) with every dash and hyphen a space,
    where comparison joins the words ("turn-based" reads "turnbased" there, which no search for "turn-based
    action" would find)."""
    if "-" not in text and text.isascii():
        return normalize(text)
    return normalize(_SEARCH_DASHES.sub(" ", text))


def kept_letters(text: str) -> tuple[int, int, int]:
    """How many "n", "o" and "s" ``text`` holds: letters :func:`normalize` never adds or removes (it drops
    only the letters of "(tm)" and "(R)" marks and writes "AE" and the ligatures as "Ae", "ae"), so texts that
    normalise equal have equal counts. Three C-speed counts: a filter before normalising many texts."""
    return text.count("n"), text.count("o"), text.count("s")


REF_PLACEHOLDER = "\u27e8ref\u27e9"


@lru_cache(maxsize=1 << 16)
def mask_references(text: str) -> str:
    """Replace every cross-reference by a placeholder so renumbering fallout compares equal."""
    refs = find_references(text)
    if not refs:
        return text
    out: list[str] = []
    pos = 0
    for r in refs:
        out.append(text[pos : r.start])
        out.append(REF_PLACEHOLDER)
        pos = r.end
    out.append(text[pos:])
    return "".join(out)


_WORD = re.compile(r"\w+(?:'\w+)?")

# Every byte that is neither a word character nor an apostrophe, as a space: an ASCII text's words are then its
# runs between spaces, split at C speed (a third of the regular expression's time over a release).
_NOT_WORD_BYTES = bytes(c if chr(c).isalnum() or chr(c) in "_'" else 32 for c in range(256))
_TWO_APOSTROPHES = re.compile(r"'\w+'")


def words(text: str) -> list[str]:
    """Tokens for similarity: lower-cased words of the normalised text (``_WORD`` found in it)."""
    low = text.lower()
    # The placeholder of a masked reference reads as the word "ref" between separators, as the pattern reads it.
    plain = low.replace(REF_PLACEHOLDER, " ref ") if "\u27e8" in low else low
    if not plain.isascii():
        return _WORD.findall(low)
    spaced = plain.encode("ascii").translate(_NOT_WORD_BYTES).decode("ascii")
    runs = spaced.split()
    if "'" not in plain:
        return runs
    # A run with one apostrophe inside ("rock's", "can't") is one word; one that begins or ends with one, or holds
    # two ("'til", "players'"), is read alone with the pattern, as it is read in the text: no match reaches past a
    # separator.
    ends = f" {spaced} "
    if "' " not in ends and " '" not in ends and "''" not in spaced and _TWO_APOSTROPHES.search(spaced) is None:
        return runs
    out: list[str] = []
    for run in runs:
        if "'" in run:
            out.extend(_WORD.findall(run))
        else:
            out.append(run)
    return out


def word_tuple(text: str) -> tuple[str, ...]:
    """:func:`words` of ``text``, remembered up to WORDS_KEPT_UP_TO characters: an alignment counts the words of
    one text in its own bag, in the bags of the subtrees above it (regroup) and in word counts, and tokenising is
    most of a bag's cost. A longer text is tokenised each time: its tokens would outweigh it many times over (a
    hostile text of megabytes would be kept as hundreds of them)."""
    return tuple(words(text)) if len(text) > WORDS_KEPT_UP_TO else _kept_words(text)


# Every rule text of a real pair but one (2,804 characters, the creature types) is under 2,000 characters;
# the tokens kept are at most some 160 MB however hostile the texts (4,096 texts of 2,000 characters, every
# word two letters).
WORDS_KEPT_UP_TO = 2000


@lru_cache(maxsize=1 << 12)
def _kept_words(text: str) -> tuple[str, ...]:
    return tuple(words(text))


@lru_cache(maxsize=1 << 12)
def word_bag(text: str) -> Counter[str]:
    """The :func:`words` of ``text`` counted. Remembered per text (one alignment weighs the same edited texts
    several times) and shared: callers must not change it."""
    return Counter(word_tuple(text))


def shared_words(p: Counter[str], q: Counter[str]) -> int:
    """How many words two bags share, repeats counted: ``sum((p & q).values())`` without making that bag."""
    if len(p) > len(q):
        p, q = q, p
    got = 0
    for w, n in p.items():
        m = q.get(w)
        if m:
            got += n if n < m else m
    return got


_SENTENCE_END = re.compile(r"(?<=[.!?])\s+|(?<=[.!?][\"'\u201d\u2019])\s+")


def sentences(text: str) -> list[str]:
    """The sentences of ``text``, split after a full stop, question or exclamation mark (and a closing quote)."""
    return [s for s in (p.strip() for p in _SENTENCE_END.split(text)) if s]
