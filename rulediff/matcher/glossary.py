"""The glossary's changes between two releases: terms paired by name, then by text."""

# The glossary's changes between two releases: terms paired by their name, then by their text (a term renamed), each
# edit's nature.

from __future__ import annotations

from functools import lru_cache
from operator import itemgetter

from rapidfuzz import fuzz

from ..model import Document, GlossaryEntry
from ..support.constructors import slot_filler
from ..words.nature import nature_of
from ..words.records import Nature, Rename
from ..words.renames import substitute
from .records import GlossaryChange, Kind

# The place a change is sorted by, in the (place, change) items the list is made of.
_first = itemgetter(0)


@lru_cache(maxsize=1 << 12)
def _term_key(term: str) -> str:
    # Terms repeat from release to release: each spelling is keyed once. Curly and straight quotes key alike
    # (the PDF of 2010-10-01 prints Intervening \u201cIf\u201d Clause where its text edition has straight quotes).
    return " ".join(term.casefold().translate(_QUOTES).split())


_QUOTES = str.maketrans({"\u2019": "'", "\u2018": "'", "\u201c": '"', "\u201d": '"'})


_glossary_change = slot_filler(GlossaryChange, "kind old new nature reason")


def glossary_changes(
    old: Document, new: Document, nmap: dict[str, str | list[str]], renames: tuple[Rename, ...] = ()
) -> list[GlossaryChange]:
    key = _term_key
    # Each term keyed once; a term printed twice is found (and placed) by its last printing.
    ka = [key(g.term) for g in old.glossary]
    kb = [key(h.term) for h in new.glossary]
    bmap = dict(zip(kb, new.glossary, strict=True))
    order_new = dict(zip(kb, range(len(kb)), strict=True))
    order_old = dict(zip(ka, range(len(ka)), strict=True))
    used: set[str] = set()
    # Each change with its place: new-glossary order, a removed term where it was.
    out: list[tuple[tuple[int, int], GlossaryChange]] = []
    leftovers: list[tuple[GlossaryEntry, str]] = []
    for g, k in zip(old.glossary, ka, strict=True):
        h = bmap.get(k)
        if h is None or k in used:
            leftovers.append((g, k))
            continue
        used.add(k)
        n = None if g.text == h.text else nature_of(g.text, h.text, g.norm, h.norm, nmap, renames)
        out.append(
            ((order_new[k], 0), _glossary_change(Kind.UNCHANGED if n is None else Kind.EDITED, g, h, n, "same term"))
        )
    free_b = [(h, k) for h, k in zip(new.glossary, kb, strict=True) if k not in used]
    for g, kg in leftovers:
        best = max(((fuzz.ratio(g.norm, h.norm), x) for x, (h, _) in enumerate(free_b)), default=(0.0, -1))
        if best[0] >= 80:
            h, kh = free_b.pop(best[1])
            # A term renamed by a rename of the release ("Tribal" -> "Kindred") is no edit of its own.
            named = bool(renames) and key(substitute(g.term, renames)) == kh
            n = nature_of(g.text, h.text, g.norm, h.norm, nmap, renames) or Nature.RENAMED
            n = n if named or n != Nature.RENAMED else Nature.SUBSTANTIVE
            why = f"term renamed {g.term!r} -> {h.term!r}; text {best[0] / 100:.2f}"
            out.append(((order_new[kh], 0), GlossaryChange(Kind.EDITED, g, h, n, why)))
        elif new.coverage.glossary:
            out.append(
                ((order_old[kg], 1), GlossaryChange(Kind.REMOVED, g, None, None, "term no longer in the glossary"))
            )
        else:
            out.append(
                ((order_old[kg], 1), GlossaryChange(Kind.NOT_COVERED, g, None, None, "the new source has no glossary"))
            )
    for h, k in free_b:
        if old.coverage.glossary:
            out.append(((order_new[k], 0), GlossaryChange(Kind.ADDED, None, h, None, "new term")))
        else:
            out.append(
                ((order_new[k], 0), GlossaryChange(Kind.NOT_COVERED, None, h, None, "the old source has no glossary"))
            )
    out.sort(key=_first)
    return [c for _, c in out]
