"""The glossary's matcher: terms paired by name, by a name kept among new ones, then by text, with evidence."""

# The glossary's own matcher: terms paired by their name, by the same name spelled otherwise, by a name one side keeps
# among the other's names, then by text alone (a term renamed); each pair with the evidence that made it, weak
# evidence marked uncertain, as the rules' matcher does; each edit's nature.

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from operator import itemgetter
from typing import Protocol

import rapidfuzz
from rapidfuzz import fuzz

from .._version import __version__
from ..model import Document
from ..support.code_digest import sources_digest
from ..text import searchable, shared_words, word_bag
from ..words.nature import nature_of
from ..words.records import Nature, Rename
from ..words.renames import substitute
from .records import GlossaryChange, Kind
from .thresholds import EVIDENCE, STRONG_EVIDENCE, STRUCTURAL_CUTOFF

# Definitions are short and alike ("An obsolete term for ..."): differently named terms pair on text alone only
# when this alike (0-100); below TERM_CERTAIN, with no word of their names shared, the pair is marked uncertain.
TERM_TEXT_CUTOFF = 80.0
TERM_CERTAIN = 85.0

# The code that pairs two glossaries: this module and every module of rulediff it imports (tests/test_architecture.py
# holds the list to the imports). A pairing kept between builds names it (see ``pairing_engine``).
PAIRING_MODULES = (
    "rulediff.coverage",
    "rulediff.model",
    "rulediff.numbering",
    "rulediff.references",
    "rulediff.support.constructors",
    "rulediff.text",
    "rulediff.words.agreement",
    "rulediff.words.nature",
    "rulediff.words.records",
    "rulediff.words.renames",
    "rulediff.matcher.records",
    "rulediff.matcher.thresholds",
    "rulediff.matcher.glossary",
)

_first = itemgetter(0)
Free = dict[int, None]  # the entries of one side not yet paired, in order
_MARKER = re.compile(r"\((?:obsolete|deprecated|informal)\)", re.IGNORECASE)
_QUOTE_LIKE = re.compile("[\"'\u2018\u2019\u201c\u201d?_*]")
_OBSOLETE = re.compile(r"\(obsolete\)\s*$", re.IGNORECASE)


class Term(Protocol):
    """What the matcher reads of a glossary entry: its term and its text's comparison form."""

    @property
    def term(self) -> str: ...
    @property
    def norm(self) -> str: ...


@dataclass(frozen=True, slots=True)
class TermPair:
    """Entry ``old`` of one glossary continues as entry ``new`` of the next; ``how`` says on what evidence
    ("same term", "respelled", "name kept", "marked obsolete", "renamed"), ``reason`` in words for a reader."""

    old: int
    new: int
    how: str
    reason: str
    uncertain: bool = False


@lru_cache(maxsize=1 << 12)
def term_key(term: str) -> str:
    """A term as printed, case, apostrophes and spacing aside: the same term in two releases."""
    return " ".join(term.casefold().replace("\u2019", "'").split())


@lru_cache(maxsize=1 << 12)
def _plain(term: str) -> str:
    """A term line's words alone: typography (quotes, a lossy release's '?', italics, dashes) and case aside."""
    return " ".join(_QUOTE_LIKE.sub("", searchable(term).casefold()).split())


@lru_cache(maxsize=1 << 12)
def spelling_key(term: str) -> str:
    """A term's name with its spelling set aside: typography, and "/" or "," between names. "Life/Life Total"
    and "Life, Life Total", '?As Though?' and '“As though”' are one name; "Counts As (Obsolete)" is not
    "Counts As"."""
    return " ".join(re.sub(r"\s*[/,]\s*", ", ", _plain(term)).split())


@lru_cache(maxsize=1 << 12)
def names_of(term: str) -> tuple[str, ...]:
    """The names a term line gives ("Remove from the Game, Removed, ..." -> three), markers such as
    "(Obsolete)" aside, each as plain words."""
    s = _MARKER.sub(" ", _plain(term))
    return tuple(" ".join(p.split()) for p in re.split(r"[/,]", s) if p.split())


def _kept_name(a: str, b: str) -> bool | None:
    """Does one term keep a name of the other: True, a name of one is among the other's names; False, the
    whole of one name's words begin or end one of the other's ("Removed from the Game" in "Removed-from-the-
    Game Zone"); None, neither."""
    na, nb = names_of(a), names_of(b)
    if set(na) & set(nb):
        return True
    for x in na:
        for y in nb:
            short, long_ = (x, y) if len(x) <= len(y) else (y, x)
            if long_.startswith(short + " ") or long_.endswith(" " + short):
                return False
    return None


def _words_share(a: str, b: str) -> float:
    """How much of their words two texts share, the smaller of the two shares (the rules' evidence)."""
    ba, bb = word_bag(a), word_bag(b)
    common = shared_words(ba, bb)
    return min(common / (sum(ba.values()) or 1), common / (sum(bb.values()) or 1))


@functools.cache
def pairing_engine() -> str:
    """Names the code that pairs glossaries (``pair_terms``), as ``engine_version`` names the one that aligns;
    rapidfuzz's similarity is part of it."""
    return f"{__version__}+rapidfuzz-{rapidfuzz.__version__}+{sources_digest(PAIRING_MODULES)[:12]}"


def pair_terms(old: Sequence[Term], new: Sequence[Term], renames: tuple[Rename, ...] = ()) -> list[TermPair]:
    """Pair two glossaries' entries, one to one: the same term; the same name spelled otherwise; a term renamed
    by a rename of the release (EDH -> Commander); differently named terms on their text (the definition went
    there: "Tribal" -> "Kindred", not to the new "Tribal (Obsolete)"); then a name one keeps of the other's,
    on enough shared words, or when the new one is the old marked obsolete (retiring a term rewrites it). A
    term printed twice is found by its last printing."""
    pairs: list[TermPair] = []
    free_a: Free = dict.fromkeys(range(len(old)))
    free_b: Free = dict.fromkeys(range(len(new)))
    keys: list[tuple[Callable[[str], str], str]] = [(term_key, "same term"), (spelling_key, "respelled")]
    if renames:
        keys.append((lambda t: term_key(substitute(t, renames)), "renamed throughout"))
    for key, how in keys:
        by = {(term_key if how == "renamed throughout" else key)(new[j].term): j for j in free_b}
        for i in list(free_a):
            j = by.get(key(old[i].term))
            if j is None or j not in free_b:
                continue
            del free_a[i], free_b[j]
            a, b = old[i].term, new[j].term
            said = {
                "same term": "same term",
                "respelled": f"the same term respelled: {a!r} -> {b!r}",
                "renamed throughout": f"term renamed {a!r} -> {b!r}, as throughout the release",
            }[how]
            pairs.append(TermPair(i, j, how, said))
    if free_a and free_b:
        pairs.extend(_by_text(old, new, free_a, free_b))
    if free_a and free_b:
        pairs.extend(_keptnames_of(old, new, free_a, free_b))
    return pairs


def _keptnames_of(old: Sequence[Term], new: Sequence[Term], free_a: Free, free_b: Free) -> list[TermPair]:
    """Pairs of terms where one keeps a name of the other, best evidence first: enough shared text (the
    rules' EVIDENCE), or the new term the old one marked obsolete. A name kept whole ("Partner" among
    'Partner, "Partner with [name]"') is certain on EVIDENCE; one kept inside a longer name ("Upkeep" in
    "Upkeep Step") only on STRONG_EVIDENCE, else the pair is marked uncertain."""
    found = []
    for i in free_a:
        for j in free_b:
            kept = _kept_name(old[i].term, new[j].term)
            if kept is None:
                continue
            a, b = old[i].norm, new[j].norm
            score = max(_words_share(a, b), fuzz.ratio(a, b) / 100)
            retired = bool(_OBSOLETE.search(new[j].term)) and not _OBSOLETE.search(old[i].term)
            if score >= min(EVIDENCE, STRUCTURAL_CUTOFF / 100) or retired:
                found.append((score, kept, retired, i, j))
    out = []
    for score, whole, retired, i, j in sorted(found, key=lambda f: (-f[0], f[3], f[4])):
        if i not in free_a or j not in free_b:
            continue
        del free_a[i], free_b[j]
        a, b = old[i].term, new[j].term
        if retired and score < EVIDENCE:
            out.append(TermPair(i, j, "marked obsolete", f"term {a!r} kept as {b!r}, marked obsolete"))
            continue
        why = f"term {a!r} kept {'among the names' if whole else 'inside a name'} of {b!r}; text {score:.2f}"
        out.append(TermPair(i, j, "name kept", why, uncertain=score < (EVIDENCE if whole else STRONG_EVIDENCE)))
    return out


def _by_text(old: Sequence[Term], new: Sequence[Term], free_a: Free, free_b: Free) -> list[TermPair]:
    """Pairs of differently named terms on their text alone, the most alike first."""
    found = []
    for i in free_a:
        for j in free_b:
            r = fuzz.ratio(old[i].norm, new[j].norm, score_cutoff=TERM_TEXT_CUTOFF)
            if r:
                found.append((r, i, j))
    out = []
    for r, i, j in sorted(found, key=lambda f: (-f[0], f[1], f[2])):
        if i not in free_a or j not in free_b:
            continue
        del free_a[i], free_b[j]
        a, b = old[i].term, new[j].term
        shared = set(" ".join(names_of(a)).split()) & set(" ".join(names_of(b)).split())
        why = f"term renamed {a!r} -> {b!r}; text {r / 100:.2f}"
        out.append(TermPair(i, j, "renamed", why, uncertain=r < TERM_CERTAIN and not shared))
    return out


def glossary_changes(
    old: Document, new: Document, nmap: dict[str, str | list[str]], renames: tuple[Rename, ...] = ()
) -> list[GlossaryChange]:
    """Every glossary entry's change, in new-glossary order (a removed term where it was)."""
    order_new = {term_key(h.term): k for k, h in enumerate(new.glossary)}
    order_old = {term_key(g.term): k for k, g in enumerate(old.glossary)}
    out: list[tuple[tuple[int, int], GlossaryChange]] = []
    paired_a: set[int] = set()
    paired_b: set[int] = set()
    for p in pair_terms(old.glossary, new.glossary, renames):
        g, h = old.glossary[p.old], new.glossary[p.new]
        paired_a.add(p.old)
        paired_b.add(p.new)
        n = None if g.text == h.text else nature_of(g.text, h.text, g.norm, h.norm, nmap, renames)
        kind = Kind.UNCHANGED if n is None and p.how == "same term" and g.term == h.term else Kind.EDITED
        if p.how == "respelled" or (p.how == "same term" and g.term != h.term):
            n = n or Nature.TYPOGRAPHY_ONLY  # the same name spelled otherwise
        elif p.how != "same term":
            # A term renamed by a rename of the release ("Tribal" -> "Kindred") is no edit of its own.
            named = p.how == "renamed throughout"
            n = n or Nature.RENAMED
            n = n if named or n != Nature.RENAMED else Nature.SUBSTANTIVE
        out.append(((order_new[term_key(h.term)], 0), GlossaryChange(kind, g, h, n, p.reason, p.uncertain)))
    for k, g in enumerate(old.glossary):
        if k in paired_a:
            continue
        gone = (
            (Kind.REMOVED, "term no longer in the glossary")
            if new.coverage.glossary
            else (
                Kind.NOT_COVERED,
                "the new source has no glossary",
            )
        )
        out.append(((order_old[term_key(g.term)], 1), GlossaryChange(gone[0], g, None, None, gone[1])))
    for k, h in enumerate(new.glossary):
        if k in paired_b:
            continue
        came = (
            (Kind.ADDED, "new term") if old.coverage.glossary else (Kind.NOT_COVERED, "the old source has no glossary")
        )
        out.append(((order_new[term_key(h.term)], 0), GlossaryChange(came[0], None, h, None, came[1])))
    out.sort(key=_first)
    return [c for _, c in out]
