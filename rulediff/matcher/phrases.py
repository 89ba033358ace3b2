"""The phrases one text replaces in another: the term pairs a release-wide rename is looked for among."""

# The phrases one text replaces in another, as token stretches: where a longest common subsequence of the tokens
# leaves gaps, merged across a kept word or two, so "its converted mana cost" -> "its mana value" is one phrase
# though "mana" stays; and the term pairs a release-wide rename is looked for among (renames.py): each phrase, the
# term inside it when the word after it only agrees with the new one ("he or she has" -> "they have": "he or she" ->
# "they"), and the phrase with the kept word before or after it when the phrase alone is no term ("enters the
# battlefield" -> "enters" of 2024-07-30's quoted card text).

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from functools import lru_cache

from rapidfuzz.distance import Indel

from ..words.agreement import agrees

# Longest term considered, in words ("Planar Magic", "target creature or player").
MAX_WORDS = 4
# Changes at most this many kept tokens apart are one phrase ("name a card" -> "choose a card name").
MERGE_GAP = 2
# Endings a term keeps through a rename: "generals" -> "commanders", "general's" -> "commander's".
_ENDINGS = ("'s", "s")
_ARTICLES = frozenset({"a", "an", "the"})
_TOKEN = re.compile(r"\w+(?:'\w+)?|[^\w\s]")


def plain(text: str) -> str:
    return text.replace("\u2019", "'") if "\u2019" in text else text


@lru_cache(maxsize=1 << 11)
def tokens(text: str) -> list[str]:
    """The words and punctuation of ``text``, a web address one token (remembered, and shared: not to be
    changed; a rename's second matching asks about the same texts)."""
    t = plain(text)
    if _DOMAIN.search(t):  # (a few texts: the whole pattern costs more than this search)
        t = _URL.sub(_AN_ADDRESS, t)
    return _TOKEN.findall(t)


# A web address is no word of the rules: when a release moves its pages ("Magic/TCG/Events.aspx" ->
# "wpn/Events/Rules.aspx", 2011-05-01) no term is renamed. Each address is one token, which no term holds.
# (Only the aligned tokens: the words counted in the whole release still include an address's, which can
# only keep an old word "in use" and so stop a rename, never make one.)
_DOMAIN = re.compile(r"\.(?:com|net|org)\b", re.I)
# An address starts where a run of name characters and dots does, never inside one: tried at every position
# of a long run ("a.a.a...", untrusted text), the pattern would read the rest of the run each time. Its path
# stops before a sentence's closing punctuation.
_URL = re.compile(
    r"(?<![\w-])(?<![\w-]\.)(?:https?://)?(?:[\w-]+\.)+(?:com|net|org)\b"
    r"(?:/(?:[^\s<>()\"]*[^\s<>()\".,;:!?\]])?)?",
    re.I,
)
_AN_ADDRESS = "\x00"
# Longer texts are not aligned token by token (the alignment's memory grows with the product of the two
# lengths): no rule comes near it, and a rename shows in many rules, not in one text of a hostile size.
_MAX_TOKENS = 5000


@lru_cache(maxsize=1 << 10)
def changed(a: str, b: str) -> tuple[tuple[int, int, int, int], ...]:
    """The stretches of tokens of ``a`` that ``b`` changes, as (a0, a1, b0, b1), one side possibly empty: the gaps
    between the blocks of a longest common subsequence of the tokens (rapidfuzz, in C), merged across kept runs of
    at most MERGE_GAP tokens. Remembered like the tokens."""
    ta, tb = tokens(a), tokens(b)
    if len(ta) > _MAX_TOKENS or len(tb) > _MAX_TOKENS:
        return ()
    out: list[list[int]] = []
    i = j = 0
    for block in Indel.editops(ta, tb).as_matching_blocks():
        if i < block.a or j < block.b:
            if out and i - out[-1][1] <= MERGE_GAP and i - out[-1][1] == j - out[-1][3]:
                out[-1][1], out[-1][3] = block.a, block.b
            else:
                out.append([i, block.a, j, block.b])
        i, j = block.a + block.size, block.b + block.size
    return tuple((a0, a1, b0, b1) for a0, a1, b0, b1 in out)


Agreeing = tuple[str, str] | None
Core = tuple[str, str] | None


def term_pairs(
    ta: Sequence[str], tb: Sequence[str], stretch: tuple[int, int, int, int]
) -> Iterator[tuple[list[str], list[str], Agreeing, Core]]:
    """The term pairs a changed stretch may be: old words, new words, for a term found inside a phrase whose next
    word only agrees with it that whole phrase (old, new: the spelling that agrees), and for the stretch with a
    kept word before or after it, the stretch alone (old, new: the term it is a context of). The stretch, articles
    dropped; the term before an agreeing verb; and the stretch with the kept word (not an article) before it or
    after it."""
    a0, a1, b0, b1 = stretch
    a, b = list(ta[a0:a1]), list(tb[b0:b1])
    alone = (spell(a), spell(b)) if a and b else None
    if a and b:
        yield (*trim(a, b), None, None)
        if len(a) > 1 and len(b) > 1 and agrees(a[-1], b[-1]):
            yield (*trim(a[:-1], b[:-1]), (spell(a), spell(b)), None)
    before = a0 > 0 and b0 > 0 and _context(ta[a0 - 1])
    if before:
        # The word before, whole when it ends a hyphenated compound ("state-based effects"). (A compound is a term
        # of its own, not a context of the word it ends with.)
        n = 3 if a0 >= 3 and b0 >= 3 and ta[a0 - 3 : a0] == tb[b0 - 3 : b0] and ta[a0 - 2] == "-" else 1
        yield (*trim([*ta[a0 - n : a0], *a], [*tb[b0 - n : b0], *b]), None, alone if n == 1 else None)
    # Words dropped are read with the word before them when there is one ("enters the battlefield" -> "enters",
    # not "the battlefield with" -> "with").
    if a1 < len(ta) and b1 < len(tb) and _context(ta[a1]) and (alone or not before):
        yield (*trim([*a, ta[a1]], [*b, tb[b1]]), None, alone)


def _context(token: str) -> bool:
    return token[0].isalpha() and token.casefold() not in _ARTICLES


def spell(words: Sequence[str]) -> str:
    """Tokens as the text spells them: words apart, a hyphen joining its neighbours ("state-based")."""
    return " ".join(words).replace(" - ", "-")


def is_term(words: Sequence[str]) -> bool:
    # Words only (a hyphen may join two), one of them a real word: a subrule letter ("601.2h" -> "601.2g") is no
    # term.
    n = sum(1 for t in words if t != "-")
    return (
        0 < n <= MAX_WORDS
        and all(t[0].isalpha() or (t == "-" and 0 < k < len(words) - 1) for k, t in enumerate(words))
        and any(len(t) >= 3 for t in words)
    )


def trim(a: list[str], b: list[str]) -> tuple[list[str], list[str]]:
    """The term pair inside a replaced stretch: articles dropped ("an EDH" -> "a Commander" is EDH ->
    Commander), and an ending both last words share ("generals" -> "commanders")."""
    if len(a) > 1 and len(b) > 1 and a[0].casefold() in _ARTICLES and b[0].casefold() in _ARTICLES:
        a, b = a[1:], b[1:]
    for end in _ENDINGS:
        if a[-1].endswith(end) and b[-1].endswith(end) and len(a[-1]) > len(end) + 1 and len(b[-1]) > len(end) + 1:
            return [*a[:-1], a[-1][: -len(end)]], [*b[:-1], b[-1][: -len(end)]]
    return a, b
