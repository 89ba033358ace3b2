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


# Old number -> new number of the nodes of a whole rule that the matcher paired (the rule's subrules, by lineage).
Pairs = tuple[tuple[str, str], ...]


def worked_edit(old: str, new: str, memo: EditMemo | None, pairs: Pairs | None = None) -> Edit:
    """The nature and whole-rule word diff of ``old`` becoming ``new`` (``pairs``: see ``whole_diff``), read
    from ``memo`` when worked out before."""
    key = edit_key(old, new if pairs is None else f"{new}\x00{pairs!r}") if memo is not None else ""
    got = memo.get(key) if memo is not None else None
    if got is None:
        nature = edit_nature(old, new)
        got = (nature.value if nature else None, whole_diff(old, new, pairs) if nature is not None else [])
        if memo is not None:
            memo.put(key, got)
    return got


# The modules whose code decides an edit's nature and word diff: a change to any of them makes stored edits stale.
EDIT_MODULES = (
    "rulediff.numbering",
    "rulediff.references",
    "rulediff.text",
    "rulediff.words.agreement",
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


def whole_diff(old: str, new: str, pairs: Pairs | None = None) -> list[Piece]:
    """The word diff of a whole rule: a node a line (the rule, each subrule, with the examples and paragraphs
    below it), nodes paired first and each pair's words diffed on its own (an edit never runs from one subrule
    into the next). Nodes pair by ``pairs`` (old number -> new number: how the matcher paired the two releases'
    rules), then those left by their text without the number, then (where ``pairs`` names neither) by their
    number; a paired node whose number changed is renumbered (a MUTED piece, "702.13d" for "702.13b"), not
    edited. A node left unpaired is deleted or inserted whole."""
    a, b = _nodes(old), _nodes(new)
    out: list[Piece] = []
    i0 = j0 = 0
    for i, j in _paired(a, b, dict(pairs or ())):
        for x in range(i0, i):
            out.append(Piece(Op.DELETE, ("\n" if x else "") + a[x][0] + a[x][1]))
        for y in range(j0, j):
            out.append(Piece(Op.INSERT, ("\n" if y else "") + b[y][0] + b[y][1]))
        out.extend(_separator(i > 0, j > 0))
        (la, ra), (lb, rb) = a[i], b[j]
        if la == lb:
            out.append(Piece(Op.EQUAL, la))
        elif la and lb:
            out.append(Piece(Op.MUTED, lb, la))
        else:
            out.extend((Piece(Op.DELETE, la), Piece(Op.INSERT, lb)))
        out.extend(_body_diff(ra, rb))
        i0, j0 = i + 1, j + 1
    for x in range(i0, len(a)):
        out.append(Piece(Op.DELETE, ("\n" if x else "") + a[x][0] + a[x][1]))
    for y in range(j0, len(b)):
        out.append(Piece(Op.INSERT, ("\n" if y else "") + b[y][0] + b[y][1]))
    return merged(out)


# A node's number where a line starts with one ("702.13a", "702.13.", "702."), then a blank.
_NUMBER = r"[1-9]\d{0,2}(?:\.\d+[a-z]*)?\.?"
_LABEL = re.compile(_NUMBER + "(?= )")
_NUMBER_ONLY = re.compile(_NUMBER)


def _nodes(text: str) -> list[tuple[str, str]]:
    """A whole rule's nodes, each (its number as printed, "" for none; the rest: its text and the lines below it
    up to the next numbered line). Joined by line breaks they are ``text``."""
    out: list[list[str]] = []
    for line in text.split("\n"):
        m = _LABEL.match(line)
        if m is not None or not out:
            label = m.group() if m is not None else ""
            out.append([label, line[len(label) :]])
        else:
            out[-1][1] += "\n" + line
    return [(label, rest) for label, rest in out]


def _paired(a: list[tuple[str, str]], b: list[tuple[str, str]], pairs: dict[str, str]) -> list[tuple[int, int]]:
    """Which nodes of ``a`` and ``b`` are one, in order (a longest chain: a node that moved past others is
    deleted and inserted). The first nodes (the rule itself) always are."""
    found: dict[int, int] = {0: 0}
    taken = {0}
    at_b = {label.rstrip("."): j for j, (label, _) in reversed(list(enumerate(b))) if label}

    def pair(i: int, j: int | None) -> None:
        if j is not None and i not in found and j not in taken:
            found[i] = j
            taken.add(j)

    for i, (label, _) in enumerate(a):
        target = pairs.get(label.rstrip("."))
        pair(i, at_b.get(target) if target is not None else None)
    # Left over: the same words (a subrule relettered), then, where the matcher says nothing, the same number.
    texts_b: dict[str, list[int]] = {}
    for j, (_, rest) in enumerate(b):
        texts_b.setdefault(_unnumbered_node(rest), []).append(j)
    for i, (_, rest) in enumerate(a):
        same = texts_b.get(_unnumbered_node(rest), [])
        pair(i, same[0] if len(same) == 1 else None)
    named = set(pairs) | set(pairs.values())
    for i, (label, _) in enumerate(a):
        n = label.rstrip(".")
        if n and n not in named:
            pair(i, at_b.get(n) if at_b.get(n) is not None and b[at_b[n]][0].rstrip(".") not in named else None)
    return _chain(sorted(found.items()))


def _unnumbered_node(rest: str) -> str:
    return rest.strip()


def _chain(pairs: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """The longest chain of ``pairs`` (sorted by their first index) whose second indexes rise too."""
    tails: list[int] = []  # tails[k]: index in ``pairs`` of the smallest end of a chain of length k + 1
    back: list[int] = [-1] * len(pairs)
    for k, (_, j) in enumerate(pairs):
        lo, hi = 0, len(tails)
        while lo < hi:
            mid = (lo + hi) // 2
            if pairs[tails[mid]][1] < j:
                lo = mid + 1
            else:
                hi = mid
        back[k] = tails[lo - 1] if lo else -1
        if lo == len(tails):
            tails.append(k)
        else:
            tails[lo] = k
    out: list[tuple[int, int]] = []
    k = tails[-1] if tails else -1
    while k >= 0:
        out.append(pairs[k])
        k = back[k]
    return out[::-1]


def _separator(a: bool, b: bool) -> list[Piece]:
    """The line break before a node or line, on the sides where something came before it."""
    if a and b:
        return [Piece(Op.EQUAL, "\n")]
    if a or b:
        return [Piece(Op.DELETE if a else Op.INSERT, "\n")]
    return []


def _body_diff(a: str, b: str) -> list[Piece]:
    """The rest of two paired nodes, line by line: lines matched on their text first, so only changed stretches
    pay for a word diff."""
    if a == b:
        return [Piece(Op.EQUAL, a)] if a else []
    if "\n" not in a and "\n" not in b:
        return word_diff(a, b)
    la, lb = a.split("\n"), b.split("\n")
    out: list[Piece] = []
    for tag, i1, i2, j1, j2 in SequenceMatcher(None, la, lb, autojunk=False).get_opcodes():
        old, new = "\n".join(la[i1:i2]), "\n".join(lb[j1:j2])
        if tag == "delete":
            out.append(Piece(Op.DELETE, ("\n" if i1 else "") + old))
            continue
        if tag == "insert":
            out.append(Piece(Op.INSERT, ("\n" if j1 else "") + new))
            continue
        out.extend(_separator(i1 > 0, j1 > 0))
        out.extend([Piece(Op.EQUAL, old)] if tag == "equal" else word_diff(old, new))
    return out


def marked(diff: list[Piece]) -> str:
    """A word diff as plain text: [-deleted-] and {+inserted+}, as wdiff writes it, each line's part marked on
    its own line; a renumbered node says so ("702.13d (was 702.13b)")."""
    return "".join(text for _, text, _ in _marked_pieces(diff))


def renumbered_nodes(diff: list[Piece]) -> set[int]:
    """The places in a whole-rule diff of the pieces that renumber a node (a muted number at a line's start:
    "702.13d" for "702.13b"), which every display shows as renumbering."""
    out: set[int] = set()
    line_start = True
    for k, p in enumerate(diff):
        if p.op == Op.MUTED and line_start and _NUMBER_ONLY.fullmatch(p.text) and _NUMBER_ONLY.fullmatch(p.old):
            out.add(k)
        if p.text:
            line_start = p.text.endswith("\n")
    return out


def _marked_pieces(diff: list[Piece]) -> list[tuple[Piece, str, bool]]:
    """Each piece as marked text, and whether it is a change a reader is shown: an edit, or a renumbered node."""
    out: list[tuple[Piece, str, bool]] = []
    renumbered = renumbered_nodes(diff)
    for k, p in enumerate(diff):
        shown = p.op in (Op.DELETE, Op.INSERT)
        if shown:
            o, c = ("[-", "-]") if p.op == Op.DELETE else ("{+", "+}")
            text = "\n".join(f"{o}{part}{c}" if part else "" for part in p.text.split("\n"))
        elif k in renumbered:
            text, shown = f"{p.text} (was {p.old})", True
        else:
            text = p.text
        out.append((p, text, shown))
    return out


def marked_lines(diff: list[Piece]) -> list[tuple[bool, str]]:
    """The marked diff split into lines, each with whether a change touches it: an edit, or a node renumbered
    (a muted, typography-only stretch does not)."""
    lines: list[tuple[bool, str]] = []
    text, touched = "", False
    for _, out, edit in _marked_pieces(diff):
        for k, part in enumerate(out.split("\n")):
            if k > 0:
                lines.append((touched, text))
                text, touched = "", False
            text += part
            touched = touched or (edit and part != "")
    lines.append((touched, text))
    return lines
