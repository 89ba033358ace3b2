"""A glossary term's lineage through every archived version and its renames, and glossary search."""

# The glossary as a first-class citizen: each term followed from release to release by the glossary's own matcher
# (matcher/glossary.py: the same term, respelled, renamed throughout, renamed with its definition, a name kept, marked
# obsolete), a term that comes back under its old name taken up again; a term's history, and the glossary's search.

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from ..archive import Archive, VersionRow
from ..matcher.glossary import TermPair, names_of, pair_terms, spelling_key
from ..matcher.glossary import term_key as printed_key
from ..text import normalize
from .timeline import Stretch, stretches

_OBSOLETE = re.compile(r"\s*\((?:obsolete|deprecated)\)\s*$", re.IGNORECASE)


def term_key(term: str) -> str:
    """A term's name as a page is named after it: case, apostrophes, spacing and an "(Obsolete)" marker set
    aside ("Mana Burn (Obsolete)" keeps the page of "Mana Burn")."""
    return " ".join(_OBSOLETE.sub("", normalize(term)).casefold().split())


class _Entry(NamedTuple):
    term: str
    text: str
    norm: str


@dataclass(slots=True)
class TermLine:
    """One glossary term through the releases: its (term, text) by release index (a term printed twice in
    a release: its first entry), the indices whose entry continues the previous glossary's, and what a reader
    is told of a link made on weak evidence, by release index."""

    seen: dict[int, tuple[str, str]] = field(default_factory=dict)
    follows: set[int] = field(default_factory=set)
    links: dict[int, str] = field(default_factory=dict)

    @property
    def latest(self) -> str:
        return self.seen[max(self.seen)][0]

    def names(self) -> list[str]:
        """The names it went by, oldest first, each once however spelled (the first spelling)."""
        out: dict[str, str] = {}
        for k in sorted(self.seen):
            out.setdefault(spelling_key(self.seen[k][0]), self.seen[k][0])
        return list(out.values())

    def entries(self, versions: list[VersionRow]) -> list[tuple[VersionRow, None, str, str, bool]]:
        """Its readings as ``timeline.stretches`` takes them."""
        return [(versions[k], None, *self.seen[k], k in self.follows) for k in sorted(self.seen)]

    def link_said(self, versions: list[VersionRow]) -> dict[int, str]:
        return {versions[k].id: said for k, said in self.links.items()}


def term_lines(arc: Archive, versions: list[VersionRow]) -> list[TermLine]:
    """Every glossary term's line through ``versions`` (those with a glossary; a partial dump has none): each
    glossary paired with the one before by the glossary's matcher; a term no pair continues, under the name
    of one that ended earlier, takes that one up again (it reappears); else it starts a line."""
    rows: dict[int, list[_Entry]] = {}
    for vid, _pos, term, text, norm in arc.texts.glossary_in_order((v.id for v in versions), norm=True):
        rows.setdefault(vid, []).append(_Entry(term, text, norm))
    lines: list[TermLine] = []
    by_name: dict[str, int] = {}  # a name's last line
    before: tuple[int, list[_Entry], list[int]] | None = None  # the previous glossary: index, entries, lines
    for k, v in enumerate(versions):
        got = rows.get(v.id)
        if got is None or not arc.versions.coverage(v.id).glossary:
            continue
        at: list[int | None] = [None] * len(got)
        if before is not None:
            for p in pair_terms(before[1], got):
                at[p.new] = before[2][p.old]
                _say(lines[before[2][p.old]], k, before[0], p)
        taken = {x for x in at if x is not None}
        for j, e in enumerate(got):
            if at[j] is None:
                again = by_name.get(printed_key(e.term))
                if again is None or again in taken:
                    again = len(lines)
                    lines.append(TermLine())
                at[j] = again
                taken.add(again)
        mine = [x for x in at if x is not None]
        for x, e in zip(mine, got, strict=True):
            lines[x].seen.setdefault(k, (e.term, e.text))
            by_name[printed_key(e.term)] = x
        before = (k, got, mine)
    return lines


def _say(line: TermLine, k: int, prev: int, p: TermPair) -> None:
    """Note on ``line`` that release ``k`` continues it from release ``prev`` by the pair ``p``."""
    if prev in line.seen:
        line.follows.add(k)
    if p.uncertain:
        line.links[k] = f"uncertain match: {p.reason}"


@dataclass(slots=True)
class TermHistory:
    """A glossary term over time: ``stretches`` carry its name (``name``) and definition (``text``)."""

    key: str
    stretches: list[Stretch]
    gone_after: VersionRow | None

    @property
    def title(self) -> str:
        return self.stretches[-1].name or self.key

    @property
    def uncertain(self) -> bool:
        return any(s.link and s.link.startswith("uncertain") for s in self.stretches)

    def numbers(self) -> list[tuple[str, str, str]]:
        """(term, first version label, last version label) for each stretch under one name."""
        out: list[tuple[str, str, str]] = []
        for s in self.stretches:
            # (a name respelled -- quotes, a lossy release's '?', "/" for "," -- is the same name, as last spelled)
            if out and spelling_key(out[-1][0]) == spelling_key(s.name or ""):
                out[-1] = (s.name or "", out[-1][1], s.last.label)
            else:
                out.append((s.name or "", s.first.label, s.last.label))
        return out

    def as_dict(self) -> dict[str, Any]:
        return {
            "schema": "rulediff.term-history/1",
            "term": self.title,
            "terms": [{"term": n, "from": a, "to": b} for n, a, b in self.numbers()],
            "stretches": [s.as_dict() for s in self.stretches],
            "gone_after": self.gone_after.label if self.gone_after else None,
        }


def find_line(lines: list[TermLine], query: str) -> TermLine | None:
    """The line of the term ``query`` names: by the term as printed, then spelled otherwise, then by one of
    its names ("interrupt" for "Interrupt (Obsolete)"); of several, the one that had it last."""
    wanted = set(names_of(query))
    tests: tuple[Callable[[str], bool], ...] = (
        lambda t: printed_key(t) == printed_key(query),
        lambda t: spelling_key(t) == spelling_key(query),
        lambda t: bool(wanted) and wanted <= set(names_of(t)),
    )
    for test in tests:
        hits = [(max((k for k, (t, _) in line.seen.items() if test(t)), default=-1), n) for n, line in enumerate(lines)]
        best = max(((k, -n) for k, n in hits if k >= 0), default=None)
        if best is not None:
            return lines[-best[1]]
    return None


def term_history(arc: Archive, query: str) -> TermHistory | None:
    """The history of the glossary term ``query`` names, through its renames (None: no version has it)."""
    versions = arc.versions.timeline()
    line = find_line(term_lines(arc, versions), query)
    if line is None:
        return None
    last = max(line.seen)
    with_glossary = [v for v in versions[last + 1 :] if arc.versions.coverage(v.id).glossary]
    found = stretches(line.entries(versions), line.link_said(versions))
    return TermHistory(term_key(line.latest), found, with_glossary[0] if with_glossary else None)


def search_glossary(arc: Archive, phrase: str) -> list[dict[str, Any]]:
    """Glossary entries whose term or text holds ``phrase`` (words in order, typography ignored), one hit
    per term (through its renames): its names, first and last version seen, and its latest such text."""
    wanted = _words(phrase)
    if not wanted:
        return []
    pattern = re.compile(r"\b" + r"\W+".join(map(re.escape, wanted)) + r"\b")
    versions = arc.versions.timeline()
    out: list[dict[str, Any]] = []
    for line in term_lines(arc, versions):
        hits = [
            k for k, (t, x) in line.seen.items() if pattern.search(" ".join(_words(t)) + " \n " + " ".join(_words(x)))
        ]
        if not hits:
            continue
        last = max(hits)
        out.append(
            {
                "term": line.seen[last][0],
                "terms": list(dict.fromkeys(line.seen[k][0] for k in sorted(hits))),
                "text": line.seen[last][1],
                "first_seen": versions[min(hits)].label,
                "last_seen": versions[last].label,
            }
        )
    out.sort(key=lambda h: h["term"].casefold())
    return out


def _words(text: str) -> list[str]:
    return re.findall(r"\w+", normalize(text).casefold())
