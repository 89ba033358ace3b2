"""The lineage of one rule across every archived version: its number there, its text, and what changed."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..archive import Archive, VersionRow
from ..coverage import covers
from ..errors import ArchiveError, NotFoundError
from ..matcher.lineage import HAND, UNCERTAIN, link_texts
from ..model import Document, GlossaryEntry, Rule
from ..numbering import RuleNumber
from ..words.diff import word_diff
from ..words.edits import edit_nature
from .timeline import Stretch, stretches


@dataclass(slots=True)
class Step:
    """The rule as one version has it."""

    version: VersionRow
    number: str | None
    title: str | None
    text: str
    examples: list[str]
    change: str  # "first seen", "unchanged", "renumbered", "edited", ...
    nature: str | None
    previous_number: str | None
    diff: list[Any] = field(default_factory=list)
    # How the lineage came to this version when a reader should know: "uncertain match",
    # "linked by hand: <reason>", or (a rule new because a hand correction cut its link) "unlinked by hand: <reason>".
    link: str | None = None


@dataclass(slots=True)
class History:
    lineage: int
    query: str
    steps: list[Step]
    edges: list[dict[str, Any]]
    gone_after: VersionRow | None
    # The whole rule (heading, text, subrules, examples) as it read over time.
    stretches: list[Stretch] = field(default_factory=list)
    # Why the lineage ends where it does, when a hand correction cut its link to the next version.
    ended: str | None = None

    @property
    def uncertain(self) -> bool:
        """Does the lineage pass through a link kept on weak evidence?"""
        return any(s.link == UNCERTAIN for s in self.steps)

    @property
    def title(self) -> str:
        for s in reversed(self.steps):
            if s.title:
                return s.title
        return self.steps[-1].number or self.query if self.steps else self.query

    def numbers(self) -> list[tuple[str, str, str]]:
        """(number, first version label, last version label) for each stretch under one number."""
        out: list[tuple[str, str, str]] = []
        for s in self.steps:
            n = s.number or "(unnumbered)"
            if out and out[-1][0] == n:
                out[-1] = (n, out[-1][1], s.version.label)
            else:
                out.append((n, s.version.label, s.version.label))
        return out

    def as_dict(self) -> dict[str, Any]:
        return {
            "schema": "rulediff.history/1",
            "query": self.query,
            "title": self.title,
            "numbers": [{"number": n, "from": a, "to": b} for n, a, b in self.numbers()],
            "versions": [
                {
                    "label": s.version.label,
                    "date": s.version.date,
                    "number": s.number,
                    "title": s.title,
                    "change": s.change,
                    "nature": s.nature,
                    "previous_number": s.previous_number,
                    "text": s.text,
                    "examples": s.examples,
                    "diff": s.diff,
                    "link": s.link,
                }
                for s in self.steps
            ],
            "edges": self.edges,
            "gone_after": self.gone_after.label if self.gone_after else None,
            "ended": self.ended,
            "uncertain": self.uncertain,
            "stretches": [s.as_dict() for s in self.stretches],
        }


def find_lineage(arc: Archive, query: str, as_of: str | None = None, *, search: bool = True) -> int:
    """The lineage a user means: a rule number (in the version in force ``as_of``, or the latest that
    has it), a keyword or section title, or failing those (when ``search``) the best full-text hit."""
    versions = arc.versions.all()
    if not versions:
        raise ArchiveError("the archive is empty; add versions with 'rulediff archive add'", source=str(arc.path))
    pool = [arc.versions.in_force(as_of)] if as_of is not None else list(reversed(versions))
    number = RuleNumber.try_parse(query)
    for v in pool:
        found = arc.lineages.at(v.id, number=str(number)) if number is not None else arc.lineages.at(v.id, title=query)
        if found is not None:
            return found
    if number is None and search:
        hits = arc.search(query, limit=5)
        if hits:
            return int(hits[0]["lineage"])
    where = f" in force on {as_of}" if as_of is not None else " in any archived version"
    raise NotFoundError(f"no rule {query!r}{where}", source=str(arc.path))


def history(arc: Archive, query: str, as_of: str | None = None) -> History:
    """The lineage ``query`` names, read in one snapshot of the archive (an add running meanwhile is not
    half seen)."""
    with arc.snapshot():
        arc.versions.check_rule_counts()  # a rule row gone would be a release the rule is silently missing from
        return _history(arc, query, as_of)


def _history(arc: Archive, query: str, as_of: str | None) -> History:
    lineage = find_lineage(arc, query, as_of)
    every = arc.versions.all()
    # A partial dump beside a complete release of its date is no step of the rule's history: the release is.
    aside = arc.versions.beside(every)
    versions = [v for v in every if v.id not in aside]
    order = {v.id: k for k, v in enumerate(versions)}
    rows = [r for r in arc.lineages.rules(lineage) if r[0] not in aside]
    rows.sort(key=lambda r: (order[r[0]], r[1]))
    links, ended = link_texts(arc.lineages.marks(lineage))
    steps: list[Step] = []
    prev: tuple[int, int, str | None, str] | None = None
    for vid, pos, number, title, text, examples in rows:
        v = versions[order[vid]]
        change, nature = "first seen", None
        diff: list[Any] = []
        if prev is not None:
            change, nature = _kind_between(arc, prev, (vid, pos, number, text))
            if links.get(vid, "").startswith(HAND):
                got = edit_nature(prev[3], text)
                change, nature = HAND, got.value if got else None
            if prev[3] != text:
                diff = [[int(p.op), p.text] for p in word_diff(prev[3], text)]
        steps.append(
            Step(
                v,
                number,
                title,
                text,
                examples,
                change,
                nature,
                prev[2] if prev else None,
                diff,
                links.get(vid),
            )
        )
        prev = (vid, pos, number, text)
    raw_edges = arc.lineages.edges(lineage)
    edges = [
        {"from": a, "to": b, "version": versions[order[vid]].label if vid in order else None, "kind": kind}
        for a, b, vid, kind in raw_edges
    ]
    ended = _say_edges(arc, lineage, raw_edges, order, links) or ended
    last = order[rows[-1][0]] if rows else -1
    gone = (
        versions[last + 1]
        if 0 <= last < len(versions) - 1 and _covers_later(arc, rows[-1], versions[last + 1])
        else None
    )
    # Missing from a partial dump in between is not "gone and back".
    complete = {v.id for v in versions if arc.versions.coverage(v.id).complete}
    whole = []
    for k, s in enumerate(steps):
        here = order[s.version.id]
        before = order[steps[k - 1].version.id] if k > 0 else None
        follows = before is not None and all(versions[j].id not in complete for j in range(before + 1, here))
        whole.append(
            (s.version, s.number, s.title, whole_text(arc, s.version.id, s.number, s.text, s.examples), follows)
        )
    return History(lineage, query, steps, edges, gone, stretches(whole, links), ended)


def _say_edges(
    arc: Archive, lineage: int, edges: list[tuple[int, int, int, str]], order: dict[int, int], links: dict[int, str]
) -> str | None:
    """Splits and merges in words, where the reader meets them (2007-10-01: 210 "merged with 210 Legal
    Text, 211 Collector Number"; old 500.5 "split: also went to 500.5a, 500.5b"); the text for a
    lineage that ended by merging into another ("merged into 210 ..."), if it did."""

    def name(lin: int, vid: int, before: bool) -> str:
        rows = [r for r in arc.lineages.rules(lin) if (order[r[0]] < order[vid] if before else r[0] == vid)]
        if not rows:
            return "another rule"
        row = max(rows, key=lambda r: order[r[0]])
        return " ".join(x for x in (row[2], row[3]) if x) or "another rule"

    said: dict[int, list[str]] = {}
    ended = None
    for kind, is_to in (("merged", True), ("split", False)):
        for vid in sorted(
            {v for a, b, v, k in edges if k == kind and (b if is_to else a) == lineage}, key=order.__getitem__
        ):
            others = [
                a if is_to else b for a, b, v, k in edges if k == kind and v == vid and (b if is_to else a) == lineage
            ]
            what = "merged with " if is_to else "split: also went to "
            said.setdefault(vid, []).append(what + ", ".join(name(o, vid, is_to) for o in others))
    for a, b, vid, kind in edges:
        if kind == "merged" and a == lineage:
            ended = f"merged into {name(b, vid, False)}"
        elif kind == "split" and b == lineage:
            said.setdefault(vid, []).append(f"split off from {name(a, vid, True)}")
    for vid, texts in said.items():
        links[vid] = "; ".join([*([links[vid]] if vid in links else []), *texts])
    return ended


def whole_text(arc: Archive, vid: int, number: str | None, text: str, examples: list[str]) -> str:
    """The rule and everything below it in version ``vid``, one node or example a line, as printed."""
    parsed = RuleNumber.try_parse(number) if number else None
    if parsed is None:
        return "\n".join([text, *examples])
    lines = []
    for n, t, ex in arc.texts.rules_under(vid, str(parsed)):
        child = RuleNumber.try_parse(n)
        if child is not None and (child == parsed or parsed.is_ancestor_of(child)):
            lines.append(f"{n}{'' if child.letters else '.'} {t}")
            lines.extend(ex)
    return "\n".join(lines)


def _kind_between(
    arc: Archive, before: tuple[int, int, str | None, str], now: tuple[int, int, str | None, str]
) -> tuple[str, str | None]:
    """How the rule went from one step to the next ((version, position, number, text) each): as their stored
    alignment says; where none is stored (the step between them was a partial dump beside a release, and
    lineage went through it), as their numbers and texts say."""
    (a, i, number_a, text_a), (b, j, number_b, text_b) = before, now
    stored = arc.alignments.stored_changes(a, b)
    if stored is None:
        renumbered = number_a != number_b
        if text_a == text_b:
            return ("renumbered" if renumbered else "unchanged", None)
        got = edit_nature(text_a, text_b)
        return ("renumbered_edited" if renumbered else "edited", got.value if got else None)
    for kind, old, new, nature, _ in stored:
        if i in old and j in new:
            return (kind, nature)
    return ("reappears", None)


def _covers_later(arc: Archive, last_row: tuple[Any, ...], nxt: VersionRow) -> bool:
    """Is the lineage really gone in the next version, or does that version simply not cover it?"""
    cov, _ = arc.versions.light(nxt.id)
    number = RuleNumber.try_parse(last_row[2]) if last_row[2] else None
    return covers(cov, number, last_row[3], None)


@dataclass(frozen=True, slots=True)
class Shown:
    """What ``show`` found: a rule (with its document, for the subrules) or a glossary entry."""

    version: VersionRow
    document: Document
    rule: Rule | None
    entry: GlossaryEntry | None


def show(arc: Archive, query: str, as_of: str | None = None) -> Shown:
    """The rule (by number or title) or glossary term as it read in the version in force on ``as_of``
    (default: the latest version that has it)."""
    if not arc.versions.all():
        raise ArchiveError("the archive is empty", source=str(arc.path))
    pool = [arc.versions.in_force(as_of)] if as_of else list(reversed(arc.versions.all()))
    number = RuleNumber.try_parse(query.strip().rstrip("."))
    wanted = " ".join(query.split()).casefold()
    for v in pool:
        doc = arc.versions.document(v.id)
        if number is not None:
            rule = doc.get(number)
            if rule is not None:
                return Shown(v, doc, rule, None)
            continue
        for r in doc.rules:
            if r.title and r.title.casefold() == wanted:
                return Shown(v, doc, r, None)
        for g in doc.glossary:
            if g.term.casefold() in (wanted, f"{wanted} (obsolete)"):
                return Shown(v, doc, None, g)
    where = f"in {pool[0].label}" if as_of else "in any archived version"
    what = f"rule {query}" if number is not None else f"rule or glossary term {query!r}"
    raise ArchiveError(f"no {what} {where}", source=str(arc.path))
