"""The whole rules of every release on the site: cr/<slug>/, its history links and data, cr/latest/, compare."""

# The whole Comprehensive Rules of every release, as the site's cr/ folder: per release, an index page (introduction
# and contents), a page per section, the glossary with the credits, history.html (each rule's history page), and the
# data its scripts read (reader_data.py); cr/index.html lists the releases, cr/latest/ leads to the newest, and
# compare.html compares any two. A release's pages are made again only when the release or the code changes:
# nothing on them names another release (the release switcher reads cr/releases.js), and a rule links to its history
# through history.html, which alone follows history pages that move.

from __future__ import annotations

import hashlib
from itertools import repeat
from operator import itemgetter
from typing import Any

from markupsafe import Markup

from ..archive import Archive, VersionRow
from ..render.templating import asset, made_by
from .compare import write_compare
from .reader_body import rule_ids
from .reader_data import TextPlan, nodes_script, releases_script, texts_script, write_keyed
from .reader_pages import release_pages
from .reader_text import esc
from .rule_index import Row, RuleIndex
from .step_cache import StoredParts
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
    pages: bool = True,
) -> None:
    """Write cr/ and compare.html (see the module's comment); ``parts`` keeps the rules of the last release
    rendered, as rendered, for the next build. ``pages``: each release's own pages too (else the caller writes
    them, see reader_pages.release_pages)."""
    if pages:
        with release_pages(arc, versions, names, idx, w, parts):
            write_reader(arc, versions, names, idx, w, env, parts, pages=False)
        return
    _data_files(arc, versions, names, idx, w)
    for v in versions:
        _history_links(v, f"cr/{names[v.id]}/", idx.rows[v.id], idx, w, env)
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
    # The splits and merges touching a lineage of the timeline, read at once (not a query per lineage).
    lins = idx.by_lineage
    edges = sorted({(a, b, kind) for a, b, _, kind in arc.lineages.all_edges() if a in lins or b in lins})
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
