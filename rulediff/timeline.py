"""One shape for every history (a rule, a whole headed rule, a glossary term): stretches of consecutive
versions that read the same, what changed at the start of each, and how much it matters."""

from __future__ import annotations

import functools
import hashlib
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from difflib import SequenceMatcher
from typing import Any, Protocol

from .changes import Nature, nature_of
from .numbering import find_references
from .sources import sources_digest
from .text import normalize
from .textdiff import Op, Piece, as_pairs, merged, word_diff


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


def edit_nature(old: str, new: str) -> Nature | None:
    """The nature of an edit seen in a history, where no release's number map is at hand: references
    that changed consistently (each old target to one new target) count as renumbering fallout."""
    implied: dict[str, str | list[str]] = {}
    for a, b in zip(find_references(old), find_references(new), strict=False):
        for ta, tb in zip(a.targets, b.targets, strict=False):
            implied.setdefault(str(ta), str(tb))
    return nature_of(old, new, normalize(old), normalize(new), implied)


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
        s.nature, s.diff = _edit(s.before, s.text, memo)


Edit = tuple[str | None, list[Piece]]  # (nature, word diff) of one text becoming another


class EditMemo(Protocol):
    """Edits worked out earlier, by :func:`edit_key`."""

    def get(self, key: str) -> Edit | None: ...

    def put(self, key: str, edit: Edit) -> None: ...


def edit_key(old: str, new: str) -> str:
    return hashlib.blake2b(f"{old}\x00{new}".encode(), digest_size=16).hexdigest()


def _edit(old: str, new: str, memo: EditMemo | None) -> Edit:
    key = edit_key(old, new) if memo is not None else ""
    got = memo.get(key) if memo is not None else None
    if got is None:
        nature = edit_nature(old, new)
        got = (nature.value if nature else None, whole_diff(old, new) if nature is not None else [])
        if memo is not None:
            memo.put(key, got)
    return got


# The modules whose code decides an edit's nature and word diff: a change to any of them makes stored edits stale.
EDIT_MODULES = ("timeline.py", "textdiff.py", "nature.py", "numbering.py", "text.py")


@functools.cache
def edit_engine() -> str:
    """Names the code that works out edits, as ``engine_version`` names the one that aligns."""
    from . import __version__

    return f"{__version__}+{sources_digest(EDIT_MODULES)[:12]}"


def whole_diff(old: str, new: str) -> list[Piece]:
    """The word diff of a whole rule, line by line: lines are matched on their text without the leading
    number first (a subrule inserted above shifts the letters of every one below), so only changed
    stretches pay for a word diff and a shifted letter is one small change."""
    a, b = _lines(old), _lines(new)
    out: list[Piece] = []
    matcher = SequenceMatcher(None, [_unnumbered(x) for x in a], [_unnumbered(y) for y in b], autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            for x, y in zip(a[i1:i2], b[j1:j2], strict=True):
                out.extend([Piece(Op.EQUAL, x)] if x == y else word_diff(x, y))
        elif tag == "delete":
            out.append(Piece(Op.DELETE, "".join(a[i1:i2])))
        elif tag == "insert":
            out.append(Piece(Op.INSERT, "".join(b[j1:j2])))
        else:
            out.extend(word_diff("".join(a[i1:i2]), "".join(b[j1:j2])))
    return merged(out)


_LEADING_NUMBER = re.compile(r"^[1-9]\d{0,2}(?:\.\d+[a-z]*)?\.? ")


def _unnumbered(line: str) -> str:
    return _LEADING_NUMBER.sub("", line)


def _lines(text: str) -> list[str]:
    parts = text.split("\n")
    return [p + "\n" for p in parts[:-1]] + [parts[-1]]


def _renumbered(text: str, old: str | None, new: str | None) -> str:
    """A whole rule's old text as if it already had its new number, so renumbering alone is no edit:
    every line that starts with the old number starts with the new one."""
    if not old or not new or old == new:
        return text
    return "\n".join(new + line[len(old) :] if line.startswith(old) else line for line in text.split("\n"))


def marked(diff: list[Piece]) -> str:
    """A word diff as plain text: [-deleted-] and {+inserted+}, as wdiff writes it."""
    return "".join(
        f"[-{p.text}-]" if p.op == Op.DELETE else f"{{+{p.text}+}}" if p.op == Op.INSERT else p.text for p in diff
    )


def marked_lines(diff: list[Piece]) -> list[tuple[bool, str]]:
    """The marked diff split into lines, each with whether an edit touches it (a muted, typography-only
    stretch does not)."""
    lines: list[tuple[bool, str]] = []
    text, touched = "", False
    for p in diff:
        out = marked([p])
        parts = out.split("\n")
        for k, part in enumerate(parts):
            if k > 0:
                lines.append((touched, text))
                text, touched = "", p.op in (Op.DELETE, Op.INSERT)
            text += part
            touched = touched or (p.op in (Op.DELETE, Op.INSERT) and part != "")
    lines.append((touched, text))
    return lines
