"""The whole-rule edit engine: an edit's nature and line-aligned word diff, remembered."""

# The whole-rule edit engine: an edit's nature where no number map is at hand, the line-aligned word diff of a whole
# rule, edits remembered by their two texts, and the diff as marked text.

from __future__ import annotations

import functools
import hashlib
import re
from difflib import SequenceMatcher
from typing import Protocol

from ..references import find_references
from ..support.code_digest import sources_digest
from ..text import normalize
from .diff import Op, Piece, merged, word_diff
from .nature import nature_of
from .records import Nature


def edit_nature(old: str, new: str) -> Nature | None:
    """The nature of an edit seen in a history, where no release's number map is at hand: references
    that changed consistently (each old target to one new target) count as renumbering fallout."""
    implied: dict[str, str | list[str]] = {}
    for a, b in zip(find_references(old), find_references(new), strict=False):
        for ta, tb in zip(a.targets, b.targets, strict=False):
            implied.setdefault(str(ta), str(tb))
    return nature_of(old, new, normalize(old), normalize(new), implied)


Edit = tuple[str | None, list[Piece]]  # (nature, word diff) of one text becoming another


class EditMemo(Protocol):
    """Edits worked out earlier, by :func:`edit_key`."""

    def get(self, key: str) -> Edit | None: ...

    def put(self, key: str, edit: Edit) -> None: ...


def edit_key(old: str, new: str) -> str:
    return hashlib.blake2b(f"{old}\x00{new}".encode(), digest_size=16).hexdigest()


def worked_edit(old: str, new: str, memo: EditMemo | None) -> Edit:
    key = edit_key(old, new) if memo is not None else ""
    got = memo.get(key) if memo is not None else None
    if got is None:
        nature = edit_nature(old, new)
        got = (nature.value if nature else None, whole_diff(old, new) if nature is not None else [])
        if memo is not None:
            memo.put(key, got)
    return got


# The modules whose code decides an edit's nature and word diff: a change to any of them makes stored edits stale.
EDIT_MODULES = (
    "rulediff.numbering",
    "rulediff.references",
    "rulediff.text",
    "rulediff.words.diff",
    "rulediff.words.edits",
    "rulediff.words.nature",
    "rulediff.words.records",
    "rulediff.words.renames",
)


@functools.cache
def edit_engine() -> str:
    """Names the code that works out edits, as ``engine_version`` names the one that aligns."""
    from .._version import __version__

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
