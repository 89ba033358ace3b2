"""One shape for every history: stretches of versions that read the same, and what changed."""

# One shape for every history (a rule, a whole headed rule, a glossary term): stretches of consecutive versions that
# read the same, what changed at the start of each, and how much it matters.

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from ..words.diff import Piece, as_pairs
from ..words.edits import EditMemo, worked_edit
from ..words.records import Nature


@dataclass(slots=True)
class Stretch:
    """Versions ``first`` .. ``last`` (consecutive in the archive) in which the item reads ``text`` under
    ``number`` (a rule) or ``name`` (a title, or a glossary term)."""

    first: Any  # VersionRow: kept loose so this module needs no archive
    last: Any
    number: str | None
    name: str | None
    text: str
    change: str  # "first seen", "renumbered", "edited", "renamed", "reappears", combined with " and "
    nature: str | None = None  # of the text edit: substantive, references_only, typography_only
    previous: str | None = None  # the number (or term) before this stretch, when it changed
    diff: list[Piece] = field(default_factory=list)
    # How the lineage came to ``first`` when a reader should know ("uncertain match", "linked by hand: ...").
    link: str | None = None
    # The text this stretch's edit starts from (the previous stretch's, under this one's number); None for
    # the first stretch. ``nature`` and ``diff`` are that edit's, once worked out (see ``work_out``).
    before: str | None = None

    @property
    def quiet(self) -> bool:
        """Nothing a reader must see: only typography or cross-references changed, nothing renamed."""
        return (
            self.nature in (Nature.TYPOGRAPHY_ONLY, Nature.REFERENCES_ONLY)
            and self.change == "edited"
            and not self.link
        )

    def as_dict(self) -> dict[str, Any]:
        return {
            "from": self.first.label,
            "to": self.last.label,
            "number": self.number,
            "name": self.name,
            "change": self.change,
            "nature": self.nature,
            "previous": self.previous,
            "text": self.text,
            "diff": as_pairs(self.diff),
            "link": self.link,
        }


def stretches(
    entries: Iterable[tuple[Any, str | None, str | None, str, bool]],
    links: Mapping[int, str] | None = None,
    *,
    edits: bool = True,
) -> list[Stretch]:
    """Group per-version readings into stretches. Each entry is (version, number, name, text, follows):
    ``follows`` is False when the previous archived version did not have the item (it reappears).
    ``links`` (version id -> what to say of the link into it) starts a stretch there and says it.
    Without ``edits`` the edits (nature and word diff, the costly part) are left for the caller to work out
    (``work_out``, with its memo) where it needs them."""
    out: list[Stretch] = []
    links = links or {}
    for v, number, name, text, follows in entries:
        prev = out[-1] if out else None
        link = links.get(v.id) if links else None
        same = prev is not None and (prev.number, prev.name, prev.text) == (number, name, text)
        if prev is not None and follows and link is None and same:
            prev.last = v
            continue
        if prev is None:
            out.append(Stretch(v, v, number, name, text, "first seen", link=link))
            continue
        changes = []
        previous = None
        if not follows:
            changes.append("reappears")
        if number != prev.number:
            changes.append("renumbered")
            previous = prev.number
        if name != prev.name and number is None:
            changes.append("renamed")
            previous = prev.name
        before = _renumbered(prev.text, prev.number, number)
        if before != text:  # an edit has a nature exactly when the texts differ (see nature_of)
            changes.append("edited")
        out.append(
            Stretch(v, v, number, name, text, " and ".join(changes) or "unchanged", None, previous, [], link, before)
        )
    if edits:
        for s in out:
            work_out(s)
    return out


def work_out(s: Stretch, memo: EditMemo | None = None) -> None:
    """Fill in the nature and word diff of a stretch's edit."""
    if s.before is not None and s.before != s.text:
        s.nature, s.diff = worked_edit(s.before, s.text, memo)


def _renumbered(text: str, old: str | None, new: str | None) -> str:
    """A whole rule's old text as if it already had its new number, so renumbering alone is no edit:
    every line that starts with the old number starts with the new one."""
    if not old or not new or old == new:
        return text
    return "\n".join(new + line[len(old) :] if line.startswith(old) else line for line in text.split("\n"))
