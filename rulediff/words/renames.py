"""Release-wide rename substitution: whether a text uses a rename's old spellings, and the text read in
the new release's words."""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache

from .records import Rename


@lru_cache(maxsize=256)
def whole_words(spellings: tuple[str, ...]) -> re.Pattern[str]:
    # Whole words, with the endings a rename keeps: "general" never matches "generally". Each spelling
    # starts with its first word and only then looks behind it (the same test as looking behind first):
    # a pattern that starts with a literal is searched for at C speed, not tried at every position.
    alts = "|".join(_starting_literally(s) for s in sorted(spellings, key=len, reverse=True))
    return re.compile(r"(?:" + alts + r")(?=(?:['\u2019]s|s)?(?!\w))")

def _starting_literally(spelling: str) -> str:
    first, *rest = (re.escape(w) for w in spelling.split())
    return first + rf"(?<![\w'\u2019]{first})" + "".join(r"\s+" + w for w in rest)

def uses(text: str, spellings: tuple[str, ...]) -> bool:
    # A whole-word match holds every word of a spelling: a few substring tests rule most texts out (the
    # first word alone would not: "he or she" starts with the "he" of every "the").
    for words in spelling_words(spellings):
        for w in words:
            if w not in text:
                break
        else:
            return whole_words(spellings).search(text) is not None
    return False

@lru_cache(maxsize=256)
def spelling_words(spellings: tuple[str, ...]) -> tuple[tuple[str, ...], ...]:
    # Longest words first: the rarest, the likeliest to be missing.
    return tuple(tuple(sorted(s.split(), key=len, reverse=True)) for s in spellings if s.split())

def substitute(text: str, renames: Sequence[Rename]) -> str:
    """``text`` with every rename applied: the old release read in the new release's words, the article
    before a renamed word agreeing with the new word ("an EDH game" -> "a Commander game")."""
    for r in renames:
        olds = old_spellings(r.spellings)
        if uses(text, olds):  # (the article before a spelling is optional: the spelling alone decides)
            to = dict(r.spellings)
            text = _substitution(olds).sub(lambda m, to=to: _replace(m, to), text)  # type: ignore[misc]
    return text

@lru_cache(maxsize=256)
def old_spellings(spellings: tuple[tuple[str, str], ...]) -> tuple[str, ...]:
    return tuple(a for a, _ in spellings)

@lru_cache(maxsize=256)
def new_spellings(spellings: tuple[tuple[str, str], ...]) -> tuple[str, ...]:
    return tuple(b for _, b in spellings)

@lru_cache(maxsize=256)
def _substitution(spellings: tuple[str, ...]) -> re.Pattern[str]:
    return re.compile(r"(?:(?<![\w'\u2019])(?P<art>[Aa]n?)(?P<gap>\s+))?" + whole_words(spellings).pattern)

def _replace(m: re.Match[str], to: dict[str, str]) -> str:
    art, gap = m.group("art"), m.group("gap")
    word = m.group(0)[len(art) + len(gap) :] if art else m.group(0)
    new = to[" ".join(word.split())]
    if not art:
        return new
    an = new[:1].lower() in "aeiou"
    article = ("An" if an else "A") if art[0] == "A" else ("an" if an else "a")
    return article + gap + new
