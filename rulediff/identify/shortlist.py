"""The cheap ranking before any alignment: releases grouped and scored by stored rule bodies."""

# The cheap ranking before any alignment: releases grouped by the stored bodies of their rules inside the dump's
# scope (equal groups explain the dump equally), scored by how many of the dump's rules they hold.

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..model import Document
from ..numbering import Level
from ..text import sentences
from .compare import levels_carried, scope_ranges, sentence_key

if TYPE_CHECKING:
    from ..archive import Archive, VersionRow

# Groups of releases aligned in full after the cheap ranking (more only to keep a tie whole).
SHORTLIST = 5
SHORTLIST_MAX = 6


@dataclass(slots=True)
class Group:
    """Releases whose rules inside the dump's scope are the same stored bodies under the same numbers:
    they explain the dump equally well, so one alignment serves them all."""

    members: list[VersionRow]
    cheap: float


def level_of(number: str | None) -> Level | None:
    """The level of a stored rule number, read from its shape ("7", "702", "702.15", "702.15b")."""
    if not number:
        return None
    if "." not in number:
        return Level.SECTION if len(number) == 1 else Level.HEADING
    return Level.SUBRULE if number[-1].isalpha() else Level.RULE


def group_releases(arc: Archive, doc: Document, releases: list[VersionRow]) -> list[Group]:
    ranges = scope_ranges(doc)
    wanted = {v.id for v in releases}
    levels = levels_carried(doc)
    rows = arc.identifications.rule_rows(ranges)
    if levels is not None and len(levels) < len(Level):
        level: dict[str | None, Level | None] = {}
        for _, n, _ in rows:
            if n not in level:
                level[n] = level_of(n)
        rows = [r for r in rows if level[r[1]] in levels]
    numbered = [r for r in doc.rules if r.number is not None]
    by_norm: dict[str, set[str]] = {}
    by_digest: dict[str, set[str]] = {}
    for r in numbered:
        by_norm.setdefault(r.norm, set()).add(str(r.number))
        by_digest.setdefault(r.digest, set()).add(str(r.number))
    good: set[tuple[str | None, int]] = set()
    if numbered:
        bodies = arc.identifications.bodies_with(set(by_norm), set(by_digest))
        for bid, norm in bodies.items():
            for n in by_norm.get(norm, ()):
                good.add((n, bid))
        # A body found by digest but stored with another norm cannot happen; by norm covers examples
        # the dump left out.
    sentence_hits: dict[int, set[str]] = {}
    title_keys: set[str] = set()
    sentence_keys: set[str] = set()
    unnumbered = [r for r in doc.rules if r.number is None]
    if unnumbered:
        title_keys = {sentence_key(r.title or "") for r in unnumbered}
        sentence_keys = {sentence_key(s) for r in unnumbered for s in sentences(r.text)}
        norms = arc.identifications.body_norms({b for _, _, b in rows})
        for bid, norm in norms.items():
            keys = {s.casefold() for s in sentences(norm)}  # stored texts are normalised already
            hit = (keys & sentence_keys) | ({norm.casefold()} & title_keys)
            if hit:
                sentence_hits[bid] = hit
    per: dict[int, list[tuple[str | None, int]]] = {v.id: [] for v in releases}
    for vid, number, bid in rows:
        if vid in wanted:
            per[vid].append((number, bid))
    want = len(numbered) + len(title_keys) + len(sentence_keys)
    groups: dict[tuple[frozenset[tuple[str | None, int]], int], Group] = {}
    for v in releases:
        mine = per[v.id]
        hits = len(good.intersection(mine))
        found: set[str] = set()
        if sentence_hits:
            for _, b in mine:
                found |= sentence_hits.get(b, set())
        hits += len(found)
        union = want + (len(mine) if numbered else 0) - (hits if numbered else 0)
        cheap = hits / union if union else 0.0
        # The same (number, body) pairs: the same text under the same numbers (the count keeps duplicates).
        fp = (frozenset(mine), len(mine))
        g = groups.get(fp)
        if g is None:
            groups[fp] = Group([v], cheap)
        else:
            g.members.append(v)
    return sorted(groups.values(), key=lambda g: (-g.cheap, g.members[0].sort_date))


def shortlist(groups: list[Group]) -> list[Group]:
    if len(groups) <= SHORTLIST:
        return list(groups)
    bar = groups[SHORTLIST - 1].cheap
    return [g for k, g in enumerate(groups) if k < SHORTLIST or (g.cheap == bar and k < SHORTLIST_MAX)]
