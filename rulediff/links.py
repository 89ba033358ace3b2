"""Rule references in rule text as links: each "see rule 704.5" points at the history page of the rule that
number named in that version."""

from __future__ import annotations

from collections.abc import Callable

from markupsafe import Markup, escape

from .numbering import find_references

Linker = Callable[[str], Markup]


def linker(url_of: Callable[[str], str | None]) -> Linker:
    """A function that escapes text and wraps every reference whose first target ``url_of`` knows in a link."""

    def link(text: str) -> Markup:
        if not text or not any(c.isdigit() for c in text):
            return escape(text)
        out: list[str] = []
        pos = 0
        for ref in find_references(text):
            url = next((u for u in (url_of(str(t)) for t in ref.targets) if u), None)
            if url is None or ref.start < pos:
                continue
            out.append(escape(text[pos : ref.start]))
            out.append(Markup('<a class="ref" href="{}">{}</a>').format(url, text[ref.start : ref.end]))
            pos = ref.end
        out.append(escape(text[pos:]))
        return Markup("").join(out)

    return link


def plain(text: str) -> Markup:
    """The linker for pages outside the site: just escaping."""
    return escape(text)
