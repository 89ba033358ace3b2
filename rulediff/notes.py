"""Release notes of an Alignment as a rules manager publishes them: one view-model, in bulletin order, read
by the Markdown, HTML and ``rulediff.notes/1`` renderers; and the one sentence of counts they all print."""

from __future__ import annotations

from .changes import COLLAPSED, MUST_READ, Shown, reader_changes, reader_counts

NOTES_SCHEMA = "rulediff.notes/1"

_NOUNS = {
    Shown.EDITED: "edited",
    Shown.ADDED: "added",
    Shown.REMOVED: "removed",
    Shown.MOVED: "moved",
    Shown.SPLIT: "split",
    Shown.MERGED: "merged",
}
_BRIEF = {
    Shown.REFERENCES_ONLY: lambda n: _plural(n, "reference update", "reference updates"),
    Shown.TYPOGRAPHY_ONLY: lambda n: _plural(n, "typography fix", "typography fixes"),
    Shown.RENUMBERED: lambda n: f"{n} renumbered",
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
