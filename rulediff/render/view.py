"""The release notes' view-model: the records every renderer reads, and the headline."""

# The release notes' view-model: the records every renderer reads (entries, groups, glossary notes, briefs), and the
# one sentence of counts they all print.

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from ..matcher.records import COLLAPSED, MUST_READ, Kind, Shown, reader_changes, reader_counts
from ..words.records import Rename
from .passages import Passage
from .shifts import ShiftRange

# 1.1 added "renames" and "renamed_only".
NOTES_SCHEMA = "rulediff.notes/1.1"


_NOUNS = {
    Shown.EDITED: "edited",
    Shown.ADDED: "added",
    Shown.REMOVED: "removed",
    Shown.MOVED: "moved",
    Shown.SPLIT: "split",
    Shown.MERGED: "merged",
}


_BRIEF = {
    Shown.RENAMED: lambda n: _plural(n, "rule only renamed", "rules only renamed"),
    Shown.REFERENCES_ONLY: lambda n: _plural(n, "reference update", "reference updates"),
    Shown.TYPOGRAPHY_ONLY: lambda n: _plural(n, "typography fix", "typography fixes"),
    Shown.RENUMBERED: lambda n: f"{n} renumbered",
}


SECTION_NAMES = {
    1: "Game Concepts",
    2: "Parts of a Card",
    3: "Card Types",
    4: "Zones",
    5: "Turn Structure",
    6: "Spells, Abilities, and Effects",
    7: "Additional Rules",
    8: "Multiplayer Rules",
    9: "Casual Variants",
}


def _plural(n: int, one: str, many: str) -> str:
    return f"{n} {one if n == 1 else many}"


def headline(summary: dict[str, int]) -> str:
    """The counts in one sentence, identical on stderr, in the Markdown, the HTML and on the site:
    '19 changes to read: 10 edited, 9 added; glossary: 4 terms; in brief: 2 reference updates,
    12 renumbered.' or 'No changes.'"""
    counts = reader_counts(summary)
    total = reader_changes(summary)
    parts = []
    if total:
        detail = ", ".join(f"{counts[s]} {_NOUNS[s]}" for s in MUST_READ if counts[s])
        parts.append(f"{_plural(total, 'change', 'changes')} to read: {detail}")
    if counts[Shown.GLOSSARY]:
        parts.append(f"glossary: {_plural(counts[Shown.GLOSSARY], 'term', 'terms')}")
    brief = [_BRIEF[s](counts[s]) for s in COLLAPSED if counts[s]]
    if brief:
        parts.append(f"in brief: {', '.join(brief)}")
    if not parts:
        return "No changes."
    text = "; ".join(parts)
    return text[0].upper() + text[1:] + "."


@dataclass(slots=True)
class ExampleNote:
    label: str  # "Example changed", "New example", "Example removed"
    old: Passage | None
    new: Passage | None


@dataclass(slots=True)
class Entry:
    """One change in the notes: a changed, removed, moved, split or merged rule, or one new rule."""

    id: str
    shown: Shown
    kind: Kind
    number: str  # the number a reader looks up: the new one, or the old one when the rule is gone
    old_numbers: list[str]
    new_numbers: list[str]
    title: str
    context: str
    section: int
    label: str  # "Changed.", "Renumbered from 613.5 and changed.", "Removed.", ...
    old: list[Passage]
    new: list[Passage]
    old_text: str
    new_text: str
    list_added: list[str] = field(default_factory=list)
    list_removed: list[str] = field(default_factory=list)
    examples: list[ExampleNote] = field(default_factory=list)
    rewritten: bool = False
    reason: str = ""
    extra_ids: list[str] = field(default_factory=list)  # old numbers' anchors: links to where it was
    uncertain: bool = False  # the link to the old rule stands on weak evidence
    printed: str = ""  # "printed twice: second" when the release prints ``number`` more than once
    closest: str = ""  # a removed rule: "closest: 603.2f (0.97), refused because ..."


@dataclass(slots=True)
class Group:
    """New rules that belong together: a new keyword with its subrules, or one new rule."""

    id: str
    label: str  # "New keyword: Airbend (702.190)"
    entries: list[Entry]


@dataclass(slots=True)
class GlossaryNote:
    id: str
    shown: Shown
    label: str  # "New term", "Term removed", "Term changed"
    term: str
    old_term: str | None
    old: Passage | None
    new: Passage | None
    uncertain: bool = False  # the link to the old term stands on weak evidence (``reason`` says which)
    reason: str = ""


@dataclass(slots=True)
class Brief:
    """A rule (or glossary term) shown only by number: its words changed but only in references or
    typography."""

    id: str
    number: str
    old_number: str
    term: str = ""  # a glossary entry's term (then there is no number)
    printed: str = ""  # "printed twice: first" when a release prints the number (the old one) more than once
    old_printed: str = ""


@dataclass(slots=True)
class Notes:
    old: dict[str, Any]
    new: dict[str, Any]
    summary: dict[str, int]
    headline: str
    new_rules: list[Group]
    changes: list[Entry]
    glossary: list[GlossaryNote]
    renumbering: list[ShiftRange]
    references_only: list[Brief]
    typography_only: list[Brief]
    not_covered: int
    # Terms renamed throughout the release, each said once, and the rules whose only edit is a rename.
    renames: list[Rename] = field(default_factory=list)
    renamed_only: list[Brief] = field(default_factory=list)
    # Unnumbered entries of a partial source given the number of what they aligned with: (title, number, confidence).
    inferred: list[tuple[str, str, float]] = field(default_factory=list)
    ids: set[str] = field(default_factory=set)  # every id the notes give out, for links within a page

    @property
    def empty(self) -> bool:
        return reader_changes(self.summary) == 0 and not (
            self.glossary or self.renumbering or self.references_only or self.typography_only or self.renames
        )

    def counts(self) -> dict[str, int]:
        """What the notes actually show, by reading: must equal the summary's reader counts."""
        c: Counter[str] = Counter(e.shown.value for g in self.new_rules for e in g.entries)
        c.update(e.shown.value for e in self.changes)
        c.update(g.shown.value for g in self.glossary)
        c[Shown.RENUMBERED.value] += sum(len(r.items) for r in self.renumbering)
        c[Shown.REFERENCES_ONLY.value] += len(self.references_only)
        c[Shown.TYPOGRAPHY_ONLY.value] += len(self.typography_only)
        c[Shown.RENAMED.value] += len(self.renamed_only)
        return {s.value: c.get(s.value, 0) for s in Shown}
