"""The one decision on the nature of an edit: typography only, references only, or substantive."""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import replace
from functools import lru_cache

from ..references import references_follow
from ..text import mask_references, normalize
from .agreement import subjects, verbs_agree
from .records import Nature, Rename
from .renames import QUOTED, applied, old_spellings, renamed_text, substitute, uses, whole_words


def nature_of(
    old: str,
    new: str,
    old_norm: str | None = None,
    new_norm: str | None = None,
    number_map: dict[str, str | list[str]] | None = None,
    renames: Sequence[Rename] = (),
) -> Nature | None:
    """None when the raw texts are equal; otherwise what kind of edit separates them.

    Every count, badge and word diff reads this answer (``textdiff.word_diff`` mutes by it), so a rule
    shown as typography-only can never show a visible edit, nor a substantive one show none. An edit
    that the release's ``renames`` explain (with typography and followed references) is RENAMED: it
    shows the substituted words, and nothing else, as changed."""
    if old == new:
        return None
    a = normalize(old) if old_norm is None else old_norm
    b = normalize(new) if new_norm is None else new_norm
    if a == b or lossy_equal(a, b, _marked(old) or _marked(new)):
        return Nature.TYPOGRAPHY_ONLY
    # Read again in one quote style when either side has a single quote: 'the Legend rule.' and "the Legend
    # rule." (2002-10-07) say the same.
    qa, qb = (one_quote_style(a), one_quote_style(b)) if "'" in a or "'" in b else (a, b)
    if qa == qb:
        return Nature.TYPOGRAPHY_ONLY
    nmap = number_map or {}
    if _references_follow(a, b, nmap) or ((qa, qb) != (a, b) and _quoted_follow(a, b, qa, qb, nmap)):
        return Nature.REFERENCES_ONLY
    if not renames or (read := substitute(old, renames)) == old:
        return Nature.SUBSTANTIVE  # (a text that uses no rename: most of them)
    if _renamed(read, old, b, qb, nmap, renames):
        return Nature.RENAMED
    if (here := applied(renames, new)) != tuple(renames) and _renamed(substitute(old, here), old, b, qb, nmap, here):
        # (read in the spellings the new text took: a text may keep one the rest of the release left, 2024-07-30's
        # example of 118.12 quotes "If a creature would enter the battlefield ..." still, and "it enters" already)
        return Nature.RENAMED
    # (read with references masked, then the references asked to follow the map, as a rename made everywhere is
    # forgiven them -- or to be the same ones: the masked reading holds whenever the plain one does, so the edits
    # that are no rename, most of those asked, are read once)
    if _renamed_in_places(mask_references(a), mask_references(b), renames) and (
        references_follow(a, b, nmap) or _renamed_in_places(a, b, renames)
    ):
        return Nature.RENAMED
    return Nature.SUBSTANTIVE


def _renamed_in_places(a: str, b: str, renames: Sequence[Rename]) -> bool:
    """``b`` is ``a`` (comparison forms) with the renames made in some of the places ``a`` uses them, not in all:
    2024-07-30's example of 608.3e has Clone "enter as a copy" where it said "enter the battlefield as a copy",
    and "Lands can't enter the battlefield" as it did. Each place changed is a rename word for word (with the
    article before it); every other character is as it was. Read left to right, the positions of ``b`` each
    choice so far can reach (a few: a place renamed or not)."""
    at, last = {0}, 0
    for start, end, r in sorted(_places(a, renames), key=lambda p: (p[0], -p[1])):
        if start < last:
            continue  # (a place overlapping one taken before)
        kept, was = a[last:start], a[start:end]
        reach: set[int] = set()
        renamed: str | None = None
        for p in at:
            q = p + len(kept)
            if b.startswith(kept, p):
                if renamed is None:  # (renamed once asked: most edits part from the text before a place)
                    renamed = renamed_text(was, r)
                reach.update(q + len(x) for x in (was, renamed) if b.startswith(x, q))
        if not reach or len(reach) > _MOST_WAYS:
            return False  # (more ways than a real text has: a hostile one, periodic, read as an edit in linear time)
        at, last = reach, end
    tail = a[last:]
    return any(p + len(tail) == len(b) and b.startswith(tail, p) for p in at)


def _places(a: str, renames: Sequence[Rename]) -> Iterator[tuple[int, int, Rename]]:
    """Where ``a`` uses a rename (inside quotation marks, for one of quoted text): start, end (the article right
    before it taken in: it may change, "an EDH game" -> "a Commander game") and the rename, read anywhere."""
    quotations: list[tuple[int, int]] | None = None
    for r in renames:
        if r.quoted:
            if quotations is None:
                quotations = [q.span() for q in QUOTED.finditer(a)]
            spans = quotations
        else:
            spans = [(0, len(a))]
        read = _compared(r)
        if read is None:
            continue
        pattern = whole_words(old_spellings(read.spellings))
        for lo, hi in spans:
            for m in pattern.finditer(a, lo, hi):
                art = _ARTICLE_BEFORE.search(a, max(lo, m.start() - 4), m.start())
                yield (m.start() if art is None else art.start()), m.end(), read


@lru_cache(maxsize=256)
def _compared(r: Rename) -> Rename | None:
    """``r`` as the comparison forms read it, anywhere in them: its spellings normalised as the texts are (a
    hyphen inside a word dropped, "state-based effect" read as "statebased effect"; apostrophes straight); None if
    a spelling normalises to nothing."""
    spellings = tuple((normalize(x), normalize(y)) for x, y in r.spellings)
    if not all(x for x, _ in spellings):
        return None
    return replace(r, spellings=spellings, quoted=False)


_ARTICLE_BEFORE = re.compile(r"(?<![\w'])[Aa]n? $")
# The most ways of reading a text's places renamed or not that are followed at once: in a real text one or two
# (a place kept whole also starts with its rename, "enter the battlefield" with "enter", and that way dies a word on).
_MOST_WAYS = 8


def _renamed(read: str, old: str, b: str, qb: str, nmap: dict[str, str | list[str]], renames: Sequence[Rename]) -> bool:
    """``old`` read in the words of ``renames`` (``read``) is ``b`` (its comparison form; ``qb`` that in one quote
    style), but for typography, references that follow ``nmap`` and verbs agreeing with a subject renamed."""
    r = normalize(read)
    if r == b or _references_follow(r, b, nmap) or one_quote_style(r) == qb:
        return True
    if "'" in r and _quoted_follow(r, b, one_quote_style(r), qb, nmap):
        return True
    if r.count(" ") != b.count(" "):
        return False  # (verbs agreeing change no word count: told at C speed before the subjects are asked, or
        # agreement.verbs_agree reads the words)
    return bool(subject := _subject_renamed(old, renames)) and verbs_agree(r, b, subject)


def _subject_renamed(old: str, renames: Sequence[Rename]) -> frozenset[str]:
    """The plural subjects (casefolded) of the renames ``old`` uses that make one ("they" of "he or she has" ->
    "they have")."""
    out: frozenset[str] = frozenset()
    for r in renames:
        if (said := subjects(r.spellings)) and uses(old, old_spellings(r.spellings)):
            out |= said
    return out


def _references_follow(a: str, b: str, number_map: dict[str, str | list[str]]) -> bool:
    return mask_references(a) == mask_references(b) and references_follow(a, b, number_map)


def _quoted_follow(a: str, b: str, qa: str, qb: str, number_map: dict[str, str | list[str]]) -> bool:
    """:func:`_references_follow` of ``qa`` and ``qb``, the :func:`one_quote_style` of ``a`` and ``b``: their masked
    forms are those of ``a`` and ``b`` in one quote style (no reference holds a quotation mark, and the grammar
    reads a quote as it reads any other mark: test_shortcuts holds the two together), so the quoted forms, new
    texts, are read for references only when those agree."""
    if one_quote_style(mask_references(a)) != one_quote_style(mask_references(b)):
        return False
    return references_follow(qa, qb, number_map)


def one_quote_style(text: str) -> str:
    """``text`` (a comparison form: quotes already straight) with every quotation mark written as one: a single
    quote, or two, as a double quote. Two texts equal in this form differ only in quote style -- straight
    or curly (normalize already makes them straight), single or double -- which is typography: the words
    are the same words. (An apostrophe becomes a double quote too: on both sides alike, so it still
    compares as itself.)"""
    if "'" not in text:
        return text
    return text.replace("''", '"').replace("'", '"')


def quote_style_equal(a: str, b: str) -> bool:
    """Do two comparison forms differ only in quote style (see ``one_quote_style``)?"""
    return a != b and ("'" in a or "'" in b) and one_quote_style(a) == one_quote_style(b)


# A lossy conversion (the archived 2008-05-01 text) wrote "?" for every character outside its code page.
_LOSSY_SPLIT = re.compile(r"( \? |\?)")
_QUOTES = re.compile(r"(['\"])")
_MARK = re.compile(r"\u2122|\u00ae|\((?:tm|TM|Tm|R|r)\)")
_MARK_IN_PARENTHESES = re.compile(r"\((?:tm|TM|Tm|R|r)\)")


def _marked(text: str) -> bool:
    """``_MARK.search(text)`` found something: the two signs looked for at C speed (an alternation that starts with
    them is tried at every position), the marks in parentheses searched from their "(" only where there is one."""
    return "\u2122" in text or "\u00ae" in text or ("(" in text and _MARK_IN_PARENTHESES.search(text) is not None)


_STOOD_FOR = "'\"?-"  # what a lone "?" may stand for: a quote, an apostrophe, itself, a dash


@lru_cache(maxsize=1 << 12)
def lossy_equal(a: str, b: str, marks: bool = False) -> bool:
    """Equal comparison forms but for a "?" on one side standing where the other has a quote or an
    apostrophe ("opponents? deck", "?Multiplayer Rules.?"), a dash ("Artifact ? Equipment"), or --
    when ``marks`` (the other raw text prints a trademark sign) -- nothing ("Odyssey? block"): the
    archived 2008-05-01 text went through a lossy conversion that wrote "?" for each of them. Only
    those exchanges; a question mark anywhere else is text.

    ``b`` (the side with the "?") is read as a pattern and ``a`` matched against it by walking the
    set of positions in ``a`` each prefix of the pattern can end at: the same answer a regular
    expression built from ``b`` gives, without compiling one per text (texts run to kilobytes)."""
    if "?" not in b and "?" in a:
        a, b = b, a
    if "?" not in b:
        return False
    at = {0}
    for k, chunk in enumerate(_LOSSY_SPLIT.split(b)):
        if k % 2 == 0:
            at = _literal(a, at, chunk)
        elif chunk == "?":
            at = _one(a, at, marks)
        else:
            # A spaced dash compares as "-", or as nothing between two words (see text.normalize).
            spaced = {p + 1 for p in at if a.startswith(" ", p)}
            at = (
                {p + 1 for p in at if a.startswith("-", p)}
                | at
                | {q + 1 for q in _one(a, spaced, marks) if a.startswith(" ", q)}
            )
        if not at:
            return False
    return len(a) in at


def _one(a: str, at: set[int], marks: bool) -> set[int]:
    """Where a lone "?" can end from each position: over a quote, an apostrophe, a "?" or a dash, or
    (``marks``) over nothing."""
    out = {p + 1 for p in at if p < len(a) and a[p] in _STOOD_FOR}
    return out | at if marks else out


def _literal(a: str, at: set[int], chunk: str) -> set[int]:
    """Where ``chunk`` (text without "?") can end from each position: its characters as they are, but
    a quote or an apostrophe in it also matches a "?" in ``a``."""
    out = set()
    parts = _QUOTES.split(chunk)
    for p in at:
        for k, part in enumerate(parts):
            if k % 2 == 0:
                if not a.startswith(part, p):
                    break
                p += len(part)
            elif p < len(a) and a[p] in (part, "?"):
                p += 1
            else:
                break
        else:
            out.add(p)
    return out
