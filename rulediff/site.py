"""The static release-notes site: an index of versions with a chart, one diff page per consecutive pair (and
per bridge between partial dumps), one history page per rule lineage, and an offline search page."""

from __future__ import annotations

import hashlib
import json
import os
import re
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from . import __version__
from .archive import Archive, VersionRow
from .changes import reader_changes
from .numbering import RuleNumber
from .report import to_html
from .sitewriter import SiteWriter, prepare_folder, write_if_changed
from .templating import asset, environment
from .textdiff import word_diff

Progress = Callable[[str, int, int], None]


def slug(label: str) -> str:
    """A file-name-safe form of a label: no separators, no dots at the start, nothing to traverse with."""
    s = re.sub(r"[^A-Za-z0-9_-]+", "-", label).strip("-._")
    return (s or "version")[:60]


@dataclass(slots=True)
class Page:
    old: VersionRow
    new: VersionRow
    path: str
    role: str  # "consecutive" or "bridge"
    summary: dict[str, int]


def build_site(
    arc: Archive, out: str | os.PathLike[str], progress: Progress | None = None, *, force: bool = False
) -> dict[str, int]:
    """Write the whole site for ``arc`` into ``out`` (empty, absent, or an earlier site unless ``force``);
    returns counts of what was written."""
    root = Path(out)
    prepare_folder(root, force=force)
    w = SiteWriter(root)
    versions = arc.versions()
    names = _file_names(versions)
    pages = _pages(arc, versions, names)
    env = environment()

    todo = [p for p in pages if not w.fresh(p.path, _page_key(p))]
    # Bridges between partial dumps are not stored by 'add'.
    arc.ensure_alignments([(p.old.id, p.new.id) for p in todo], "bridge")
    # Diff pages render in two worker processes while this one writes the history pages.
    chunks = [c for c in (todo[: len(todo) // 2], todo[len(todo) // 2 :]) if c]
    with ProcessPoolExecutor(max_workers=max(1, len(chunks))) as pool:
        jobs = [
            pool.submit(_render_pages, str(arc.path), str(root), [(p.old.id, p.new.id, p.path) for p in c])
            for c in chunks
        ]
        lineage_pages = _history_pages(arc, versions, names, w, env, progress)
        _search(arc, versions, w, env)
        done = 0
        for job, chunk in zip(jobs, chunks, strict=True):
            for p, wrote in zip(chunk, job.result(), strict=True):
                w.record(p.path, _page_key(p), wrote)
            done += len(chunk)
            if progress:
                progress("diff pages", done, len(todo))

    w.write("site.css", asset("report.css"))
    index = env.get_template("site_index.html.j2").render(
        versions=_version_rows(versions, pages, names),
        pages=pages,
        chart=_chart(versions, pages),
        lineages=lineage_pages,
        title="Comprehensive Rules archive",
    )
    w.write("index.html", index)
    w.finish()
    return {
        "versions": len(versions),
        "diff_pages": len(pages),
        "history_pages": len(lineage_pages),
        "written": w.written,
        "unchanged": w.skipped,
    }


def _page_key(p: Page) -> str:
    return f"{__version__}:{p.old.sha256}:{p.new.sha256}"


_NAV = {"index": "../index.html", "search": "../search.html", "history": "../rules/"}


def _render_pages(archive: str, root: str, pages: list[tuple[int, int, str]]) -> list[bool]:
    """Worker: render diff pages from the archive (read only) and write them; whether each changed."""
    out = []
    with Archive.open(archive, create=False) as arc:
        for a, b, rel in pages:
            al = arc.alignment(f"#{a}", f"#{b}")
            out.append(write_if_changed(Path(root), rel, to_html(al, site=_NAV)))
    return out


def _file_names(versions: list[VersionRow]) -> dict[int, str]:
    out: dict[int, str] = {}
    used: set[str] = set()
    for v in versions:
        name = slug(v.label)
        if name in used:
            name = f"{name}-v{v.id}"
        used.add(name)
        out[v.id] = name
    return out


def _pages(arc: Archive, versions: list[VersionRow], names: dict[int, str]) -> list[Page]:
    summaries = arc.summaries()
    by_id = {v.id: v for v in versions}
    pairs = [(a.id, b.id, "consecutive") for a, b in zip(versions, versions[1:], strict=False)]
    consecutive = {(a, b) for a, b, _ in pairs}
    pairs += [(a, b, "bridge") for a, b in arc.bridges() if (a, b) not in consecutive]
    out = []
    for a, b, role in pairs:
        out.append(Page(by_id[a], by_id[b], f"diff/{names[a]}--{names[b]}.html", role, summaries.get((a, b), {})))
    return out


_PAIRED_KINDS = ("unchanged", "renumbered", "edited", "renumbered_edited", "moved", "moved_edited", "split", "merged")


def _version_rows(versions: list[VersionRow], pages: list[Page], names: dict[int, str]) -> list[dict[str, Any]]:
    into = {p.new.id: p for p in pages if p.role == "consecutive"}
    rows = []
    for v in versions:
        p = into.get(v.id)
        changes = None
        overlap = True
        if p is not None and p.summary:
            s = p.summary
            changes = reader_changes(s)
            paired = sum(s.get(k, 0) for k in _PAIRED_KINDS)
            overlap = paired > 0 or s.get("added", 0) + s.get("removed", 0) > 0
        rows.append(
            {
                "label": v.label,
                "date": v.date,
                "format": v.format,
                "rules": v.rule_count,
                "size": v.size,
                "changes": changes,
                "overlap": overlap,
                "diff": p.path if p else None,
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


def _history_pages(
    arc: Archive,
    versions: list[VersionRow],
    names: dict[int, str],
    w: SiteWriter,
    env: Any,
    progress: Progress | None,
) -> list[dict[str, Any]]:
    """One page per lineage, from one pass over the rules table. Texts are fetched only for the pages that
    are rendered: a page's key is built from body ids, so an unchanged lineage costs no text at all."""
    order = {v.id: k for k, v in enumerate(versions)}
    rows = arc.rule_index()
    by_lineage: dict[int, list[tuple[Any, ...]]] = {}
    # (version, parent number) -> [(child number, child lineage)]: a headed rule's page links its subrules.
    kids: dict[tuple[int, str], list[tuple[str, int]]] = {}
    for row in rows:
        by_lineage.setdefault(row[0], []).append(row)
        number = row[2]
        parent = _parent_number(number) if number else None
        if number and parent is not None:
            kids.setdefault((row[1], parent), []).append((number, row[0]))
    template = env.get_template("history.html.j2")
    listing = []
    total = len(by_lineage)
    for done, (lin, items) in enumerate(sorted(by_lineage.items())):
        if progress and done % 250 == 0:
            progress("history pages", done, total)
        items.sort(key=lambda r: order[r[1]])
        steps = []
        prev_body = prev_number = None
        for _, vid, number, title, body in items:
            v = versions[order[vid]]
            if body != prev_body or number != prev_number:
                steps.append(
                    {
                        "from": v.label,
                        "date": v.date,
                        "to": v.label,
                        "number": number,
                        "title": title,
                        "body": body,
                        "renumbered": prev_number is not None and number != prev_number,
                        "edited": prev_body is not None and body != prev_body,
                    }
                )
            else:
                steps[-1]["to"] = v.label
            prev_body, prev_number = body, number
        latest = steps[-1]
        if latest["to"] == versions[-1].label:
            # "to the present": a page whose rule did not change is not rewritten by the next release.
            latest["to"] = None
        name = f"rules/{lin}.html"
        children_key = kids.get((items[-1][1], latest["number"] or ""), [])
        key = hashlib.sha1(json.dumps([steps, children_key], sort_keys=True).encode("utf-8")).hexdigest()
        entry = {
            "lineage": lin,
            "path": name,
            "number": latest["number"],
            "title": latest["title"] or "",
            "last": latest["to"] or versions[-1].label,
            "first": steps[0]["from"],
        }
        listing.append(entry)
        if w.fresh(name, key):
            continue
        # Only pages that are rendered pay for their texts and word diffs.
        texts = arc.body_texts(st["body"] for st in steps)
        for step in steps:
            step["text"] = texts[step["body"]]
        for prev, step in zip(steps, steps[1:], strict=False):
            step["diff"] = word_diff(prev["text"], step["text"]) if step["edited"] else None
        steps[0]["diff"] = None
        children = sorted(kids.get((items[-1][1], latest["number"] or ""), []), key=lambda c: _num_key(c[0]))
        w.write(
            name,
            template.render(lineage=lin, steps=steps, latest=latest, versions=len(items), children=children),
            key,
        )
    if progress:
        progress("history pages", total, total)
    listing.sort(key=lambda e: (e["number"] is None, _num_key(e["number"]), e["title"]))
    w.write("rules/index.html", env.get_template("rules_index.html.j2").render(lineages=listing))
    return listing


_LETTERS_AT_END = re.compile(r"[a-z]+$")


def _parent_number(number: str) -> str | None:
    """The parent of a number written as text ("702.15b" -> "702.15" -> "702" -> "7"), by string
    surgery: this runs once per rule per version, hundreds of thousands of times."""
    if "." in number:
        trimmed = _LETTERS_AT_END.sub("", number)
        return trimmed if trimmed != number else number.split(".", 1)[0]
    return number[0] if len(number) == 3 else None


def _num_key(number: str | None) -> tuple[Any, ...]:

    n = RuleNumber.try_parse(number or "")
    return n.sort_key if n is not None else (99,)


def _search(arc: Archive, versions: list[VersionRow], w: SiteWriter, env: Any) -> None:
    """search.html and its prebuilt index (a script, so it loads from file:// with no server)."""
    order = {v.id: k for k, v in enumerate(versions)}
    rows = arc.search_rows()
    # One entry per distinct searchable text and lineage: typography-only variants collapse.
    acc: dict[tuple[str, int], list[Any]] = {}
    for _, vid, number, lineage, search in rows:
        k = order[vid]
        e = acc.get((search, lineage))
        if e is None:
            acc[(search, lineage)] = [search, number, lineage, k, k]
        else:
            if k < e[3]:
                e[3] = k
            if k > e[4]:
                e[4], e[1], e[2] = k, number, lineage
    labels = [v.label for v in versions]
    entries = sorted(acc.values(), key=lambda e: (e[3], e[2] or 0, e[0]))
    data = {"versions": labels, "entries": [[e[0], e[1], e[2], e[3], e[4]] for e in entries]}
    w.write(
        "search-index.js",
        "window.RULEDIFF_INDEX = " + json.dumps(data, ensure_ascii=False, separators=(",", ":")) + ";\n",
    )
    w.write("search.html", env.get_template("search.html.j2").render(count=len(entries)))
