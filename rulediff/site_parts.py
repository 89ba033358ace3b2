"""Rendered steps of the site's history and glossary pages, kept in the archive by what they show, with holes
where they link: one new release changes a page's header and its last step, and every earlier step is
reused as it was rendered, its links filled in afresh (a rule's page address can move)."""

from __future__ import annotations

import functools
import hashlib
import json
import re
import zlib
from collections.abc import Callable
from pathlib import Path
from typing import Any

from markupsafe import Markup, escape

from .archive import Archive
from .links import Linker, linker
from .numbering import find_references
from .templating import template_dir
from .timeline import Edit, Stretch, edit_engine, work_out

# A link to a rule's page: the targets it may name, then the (escaped) reference text it wraps. Escaped text
# never holds "<", so no rule text can forge a hole, whatever characters it carries.
_HOLE = re.compile("<\x01([^\x02<]*)\x02>([^<]*)<\x03>")
# Where a history step's link into its release's diff page goes (the anchor is known once that page exists).
DIFF_HOLE = Markup("<\x04>")
_TARGETS = "\x1f"

# The code a stored step depends on besides the edit engine: a change to any of these renders steps afresh.
# A step is rendered here from exactly what its key holds, so the pages' own modules are not among them.
PART_MODULES = ("site_parts.py", "links.py")
PART_TEMPLATES = ("history_step.html.j2", "glossary_step.html.j2")


@functools.cache
def part_engine() -> str:
    """Names the code that renders steps (and the code that works out their edits)."""
    here = Path(__file__).resolve().parent
    h = hashlib.sha256(edit_engine().encode())
    for path in [*(here / m for m in PART_MODULES), *(template_dir() / t for t in PART_TEMPLATES)]:
        h.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
    return h.hexdigest()[:16]


def part_key(kind: str, fields: list[Any]) -> str:
    """The key of a rendered step: everything it shows but its links' addresses."""
    return hashlib.blake2b(json.dumps([kind, *fields]).encode(), digest_size=16).hexdigest()


def holed(text: str) -> Markup | None:
    """``text`` escaped, every reference in it a hole to fill with its rule's address; None when two
    references overlap (the linker's choice between them depends on which addresses exist)."""
    if not text or not any(map(str.isdigit, text)):
        return escape(text)
    out: list[str] = []
    pos = 0
    for ref in find_references(text):
        if ref.start < pos:
            return None
        out.append(escape(text[pos : ref.start]))
        targets = _TARGETS.join(str(t) for t in ref.targets)
        out.append(f"<\x01{targets}\x02>{escape(text[ref.start : ref.end])}<\x03>")
        pos = ref.end
    out.append(escape(text[pos:]))
    return Markup("".join(out))


class HoleLinker:
    """The linker a stored step is rendered with: references become holes. ``ok`` turns False when a text
    cannot be holed; the step is then rendered with its addresses and not stored."""

    def __init__(self, fallback: Linker) -> None:
        self.fallback = fallback
        self.ok = True

    def __call__(self, text: str) -> Markup:
        got = holed(text)
        if got is None:
            self.ok = False
            return self.fallback(text)
        return got


def fill(part: str, url_of: Callable[[str], str | None], diff_href: str | None = None) -> str:
    """A stored step with its links filled in, as the linker would have written them: each reference links
    to the first of its targets that has a page, or stays text."""
    if "<\x01" in part:

        def link(m: re.Match[str]) -> str:
            for target in m.group(1).split(_TARGETS):
                url = url_of(target)
                if url:
                    return f'<a class="ref" href="{escape(url)}">{m.group(2)}</a>'
            return m.group(2)

        part = _HOLE.sub(link, part)
    if diff_href is not None:
        part = part.replace(DIFF_HOLE, str(escape(diff_href)))
    return part


def history_step(
    template: Any,
    s: Stretch,
    k: int,
    to: str | None,
    diff_page: bool,
    url_of: Callable[[str], str | None],
    memo: StoredEdits | None,
    parts: StoredParts | None,
) -> str:
    """Step ``k`` of a rule's history page, running to ``to`` (None: to today), with a hole for its link
    into its release's diff page when it has one (``diff_page``); read back when rendered before.
    ``url_of`` gives the addresses of rules its references name, for a text that cannot be holed."""
    key = part_key(
        "history",
        [k, s.first.label, to, s.number, s.name, s.change, s.previous, s.link, diff_page, s.before, s.text],
    )
    part = parts.get(key) if parts is not None else None
    if part is None:
        work_out(s, memo)
        link = HoleLinker(linker(url_of))
        view = {
            "from": s.first.label,
            "to": to,
            "number": s.number,
            "title": s.name,
            "change": s.change,
            "nature": s.nature,
            "previous": s.previous,
            "quiet": s.quiet,
            "via": s.link,
            "text": s.text,
            "diff": s.diff,
            "diff_link": DIFF_HOLE if diff_page else None,
            "link": link,
        }
        part = template.render(s=view, index=k, first=k == 1)
        if parts is not None and link.ok:
            parts.put(key, part)
    return part


def glossary_step(
    template: Any,
    s: Stretch,
    k: int,
    to: str | None,
    diff_link: str | None,
    url_of: Callable[[str], str | None],
    memo: StoredEdits | None,
    parts: StoredParts | None,
) -> str:
    """Step ``k`` of a glossary term's page (see ``history_step``); ``diff_link`` is its release's glossary."""
    key = part_key("glossary", [k, s.first.label, to, s.name, s.change, s.previous, diff_link, s.before, s.text])
    part = parts.get(key) if parts is not None else None
    if part is None:
        work_out(s, memo)
        link = HoleLinker(linker(url_of))
        view = {
            "from": s.first.label,
            "to": to,
            "term": s.name,
            "change": s.change,
            "nature": s.nature,
            "previous": s.previous,
            "quiet": s.quiet,
            "text": s.text,
            "diff": s.diff,
            "diff_link": diff_link,
            "link": link,
        }
        part = template.render(s=view, index=k)
        if parts is not None and link.ok:
            parts.put(key, part)
    return part


class StoredParts:
    """Steps rendered by earlier builds (read on first use) and the ones this build renders (saved after)."""

    def __init__(self, arc: Archive) -> None:
        self.arc = arc
        self.engine = part_engine()
        self.known: dict[str, bytes] | None = None
        self.new: dict[str, bytes] = {}

    def get(self, key: str) -> str | None:
        if self.known is None:
            self.known = self.arc.site_parts(self.engine)
        data = self.known.get(key) or self.new.get(key)
        return zlib.decompress(data).decode() if data is not None else None

    def put(self, key: str, part: str) -> None:
        self.new[key] = zlib.compress(part.encode(), 1)

    def save(self) -> None:
        if self.new:
            self.arc.store_site_parts(self.engine, self.new)


class StoredEdits:
    """The edits (nature and word diff) earlier builds kept in the archive and those this build works out:
    a step rendered afresh (its release relabelled, its stretch grown) is not diffed again. Only the keys
    are read up front; an edit is read when asked for."""

    def __init__(self, arc: Archive) -> None:
        self.arc = arc
        self.engine = edit_engine()
        self.known: set[str] | None = None
        self.new: dict[str, bytes] = {}

    def get(self, key: str) -> Edit | None:
        if self.known is None:
            self.known = self.arc.edit_keys(self.engine)
        if key in self.new:
            return self.arc.decode_edit(self.new[key])
        return self.arc.edit(key, self.engine) if key in self.known else None

    def put(self, key: str, edit: Edit) -> None:
        # Kept encoded: a whole build's edits as objects would weigh far more than their compressed rows.
        self.new[key] = self.arc.encode_edit(edit)

    def save(self) -> None:
        """Store the new edits (outside the snapshot the pages were read in)."""
        if self.new:
            self.arc.store_edits(self.engine, self.new)
