"""The pages of each release under cr/: rendered here, or by a worker while this process writes other pages."""

# The pages of each release under cr/<slug>/ (its index, a page per section, the glossary with the credits), made
# again only when the release or the code changes. A full build has every release's to make, seconds of rendering
# that came once the rest of the site was done, on one core: they are rendered by a worker meanwhile, as this
# process writes the history pages and the rest of cr/ (``release_pages``). Adding a release makes a release's
# pages or two: rendered here, where starting a worker would cost more than it saves.

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from markupsafe import Markup

from ..archive import Archive, VersionRow
from ..render.templating import environment, made_by
from ..support.gc_pause import paused
from ..support.worker_pool import pool as worker_pool
from .reader_body import GLOSSARY_PAGE, INDEX_PAGE, Body, Release, Renderer, yawgatog_id
from .reader_text import Filler, Terms, esc
from .rule_index import Row, RuleIndex
from .step_cache import StoredParts, part_key
from .writer import Mine, SiteWriter, digest_of, write_if_changed

# Up to this many releases due, their pages are rendered here, after the block (adding a release: one or two).
FEW_RELEASES = 8

# A release whose pages are due: the release, its folder's name, the key of its pages, its rules in order.
Due = tuple[VersionRow, str, str, list[Row]]
# A page rendered: (path, HTML, stamp).
Put = Callable[[str, str, str], None]
# A page a worker wrote, or found as it was: (path, stamp, whether it was written, the digest of its bytes).
Wrote = tuple[str, str, bool, str]


@contextmanager
def release_pages(
    arc: Archive, versions: list[VersionRow], names: dict[int, str], idx: RuleIndex, w: SiteWriter, parts: StoredParts
) -> Iterator[None]:
    """Write the pages of every release not already written from what it is made of now: by a worker while the
    block runs, when more than FEW_RELEASES are due; here once it has run, otherwise. ``parts`` keeps the rules
    of the last release rendered, as rendered, for the next build."""
    due = _due(versions, names, idx, w)
    if not due:
        yield
        return
    # The rules of the release an earlier build rendered last: a release added after it renders only what changed.
    kept = part_key("reader", [made_by()])
    state = parts.get_json(kept)
    if len(due) <= FEW_RELEASES:
        yield
        state = render_releases(arc, due, state, environment(), w.write)
    else:
        folders = tuple(f"cr/{slug}/" for _, slug, _, _ in due)
        proof = w.proof(rel for rel in w.known if rel.startswith(folders))
        with worker_pool(1, spawn=True) as pool:
            job = pool.submit(render_apart, str(arc.path), arc.identity, str(w.root), due, proof, w.force, state)
            yield
            state, wrote = job.result()
        for rel, stamp, written, digest in wrote:
            w.record(rel, stamp, written, digest)
    parts.put(kept, json.dumps(state, separators=(",", ":")))


def _due(versions: list[VersionRow], names: dict[int, str], idx: RuleIndex, w: SiteWriter) -> list[Due]:
    """The releases whose pages are not all as written from what they are made of now, in release order."""
    due = []
    for v in versions:
        slug = names[v.id]
        folder = f"cr/{slug}/"
        key = _page_key(v, slug)
        kept = w.stamps.get(folder + INDEX_PAGE, "")
        head, _, listed = kept.partition(" ")
        made = listed.split(" ") if head == key else []
        if not made or not all(w.fresh_if(folder + p, kept.__eq__) for p in made):
            due.append((v, slug, key, idx.rows[v.id]))
    return due


def _page_key(v: VersionRow, slug: str) -> str:
    """What a release's pages are made from: the code and templates, and the release (its bytes, id and label)."""
    return hashlib.sha1(json.dumps([made_by(), v.id, v.sha256, v.label, slug]).encode()).hexdigest()


def render_apart(
    archive: str,
    identity: tuple[int, int],
    root: str,
    due: list[Due],
    proof: dict[str, list[str] | None],
    force: bool,
    state: Any,
) -> tuple[dict[str, Any], list[Wrote]]:
    """Worker: write the pages of the releases ``due`` (see ``render_releases``) from the archive the build has
    open (``identity``); what the renderer kept, and each page as written."""
    checked: dict[str, Path] = {}
    mine = Mine(Path(root), proof, force)
    wrote: list[Wrote] = []

    def put(rel: str, html: str, stamp: str) -> None:
        digest = digest_of(html.encode("utf-8"))
        wrote.append((rel, stamp, write_if_changed(Path(root), rel, html, checked, mine.before(digest)), digest))

    with Archive.open_again(archive, identity) as arc:
        kept = render_releases(arc, due, state, environment(), put)
    return kept, wrote


def render_releases(arc: Archive, due: list[Due], state: Any, env: Any, put: Put) -> dict[str, Any]:
    """Render the pages of the releases ``due``, in release order (a rule printed as the release before printed
    it is rendered once), going on from the renderer's ``state`` an earlier build kept; each page to ``put``.
    What the renderer keeps of the last release, for the next build."""
    # Every term any release defines is where a text may name one (which it links is the release's own).
    renderer = Renderer(Terms(arc.texts.glossary_terms()))
    renderer.restore(state)
    template = env.get_template("cr_page.html.j2")
    contents: dict[int, tuple[str, list[str]]] = {}
    # The collector held off: a release's rules and their HTML are many objects that outlive the loop, in no cycle.
    with paused():
        for v, slug, key, rows in due:
            need = {row[4] for row in rows}
            contents = {b: contents[b] for b in need if b in contents}  # the texts this release prints, no more
            contents.update(arc.texts.body_contents(need - contents.keys()))
            front = arc.versions.load(v.id, " AND 0", (), glossary=True)  # introduction, glossary, credits, coverage
            rel = Release(
                [(n, title, *contents[body]) for _, _, n, title, body in rows],
                [(g.term, g.text) for g in front.glossary],
                front.introduction,
                front.credits,
                None if front.coverage.complete else (front.coverage.description or "part of the rules"),
            )
            body = renderer.render(rel)
            made = [INDEX_PAGE, *sorted(body.pages)]
            stamp = f"{key} {' '.join(made)}"
            for name, html in _framed(rel, v, slug, body, template, renderer).items():
                put(f"cr/{slug}/{name}", html, stamp)
    return renderer.state()


def _framed(doc: Release, v: VersionRow, slug: str, body: Body, template: Any, renderer: Renderer) -> dict[str, str]:
    """Each page of a release in the frame every page shares: the index (introduction and contents) first, the
    sections in order, the glossary (with the credits)."""
    sections = sorted(p for p in body.pages if p != GLOSSARY_PAGE)  # "1.html" .. "9.html", then "unnumbered.html"
    order = [INDEX_PAGE, *sections, GLOSSARY_PAGE]
    titles = {page: title for page, number, title in body.contents if len(number) == 1}
    out = {}
    filler = Filler(renderer.anchors, renderer.gloss, INDEX_PAGE, GLOSSARY_PAGE)
    for k, name in enumerate(order):
        heading: str | None = None  # a section's page opens with the section's own heading
        if name == INDEX_PAGE:
            html = Markup(_index(doc, body, filler, renderer.terms))
            title = heading = f"Magic: The Gathering Comprehensive Rules, {v.label}"
        elif name == GLOSSARY_PAGE:
            html = Markup(body.pages[name] + _credits(doc))
            title = heading = "Glossary"
        else:
            html = Markup(body.pages.get(name, ""))
            title = f"{name[0]}. {titles.get(name, '')}".strip() if name[0].isdigit() else "Rules without numbers"
            if name not in titles:  # a source without the section's own line (a partial dump)
                heading = title
        out[name] = template.render(
            label=v.label,
            slug=slug,
            page=name,
            title=title,
            heading=heading,
            body=html,
            prev_page=order[k - 1] if k else None,
            next_page=order[k + 1] if k + 1 < len(order) else None,
            partial=doc.partial,
        )
    return out


def _index(doc: Release, body: Body, f: Filler, terms: Terms) -> str:
    out = ['<section id="introduction"><h2>Introduction</h2>\n']
    out.extend(f"<p>{f.fill(terms.cut(p, False))}</p>\n" for p in doc.introduction.split("\n") if p.strip())
    out.append('</section>\n<section id="contents"><h2>Contents</h2>\n<ul class="contents">\n')
    for page, number, title in body.contents:
        ident = yawgatog_id(number)
        cls = ' class="sec"' if len(number) == 1 else ""
        out.append(f'<li{cls}><a href="{page}#{ident}">{number}. {esc(title)}</a></li>\n')
    out.append(f'<li class="sec"><a href="{GLOSSARY_PAGE}">Glossary</a></li>\n')
    out.append(f'<li class="sec"><a href="{GLOSSARY_PAGE}#credits">Credits</a></li>\n</ul></section>\n')
    return "".join(out)


def _credits(doc: Release) -> str:
    lines = "".join(f"<p>{esc(p)}</p>\n" for p in doc.credits.split("\n") if p.strip())
    return f'<section id="credits"><h2>Credits</h2>\n{lines}</section>\n'
