"""Release notes: one definition of what a reader must see, the same counts everywhere."""

from __future__ import annotations

from rulediff import align, parse
from rulediff.changes import MUST_READ, Shown, glossary_shown, reader_changes, reader_counts, shown_as
from rulediff.notes import headline

from .conftest import FIXTURES

PAIR = FIXTURES / "report"


def test_every_change_is_counted_once() -> None:
    al = align(parse(str(PAIR / "old.txt")), parse(str(PAIR / "new.txt")))
    counts = reader_counts(al.summary())
    shown = [shown_as(ch) for ch in al.changes] + [glossary_shown(g) for g in al.glossary]
    for s in Shown:
        assert counts[s] == shown.count(s), s
    assert reader_changes(al.summary()) == len(al.substantive()) == sum(shown.count(s) for s in MUST_READ)
    assert headline(al.summary()) == (
        "7 changes to read: 3 edited, 3 added, 1 split; glossary: 2 terms; "
        "in brief: 2 reference updates, 1 typography fix, 7 renumbered."
    )


def test_no_changes_says_so() -> None:
    doc = parse(str(PAIR / "old.txt"))
    assert headline(align(doc, doc).summary()) == "No changes."
