"""The static site: one build of the index, diff, rule, glossary and search pages."""

# The static release-notes site: an index of versions with a chart, one diff page per consecutive pair (and per
# bridge between partial dumps), one history page per rule lineage, and an offline search page.

from __future__ import annotations

import functools
import hashlib
import json
import os
import re
import stat
from collections.abc import Callable
from pathlib import Path
from typing import Any

from .._version import __version__
from ..archive import Archive, VersionRow
from ..render.html import to_html
from ..render.links import slug
from ..render.notes import build_notes
from ..render.templating import asset, environment, made_by
from ..support.worker_pool import pool as worker_pool
from .api import ApiPlan, PairJob, Written, pair_files
from .api_rules import RuleFiles
from .feed import write_feed
from .glossary import write_glossary_pages
from .history import links_hold, plan_history_pages, stamp, write_history_pages
from .index import Page, named_pages, pair_summaries, write_index, write_search
from .reader import write_reader
from .reader_pages import release_pages
from .rule_index import RuleIndex
from .step_cache import StoredEdits, StoredParts, part_key
from .steps import Lookup, StepMaker
from .writer import Mine, SiteWriter, digest_of, prepare_folder, write_if_changed

Progress = Callable[[str, int, int], None]


def build_site(
    arc: Archive,
    out: str | os.PathLike[str],
    progress: Progress | None = None,
    *,
    force: bool = False,
    on_wait: Callable[[], None] | None = None,
    api: bool = True,
) -> dict[str, Any]:
    """Write the whole site for ``arc`` into ``out`` (empty, absent, or an earlier site unless ``force``);
    returns counts of what was written. ``on_wait`` is called once if another build of ``out`` makes this
    one wait for more than a second. ``api``: write the JSON API under api/ too (see site/api.py)."""
    root = Path(out)
    prepare_folder(root, force=force)
    # One build of a site at a time, each reading the archive after the one before it has ended: the writer
    # holds the site's lock from here (see sitewriter.JOURNAL).
    w = SiteWriter(root, on_wait, force=force)
    try:
        arc.release_caches()  # what archiving kept in memory is not what the pages read
        # Alignments an older engine stored are re-aligned; bridges between partial dumps (not stored by
        # 'add') are stored; each in its own transaction, before the pages are read.
        arc.lineages.refresh()
        arc.lineages.sync_corrections()
        arc.alignments.ensure_all(arc.alignments.bridges(), "bridge")
        # Then every page is made from one snapshot of the archive, whatever an 'add' commits meanwhile.
        memo, parts = StoredEdits(arc), StoredParts(arc)
        with arc.snapshot():
            stats = _build(arc, root, progress, memo, parts, w, api)
        memo.save()
        parts.save()
    finally:
        w.close()  # a build that fails lets the next one in (finish has closed it otherwise)
    return stats


def _build(
    arc: Archive, root: Path, progress: Progress | None, memo: StoredEdits, parts: StoredParts, w: SiteWriter, api: bool
) -> dict[str, Any]:
    every, versions, stands_by = _timeline(arc)
    names = _file_names(every)
    pages, uncounted = _pages(arc, every, stands_by, names, parts)
    env = environment()

    idx, texts = _index(arc, versions, stands_by)
    diff_into = {p.new.id: p.path for p in pages if p.role == "consecutive"}
    nav = named_pages(_neighbours(pages), pages, arc.names.all())
    # A diff page shows its pair's hand corrections: they are part of what it is built from.
    fixed = {p.path: repr(arc.corrections.for_pair(p.old.id, p.new.id)) for p in pages}
    # As a history page's: the key says what the page is made from, and the stamp adds the rule pages it
    # linked to by number, looked up again (a rule renumbered in a new release moves its page, and every
    # diff page linking to it must follow; the others are not rendered again).
    newest = versions[-1].id if versions else 0
    todo = [
        p for p in pages if not w.fresh_if(p.path, functools.partial(links_hold, _page_key(p, nav, fixed), idx, newest))
    ]
    plan = ApiPlan(arc, versions, names, pages, w) if api else None
    visit = plan.visits(pages, todo) if plan else todo  # the workers also visit pages whose API files are due
    # Diff pages render in two worker processes while this one works out the glossary and history pages
    # (what is left of those once the diff pages are done, this one and a fresh worker share: see StepWork);
    # history pages link into the diff pages (to the rule's card, when the page has one), so they are
    # written afterwards. The diff pages go in runs of consecutive releases (a run reads each release once),
    # a few runs a worker, so the two workers balance. A few pages (a release added) go to one worker: a
    # second one's start would take the core this process works on, for less than it saves; and as one run
    # (a release two of those pages share is read once, the archive opened once).
    size = max(1, len(visit)) if len(visit) <= FEW_DIFF_PAGES else max(4, -(-len(visit) // 6))
    chunks = [visit[k : k + size] for k in range(0, len(visit), size)]
    # Spawned, not forked: a forked worker starts as a copy of this process (every document and cache it
    # holds after archiving), and that copy is counted again for each worker.
    w.expect(p.path for p in todo)  # the workers write these
    w.expect(plan.expected(visit) if plan else [])
    with worker_pool(1 if len(visit) <= FEW_DIFF_PAGES else 2, spawn=True) as pool:
        jobs = [pool.submit(_render_pages, *_items(arc, root, c, todo, nav, uncounted, plan, idx, w)) for c in chunks]
        glossary, terms = write_glossary_pages(arc, versions, diff_into, idx, w, env, memo, parts)
        write_search(arc, versions, idx, glossary, w, env, diff_into, texts.pop())  # (not held once written)
        steps = StepMaker(arc, versions, idx.url, diff_into, memo, parts)
        rules = RuleFiles(w) if plan else None
        lineage_pages, pending, work = plan_history_pages(arc, idx, diff_into, w, steps, progress, rules)
        work.here_while(lambda: not all(job.done() for job in jobs))
        done = 0
        for job, chunk in zip(jobs, chunks, strict=True):
            for p, (wrote, digest, counts, lookups, files) in zip(chunk, job.result(), strict=True):
                if wrote is not None:  # (a page not rendered: only its API files were due)
                    w.record(p.path, stamp(_page_key(p, nav, fixed), lookups), wrote, digest)
                if plan:
                    plan.took(files)
                if counts is not None:
                    p.summary = counts
                    parts.put(uncounted[p.path], json.dumps(counts))
            done += len(chunk)
            if progress:
                progress("diff pages", done, len(visit))
    work.rest_shared()  # the diff pages' workers are gone
    with release_pages(arc, versions, names, idx, w, parts):  # cr/<slug>/: by a worker meanwhile, when many are due
        write_history_pages(pending, steps, _ids_on(root, parts), w, env, rules)
        for p in pages:
            if p.path in uncounted and not p.summary:  # a corrected pair whose page was not rendered again
                p.summary = arc.alignments.get(f"#{p.old.id}", f"#{p.new.id}").summary()
                parts.put(uncounted[p.path], json.dumps(p.summary))
        w.write("rules/index.html", env.get_template("rules_index.html.j2").render(lineages=lineage_pages))
        write_reader(arc, versions, names, idx, w, env, parts, pages=False)  # the rest of cr/, compare.html

    w.write("site.css", asset("report.css"))
    keywords = write_index(arc, every, pages, names, idx, lineage_pages, glossary, w, env)
    write_feed(versions, pages, keywords, w, arc.names.all())
    if plan:
        plan.finish(pages, idx, terms, lineage_pages)
    w.finish()
    return {
        "versions": len(every),
        "diff_pages": len(pages),
        "history_pages": len(lineage_pages),
        "written": w.written,
        "unchanged": w.skipped,
        "left_alone": w.left_alone,
    }


def _timeline(arc: Archive) -> tuple[list[VersionRow], list[VersionRow], dict[int, int]]:
    """Every version; the timeline the pages follow; and the partial dumps beside a complete release of their
    date, each with the release it stands by (listed on the index, with a page of what they differ in)."""
    every = arc.versions.all()
    aside = arc.versions.beside(every)
    versions = [v for v in every if v.id not in aside]
    stands_by = {vid: release.id for vid in aside if (release := arc.versions.release_of(vid, every)) is not None}
    return every, versions, stands_by


def _index(
    arc: Archive, versions: list[VersionRow], stands_by: dict[int, int]
) -> tuple[RuleIndex, list[dict[int, tuple[str, str]]]]:
    """The rule index, and the texts the search index is made of (in a list, to hand over): the bodies are
    read once for both, each one's examples decoded once."""
    alike, texts = arc.texts.bodies_shown()
    return RuleIndex.build(arc, versions, stands_by, alike), [texts]


def _page_key(p: Page, nav: dict[str, Any], fixed: dict[str, str]) -> str:
    """What a diff page is built from: the code and templates, the two releases, its neighbours, and the
    pair's hand corrections (none for almost every page, which keeps their keys as they were); where its
    rule numbers link is in its stamp (see ``links_hold``). A digest: a stamp is its key, a space, its links."""
    around = json.dumps(nav.get(p.path, {}), sort_keys=True)
    key = f"{__version__}:{made_by()}:{p.old.sha256}:{p.new.sha256}:{p.old.id}:{p.new.id}:{around}"
    return hashlib.sha1((key + (":" + fixed[p.path] if fixed[p.path] != "[]" else "")).encode()).hexdigest()


# Diff pages one worker renders while this process makes the rest of the site (adding a release renders
# the new pair's page, its neighbour's and those whose links to a renumbered rule move: about five).
FEW_DIFF_PAGES = 8

_NAV = {
    "index": "../index.html",
    "search": "../search.html",
    "history": "../rules/",
    "glossary": "../glossary/index.html",
}


def _neighbours(pages: list[Page]) -> dict[str, dict[str, Any]]:
    """Previous and next release for every consecutive diff page."""
    chain = [p for p in pages if p.role == "consecutive"]
    out: dict[str, dict[str, Any]] = {}
    for k, p in enumerate(chain):
        here: dict[str, Any] = {}
        if k > 0:
            q = chain[k - 1]
            here["prev"] = {"href": "../" + q.path, "label": f"{q.old.label} \u2192 {q.new.label}"}
        if k + 1 < len(chain):
            q = chain[k + 1]
            here["next"] = {"href": "../" + q.path, "label": f"{q.old.label} \u2192 {q.new.label}"}
        out[p.path] = here
    return out


def _address_book(idx: RuleIndex, vids: set[int]) -> dict[int, dict[str, str]]:
    """For each version: number -> the address of that rule's history page."""
    paths = idx.paths
    return {v: {number: paths[lin] for number, lin in idx.at.get(v, {}).items()} for v in vids}


def _items(
    arc: Archive,
    root: Path,
    chunk: list[Page],
    todo: list[Page],
    nav: dict[str, Any],
    uncounted: dict[str, str],
    plan: ApiPlan | None,
    idx: RuleIndex,
    w: SiteWriter,
) -> tuple[Any, ...]:
    """The arguments of ``_render_pages`` for the pages of ``chunk``: each page's releases, its path when it is
    to be rendered (in ``todo``), what it says around it, whether to count it, and its API files due."""
    render = {p.path for p in todo}
    pages = [
        (
            p.old.id,
            p.new.id,
            p.path if p.path in render else None,
            nav.get(p.path, {}),
            p.path in uncounted,
            plan.job(p) if plan else None,
        )
        for p in chunk
    ]
    book = _address_book(idx, {v for p in chunk for v in (p.old.id, p.new.id)})
    # What the worker needs to tell the site's own files from others' among those it may write.
    proof = w.proof([p.path for p in chunk if p.path in render] + (plan.expected(chunk) if plan else []))
    return str(arc.path), arc.identity, str(root), pages, book, proof, w.force


def _render_pages(
    archive: str,
    identity: tuple[int, int],
    root: str,
    pages: list[tuple[int, int, str | None, dict[str, Any], bool, PairJob | None]],
    addresses: dict[int, dict[str, str]],
    proof: dict[str, list[str] | None],
    force: bool,
) -> list[tuple[bool | None, str, dict[str, int] | None, list[Lookup], list[Written]]]:
    """Worker: render diff pages from the archive (read only) and write them (a page given no path is not
    rendered: only its API files are due); whether each changed (None: not rendered) and the digest of its
    bytes, the counts of the pages asked for them (a corrected pair: its counts come from the alignment at
    hand), the rule pages each linked to by number (release, number, address), and the API files written from
    the same alignment and notes."""
    checked: dict[str, Path] = {}
    with Archive.open_again(archive, identity) as arc:
        # Pages come in release order: only the release the pages share is reused. An alignment is not: the
        # one of the page before is dropped before the next is read (it holds the release before as well).
        arc.versions.keep_documents(2)
        out = []
        for a, b, rel, nav, count, job in pages:
            arc.alignments.release()
            mine = Mine(Path(root), proof, force)
            out.append(_render_page(arc, Path(root), a, b, rel, nav, count, addresses, checked, mine, job))
    return out


def _render_page(
    arc: Archive,
    root: Path,
    a: int,
    b: int,
    rel: str | None,
    nav: dict[str, Any],
    count: bool,
    addresses: dict[int, dict[str, str]],
    checked: dict[str, Path],
    mine: Mine,
    job: PairJob | None = None,
) -> tuple[bool | None, str, dict[str, int] | None, list[Lookup], list[Written]]:
    """One diff page of ``_render_pages`` (its alignment and page text gone once it returns)."""
    al = arc.alignments.get(f"#{a}", f"#{b}")
    made: dict[Lookup, None] = {}
    notes = build_notes(al) if rel is not None or (job is not None and job[1] is not None) else None
    files = pair_files(al, notes, job, root, checked, mine.before) if job is not None else []
    if rel is None:
        return None, "", al.summary() if count else None, [], files

    def rule_history(number: str, new_side: bool) -> str | None:
        vid = b if new_side else a
        path = addresses[vid].get(number)
        url = "../" + path if path else None
        made[(vid, number, url)] = None
        return url

    site = {**_NAV, **nav, "rule_history": rule_history}
    html = to_html(al, site=site, notes=notes)
    digest = digest_of(html.encode("utf-8"))
    wrote = write_if_changed(root, rel, html, checked, mine.before(digest))
    return wrote, digest, al.summary() if count else None, list(made), files


def _ids_on(root: Path, parts: StoredParts) -> Callable[[str], set[str]]:
    """The ids a written page carries (read once per page), so links into it can name only real anchors.
    A page's ids are kept in ``parts`` by its file's size, modification time and inode (a page is only
    ever replaced, never written in place), and a page not written again is not read again: adding one
    release rewrites one diff page, and the history pages link into all of them."""
    cache: dict[str, set[str]] = {}

    def ids(rel: str) -> set[str]:
        if rel not in cache:
            f = root / rel
            try:
                st = os.stat(f)
            except OSError:
                st = None
            if st is None or not stat.S_ISREG(st.st_mode):
                cache[rel] = set()
                return cache[rel]
            key = part_key("ids", [rel, st.st_size, st.st_mtime_ns, st.st_ino])
            kept = parts.get_json(key)
            if isinstance(kept, list) and all(isinstance(x, str) for x in kept):
                cache[rel] = set(kept)
            else:
                cache[rel] = set(_ID.findall(f.read_text("utf-8")))
                parts.put(key, json.dumps(sorted(cache[rel])))
        return cache[rel]

    return ids


_ID = re.compile(r'\sid="([^"]+)"')


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


def _pages(
    arc: Archive, every: list[VersionRow], stands_by: dict[int, int], names: dict[int, str], parts: StoredParts
) -> tuple[list[Page], dict[str, str]]:
    """The diff pages, and those whose counts are still to work out (path -> the key to keep them by): one per
    consecutive pair of the timeline, per bridge between partial dumps, and per dump beside a release (from
    the release)."""
    summaries, uncounted = pair_summaries(arc, every, parts)
    by_id = {v.id: v for v in every}
    versions = [v for v in every if v.id not in stands_by]
    pairs = [(a.id, b.id, "consecutive") for a, b in zip(versions, versions[1:], strict=False)]
    consecutive = {(a, b) for a, b, _ in pairs}
    pairs += [(a, b, "bridge") for a, b in arc.alignments.bridges() if (a, b) not in consecutive]
    pairs += [(release, vid, "beside") for vid, release in sorted(stands_by.items())]
    out = []
    waiting = {}
    for a, b, role in pairs:
        path = f"diff/{names[a]}--{names[b]}.html"
        out.append(Page(by_id[a], by_id[b], path, role, summaries.get((a, b), {})))
        if (a, b) in uncounted:
            waiting[path] = uncounted[(a, b)]
    return out, waiting
