"""The site's glossary: a page per term through every release, an A-Z index, search entries."""

# The site's glossary: one page per term followed through every release and its renames, an A-Z index, and the
# entries the offline search looks through.

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from functools import partial
from typing import Any

from markupsafe import Markup

from ..archive import Archive, VersionRow
from ..history.glossary import TermLine, term_key, term_lines
from ..history.timeline import stretches
from ..matcher.glossary import spelling_key
from ..render.notes import glossary_anchor
from ..render.templating import made_by
from .history import links_hold, run_key, stamp
from .rule_index import RuleIndex, file_slug
from .step_cache import StoredEdits, StoredParts, fill, glossary_step
from .steps import Lookup


def _rule_url(idx: RuleIndex, vid: int, at: int | None, made: dict[Lookup, None], number: str) -> str | None:
    """The address of rule ``number`` as release ``vid`` numbers it, noted in ``made`` as looked up in ``at``
    (None: the newest release, whichever it is)."""
    url = idx.url(vid, number)
    made[(at, number, url)] = None
    return url


@dataclass(slots=True)
class _Pages:
    """What every term's page is written with."""

    versions: list[VersionRow]
    diff_into: dict[int, str]
    idx: RuleIndex
    w: Any
    template: Any
    memo: StoredEdits
    parts: StoredParts
    order: dict[int, int]
    glossaries: set[int]  # the indexes of the releases that have a glossary


def write_glossary_pages(
    arc: Archive,
    versions: list[VersionRow],
    diff_into: dict[int, str],
    idx: RuleIndex,
    w: Any,
    env: Any,
    memo: StoredEdits,
    parts: StoredParts,
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """Write glossary/index.html and a page per term; returns search entries (text, term, page, first and
    last version index) for every distinct definition, and the terms as the index lists them (each with its
    key and latest text). "See rule 702.15" in a definition links to the history of the rule that number named
    in that release."""
    order = {v.id: k for k, v in enumerate(versions)}
    lines = term_lines(arc, versions, parts)
    # Only a release with a glossary can say a term is gone (a partial dump has none).
    with_glossary = [k for k, v in enumerate(versions) if arc.versions.coverage(v.id).glossary]
    last_glossary = with_glossary[-1] if with_glossary else -1
    template = env.get_template("glossary_term.html.j2")
    pages = _Pages(versions, diff_into, idx, w, template, memo, parts, order, set(with_glossary))
    used: set[str] = set()
    listing: list[dict[str, Any]] = []
    search: list[dict[str, Any]] = []
    # A page is named after the term's latest name (a renamed term's page keeps no old name's address).
    for key, _first, n_line in sorted((term_key(ln.latest), min(ln.seen), n) for n, ln in enumerate(lines)):
        line = lines[n_line]
        ks = sorted(line.seen)
        name, n = file_slug(key), 2
        while name in used:
            name, n = f"{file_slug(key)}-{n}", n + 1
        used.add(name)
        path = f"glossary/{name}.html"
        latest = line.latest
        names = line.names()
        current = ks[-1] >= last_glossary
        listing.append(
            {
                "path": name + ".html",
                "term": latest,
                "formerly": [t for t in names if spelling_key(t) != spelling_key(latest)],
                "first": versions[ks[0]].date,
                "last": versions[ks[-1]].date,
                "current": current,
                "key": key,
                "text": line.seen[ks[-1]][1],
                "releases": (versions[ks[0]].label, versions[ks[-1]].label),  # (the API names releases by label)
            }
        )
        texts: dict[str, list[int]] = {}
        for k in ks:
            texts.setdefault(line.seen[k][1], []).append(k)
        for text, at in texts.items():
            search.append({"text": text, "term": line.seen[at[-1]][0], "path": path, "first": at[0], "last": at[-1]})
        gone = next((versions[k] for k in with_glossary if k > ks[-1]), None)
        _write_term_page(pages, path, line, latest, names, gone)
    listing.sort(key=lambda e: e["term"].casefold())
    w.write("glossary/index.html", env.get_template("glossary_index.html.j2").render(terms=listing))
    search.sort(key=lambda e: (e["first"], e["path"], e["text"]))
    return search, listing


def _diff_link(pages: _Pages, vid: int, term: str) -> str | None:
    """Where the diff page into release ``vid`` shows this term's change: its anchor there (a note or a brief,
    render.notes.glossary_anchor), when the release before it has a glossary to differ from; else the page."""
    page = pages.diff_into.get(vid)
    if page is None:
        return None
    if pages.order[vid] - 1 not in pages.glossaries:
        return "../" + page
    return "../" + page + "#" + glossary_anchor(term)


def _write_term_page(
    pages: _Pages,
    path: str,
    line: TermLine,
    latest: str,
    terms: list[str],
    gone: VersionRow | None,
) -> None:
    """One term's page, unless the page written before still reads the same."""
    versions, seen = pages.versions, line.seen
    ks = sorted(seen)
    # As a rule's page (see site/history.py): what the page shows, with no word of the newest release unless
    # the term changed in it, and the lookups its definitions made by number, looked up again.
    runs: list[list[Any]] = []
    for k in ks:
        if runs and k in line.follows and k not in line.links and seen[k] == seen[runs[-1][1]]:
            runs[-1][1] = k
        else:
            runs.append([k, k])
    key_hash = hashlib.sha1(
        json.dumps(
            [
                made_by(),  # the code and templates that make it
                path,
                [[*run_key(versions, pages.diff_into, a, b), *seen[a], line.links.get(a)] for a, b in runs],
                gone.label if gone is not None else None,
            ]
        ).encode()
    ).hexdigest()
    if pages.w.fresh_if(path, partial(links_hold, key_hash, pages.idx, versions[-1].id)):
        return
    steps = []
    made: dict[Lookup, None] = {}
    newest = len(versions) - 1
    for n, s in enumerate(stretches(line.entries(versions), line.link_said(versions), edits=False), 1):
        diff_link = _diff_link(pages, s.first.id, s.name or "") if s.change != "first seen" else None
        to = None if pages.order[s.last.id] == newest else s.last.label
        url_of = partial(_rule_url, pages.idx, s.last.id, None if to is None else s.last.id, made)
        part = glossary_step(s, n, to, diff_link, pages.memo, pages.parts)
        steps.append(Markup(fill(part, url_of)))
    pages.w.write(
        path,
        pages.template.render(term=latest, terms=terms, steps=steps, gone=gone.label if gone is not None else None),
        stamp(key_hash, made),
    )
