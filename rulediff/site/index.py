"""The site's front pages: the index's rows (counts, new keywords) and chart, and the search page's index."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from ..archive import Archive, ReleaseName, VersionRow
from ..matcher.records import reader_changes
from .rule_index import RuleIndex, number_sort_key
from .step_cache import StoredParts, part_key
from .writer import SiteWriter


@dataclass(slots=True)
class Page:
    old: VersionRow
    new: VersionRow
    path: str
    role: str  # "consecutive" or "bridge"
    summary: dict[str, int]


def pair_summaries(
    arc: Archive, versions: list[VersionRow], parts: StoredParts
) -> tuple[dict[tuple[int, int], dict[str, int]], dict[tuple[int, int], str]]:
    """The counts of every stored pair, as ``Archive.summaries`` gives them: a pair with hand corrections is
    counted as its diff page shows it, corrections applied. That takes aligning the pair again, so those
    counts are kept with the rendered steps (by the two releases, the corrections and the matcher); the
    ones not kept yet are left out, with the key to keep them by: the worker that renders the pair's page
    counts it, or the build does once the pages are written."""
    shas = {v.id: v.sha256 for v in versions}
    out: dict[tuple[int, int], dict[str, int]] = {}
    missing: dict[tuple[int, int], str] = {}
    for (a, b), counts in arc.alignments.matcher_summaries().items():
        fixes = arc.corrections.for_pair(a, b)
        if fixes:
            key = part_key("summary", [shas.get(a), shas.get(b), repr(fixes), arc.alignments.engine])
            counts = parts.get_json(key)
            if not isinstance(counts, dict):
                missing[(a, b)] = key
                continue
        out[(a, b)] = counts
    return out, missing


def named_pages(
    nav: dict[str, dict[str, Any]], pages: list[Page], names: dict[int, ReleaseName]
) -> dict[str, dict[str, Any]]:
    """``nav`` (what each diff page says around it) with what its two releases are called, where known: set
    code and name, re-release name, update bulletin ("old_name", "new_name")."""
    out = {path: dict(here) for path, here in nav.items()}
    for p in pages:
        for side, v in (("old_name", p.old), ("new_name", p.new)):
            if v.id in names:
                out.setdefault(p.path, {})[side] = names[v.id].as_dict()
    return out


_PAIRED_KINDS = ("unchanged", "renumbered", "edited", "renumbered_edited", "moved", "moved_edited", "split", "merged")


def overlaps(summary: dict[str, int]) -> bool:
    """Do a pair's two texts share any rule (partial dumps of different parts do not: "no overlap")?"""
    paired = sum(summary.get(k, 0) for k in _PAIRED_KINDS)
    return paired > 0 or summary.get("added", 0) + summary.get("removed", 0) > 0


def new_keywords(idx: RuleIndex) -> dict[int, list[str]]:
    """Per version, the keyword abilities and keyword actions it introduced, read from the data: rules that
    first appear in it under a heading titled "Keyword Abilities" or "Keyword Actions" (702 and 701
    today, 502 before 2009) that the previous version also has."""
    heads = idx.keyword_heads()
    out: dict[int, list[tuple[str, str]]] = {}
    for items in idx.by_lineage.values():
        _, vid, number, title, _ = items[0]  # where it first appears: a lineage's rows are in release order
        k = idx.order[vid]
        if k == 0 or not number or not title or number.count(".") != 1 or number[-1].isalpha():
            continue
        parent = number.split(".", 1)[0]
        prev = idx.versions[k - 1].id
        if (vid, parent) in heads and (prev, parent) in heads:
            out.setdefault(vid, []).append((number, title))
    return {vid: [t for _, t in sorted(xs, key=lambda x: number_sort_key(x[0]))] for vid, xs in out.items()}


def _version_rows(
    versions: list[VersionRow], pages: list[Page], names: dict[int, str], keywords: dict[int, list[str]]
) -> list[dict[str, Any]]:
    into = {p.new.id: p for p in pages if p.role in ("consecutive", "beside")}
    rows = []
    for v in versions:
        p = into.get(v.id)
        changes = None
        overlap = True
        if p is not None and p.summary:
            changes = reader_changes(p.summary)
            overlap = overlaps(p.summary)
        rows.append(
            {
                "label": v.label,
                "date": v.date,
                "new": keywords.get(v.id, []),
                "format": v.format,
                "rules": v.rule_count,
                "size": v.size,
                "changes": changes,
                "overlap": overlap,
                "diff": p.path if p else None,
                "beside": p.old.label if p is not None and p.role == "beside" else None,
                "provenance": v.provenance or v.source,
            }
        )
    return rows


def _chart(versions: list[VersionRow], pages: list[Page]) -> dict[str, Any]:
    """An inline SVG of rules (line) and changes (bars) per version, as plain numbers for the template."""
    width, height, pad = 900, 220, 30
    n = max(1, len(versions))
    top_rules = max((v.rule_count for v in versions), default=1) or 1
    changes = {p.new.id: reader_changes(p.summary) for p in pages if p.role == "consecutive"}
    top_changes = max(changes.values(), default=1) or 1
    step = (width - 2 * pad) / max(1, n - 1)
    points, bars = [], []
    for k, v in enumerate(versions):
        x = pad + k * step
        y = height - pad - (height - 2 * pad) * v.rule_count / top_rules
        points.append(f"{x:.1f},{y:.1f}")
        c = changes.get(v.id, 0)
        h = (height - 2 * pad) * c / top_changes
        bars.append({"x": round(x - 2, 1), "y": round(height - pad - h, 1), "h": round(h, 1), "label": v.label, "n": c})
    return {
        "width": width,
        "height": height,
        "pad": pad,
        "line": " ".join(points),
        "bars": bars,
        "top_rules": top_rules,
        "top_changes": top_changes,
        "first": versions[0].date if versions else "",
        "last": versions[-1].date if versions else "",
    }


def write_search(
    arc: Archive,
    versions: list[VersionRow],
    idx: RuleIndex,
    glossary: list[dict[str, Any]],
    w: SiteWriter,
    env: Any,
    diff_into: dict[int, str] | None = None,
    texts: dict[int, tuple[str, str]] | None = None,
) -> None:
    """search.html and its prebuilt index (a script, so it loads from file:// with no server): rule texts
    and glossary entries, each with the page it leads to, and the releases by code, set name and label,
    each leading to its diff page (``diff_into``: release id -> the page of the pair it ends). ``texts``:
    Archive.search_texts, when already read."""
    if texts is None:
        texts = arc.texts.search_texts()
    rules = sorted(_search_spans(idx, texts), key=lambda e: (e[3], idx.paths[e[2]], e[0]))
    entries: list[list[Any]] = [[e[0], e[1], idx.paths[e[2]], e[3], e[4], "r"] for e in rules]
    for g in glossary:
        entries.append([g["text"], g["term"], g["path"], g["first"], g["last"], "g"])
    names, into = arc.names.all(), diff_into or {}
    releases = [
        [names[v.id].code, names[v.id].set_name, names[v.id].rerelease, v.label, into.get(v.id)]
        for v in versions
        if v.id in names
    ]
    data = {"versions": [v.label for v in versions], "entries": entries, "releases": releases}
    w.write(
        "search-index.js",
        "window.RULEDIFF_INDEX = " + json.dumps(data, ensure_ascii=False, separators=(",", ":")) + ";\n",
    )
    w.write("search.html", env.get_template("search.html.j2").render(count=len(entries)))


def _search_spans(idx: RuleIndex, texts: dict[int, tuple[str, str]]) -> list[list[Any]]:
    """[text, number, lineage, first, last] once per distinct searchable text (``texts``: body id -> its
    searchable text and its text as printed) and lineage: typography-only variants collapse, the latest
    printing shown. ``first`` and ``last`` are the positions of the first and last version it is in; ``number``
    is the one it has in that last version (its first rule there, as stored)."""
    acc: dict[tuple[str, int], list[Any]] = {}
    for (body, lin), (first, last, number, row) in idx.spans.items():
        search, shown = texts[body]
        key = (search, lin)
        e = acc.get(key)
        if e is None:
            acc[key] = [shown, number, lin, first, last, row]
            continue
        if first < e[3]:
            e[3] = first
        if last > e[4] or (last == e[4] and row < e[5]):
            e[0], e[1], e[4], e[5] = shown, number, last, row
    return [e[:5] for e in acc.values()]


def write_index(
    arc: Archive,
    versions: list[VersionRow],
    pages: list[Page],
    names: dict[int, str],
    idx: RuleIndex,
    lineage_pages: list[dict[str, Any]],
    glossary: list[dict[str, Any]],
    w: SiteWriter,
    env: Any,
) -> dict[int, list[str]]:
    """The index page: every version newest first with its counts, new keywords and the chart. Returns the new
    keywords by version (the feed lists them too)."""
    keywords = new_keywords(idx)
    rows = list(reversed(_version_rows(versions, pages, names, keywords)))
    aside = {p.new.id for p in pages if p.role == "beside"}
    # An undated dump placed on the timeline by the release its text matches says which (rulediff identify).
    labels = {v.id: v.label for v in versions}
    identified = arc.identifications.all().items()
    matches = {labels[vid]: i.release_label for vid, i in identified if i.matched and vid in labels}
    called = {labels[vid]: n.as_dict() for vid, n in arc.names.all().items() if vid in labels}
    # A release's other editions (its Word and PDF beside its text) are listed with it, and say whose they are.
    editions = arc.versions.editions(versions)
    also: dict[str, list[str]] = {}
    for vid, ref in editions.items():
        also.setdefault(labels[ref], []).append(next(v.format for v in versions if v.id == vid))
    edition_of = {labels[vid]: labels[ref] for vid, ref in editions.items()}
    for row in rows:
        row["matches"] = matches.get(row["label"])
        row["name"] = called.get(row["label"])
        row["editions"] = sorted(also.get(row["label"], []))
        row["edition_of"] = edition_of.get(row["label"])
    index = env.get_template("site_index.html.j2").render(
        versions=rows,
        pages=pages,
        chart=_chart([v for v in versions if v.id not in aside], pages),
        lineages=lineage_pages,
        terms=len({g["path"] for g in glossary}),
        title="Comprehensive Rules archive",
    )
    w.write("index.html", index)
    return keywords
