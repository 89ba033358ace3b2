"""Which archived release a dump's text is from (shortlist, align, rank, verdict); imports the archive's face."""

# Which archived release is a dump's text from: shortlist releases by stored rule bodies, align the shortlist inside
# the dump's coverage, rank, and say it in one verdict line.

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from .._version import __version__
from ..archive import Identified
from ..coverage import Coverage
from ..errors import ArchiveError
from ..model import Document
from .compare import Candidate, Difference, Pending, compare, differences, scope_ranges
from .shortlist import Group, group_releases, shortlist
from .verdict import summarize, verdict

if TYPE_CHECKING:
    from ..archive import Archive, VersionRow

IDENTIFY_SCHEMA = "rulediff.identify/1"


@dataclass(slots=True)
class Identification:
    """The ranking of archived releases for one dump, the best one's differences and the verdict."""

    file: str
    coverage: Coverage
    candidates: list[Candidate]
    tied: list[Candidate]
    differences: list[Difference]
    next_release: Candidate | None
    next_differs: int  # rules the next release changed: its differences from the dump the best one lacks
    next_changes: list[str]  # the commonest of those word changes, "EDH -> Commander"
    releases: int
    in_force_on: str | None = None  # the dump's stated date, when the best of a tie was in force then
    verdict: str = field(default="")

    @property
    def best(self) -> Candidate:
        return self.candidates[0]

    @property
    def confident(self) -> bool:
        """Does the best release explain the dump? Most of it reads the same there, or more of it does
        than in any release not tied with it (a paraphrasing keyword page matches little anywhere)."""
        b = self.best
        if b.score >= 0.5:
            return True
        return b.same > 0 and all(c.same < b.same for c in self.candidates if c.key() != b.key())

    def as_dict(self, top: int | None = None) -> dict[str, Any]:
        shown = self.candidates if top is None else self.candidates[:top]
        return {
            "schema": IDENTIFY_SCHEMA,
            "file": self.file,
            "coverage": self.coverage.as_dict(),
            "candidates": [c.as_dict() for c in shown],
            "verdict": self.verdict,
            "differences": [d.as_dict() for d in self.differences],
        }


# --- the ranking -----------------------------------------------------------------------------------


def official_releases(arc: Archive) -> list[VersionRow]:
    """The archived versions that can explain a dump: complete releases (partial dumps cannot)."""
    return [v for v in arc.versions.all() if arc.versions.coverage(v.id).complete]


def identify(
    arc: Archive,
    doc: Document,
    file: str | None = None,
    *,
    releases: Sequence[VersionRow] | None = None,
    progress: Callable[[str], None] | None = None,
) -> Identification:
    """Rank the archive's complete releases by how well each explains ``doc`` inside its coverage."""
    pool = list(releases) if releases is not None else official_releases(arc)
    source = file or doc.version.source
    if not pool:
        raise ArchiveError(
            "identify needs an archive of official releases (complete texts); add them with"
            " 'rulediff archive add ../shared/cr-corpus/txt'",
            source=str(arc.path),
        )
    if not doc.rules:
        raise ArchiveError("the dump has no rules to compare", source=source)
    groups = group_releases(arc, doc, pool)
    done: dict[int, tuple[Group, Candidate, list[Pending]]] = {}

    def evaluate(g: Group) -> tuple[Group, Candidate, list[Pending]]:
        rep = g.members[-1]
        if rep.id not in done:
            if progress is not None:
                progress(f"aligning with {rep.label}")
            cand, pending = compare(doc, arc.identifications.document_part(rep.id, scope_ranges(doc)), rep)
            done[rep.id] = (g, cand, pending)
        return done[rep.id]

    for g in shortlist(groups):
        evaluate(g)
    ranked = sorted(done.values(), key=lambda t: (t[1].key(), t[0].members[0].sort_date))
    best = ranked[0][1]
    candidates = [_as(cand, m) for g, cand, _ in ranked for m in g.members]
    tied = [c for c in candidates if c.key() == best.key()]
    tied.sort(key=lambda c: (c.version.sort_date, c.version.seq))
    top, in_force_on = _in_force(tied, doc)
    candidates = [top, *(c for c in candidates if c is not top)]
    top_pending = next(p for g, _, p in ranked if any(m.id == top.version.id for m in g.members))
    order = [v.id for v in pool]
    last = max(order.index(c.version.id) for c in tied)
    next_release: Candidate | None = None
    next_changes: list[Pending] = []
    if last + 1 < len(pool):
        nxt = pool[last + 1]
        _, base, pending = evaluate(next(g for g in groups if any(m.id == nxt.id for m in g.members)))
        next_release = _as(base, nxt)
        # What the next release changed: its differences from the dump that the best one does not share.
        shared = {_where(p) for p in top_pending}
        next_changes = [p for p in pending if _where(p) not in shared]
    ident = Identification(
        source,
        doc.coverage,
        candidates,
        tied,
        differences(top_pending),
        next_release,
        len(next_changes),
        summarize(differences(next_changes)),
        len(pool),
        in_force_on,
    )
    ident.verdict = verdict(ident)
    return ident


def _in_force(tied: list[Candidate], doc: Document) -> tuple[Candidate, str | None]:
    """Of releases whose text is the same here, the one in force on the day the dump states (a page
    "last updated 2017-08-02") and that day; else the earliest (the text existed from then on)."""
    day = doc.version.effective_date.isoformat() if doc.version.effective_date else doc.version.era or ""
    if len(tied) > 1 and re.fullmatch(r"\d{4}-\d{2}-\d{2}", day):
        before = [c for c in tied if c.version.sort_date <= day]
        if before:
            return before[-1], day
    return tied[0], None


def releases_key(releases: Sequence[VersionRow]) -> str:
    """A fingerprint of a set of official releases: an identification made against another set is stale."""
    h = hashlib.blake2b(digest_size=12)
    for sha in sorted(v.sha256 for v in releases):
        h.update(sha.encode("ascii"))
    return h.hexdigest()


def record(arc: Archive, progress: Callable[[str], None] | None = None) -> list[tuple[VersionRow, Identified]]:
    """Identify every undated or era-dated dump in the archive whose identification is missing or was made
    against other official releases, record it, and place the dump on the timeline beside the release its
    text matches (a dump no release explains keeps its own date). Returns what was (re)identified."""
    releases = official_releases(arc)
    if not releases:
        return []
    key = releases_key(releases)
    official = {v.id for v in releases}
    known = arc.identifications.all()
    out: list[tuple[VersionRow, Identified]] = []
    for v in arc.versions.all():
        if v.effective_date or v.id in official:
            continue
        got = known.get(v.id)
        if got is not None and got.releases == key:
            continue
        ident = identify(arc, arc.versions.document(v.id), v.label, releases=releases, progress=progress)
        best = ident.best
        rec = Identified(
            best.version.label, best.version.sort_date, ident.verdict, best.score, ident.confident, key, __version__
        )
        arc.identifications.record(v.id, rec, progress)
        out.append((v, rec))
    return out


def _where(p: Pending) -> tuple[str, str]:
    """A difference's place: the dump's node, or (for a missing one) the release node's number and text."""
    if p.new is not None:
        return ("dump", f"{p.new.line} {p.new.key}")
    assert p.old is not None
    return ("release", f"{p.old.number} {p.old.norm}")


def _as(c: Candidate, v: VersionRow) -> Candidate:
    return Candidate(v, c.compared, c.identical, c.typography_only, c.substantive, c.missing, c.extra)


__all__ = [
    "IDENTIFY_SCHEMA",
    "Candidate",
    "Difference",
    "Identification",
    "identify",
    "official_releases",
    "record",
    "scope_ranges",
    "summarize",
]
