"""One shape for every history: stretches of versions that read the same, and what changed."""

# One shape for every history (a rule, a whole headed rule, a glossary term): stretches of consecutive versions that
# read the same, what changed at the start of each, and how much it matters.

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..matcher.glossary import term_key
from ..words.diff import Piece, as_pairs
from ..words.edits import EditMemo, Pairs, worked_edit
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
    change: str  # "first seen", "renumbered", "edited", "renamed", "respelled", "reappears", combined with " and "
    nature: str | None = None  # of the text edit: substantive, references_only, typography_only
    previous: str | None = None  # the number (or term) before this stretch, when it changed
    diff: list[Piece] = field(default_factory=list)
    # How the lineage came to ``first`` when a reader should know ("uncertain match", "linked by hand: ...").
    link: str | None = None
    # The text this stretch's edit starts from (the previous stretch's, under this one's number); None for
    # the first stretch. ``nature`` and ``diff`` are that edit's, once worked out (see ``work_out``).
    before: str | None = None
    # Which subrules of ``before`` are which of ``text`` (old number, as in ``before``, -> new number), as the
    # matcher paired them: the edit is diffed subrule by subrule (words.edits.whole_diff). None: not known.
    pairs: Pairs | None = None

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
    kin: Sequence[Mapping[str, int]] | None = None,
) -> list[Stretch]:
    """Group per-version readings into stretches. Each entry is (version, number, name, text, follows):
    ``follows`` is False when the previous archived version did not have the item (it reappears).
    ``links`` (version id -> what to say of the link into it) starts a stretch there and says it.
    ``kin``, one per entry: the lineage of each number in its text (the rule and its subrules), so that an
    edit pairs the subrules the matcher paired. Without ``edits`` the edits (nature and word diff, the costly
    part) are left for the caller to work out (``work_out``, with its memo) where it needs them."""
    out: list[Stretch] = []
    links = links or {}
    last_kin: Mapping[str, int] | None = None
    for k, (v, number, name, text, follows) in enumerate(entries):
        here = kin[k] if kin is not None else None
        prev_kin, last_kin = last_kin, here  # the entry before (the previous stretch's last), and this one
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
            # (a term whose name changed only in case, apostrophes or spacing is the same name respelled: the diff
            # calls that typography)
            same_name = name is not None and prev.name is not None and term_key(name) == term_key(prev.name)
            changes.append("respelled" if same_name else "renamed")
            previous = prev.name
        before = _renumbered(prev.text, prev.number, number)
        if before != text:  # an edit has a nature exactly when the texts differ (see nature_of)
            changes.append("edited")
        pairs = _pairs(prev_kin, here, prev.number, number) if prev_kin is not None and here is not None else None
        out.append(
            Stretch(
                v, v, number, name, text, " and ".join(changes) or "unchanged", None, previous, [], link, before, pairs
            )
        )
    if edits:
        for s in out:
            work_out(s)
    return out


def work_out(s: Stretch, memo: EditMemo | None = None) -> None:
    """Fill in the nature and word diff of a stretch's edit."""
    if s.before is not None and s.before != s.text:
        s.nature, s.diff = worked_edit(s.before, s.text, memo, s.pairs)


def _pairs(old: Mapping[str, int], new: Mapping[str, int], was: str | None, now: str | None) -> Pairs:
    """The numbers of one lineage in two releases' readings of a rule (``old``, ``new``: number -> lineage),
    old -> new; an old number as ``_renumbered`` rewrote it (the rule's own number now ``now``)."""
    by_lineage = {lin: n for n, lin in new.items()}
    out = []
    for n, lin in old.items():
        there = by_lineage.get(lin)
        if there is not None:
            if was and now and was != now and n.startswith(was):
                n = now + n[len(was) :]
            out.append((n, there))
    return tuple(sorted(out))


def _renumbered(text: str, old: str | None, new: str | None) -> str:
    """A whole rule's old text as if it already had its new number, so renumbering alone is no edit:
    every line that starts with the old number starts with the new one."""
    if not old or not new or old == new:
        return text
    return "\n".join(new + line[len(old) :] if line.startswith(old) else line for line in text.split("\n"))
