"""Release-wide rename substitution: whether a text uses a rename, and the text renamed."""

# Release-wide rename substitution: whether a text uses a rename's old spellings, and the text read in the new
# release's words.

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Sequence
from dataclasses import replace
from functools import lru_cache
from itertools import accumulate
from typing import TYPE_CHECKING

from ..text import kept_letters
from .records import Rename

if TYPE_CHECKING:
    from ..model import Document, Rule


@lru_cache(maxsize=256)
def whole_words(spellings: tuple[str, ...]) -> re.Pattern[str]:
    # Whole words, with the endings a rename keeps: "general" never matches "generally". Each spelling
    # starts with its first word and only then looks behind it (the same test as looking behind first):
    # a pattern that starts with a literal is searched for at C speed, not tried at every position.
    alts = "|".join(_starting_literally(s) for s in sorted(spellings, key=len, reverse=True))
    return re.compile(r"(?:" + alts + r")(?=(?:['\u2019]s|s)?(?!\w))")


def _starting_literally(spelling: str) -> str:
    # (An apostrophe matches either: the detection reads texts with straight ones, and the releases since 2015
    # print curly ones, "he or she doesn\u2019t" -> "they don\u2019t".)
    first, *rest = (re.escape(_straight(w)).replace("'", "['\u2019]") for w in spelling.split())
    return first + rf"(?<![\w'\u2019]{first})" + "".join(r"\s+" + w for w in rest)


@lru_cache(maxsize=256)
def covering(spellings: tuple[str, ...]) -> tuple[str, ...]:
    """The spellings no other one is a part of, word for word: a text uses one of ``spellings`` exactly when it uses
    one of these (2018-04-27's "he or she" is part of "he or she has", "he or she casts", ...)."""
    split = [s.split() for s in spellings]

    def holds(big: list[str], small: list[str]) -> bool:
        n = len(small)
        return 0 < n < len(big) and any(big[k : k + n] == small for k in range(len(big) - n + 1))

    return tuple(s for s, ws in zip(spellings, split, strict=True) if not any(holds(ws, o) for o in split))


def uses(text: str, spellings: tuple[str, ...]) -> bool:
    # A whole-word match holds every word of a spelling: a few substring tests rule most texts out (the
    # first word alone would not: "he or she" starts with the "he" of every "the").
    words_of, pattern = _use_test(spellings)
    for words in words_of:
        for w in words:
            if w not in text:
                break
        else:
            return pattern.search(text) is not None
    return False


@lru_cache(maxsize=256)
def _use_test(spellings: tuple[str, ...]) -> tuple[tuple[tuple[str, ...], ...], re.Pattern[str]]:
    """What :func:`uses` asks of a text: the words of the spellings no other one is a part of, and their pattern
    (one lookup per text, where each of the three was looked up by the spellings)."""
    covered = covering(spellings)
    return spelling_words(covered), whole_words(covered)


@lru_cache(maxsize=256)
def spelling_words(spellings: tuple[str, ...]) -> tuple[tuple[str, ...], ...]:
    # Longest words first: the rarest, the likeliest to be missing. A word with an apostrophe is looked for by its
    # longest piece without one (a text may print it either way: see _starting_literally).
    return tuple(tuple(sorted(map(_unquoted, s.split()), key=len, reverse=True)) for s in spellings if s.split())


def _unquoted(word: str) -> str:
    word = _straight(word)
    return max(word.split("'"), key=len) if "'" in word else word


def _straight(text: str) -> str:
    """``text`` with its curly apostrophes straight (how a spelling is looked for, and looked up once found)."""
    return text.replace("\u2019", "'")


def substitute(text: str, renames: Sequence[Rename]) -> str:
    """``text`` with every rename applied: the old release read in the new release's words, the article
    before a renamed word agreeing with the new word ("an EDH game" -> "a Commander game"); a rename of quoted
    text only inside quotation marks."""
    for r in renames:
        if uses(text, old_spellings(r.spellings)):  # (the article before a spelling is optional: the spelling decides)
            text = renamed_text(text, r)
    return text


def applied(renames: Sequence[Rename], new: str) -> tuple[Rename, ...]:
    """``renames`` with the spellings only that ``new`` (a text of the new release) does not use any more where the
    rename reads (its quotations, for a rename of quoted text): those it took, or never had. (A spelling whose new
    form holds the old one is kept.)"""
    out: list[Rename] = []
    for r in renames:
        read = quoted(new) if r.quoted else new
        if not uses(read, old_spellings(r.spellings)):
            out.append(r)  # (one look for them all: most texts use none of them any more)
            continue
        kept = tuple((a, b) for a, b in r.spellings if not uses(read, (a,)) or uses(b, (a,)))
        if kept:
            out.append(r if kept == r.spellings else replace(r, spellings=kept))
    return tuple(out)


def renamed_text(text: str, r: Rename) -> str:
    """``text``, which uses an old spelling of ``r`` (:func:`uses` said so, or :func:`text_users` found it), read
    in the new words: :func:`substitute` of one rename without asking again."""
    return _renamed_in(text, whole_words(old_spellings(r.spellings)), _targets(r.spellings), r.quoted)


@lru_cache(maxsize=256)
def _targets(spellings: tuple[tuple[str, str], ...]) -> dict[str, str]:
    """Each old spelling, its apostrophes straight (as :func:`_replacement` looks it up), -> its new spelling."""
    return {" ".join(_straight(a).split()): b for a, b in spellings}


def _renamed_in(text: str, pattern: re.Pattern[str], to: dict[str, str], in_quotes: bool) -> str:
    if not in_quotes:
        return _sub(pattern, to, text)
    return QUOTED.sub(lambda q: _sub(pattern, to, q.group(0)), text)


def _sub(pattern: re.Pattern[str], to: dict[str, str], text: str) -> str:
    """``_substitution(spellings).sub`` of ``text`` with :func:`_replace` (``pattern``: ``whole_words(spellings)``):
    the spellings found by their own pattern, which starts with a literal and is searched for at C speed, and the
    article before each read back from where it ends (the article's pattern, optional and first, was tried at
    every position of the text: most of a rename's cost). A match takes the article right before its spelling
    when the article starts after the match before it, as the whole pattern's leftmost match does; a spelling
    that itself starts with an article is read by the whole pattern (test_shortcuts holds the two together)."""
    if _starts_with_article(pattern):
        return _substitution_of(pattern).sub(lambda m: _replace(m, to), text)
    out: list[str] = []
    last = 0
    for m in pattern.finditer(text):
        q, word = m.start(), m.group(0)
        art = gap = ""
        g = q
        while g > last and text[g - 1].isspace():
            g -= 1
        if g < q:
            for p in (g - 2, g - 1):
                if p >= last:
                    a = _ARTICLE.match(text, p, q)
                    if a is not None and a.end() == q:
                        art, gap, q = a.group(1), a.group(2), p
                        break
        out.append(text[last:q])
        out.append(_replacement(art, gap, word, to))
        last = m.end()
    if not out:
        return text
    out.append(text[last:])
    return "".join(out)


# The article a spelling may have before it, as _substitution reads it.
_ARTICLE = re.compile(r"(?<![\w'\u2019])([Aa]n?)(\s+)")
# A pattern of whole_words one of whose spellings starts with a word the article's pattern reads ("a", "An").
_STARTS_WITH_ARTICLE = re.compile(r"(?:^\(\?:|\|)[Aa]n?\(\?<!")


@lru_cache(maxsize=256)
def _starts_with_article(pattern: re.Pattern[str]) -> bool:
    return _STARTS_WITH_ARTICLE.search(pattern.pattern) is not None


# A quotation, straight or curly (the rules quote card text: "When this creature enters, ..."), on one line. A curly
# one ends at the next curly mark of either kind: 2024-06-07's 614.1c closes its third quotation with an opening
# mark ("\u201c[This permanent] enters the battlefield as . . . \u201c are replacement effects"). (One never closed
# then takes the next quotation's opening mark as its end, and that quotation's words are read as the rules' own:
# 1999-11-01's 403.1, whose quoted "cost: effect." was read so before too.)
QUOTED = re.compile('\u201c[^\u201c\u201d\n]*[\u201c\u201d]|"[^"\n]*"')


def quoted(text: str) -> str:
    """The quotations of ``text``, one a line (what a rename of quoted text reads)."""
    return "\n".join(QUOTED.findall(text)) if ('"' in text or "\u201c" in text) else ""


@lru_cache(maxsize=256)
def old_spellings(spellings: tuple[tuple[str, str], ...]) -> tuple[str, ...]:
    return tuple(a for a, _ in spellings)


@lru_cache(maxsize=256)
def new_spellings(spellings: tuple[tuple[str, str], ...]) -> tuple[str, ...]:
    return tuple(b for _, b in spellings)


@lru_cache(maxsize=256)
def _substitution(spellings: tuple[str, ...]) -> re.Pattern[str]:
    return _substitution_of(whole_words(spellings))


def _substitution_of(pattern: re.Pattern[str]) -> re.Pattern[str]:
    """``pattern`` (of :func:`whole_words`) with the article before a spelling ("an EDH game")."""
    return re.compile(r"(?:(?<![\w'\u2019])(?P<art>[Aa]n?)(?P<gap>\s+))?" + pattern.pattern)


def _replace(m: re.Match[str], to: dict[str, str]) -> str:
    art, gap = m.group("art"), m.group("gap")
    word = m.group(0)[len(art) + len(gap) :] if art else m.group(0)
    return _replacement(art or "", gap or "", word, to)


def _replacement(art: str, gap: str, word: str, to: dict[str, str]) -> str:
    new = to[" ".join(_straight(word).split())]
    if not art:
        return new
    an = new[:1].lower() in "aeiou"
    article = ("An" if an else "A") if art[0] == "A" else ("an" if an else "a")
    return article + gap + new


def joined_texts(texts: list[str]) -> tuple[str, list[int]]:
    """``texts`` joined by newlines, and where each begins in the joined string: what :func:`text_users` searches."""
    return "\n".join(texts), list(accumulate((len(t) + 1 for t in texts[:-1]), initial=0))


def text_users(texts: list[str], joined: str, starts: list[int], spellings: tuple[str, ...]) -> list[int]:
    """The positions in ``texts`` of those that use any of ``spellings`` (see :func:`uses`). ``joined`` is
    the texts joined by newlines, ``starts`` where each begins: one C-speed search of it per spelling, for
    its longest word (which every use holds, as :func:`uses` says), finds the few texts worth the
    whole-word pattern."""
    near: set[int] = set()
    spellings = covering(spellings)
    for w in (words[0] for words in spelling_words(spellings)):
        k = joined.find(w)
        while k >= 0:
            x = bisect_right(starts, k) - 1
            near.add(x)
            k = joined.find(w, starts[x + 1] if x + 1 < len(starts) else len(joined))
    pattern = whole_words(spellings)
    return [x for x in sorted(near) if pattern.search(texts[x]) is not None]


def renamed(doc: Document, renames: Sequence[Rename], new: Document) -> Document:
    """``doc`` read in the ``new`` release's words: what the matcher compares (the raw texts reported
    stay the old ones). A rule the new release still has word for word is left alone: the old word may
    live on in another sense there (the Emperor variant's generals outlived EDH's)."""
    kept_raw = {r.text for r in new.rules}
    rules = list(doc.rules)
    rewritten: list[tuple[int, Rule]] = []
    for k in _touched(doc, renames):
        r = rules[k]
        text = substitute(r.text, renames)
        title = substitute(r.title, renames) if r.title else r.title
        examples = tuple(
            e if (t := substitute(e.text, renames)) == e.text else replace(e, text=t, norm_cache=None)
            for e in r.examples
        )
        if (text != r.text or title != r.title or examples != r.examples) and r.text not in kept_raw:
            rewritten.append(
                (k, replace(r, text=text, title=title, examples=examples, norm_cache=None, digest_cache=None))
            )
    if rewritten:
        # The new release's comparison texts that may equal one of these rules' (equal texts have equal
        # counts of the letters normalising keeps): the rest of the release is not normalised for nothing.
        counts = {kept_letters(doc.rules[k].norm) for k, _ in rewritten}
        kept = {
            x.norm for x in new.rules if kept_letters(x.norm_cache if x.norm_cache is not None else x.text) in counts
        }
        for k, read in rewritten:
            if doc.rules[k].norm not in kept:
                rules[k] = read
    return replace(doc, rules=tuple(rules))


def rule_texts(doc: Document) -> tuple[list[str], list[int]]:
    """Every text of ``doc``'s rules a rename may touch (its text, title, examples) and the position of the rule
    each belongs to."""
    texts: list[str] = []
    owner: list[int] = []
    for k, r in enumerate(doc.rules):
        texts.append(r.text)
        owner.append(k)
        if r.title:
            texts.append(r.title)
            owner.append(k)
        for e in r.examples:
            texts.append(e.text)
            owner.append(k)
    return texts, owner


def _touched(doc: Document, renames: Sequence[Rename]) -> list[int]:
    """The positions of the rules of ``doc`` whose text, title or an example uses an old spelling of ``renames``
    (:func:`text_users`, one C-speed search of the joined texts per word), in order: every rule :func:`substitute`
    may change. (Of several renames, the first to change a text finds its spelling in the text as it was.)"""
    texts, owner = rule_texts(doc)
    if not texts:
        return []
    joined, starts = joined_texts(texts)
    found = (text_users(texts, joined, starts, old_spellings(rename.spellings)) for rename in renames)
    return sorted({owner[x] for xs in found for x in xs})
