"""The whole rules of every release on the site: cr/<slug>/, its history links and data, cr/latest/, compare."""

# The whole Comprehensive Rules of every release, as the site's cr/ folder: per release, an index page (introduction
# and contents), a page per section, the glossary with the credits, history.html (each rule's history page), and the
# data its scripts read (reader_data.py); cr/index.html lists the releases, cr/latest/ leads to the newest, and
# compare.html compares any two. A release's pages are made again only when the release or the code changes:
# nothing on them names another release (the release switcher reads cr/releases.js), and a rule links to its history
# through history.html, which alone follows history pages that move.

from __future__ import annotations

import hashlib
import json
from itertools import repeat
from operator import itemgetter
from typing import Any

from markupsafe import Markup

from ..archive import Archive, VersionRow
from ..render.templating import asset, made_by
from .compare import write_compare
from .reader_body import GLOSSARY_PAGE, INDEX_PAGE, Body, Release, Renderer, rule_ids, yawgatog_id
from .reader_data import TextPlan, nodes_script, releases_script, texts_script, write_keyed
from .reader_text import Filler, Terms, esc
from .rule_index import Row, RuleIndex
from .step_cache import StoredParts, part_key
from .writer import SiteWriter

HISTORY_PAGE = "history.html"


def write_reader(
    arc: Archive,
    versions: list[VersionRow],
    names: dict[int, str],
    idx: RuleIndex,
    w: SiteWriter,
    env: Any,
    parts: StoredParts,
) -> None:
    """Write cr/ and compare.html (see the module's comment); ``parts`` keeps the rules of the last release
    rendered, as rendered, for the next build."""
    _data_files(arc, versions, names, idx, w)
    for v in versions:
        _history_links(v, f"cr/{names[v.id]}/", idx.rows[v.id], idx, w, env)
    _release_pages(arc, versions, names, idx, w, env, parts)
    write_keyed(w, "cr/reader.css", asset("reader.css"))
    write_keyed(w, "cr/reader.js", asset("cr_data.js") + asset("reader.js"))
    write_keyed(w, "history.js", asset("history.js"))  # the history pages' date form
    listing = [
        {"slug": names[v.id], "label": v.label, "date": v.in_force_from, "rules": v.rule_count} for v in versions
    ]
    write_keyed(w, "cr/index.html", env.get_template("cr_index.html.j2").render(releases=listing[::-1]))
    newest = names[versions[-1].id] if versions else None
    write_keyed(w, "cr/latest/index.html", env.get_template("cr_latest.html.j2").render(newest=newest))
    write_compare(versions, names, w, env)


def _data_files(arc: Archive, versions: list[VersionRow], names: dict[int, str], idx: RuleIndex, w: SiteWriter) -> None:
    """Each release's nodes.js and texts.js, and cr/releases.js. What they hold follows from the releases in
    order (a release's rules, the ids of their texts, the release before it) and the lineages: their keys say so
    at C speed, and the texts' plan is worked out only when a file is to be written."""
    plans: list[TextPlan] = []

    def plan() -> TextPlan:
        if not plans:
            plans.append(TextPlan.of(versions, idx.rows))
        return plans[0]

    chain = hashlib.sha1(made_by().encode())
    for k, v in enumerate(versions):
        folder, rows, slug = f"cr/{names[v.id]}/", idx.rows[v.id], names[v.id]
        chain.update(v.sha256.encode())
        upto = chain.hexdigest()  # the releases up to this one, in order
        key = hashlib.sha1(repr([upto, slug, list(map(itemgetter(0), rows))]).encode()).hexdigest()
        if not w.fresh_if(folder + "nodes.js", key.__eq__):
            w.write(folder + "nodes.js", nodes_script(slug, rows, plan().ids), key)
        if not w.fresh_if(folder + "texts.js", upto.__eq__):
            held = plan().files[k]
            got = arc.texts.body_contents(held)
            texts = ["\n".join([got[b][0], *got[b][1]]) for b in held]
            w.write(folder + "texts.js", texts_script([plan().ids[b] for b in held], texts), upto)
    edges = sorted({(a, b, kind) for lin in idx.by_lineage for a, b, _, kind in arc.lineages.edges(lin)})
    said = [chain.hexdigest(), [(names[v.id], v.label, v.in_force_from) for v in versions], sorted(idx.complete), edges]
    key = hashlib.sha1(repr(said).encode()).hexdigest()
    if not w.fresh_if("cr/releases.js", key.__eq__):
        pages = {v.id: "".join(sorted({n[:1] for n in set(map(itemgetter(2), idx.rows[v.id])) if n})) for v in versions}
        w.write("cr/releases.js", releases_script(versions, names, pages, idx.complete, edges), key)


def _history_links(v: VersionRow, folder: str, rows: list[Row], idx: RuleIndex, w: SiteWriter, env: Any) -> None:
    """cr/<slug>/history.html: every rule of the release, each leading to its history page (its script goes
    there at once). Made again only when a page it leads to moves."""
    paths = idx.paths
    # (asked of every release every build: worked out at C speed)
    lins, numbers = list(map(itemgetter(0), rows)), list(map(itemgetter(2), rows))
    said = [made_by(), v.label, repr(numbers), "\0".join(map(paths.get, lins, repeat("")))]
    key = hashlib.sha1("\1".join(said).encode()).hexdigest()
    rel = folder + HISTORY_PAGE
    if w.fresh_if(rel, key.__eq__):
        return
    ids = rule_ids([(n, title) for _, _, n, title, _ in rows])
    items = "".join(
        f'<li id="{i}"><a href="../../{esc(paths[lin])}">{esc(n or title or "")}</a></li>\n'
        if lin in paths
        else f'<li id="{i}">{esc(n or title or "")}</li>\n'
        for i, (lin, _, n, title, _) in zip(ids, rows, strict=True)
    )
    page = env.get_template("cr_history.html.j2").render(label=v.label, items=Markup(items))
    w.write(rel, page, key)


def _page_key(v: VersionRow, slug: str) -> str:
    """What a release's pages are made from: the code and templates, and the release (its bytes, id and label)."""
    return hashlib.sha1(json.dumps([made_by(), v.id, v.sha256, v.label, slug]).encode()).hexdigest()


def _release_pages(
    arc: Archive,
    versions: list[VersionRow],
    names: dict[int, str],
    idx: RuleIndex,
    w: SiteWriter,
    env: Any,
    parts: StoredParts,
) -> None:
    """The pages of every release not already written from what it is made of now, in release order (a rule
    printed as the release before printed it is rendered once)."""
    todo = []
    for v in versions:
        folder = f"cr/{names[v.id]}/"
        key = _page_key(v, names[v.id])
        kept = w.stamps.get(folder + INDEX_PAGE, "")
        head, _, listed = kept.partition(" ")
        made = listed.split(" ") if head == key else []
        if not made or not all(w.fresh_if(folder + p, kept.__eq__) for p in made):
            todo.append((v, folder, key))
    if not todo:
        return
    # Every term any release defines is where a text may name one (which it links is the release's own).
    renderer = Renderer(Terms(arc.texts.glossary_terms()))
    # The rules of the release an earlier build rendered last: a release added after it renders only what changed.
    kept = part_key("reader", [made_by()])
    renderer.restore(parts.get_json(kept))
    template = env.get_template("cr_page.html.j2")
    contents: dict[int, tuple[str, list[str]]] = {}
    for v, folder, key in todo:
        rows = idx.rows[v.id]
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
        for name, html in _framed(rel, v, names[v.id], body, template, renderer).items():
            w.write(folder + name, html, stamp)
    parts.put(kept, json.dumps(renderer.state(), separators=(",", ":")))


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
