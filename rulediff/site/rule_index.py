"""One pass over every archived rule for the rule pages: rows, addresses, numbers in force."""

# One pass over every archived rule for the rule pages: each lineage's rows, its page address at the rule's latest
# number, and the numbers in force in each release.

from __future__ import annotations

import re
from dataclasses import dataclass
from itertools import compress, count, groupby, repeat
from operator import itemgetter
from typing import Any

from ..archive import Archive, VersionRow
from ..numbering import RuleNumber

# (lineage, version id, number, title, body id), as Archive.rule_index gives them
Row = tuple[int, int, str | None, str | None, int]
# a rule's subrules in one release: (number, body id, lineage) each, in number order
Kids = tuple[tuple[str, int, int], ...]


def file_slug(text: str) -> str:
    s = re.sub(r"[^A-Za-z0-9_-]+", "-", text).strip("-._").lower()
    return (s or "untitled")[:60]


def history_paths(by_lineage: dict[int, list[Row]], versions: list[VersionRow]) -> dict[int, str]:
    """A page address per lineage, from what readers know and the archive keeps however it is rebuilt:
    the rule's number where it was last seen (``rules/702.15.html``), or its title when it never had
    one. When several lineages end under one number, the most recent keeps the plain address and the
    others add the date of the release they ended in (``rules/702.15-until-2011-05-01.html``).
    ``by_lineage``: each lineage's rows in release order (RuleIndex.by_lineage)."""
    order = {v.id: k for k, v in enumerate(versions)}
    first: dict[int, tuple[int, str, str]] = {}
    last: dict[int, tuple[int, str | None, str | None]] = {}
    for lin, items in by_lineage.items():
        _, vid, number, title, _ = items[0]
        first[lin] = (order[vid], number or "", title or "")
        # The first of its rows in its last release (a number printed twice has two).
        x, end = len(items) - 1, items[-1][1]
        while x and items[x - 1][1] == end:
            x -= 1
        _, vid, number, title, _ = items[x]
        last[lin] = (order[vid], number, title)
    groups: dict[str, list[int]] = {}
    for lin, (_, number, title) in last.items():
        base = number if number else "t-" + file_slug(title or "untitled")
        groups.setdefault(base, []).append(lin)
    out: dict[int, str] = {}
    used: set[str] = set()
    for base in sorted(groups):
        lins = sorted(groups[base], key=lambda n: (-last[n][0], first[n], n))
        for k, lin in enumerate(lins):
            name = base if k == 0 else f"{base}-until-{file_slug(versions[last[lin][0]].date)}"
            unique, n = name, 2
            while unique in used:
                unique, n = f"{name}-{n}", n + 1
            used.add(unique)
            out[lin] = f"rules/{unique}.html"
    return out


@dataclass(slots=True)
class RuleIndex:
    """What the rule pages need from one pass over every archived rule."""

    versions: list[VersionRow]
    order: dict[int, int]
    # lineage -> its rows in release order (a release's own in the order stored), each body the first that
    # reads alike (see Archive.bodies_read_alike)
    by_lineage: dict[int, list[Row]]
    # version id -> number -> lineage: where a reference in that version's text points
    at: dict[int, dict[str, int]]
    # version id -> rule number -> its subrules ((number, body id, lineage), ...), for rules read whole
    kids: dict[int, dict[str, tuple[tuple[str, int, int], ...]]]
    # version id -> heading or section number -> the numbers directly below it
    heads: dict[int, dict[str, list[str]]]
    paths: dict[int, str]
    # versions that are the whole rules (not a partial dump): only they can say a rule is gone
    complete: set[int]
    # (body id, lineage) -> [first and last version position it is in, its number in the last, and which row
    # that is (the first stored there)]: what the search index is made of
    spans: dict[tuple[int, int], list[Any]]
    # version id -> its rows in the order stored, which is the order the release prints them (a version's rules
    # are stored at once, in order): what the whole-rules pages are made of
    rows: dict[int, list[Row]]
    # the lineages with a row numbered without a dot (sections and headings): where the keyword lists look for
    # the headings "Keyword Abilities" and "Keyword Actions" without a walk through every rule
    headed: set[int]

    @classmethod
    def build(
        cls,
        arc: Archive,
        versions: list[VersionRow],
        stands_by: dict[int, int] | None = None,
        alike: dict[int, int] | None = None,
    ) -> RuleIndex:
        """The index of the timeline ``versions``; a version beside a release (``stands_by``: its id -> the
        release's) has no rows of its own on the rule pages, and its rule numbers lead where the release's do.
        ``alike``: Archive.bodies_read_alike, when already read."""
        order = {v.id: k for k, v in enumerate(versions)}
        # Stored in the order they were added, read in release order (a release inserted before others was
        # added after them): every lineage's rows then come in release order, which its page and the
        # keyword list read them in, without a sort of each.
        per_version: dict[int, list[tuple[int, int, str | None, int]]] = {v.id: [] for v in versions}
        stored, titles = arc.lineages.rule_index()  # (every row of an archived version: the archive checks it)
        for vid, run in groupby(stored, itemgetter(1)):  # (a version's rows are stored at once: in runs)
            bucket = per_version.get(vid)
            if bucket is not None:  # (none for a version beside a release: the release's rows stand for it)
                bucket.extend(run)
        by_lineage: dict[int, list[Row]] = {}
        # Per version, not per (version, number): 300,000 keys of two would each be a tuple of their own.
        at: dict[int, dict[str, int]] = {}
        kids: dict[int, dict[str, list[tuple[str, int, int]]]] = {}
        heads: dict[int, dict[str, list[str]]] = {}
        places: dict[str, tuple[str | None, bool]] = {}  # per distinct number: a few thousand, for 300,000 rows
        spans: dict[tuple[int, int], list[Any]] = {}
        headed: set[int] = set()
        if alike is None:
            alike = arc.texts.bodies_read_alike()
        ordered: dict[int, list[Row]] = {}
        n = 0  # the row's place among all rows in release order
        # A release at a time: its position and its maps are looked up once, not once per row.
        for k, v in enumerate(versions):
            vid = v.id
            stored_here = per_version.pop(vid)
            # A page shows a body's text and examples: bodies that read alike are one to it (a rule's title is
            # its own body's). The release's rows made at C speed.
            lins, numbers = list(map(itemgetter(0), stored_here)), list(map(itemgetter(2), stored_here))
            bodies = list(map(itemgetter(3), stored_here))
            in_order: list[Row] = list(
                zip(lins, repeat(vid), numbers, map(titles.get, bodies), map(alike.get, bodies, bodies))
            )
            ordered[vid] = in_order
            at[vid] = _book(numbers, lins)
            kids[vid], heads[vid] = _place_rows(k, n, stored_here, in_order, by_lineage, spans, places, headed)
            n += len(in_order)
        for vid, release in (stands_by or {}).items():
            at[vid], kids[vid], heads[vid] = at[release], kids[release], heads[release]
        subrules = _subrules(kids, places)
        complete = {v.id for v in versions if arc.versions.coverage(v.id).complete}
        paths = history_paths(by_lineage, versions)
        return cls(versions, order, by_lineage, at, subrules, heads, paths, complete, spans, ordered, headed)

    def keyword_heads(self) -> dict[tuple[int, str], str]:
        """(version id, number) -> title of every heading (or section) whose title names keywords ("Keyword
        Abilities", "Keyword Actions": 702 and 701, 502 before 2009), met in the order of ``by_lineage``."""
        heads: dict[tuple[int, str], str] = {}
        for lin, items in self.by_lineage.items():
            if lin not in self.headed:
                continue
            for _, vid, number, title, _ in items:
                if number and "." not in number and title and "keyword" in title.casefold():
                    heads[(vid, number)] = title
        return heads

    def lineage_at(self, vid: int, number: str) -> int | None:
        book = self.at.get(vid)
        return book.get(number) if book is not None else None

    def url(self, vid: int, number: str, up: str = "../") -> str | None:
        lin = self.lineage_at(vid, number)
        return up + self.paths[lin] if lin is not None else None


def _book(numbers: list[str | None], lins: list[int]) -> dict[str, int]:
    """One release's numbers (in the order met) -> the lineage of the first of its rules to bear each (a number
    printed twice has two), at C speed."""
    numbered, their = list(compress(numbers, numbers)), list(compress(lins, numbers))
    book: dict[str, int] = dict(zip(numbered, their, strict=True))  # type: ignore[arg-type]
    if len(book) < len(numbered):  # the last to bear a number has it: the first is given it back
        book.update(zip(reversed(numbered), reversed(their), strict=True))  # type: ignore[arg-type]
    return book


def _place_rows(
    k: int,
    start: int,
    stored: list[tuple[int, int, str | None, int]],
    rows: list[Row],
    by_lineage: dict[int, list[Row]],
    spans: dict[tuple[int, int], list[Any]],
    places: dict[str, tuple[str | None, bool]],
    headed: set[int],
) -> tuple[dict[str, list[tuple[str, int, int]]], dict[str, list[str]]]:
    """One release's rows (the ``k``th release, ``start`` rows before it; ``stored`` as the archive gives them,
    ``rows`` as made of them) into the index: each lineage's rows and each text's span, and the release's rules'
    subrules and headings' numbers (returned). ``places``: each number met, with its parent and whether that is
    a rule (a subrule is read with it)."""
    below: dict[str, list[tuple[str, int, int]]] = {}
    head: dict[str, list[str]] = {}
    spans_get, lineage_get, place_get = spans.get, by_lineage.get, places.get
    below_get, head_get = below.get, head.get
    for n, (lin, _, number, body), row in zip(count(start), stored, rows):
        span = spans_get((body, lin))
        if span is None:
            spans[(body, lin)] = [k, k, number, n]
        elif k > span[1]:  # (in release order: its first release is the one it was met in)
            span[1:] = k, number, n
        same = lineage_get(lin)
        if same is None:
            by_lineage[lin] = [row]
        else:
            same.append(row)
        if number:
            place = place_get(number)
            if place is None:
                parent = _parent_number(number)
                place = places[number] = (parent, parent is not None and "." in parent)
            parent, of_rule = place
            if of_rule:  # a subrule of a rule: read with it
                kin = below_get(parent)  # type: ignore[arg-type]
                if kin is None:
                    below[parent] = [(number, row[4], lin)]  # type: ignore[index]
                else:
                    kin.append((number, row[4], lin))
            else:
                if parent is not None:
                    nums = head_get(parent)
                    if nums is None:
                        head[parent] = [number]
                    else:
                        nums.append(number)
                if "." not in number:
                    headed.add(lin)
    return below, head


def _subrules(
    kids: dict[int, dict[str, list[tuple[str, int, int]]]], numbers: dict[str, Any]
) -> dict[int, dict[str, Kids]]:
    """Each release's rules' subrules (``kids``, as met) in number order (``numbers``: every number met)."""
    sort_keys = {n: number_sort_key(n) for n in numbers}
    # A rule's subrules go into every history page entry as they are: a tuple, made once, the same one for every
    # release that has them alike (a rule's runs of releases compare them: at a glance when the same). Subrules
    # met alike are sorted alike: each way they are met is sorted once.
    made: dict[Kids, Kids] = {}
    met: dict[Kids, Kids] = {}
    out: dict[int, dict[str, Kids]] = {}
    for vid, per in kids.items():
        here = out[vid] = {}
        for n, lst in per.items():
            seen = tuple(lst)
            got = met.get(seen)
            if got is None:
                if len(lst) > 1:
                    lst.sort(key=lambda c: sort_keys[c[0]])
                got = met[seen] = _once(tuple(lst), made)
            here[n] = got
    return out


def _once(kids: Kids, made: dict[Kids, Kids]) -> Kids:
    """``kids``, or the tuple made before that equals it."""
    return made.setdefault(kids, kids)


_LETTERS_AT_END = re.compile(r"[a-z]+$")


def _parent_number(number: str) -> str | None:
    """The parent of a number written as text ("702.15b" -> "702.15" -> "702" -> "7"), by string
    surgery (asked once per distinct number: see RuleIndex.build)."""
    if "." in number:
        trimmed = _LETTERS_AT_END.sub("", number)
        return trimmed if trimmed != number else number.split(".", 1)[0]
    return number[0] if len(number) == 3 else None


def number_sort_key(number: str | None) -> tuple[Any, ...]:
    n = RuleNumber.try_parse(number or "")
    return n.sort_key if n is not None else (99,)
