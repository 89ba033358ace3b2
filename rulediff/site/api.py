"""The site's JSON API: what each build writes under api/, from the pages' own view-models, kept by key."""

# The site's JSON API (api/ beside the pages, for bots and other tools; README "API"): a release list, each release's
# document, the diff and release notes of each consecutive pair (written by the diff pages' workers from the page's
# alignment and notes), a file per rule page (site/api_rules.py), the glossary, the keywords, "latest" aliases (files:
# file:// and plain static hosts have no redirects), an index of the endpoints, and the JSON Schemas they follow.
# Every file is kept by a key of what it is made from, so adding a release rewrites only the files it changes.

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Iterable
from importlib import resources
from pathlib import Path
from typing import Any

from ..archive import Archive, VersionRow
from ..render.diff_json import to_dict
from ..render.notes_json import notes_dict
from ..render.templating import made_by
from ..render.view import Notes
from ..support.gc_pause import paused
from .api_lists import endpoints, glossary_file, keywords_file, release_entries
from .api_rules import compact
from .index import Page
from .rule_index import RuleIndex
from .writer import digest_of, write_if_changed

# What a worker writes for one consecutive pair: (diff file, notes file, their key) when they are due, and the
# releases' documents due with it: (0 for the pair's old release or 1 for its new one, file, key).
PairJob = tuple[str | None, str | None, str, list[tuple[int, str, str]]]
# A file a worker wrote (or found as it was): (path, key, whether it was written, the digest of its bytes)
Written = tuple[str, str, bool, str]

LATEST = {"document": "api/latest/release.json", "diff": "api/latest/diff.json", "notes": "api/latest/notes.json"}


def document_path(slug: str) -> str:
    return f"api/releases/{slug}.json"


def pair_paths(old: str, new: str) -> tuple[str, str]:
    """The diff and notes files of a consecutive pair, named as its diff page is."""
    return f"api/diffs/{old}--{new}.json", f"api/notes/{old}--{new}.json"


def _key(*parts: object) -> str:
    """What an API file is made from, as a digest: the code and templates that make the site, then ``parts``."""
    return hashlib.sha1(json.dumps([made_by(), *parts], sort_keys=True).encode()).hexdigest()


def _said(v: VersionRow) -> list[object]:
    """What a release's document and its pairs' files say of it (label, dates, source: a relabelled release is
    written again)."""
    return [v.id, v.sha256, v.label, v.effective_date, v.era, v.format, v.source]


def pair_files(
    al: Any,
    notes: Notes | None,
    job: PairJob,
    root: Path,
    checked: dict[str, Path],
    before: Callable[[str], Callable[[str, str | None], None]],
) -> list[Written]:
    """Worker: the API files of one pair from its alignment ``al`` and the notes its page was made from;
    ``before(digest)`` checks and notes each file about to be written (see writer.Mine). The cyclic collector
    is held off meanwhile: a release's document as data is some 400,000 containers, none in a cycle, and the
    collector walked them a few times over (half the time these files took)."""
    diff_rel, notes_rel, key, docs = job
    out: list[Written] = []

    def put(rel: str, key: str, text: str) -> None:
        digest = digest_of(text.encode("utf-8"))
        out.append((rel, key, write_if_changed(root, rel, text, checked, before(digest)), digest))

    with paused():
        if diff_rel is not None:
            put(diff_rel, key, compact(to_dict(al)))
        if notes_rel is not None:
            assert notes is not None
            put(notes_rel, key, compact(notes_dict(al, notes)))
        for side, rel, doc_key in docs:
            put(rel, doc_key, compact((al.new if side else al.old).as_dict()))
    return out


class ApiPlan:
    """What a build writes under api/: which files are due (their keys say they are not as written), which
    diff pages' workers write which, and (``finish``) the rest."""

    def __init__(self, arc: Archive, versions: list[VersionRow], slugs: dict[int, str], pages: list[Page], w: Any):
        self.arc, self.versions, self.slugs, self.w = arc, versions, slugs, w
        self.chain = [p for p in pages if p.role == "consecutive"]
        self.doc_keys = {v.id: _key("document", _said(v)) for v in versions}
        due_docs = {v.id for v in versions if not self._fresh(document_path(slugs[v.id]), self.doc_keys[v.id])}
        self.jobs: dict[str, PairJob] = {}
        for k, p in enumerate(self.chain):
            key = _key("pair", _said(p.old), _said(p.new), repr(arc.corrections.for_pair(p.old.id, p.new.id)))
            diff_rel, notes_rel = pair_paths(slugs[p.old.id], slugs[p.new.id])
            fresh = [self._fresh(rel, key) for rel in (diff_rel, notes_rel)]  # (both looked at: both are seen)
            # A pair's worker writes its new release's document, and the first pair's its old one's too.
            ends = [(0, p.old), (1, p.new)] if k == 0 else [(1, p.new)]
            docs = [(side, document_path(slugs[v.id]), self.doc_keys[v.id]) for side, v in ends if v.id in due_docs]
            due_docs -= {v.id for _, v in ends}
            if all(fresh) and docs:
                self.jobs[p.path] = (None, None, key, docs)
            elif not all(fresh):
                self.jobs[p.path] = (diff_rel, notes_rel, key, docs)
        self.left = due_docs  # documents no pair's worker writes (an archive of one release)

    def _fresh(self, rel: str, key: str) -> bool:
        return bool(self.w.fresh_if(rel, lambda stamped: stamped == key))

    def visits(self, pages: list[Page], todo: list[Page]) -> list[Page]:
        """The diff pages a worker visits: those to render (``todo``) and those with API files due, in order."""
        stale = {p.path for p in todo} | set(self.jobs)
        return [p for p in pages if p.path in stale]

    def job(self, p: Page) -> PairJob | None:
        return self.jobs.get(p.path)

    def expected(self, pages: Iterable[Page]) -> list[str]:
        """The files the workers will write for ``pages`` (noted in the journal before they start)."""
        out: list[str] = []
        for p in pages:
            job = self.jobs.get(p.path)
            if job is not None:
                out += [rel for rel in job[:2] if rel is not None] + [rel for _, rel, _ in job[3]]
        return out

    def took(self, written: list[Written]) -> None:
        for rel, key, wrote, digest in written:
            self.w.record(rel, key, wrote, digest)

    def finish(self, pages: list[Page], idx: RuleIndex, terms: list[dict[str, Any]], listing: list[Any]) -> None:
        """Write what no worker did: documents left, the release list and "latest" files, the glossary and
        keywords, the index of endpoints and the schemas. Called once the pages are written (their counts
        are known)."""
        arc, w, slugs = self.arc, self.w, self.slugs
        for vid in sorted(self.left):
            rel = document_path(slugs[vid])
            w.write(rel, compact(arc.versions.document(vid).as_dict()), self.doc_keys[vid])
        names = arc.names.all()
        labels = {v.id: v.label for v in self.versions}
        matched = arc.identifications.all().items()
        matches = {vid: i.release_label for vid, i in matched if i.matched and vid in labels}
        entries = release_entries(self.versions, slugs, pages, names, matches, document_path, pair_paths)
        self._put("api/releases.json", compact({"schema": "rulediff.releases/1", "releases": entries}))
        self._latest(entries)
        self._put("api/glossary.json", compact(glossary_file(terms)))
        self._put("api/keywords.json", compact(keywords_file(arc, idx, listing)))
        schemas = schema_texts()
        for name, text in schemas.items():
            self._put(f"api/schemas/{name}", text)
        self._put("api/index.json", compact(endpoints(schemas)))

    def _put(self, rel: str, text: str) -> None:
        """Write a file made afresh each build unless it is as written before (kept by its text's digest)."""
        key = _key("text", hashlib.sha1(text.encode()).hexdigest())
        if not self._fresh(rel, key):
            self.w.write(rel, text, key)

    def _latest(self, entries: list[dict[str, Any]]) -> None:
        """api/latest.json (the newest release's entry) and the aliases of its document, diff and notes."""
        w = self.w
        if not entries:
            return
        newest = entries[0]
        paths = newest["paths"]
        aliases = {what: (LATEST[what] if paths[what] else None) for what in LATEST}
        self._put("api/latest.json", compact({"schema": "rulediff.latest/1", "release": newest, "aliases": aliases}))
        for what, alias in aliases.items():
            if alias is None:
                continue
            source = paths[what]
            key = "alias " + str(w.stamps.get(source))
            if not self._fresh(alias, key):
                w.write(alias, (w.root / source).read_text("utf-8"), key)


def schema_texts() -> dict[str, str]:
    """The JSON Schemas shipped with rulediff (rulediff/data/schemas), by file name."""
    folder = resources.files("rulediff.data").joinpath("schemas")
    files = sorted((p for p in folder.iterdir() if p.name.endswith(".json")), key=lambda p: p.name)
    return {p.name: p.read_text("utf-8") for p in files}
