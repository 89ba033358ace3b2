"""The HTML report of an Alignment: one self-contained page of the notes."""

# The HTML report of an Alignment: the notes view-model in its order, with filters and side by side, one
# self-contained page.

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ..matcher.records import MUST_READ, Alignment, Shown
from ..numbering import RuleNumber
from .links import Links
from .notes import anchor, build_notes
from .templating import environment
from .view import SECTION_NAMES, Entry, Notes

# Marks that do not rely on colour: every change carries one of these next to its number.
MARKS = {
    Shown.EDITED.value: "~",
    Shown.ADDED.value: "+",
    Shown.REMOVED.value: "\u2212",
    Shown.MOVED.value: "\u2192",
    Shown.SPLIT.value: "\u00f7",
    Shown.MERGED.value: "\u222a",
}


@dataclass(slots=True)
class SectionView:
    number: int
    name: str
    id: str
    entries: list[Entry] = field(default_factory=list)


def _href(notes: Notes, link_base: str | None) -> Callable[[str], str | None]:
    """Where a rule number links: into the published site with ``link_base``, else to its card on this
    page when it has one, else nowhere."""
    if link_base:
        return Links(link_base, notes).rule

    def here(number: str) -> str | None:
        n = RuleNumber.try_parse(number)
        ident = anchor(n, number) if n is not None else None
        return f"#{ident}" if ident in notes.ids else None

    return here


def to_html(
    al: Alignment, site: dict[str, Any] | None = None, link_base: str | None = None, notes: Notes | None = None
) -> str:
    """One self-contained page with the notes' content in the notes' order; ``site`` adds links back to
    the site's index, search and rules, the previous and next release, and (``rule_history(number,
    new_side)``) each rule's history page, where references to rules not on this page lead too. ``notes``:
    the notes of ``al`` already built (the site's API writes them too)."""
    notes = build_notes(al) if notes is None else notes
    href = _href(notes, link_base)
    history = site.get("rule_history") if site else None
    if history is not None:
        here = href

        def href(number: str) -> str | None:
            return here(number) or history(number, True)

    sections: dict[int, SectionView] = {}
    for e in notes.changes:
        name = SECTION_NAMES.get(e.section, "Unnumbered entries" if e.section == 0 else f"Section {e.section}")
        sections.setdefault(e.section, SectionView(e.section, name, f"s{e.section}")).entries.append(e)
    every = [*notes.changes, *(e for g in notes.new_rules for e in g.entries)]
    choices = sorted({e.section for e in every})
    kinds = [s.value for s in MUST_READ if any(e.shown == s for e in every)]
    if notes.glossary:
        kinds.append("glossary")
    return (
        environment()
        .get_template("diff.html.j2")
        .render(
            n=notes,
            sections=[sections[k] for k in sorted(sections)],
            section_choices=[
                SectionView(k, SECTION_NAMES.get(k, "Unnumbered entries" if k == 0 else f"Section {k}"), "")
                for k in choices
            ],
            kinds=kinds,
            marks=MARKS,
            href=href,
            site=site,
        )
    )
