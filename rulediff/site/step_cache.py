"""Rendered steps of the history and glossary pages, kept by what they show, holes where they link."""

# Rendered steps of the site's history and glossary pages, kept in the archive by what they show, with holes where
# they link: one new release changes a page's header and its last step, and every earlier step is reused as it was
# rendered, its links filled in afresh (a rule's page address can move).

from __future__ import annotations

import functools
import hashlib
import json
import re
import zlib
from collections.abc import Callable
from typing import Any

from markupsafe import Markup, escape

from ..archive import Archive
from ..errors import DamagedArchiveError
from ..history.timeline import Stretch, work_out
from ..references import find_references
from ..support.code_digest import sources_digest
from ..words.diff import Op
from ..words.edits import Edit, edit_engine

# A link to a rule's page as a stored step holds it: an anchor naming the rule numbers it may lead to (the first
# that has a page wins), around its escaped reference text; ``fill`` gives it its address. Holes are made by
# Markup's escaping format and escaped text never holds "<", so no rule text can forge one.
_REF_HOLE = Markup('<a class="ref" data-targets="{}">{}</a>')
_HOLE = re.compile('<a class="ref" data-targets="([^"<]*)">([^<]*)</a>')
_HOLE_START = '<a class="ref" data-targets="'
# Where a history step's link into its release's diff page goes (the anchor is known once that page exists).
DIFF_HOLE = Markup("<diff-link>")

# The code a stored step depends on besides the edit engine: a change to any of these renders steps afresh.
# A step is rendered here from exactly what its key holds, so the pages' own modules are not among them.
PART_MODULES = ("rulediff.site.step_cache",)


@functools.cache
def part_engine() -> str:
    """Names the code that renders steps (and the code that works out their edits)."""
    return sources_digest(PART_MODULES, seed=edit_engine())[:16]


def part_key(kind: str, fields: list[str | int | bool | None]) -> str:
    """The key of a rendered step: everything it shows but its links' addresses (``repr`` tells every
    string, number, bool and None apart)."""
    return hashlib.blake2b(repr((kind, *fields)).encode(), digest_size=16).hexdigest()


@functools.lru_cache(maxsize=1 << 12)  # a step's unchanged lines are the next step's: the same texts again
def holed(text: str) -> Markup:
    """``text`` escaped, every reference in it a hole to fill with its rule's address (references never
    overlap: see numbering.find_references)."""
    if not text or not any(map(str.isdigit, text)):
        return escape(text)
    out: list[str] = []
    pos = 0
    for ref in find_references(text):
        out.append(escape(text[pos : ref.start]))
        out.append(_REF_HOLE.format(" ".join(str(t) for t in ref.targets), text[ref.start : ref.end]))
        pos = ref.end
    out.append(escape(text[pos:]))
    return Markup("".join(out))


def fill(part: str, url_of: Callable[[str], str | None], diff_href: str | None = None) -> str:
    """A stored step with its links filled in, as the linker would have written them: each reference links
    to the first of its targets that has a page, or stays text."""
    if _HOLE_START in part:

        def link(m: re.Match[str]) -> str:
            for target in m.group(1).split(" "):
                url = url_of(target)
                if url:
                    return f'<a class="ref" href="{escape(url)}">{m.group(2)}</a>'
            return m.group(2)

        part = _HOLE.sub(link, part)
    if diff_href is not None:
        part = part.replace(DIFF_HOLE, str(escape(diff_href)))
    return part


def history_step(
    s: Stretch, k: int, to: str | None, diff_page: bool, memo: StoredEdits | None, parts: StoredParts | None
) -> str:
    """Step ``k`` of a rule's history page, running to ``to`` (None: to today), with a hole for its link
    into its release's diff page when it has one (``diff_page``); read back when rendered before."""
    key = part_key(
        "history",
        [k, s.first.label, to, s.number, s.name, s.change, s.previous, s.link, diff_page, s.before, s.text],
    )

    def render() -> str:
        work_out(s, memo)
        out = _when(k, s, to)
        out.append(f"{escape(s.number or '(unnumbered)')}")
        if s.name and s.number and "." not in s.number:
            out.append(f" {escape(s.name)}")
        out.append(_badges(s))
        if s.link:
            out.append(f' <span class="badge via">{escape(s.link)}</span>')
        if diff_page:
            what = "added in this release" if k == 1 else "this release&#39;s changes"
            out.append(f' <a class="release" href="{DIFF_HOLE}">{what}</a>')
        return _body(out, s)

    return _stored(parts, key, render)


def glossary_step(
    s: Stretch, k: int, to: str | None, diff_link: str | None, memo: StoredEdits | None, parts: StoredParts | None
) -> str:
    """Step ``k`` of a glossary term's page (see ``history_step``); ``diff_link`` is its release's glossary."""
    key = part_key(
        "glossary", [k, s.first.label, to, s.name, s.change, s.previous, s.link, diff_link, s.before, s.text]
    )

    def render() -> str:
        work_out(s, memo)
        out = _when(k, s, to)
        out.append(f"{escape(s.name)}\n")
        out.append(_badges(s))
        if s.link:
            out.append(f' <span class="badge via">{escape(s.link)}</span>')
        if diff_link:
            out.append(f' <a class="release" href="{escape(diff_link)}">this release\'s changes</a>')
        return _body(out, s)

    return _stored(parts, key, render)


def _stored(parts: StoredParts | None, key: str, render: Callable[[], str]) -> str:
    """The step stored under ``key``, or rendered (its edit worked out) and stored."""
    part = parts.get(key) if parts is not None else None
    if part is None:
        part = render()
        if parts is not None:
            parts.put(key, part)
    return part


# The markup of a step, for history and glossary pages alike (tests/test_site_parts.py holds it to the Jinja
# templates it was first written as): rendered here, without a template engine, because a full build renders
# some 30,000 steps.


def _when(k: int, s: Stretch, to: str | None) -> list[str]:
    """The opening of a step, up to the name it goes by."""
    quiet = " quiet" if s.quiet else ""
    out = [f'<li id="s{k}" class="step{quiet}"><p class="when"><strong>{escape(s.first.label)}</strong>']
    if to is None:
        out.append(" &#8211; today")
    elif to != s.first.label:
        out.append(f" &#8211; {escape(to)}")
    out.append(": ")
    return out


def _badges(s: Stretch) -> str:
    out = f'<span class="badge">{escape(s.change)}'
    if s.previous:
        out += f" from {escape(s.previous)}"
    out += "</span>"
    if s.nature and s.nature != "substantive":
        out += f' <span class="badge nature">{escape(s.nature.replace("_", " "))}</span>'
    return out


def _body(out: list[str], s: Stretch) -> str:
    """The rest of a step: its text, with the word diff of the edit that starts it."""
    out.append("</p>\n")
    if s.quiet:
        out.append(f"<details><summary>show the change ({escape((s.nature or '').replace('_', ' '))})</summary>")
    out.append('<p class="diff whole">')
    if s.diff:
        for p in s.diff:
            if p.op == Op.INSERT:
                out.append(f"<ins>{holed(p.text)}</ins>")
            elif p.op == Op.DELETE:
                out.append(f"<del>{escape(p.text)}</del>")
            elif p.op == Op.MUTED:
                out.append(f'<span class="muted" title="was: {escape(p.old)}">{holed(p.text)}</span>')
            else:
                out.append(holed(p.text))
    else:
        out.append(holed(s.text))
    out.append("</p>\n")
    if s.quiet:
        out.append("</details>")
    out.append("</li>\n")
    return "".join(out)


class _NewEntries:
    """What a build's cache gained (``new``, encoded, by key), saved after the build: a worker gives it to
    the build's process, which takes it with its own."""

    new: dict[str, bytes]

    def take(self, entries: dict[str, bytes]) -> None:
        """Keep what another process worked out (``give``), saved with what was worked out here."""
        self.new.update(entries)

    def give(self) -> dict[str, bytes]:
        """In a worker: what was worked out since the last call, for the build to keep (``take``)."""
        out, self.new = self.new, {}
        return out


class StoredParts(_NewEntries):
    """Steps rendered by earlier builds and the ones this build renders (saved after). The first few asked
    for are read one by one (a build after adding a release asks for a few hundred, of some 36,000); past
    ``ONE_BY_ONE``, all are read at once."""

    ONE_BY_ONE = 2000

    def __init__(self, arc: Archive) -> None:
        self.arc = arc
        self.engine = part_engine()
        self.known: dict[str, bytes] | None = None
        self.asked = 0
        self.new: dict[str, bytes] = {}

    def get(self, key: str) -> str | None:
        data = self.new.get(key)
        if data is None and self.known is None and self.asked < self.ONE_BY_ONE:
            self.asked += 1
            data = self.arc.cache.part(key, self.engine)
        elif data is None:
            if self.known is None:
                self.known = self.arc.cache.parts(self.engine)
            data = self.known.get(key)
        if data is None:
            return None
        try:
            return zlib.decompress(data).decode()
        except (zlib.error, UnicodeDecodeError):
            return None  # a damaged entry of this cache: worked out again, as a missing one is

    def get_json(self, key: str) -> Any:
        """The kept value of ``key`` read as JSON; None when none is kept, or what is kept does not read."""
        got = self.get(key)
        if got is None:
            return None
        try:
            return json.loads(got)
        except (ValueError, RecursionError):
            return None

    def put(self, key: str, part: str) -> None:
        """Keep ``part`` (a rendered step, or what a build read off a page it wrote), saved with the steps."""
        self.new[key] = zlib.compress(part.encode(), 1)

    def save(self) -> None:
        if self.new:
            self.arc.cache.store_parts(self.engine, self.new)


class StoredEdits(_NewEntries):
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
            self.known = self.arc.cache.edit_keys(self.engine)
        if key in self.new:
            return self.arc.cache.unpack(self.new[key])
        if key not in self.known:
            return None
        try:
            return self.arc.cache.edit(key, self.engine)
        except DamagedArchiveError:
            return None  # a damaged entry of this cache: worked out again, as a missing one is

    def put(self, key: str, edit: Edit) -> None:
        # Kept encoded: a whole build's edits as objects would weigh far more than their compressed rows.
        self.new[key] = self.arc.cache.pack(edit)

    def save(self) -> None:
        """Store the new edits (outside the snapshot the pages were read in)."""
        if self.new:
            self.arc.cache.store_edits(self.engine, self.new)
