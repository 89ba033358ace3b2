"""A glossary term's lineage through every archived version and its renames, and glossary search."""

# The glossary as a first-class citizen: each term followed from release to release by the glossary's own matcher
# (matcher/glossary.py: the same term, respelled, renamed throughout, renamed with its definition, a name kept, marked
# obsolete), a term that comes back under its old name taken up again; a term's history, and the glossary's search.

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from operator import itemgetter
from typing import Any, NamedTuple, Protocol

from ..archive import Archive, VersionRow
from ..matcher.glossary import names_of, pair_terms, pairing_engine, spelling_key
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


class Kept(Protocol):
    """Where a caller keeps what was worked out between runs, by key (the site's StoredParts): ``get_json``
    answers None for a key not kept, or kept but not readable."""

    def get_json(self, key: str) -> Any: ...
    def put(self, key: str, part: str) -> None: ...


def term_lines(arc: Archive, versions: list[VersionRow], kept: Kept | None = None) -> list[TermLine]:
    """Every glossary term's line through ``versions`` (those with a glossary; a partial dump has none): each
    glossary paired with the one before by the glossary's matcher; a term no pair continues, under the name
    of one that ended earlier, takes that one up again (it reappears); else it starts a line. ``kept``: where
    each pairing is kept for the next run, by the two glossaries it pairs and the code that paired them."""
    # (version id, position, term, text, comparison text) by version
    rows = arc.texts.glossaries((v.id for v in versions), norm=True)
    digests: dict[int, str] = {}  # (each glossary's is asked for twice: as the new side, then as the old)
    lines: list[TermLine] = []
    by_name: dict[str, int] = {}  # a name's last line
    before: tuple[int, list[tuple[Any, ...]], list[int]] | None = None  # the previous glossary: index, rows, lines
    for k, v in enumerate(versions):
        got = rows.get(v.id)
        if got is None or not arc.versions.coverage(v.id).glossary:
            continue
        at: list[int | None] = [None] * len(got)
        if before is not None:
            prev, had = before[0], before[2]
            olds, news, doubts = _pairing(before[1], got, kept, digests)
            for i, j in zip(olds, news, strict=True):
                at[j] = x = had[i]
                if prev in lines[x].seen:
                    lines[x].follows.add(k)
            for n, reason in doubts:  # (links made on weak evidence)
                lines[had[olds[n]]].links[k] = f"uncertain match: {reason}"
        taken = {x for x in at if x is not None}
        for j, e in enumerate(got):
            if at[j] is None:
                again = by_name.get(printed_key(e[2]))
                if again is None or again in taken:
                    again = len(lines)
                    lines.append(TermLine())
                at[j] = again
                taken.add(again)
        mine = [x for x in at if x is not None]
        for x, e in zip(mine, got, strict=True):
            lines[x].seen.setdefault(k, (e[2], e[3]))
            by_name[printed_key(e[2])] = x
        before = (k, got, mine)
    return lines


# How one glossary's entries continue in the next: old positions, new positions (pair by pair, as the glossary's
# matcher made them), and (pair index, reason) of the pairs it made on weak evidence.
Pairing = tuple[list[int], list[int], list[tuple[int, str]]]


def _pairing(
    old: list[tuple[Any, ...]], new: list[tuple[Any, ...]], kept: Kept | None, digests: dict[int, str]
) -> Pairing:
    """How ``pair_terms`` pairs glossary rows ``old`` with ``new``: read from ``kept`` when the same code
    paired the same two glossaries before (what the matcher reads of them: each entry's term and comparison
    text, in order), else worked out (and kept). ``digests``: each glossary's, by version id, as worked out."""
    if kept is None:
        return _paired(old, new)
    for rows in (old, new):
        if rows[0][0] not in digests:
            digests[rows[0][0]] = _digest(rows)
    said = ("glossary pairs", pairing_engine(), digests[old[0][0]], digests[new[0][0]])
    key = hashlib.blake2b(repr(said).encode(), digest_size=16).hexdigest()
    got = _read_pairing(kept.get_json(key), len(old), len(new))
    if got is None:
        got = _paired(old, new)
        kept.put(key, json.dumps(got, separators=(",", ":")))
    return got


def _paired(old: list[tuple[Any, ...]], new: list[tuple[Any, ...]]) -> Pairing:
    pairs = pair_terms([_Entry(*r[2:]) for r in old], [_Entry(*r[2:]) for r in new])
    doubts = [(n, p.reason) for n, p in enumerate(pairs) if p.uncertain]
    return [p.old for p in pairs], [p.new for p in pairs], doubts


def _digest(rows: list[tuple[Any, ...]]) -> str:
    """What the glossary's matcher reads of a glossary, as a digest: its terms and comparison texts, in order."""
    said = json.dumps([list(map(itemgetter(2), rows)), list(map(itemgetter(4), rows))])
    return hashlib.sha256(said.encode()).hexdigest()


def _read_pairing(data: Any, n_old: int, n_new: int) -> Pairing | None:
    """The pairing kept as ``data``; None when there is none or it does not read as one (worked out again)."""
    if not (isinstance(data, list) and len(data) == 3 and all(isinstance(x, list) for x in data)):
        return None
    olds, news, doubts = data
    if len(olds) != len(news) or not _positions(olds, n_old) or not _positions(news, n_new):
        return None
    said: list[tuple[int, str]] = []
    for d in doubts:
        if not (isinstance(d, list) and len(d) == 2 and type(d[0]) is int and isinstance(d[1], str)):
            return None
        if not 0 <= d[0] < len(olds):
            return None
        said.append((d[0], d[1]))
    return olds, news, said


def _positions(xs: list[Any], n: int) -> bool:
    """Are ``xs`` distinct positions in a glossary of ``n`` entries?"""
    return set(map(type, xs)) <= {int} and len(set(xs)) == len(xs) and (not xs or (min(xs) >= 0 and max(xs) < n))


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
