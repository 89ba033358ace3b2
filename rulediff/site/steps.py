"""The steps of a rule's history page: worked out from the lineage, or read back as last written."""

# The steps of a rule's history page: worked out from the lineage's texts (each rendered once, see step_cache.py),
# or -- when the lineage reads as it did at the last build, release after release -- the page's steps as that build
# wrote them, once their links are checked to lead where they did.

from __future__ import annotations

import functools
import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..archive import Archive, VersionRow
from ..history.timeline import stretches
from ..support.code_digest import sources_digest
from .step_cache import StoredEdits, StoredParts, fill, history_step, part_key

# (version index, number, title, body id, subrules as (number, body id, lineage)) of one rule of a lineage
PlanEntry = tuple[int, str | None, str | None, int, tuple[tuple[str, int, int], ...]]
Url = Callable[[int, str], str | None]  # (version id, rule number) -> the address of that rule's page
# (version id, or None for the newest release; rule number; its address then) as a page looked it up
Lookup = tuple[int | None, str, str | None]


@dataclass(slots=True)
class Lineage:
    """What one history page's steps are made from."""

    plan: list[PlanEntry]
    via: dict[int, str]  # version id -> how the lineage came to it, when a reader should know
    current: bool  # in the newest release: the last step runs "to today"
    follows: list[bool]  # per entry: the previous release that could have the rule has it
    # Stretches of entries that are the same rule by body ids, with nothing said between them: every step
    # of the page starts at a run and ends at one, so the runs tell what the steps are made from.
    runs: list[tuple[int, int]]

    @classmethod
    def of(cls, plan: list[PlanEntry], via: dict[int, str], versions: list[VersionRow], complete: set[int]) -> Lineage:
        follows: list[bool] = []
        runs: list[tuple[int, int]] = []
        prev: PlanEntry | None = None
        for i, entry in enumerate(plan):
            k = entry[0]
            # Missing from a partial dump in between is not "gone and back".
            after = prev is not None and (
                k == prev[0] + 1 or all(versions[j].id not in complete for j in range(prev[0] + 1, k))
            )
            follows.append(after)
            if (
                prev is not None
                and after
                and entry[3] == prev[3]
                and entry[1] == prev[1]
                and entry[2] == prev[2]
                and entry[4] == prev[4]
                and (not via or versions[k].id not in via)
            ):
                runs[-1] = (runs[-1][0], i)
            else:
                runs.append((i, i))
            prev = entry
        return cls(plan, via, plan[-1][0] == len(versions) - 1, follows, runs)


# What a page's kept steps hold besides their runs: how the page is put together from its texts.
_CODE = ("rulediff.site.steps", "rulediff.site.history")


@functools.cache
def _code() -> str:
    return sources_digest(_CODE)[:16]


class StepMaker:
    """Works out, keeps and checks the steps of history pages."""

    def __init__(
        self,
        arc: Archive,
        versions: list[VersionRow],
        url: Url,
        diff_into: dict[int, str],
        memo: StoredEdits,
        parts: StoredParts,
    ) -> None:
        self.arc, self.versions, self.url, self.diff_into = arc, versions, url, diff_into
        self.order = {v.id: k for k, v in enumerate(versions)}
        self.memo, self.parts = memo, parts

    def block_key(self, lin: Lineage) -> str:
        """The key of a page's steps as written: its runs (bodies, numbers, titles, releases, what is said
        of the links between them) and the diff pages they start in; the last run of a rule still in
        force ends "today", whichever release is the newest."""
        vs, plan = self.versions, lin.plan
        runs = [
            [
                vs[plan[a][0]].label,
                None if lin.current and r == len(lin.runs) - 1 else vs[plan[b][0]].label,
                *plan[a][1:],
                lin.follows[a],
                lin.via.get(vs[plan[a][0]].id),
                self.diff_into.get(vs[plan[a][0]].id),
            ]
            for r, (a, b) in enumerate(lin.runs)
        ]
        return part_key("block", [_code(), plan[0][0] > 0, json.dumps(runs)])

    def work_out(self, lin: Lineage) -> list[Step]:
        """The page's steps from the lineage's texts, each rendered or read back (see site_parts)."""
        vs, plan = self.versions, lin.plan
        bodies = {b for *_, body, ks in plan for b in (body, *(kb for _, kb, _ in ks))}
        contents = self.arc.texts.body_contents(bodies)
        texts: dict[tuple[str | None, int, tuple[tuple[str, int, int], ...]], str] = {}
        entries = []
        kin: list[dict[str, int]] = []
        for (k, number, title, body, ks), follows in zip(plan, lin.follows, strict=True):
            # Most releases repeat the rule as it was: its text is put together once (and compares at once).
            text = texts.get((number, body, ks))
            if text is None:
                text = whole_rule(number, contents[body], [(n, contents[b]) for n, b, _ in ks])
                texts[(number, body, ks)] = text
            entries.append((vs[k], number, title, text, follows))
            # Which subrules of two releases are one: by lineage (the rule itself is this page's, -1).
            kin.append({n: lineage for n, _, lineage in ks} | ({number: -1} if number else {}))
        found = stretches(entries, lin.via, edits=False, kin=kin)
        # A lineage has one rule per release; a stretch starts and ends where runs do.
        at = {vs[k].id: i for i, (k, *_) in enumerate(plan)}
        run_to = {b: r for r, (_, b) in enumerate(lin.runs)}
        steps = []
        for n, s in enumerate(found, 1):
            vid = s.first.id
            page = self.diff_into.get(vid) if n > 1 or self.order[vid] > 0 else None
            anchors = _anchors(plan, self.order[vid]) if page is not None else []
            to = None if lin.current and n == len(found) else s.last.label  # "to today"
            part = history_step(s, n, to, page is not None, self.memo, self.parts)
            steps.append(Step(part, s.last.id, page, anchors, run_to[at[s.last.id]]))
        return steps

    def kept(self, key: str) -> dict[str, Any] | None:
        got = self.parts.get_json(key)
        return got if isinstance(got, dict) else None

    def checked(
        self, kept: dict[str, Any], lin: Lineage, page_ids: Callable[[str], set[str]]
    ) -> tuple[str, list[Lookup]] | None:
        """The kept steps, if every link in them still leads where it did, and the lookups they make (see
        ``lookups``); None otherwise."""
        vs, plan, runs, url = self.versions, lin.plan, lin.runs, self.url
        made: list[Lookup] = []
        for last, lookups, target, candidates, href in kept["steps"]:
            vid = vs[plan[runs[last][1]][0]].id
            for t, u in lookups:
                if url(vid, t) != u:
                    return None
            if target is not None and _href(target, candidates, page_ids) != href:
                return None
            made.extend(self.lookups(vid, lookups))
        html: str = kept["html"]
        return html, made

    def written(
        self, steps: list[Step], page_ids: Callable[[str], set[str]]
    ) -> tuple[str, dict[str, Any], list[Lookup]]:
        """The steps with their links filled in, what to keep of them (the links each one looked up, the diff
        page it links into and the anchors there it may link to, as the runs decide them) and the lookups
        they make (see ``lookups``)."""
        out, kept, made = [], [], []
        for s in steps:
            href = _href(s.page, s.anchors, page_ids) if s.page is not None else None
            lookups: dict[str, str | None] = {}

            def url_of(target: str, vid: int = s.last_vid, seen: dict[str, str | None] = lookups) -> str | None:
                seen[target] = got = self.url(vid, target)
                return got

            out.append(fill(s.part, url_of, href))
            found = sorted(lookups.items())
            kept.append([s.last_run, found, s.page, s.anchors, href])
            made.extend(self.lookups(s.last_vid, found))
        html = "".join(out)
        return html, {"html": html, "steps": kept}, made

    def lookups(self, vid: int, found: list[tuple[str, str | None]]) -> list[Lookup]:
        """``found`` (number, address) as looked up in release ``vid``, which is None for the newest: a step
        running "to today" names its rules as the newest release numbers them, whichever release that is."""
        at = None if vid == self.versions[-1].id else vid
        return [(at, t, u) for t, u in found]

    def keep(self, key: str, kept: dict[str, Any]) -> None:
        self.parts.put(key, json.dumps(kept))


def whole_rule(number: str | None, own: tuple[str, list[str]], kids: list[tuple[str, tuple[str, list[str]]]]) -> str:
    """A rule and its subrules, one node or example a line, as the rules print them."""

    def line(n: str | None, text: str) -> str:
        if n is None:
            return text
        return f"{n}{'' if n[-1].isalpha() else '.'} {text}"

    lines = [line(number, own[0]), *own[1]]
    for n, (text, examples) in kids:
        lines.append(line(n, text))
        lines.extend(examples)
    return "\n".join(lines)


@dataclass(slots=True)
class Step:
    part: str  # the stored rendering, with holes for its links
    last_vid: int  # the release whose numbers its references name
    page: str | None  # the diff page it links into
    anchors: list[str]  # where on that page its change may be, best first
    last_run: int  # the run it ends with


def _href(target: str, candidates: list[str], page_ids: Callable[[str], set[str]]) -> str:
    ids = page_ids(target)
    return "../" + target + next(("#" + c for c in candidates if c in ids), "")


def _anchors(plan: list[PlanEntry], k: int) -> list[str]:
    """Where on the diff page into release ``k`` this rule's change may be, best first: the first of its
    nodes that changed."""
    prev = next((p for p in reversed(plan) if p[0] < k), None)
    here = next(p for p in plan if p[0] == k)
    candidates = []
    if prev is None or prev[1] != here[1] or prev[3] != here[3]:
        candidates.append(f"r{here[1]}")
    old_kids = {n: b for n, b, _ in prev[4]} if prev is not None else {}
    new_kids = {n: b for n, b, _ in here[4]}
    for n, b, _ in here[4]:
        if old_kids.get(n) != b:
            candidates.append(f"r{n}")
    for n in old_kids:
        if n not in new_kids:
            candidates.append(f"old-{n}")
    candidates.append(f"r{here[1]}")
    return candidates
