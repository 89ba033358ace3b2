"""A link checker over a built site: every href, src and #anchor resolves from file:// (no server)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from urllib.parse import unquote, urlsplit

from lxml import html

# The attributes that lead somewhere a reader (or the browser) follows.
_LINKING = (("a", "href"), ("link", "href"), ("script", "src"), ("img", "src"), ("form", "action"), ("area", "href"))
_EXTERNAL = ("http", "https", "mailto", "javascript", "data")


class Site:
    """The pages of a site read once: their ids, and their links."""

    def __init__(self, root: Path) -> None:
        self.root = root.resolve()
        self.ids: dict[Path, set[str]] = {}
        self.links: dict[Path, list[str]] = {}
        for page in sorted(self.root.rglob("*.html")):
            tree = html.fromstring(page.read_bytes())
            self.ids[page] = {str(x) for x in tree.xpath("//@id")} | {str(x) for x in tree.xpath("//a/@name")}
            self.links[page] = [str(x) for tag, attr in _LINKING for x in tree.xpath(f"//{tag}/@{attr}")]

    def resolve(self, page: Path, href: str) -> str | None:
        """None when ``href`` (on ``page``) leads to a file of the site and, with a #fragment, to an id there;
        otherwise what is wrong."""
        parts = urlsplit(href)
        if parts.scheme in _EXTERNAL or parts.netloc:
            return None
        if parts.scheme or parts.query:
            return f"{href!r}: a scheme or query file:// does not serve"
        target = page if not parts.path else (page.parent / unquote(parts.path)).resolve()
        if not target.is_relative_to(self.root):
            return f"{href!r}: leads outside the site"
        if not target.is_file():
            return f"{href!r}: no such file ({target.relative_to(self.root)})"
        if parts.fragment:
            ids = self.ids.get(target)
            if ids is None:
                ids = self.ids[target] = _ids_of(target)
            if unquote(parts.fragment) not in ids:
                return f"{href!r}: no id {parts.fragment!r} in {target.relative_to(self.root)}"
        return None

    def search_index_links(self) -> list[str]:
        """The addresses the search page's index gives each hit (relative to the site's root)."""
        index = self.root / "search-index.js"
        if not index.is_file():
            return []
        text = index.read_text(encoding="utf-8")
        data = json.loads(text[text.index("{") : text.rindex("}") + 1])
        return [str(e[2]) for e in data.get("entries", [])]


def _ids_of(path: Path) -> set[str]:
    if path.suffix != ".html":
        return set()
    tree = html.fromstring(path.read_bytes())
    return {str(x) for x in tree.xpath("//@id")} | {str(x) for x in tree.xpath("//a/@name")}


def broken_links(root: Path) -> list[str]:
    """Every link of the site at ``root`` that does not resolve, as "page: href: what is wrong"."""
    site = Site(root)
    out: list[str] = []
    for page, hrefs in site.links.items():
        for href in sorted(set(hrefs)):
            wrong = site.resolve(page, href)
            if wrong is not None:
                out.append(f"{page.relative_to(site.root)}: {wrong}")
    search = site.root / "search.html"
    for href in sorted(set(site.search_index_links())):
        wrong = site.resolve(search, href)
        if wrong is not None:
            out.append(f"search-index.js: {wrong}")
    return out


_KIND = re.compile(r": (no such file|no id|leads outside|a scheme)")


def summary(found: list[str]) -> dict[str, int]:
    """How many broken links of each kind (a missing file, a missing anchor, ...)."""
    counts: dict[str, int] = {}
    for line in found:
        m = _KIND.search(line)
        key = m.group(1) if m else "other"
        counts[key] = counts.get(key, 0) + 1
    return counts
