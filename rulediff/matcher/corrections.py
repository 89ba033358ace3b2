"""Hand corrections of lineage as data: the shipped file and the record every correction shares."""

# Hand corrections of lineage as data: the shipped file of published corrections (one a line: old version, old
# number, new version, new number or '-', reason) and the record every correction, shipped or user-made, shares.

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING

from ..errors import RulediffError
from ..numbering import RuleNumber
from .records import Pair

if TYPE_CHECKING:
    from .records import Alignment, Change

LINK = "link"
UNLINK = "unlink"
SHIPPED = "shipped"
ARCHIVE = "archive"
SHIPPED_FILE = "corrections.tsv"
# How a pair a hand correction made gives its reason; later grouping steps leave such a pair as it is.
LINKED_BY_HAND = "linked by hand: "


@dataclass(frozen=True, slots=True)
class Correction:
    """``old_number`` of ``old_version`` continues as ``new_number`` of ``new_version`` (a link), or does not
    (an unlink; ``new_number`` None: it has no successor there at all). Versions are references the archive
    resolves: a label or effective date in the shipped file, a sha256 in the archive."""

    action: str
    old_version: str
    old_number: str
    new_version: str
    new_number: str | None
    reason: str
    source: str = SHIPPED
    where: str = ""  # FILE:LINE of a shipped line

    @property
    def key(self) -> tuple[str, str, str]:
        """What a later correction of the same rule into the same version replaces."""
        return (self.old_version, self.old_number, self.new_version)

    def describe(self, old: str | None = None, new: str | None = None) -> str:
        arrow = "->" if self.action == LINK else "-/->"
        return f"{old or self.old_version} {self.old_number} {arrow} {new or self.new_version} {self.new_number or '-'}"


@dataclass(frozen=True, slots=True)
class Fix:
    """A correction resolved to rule positions of one pair of archived versions."""

    action: str
    old: int
    new: int | None
    reason: str


def check_reason(reason: str) -> str:
    """A reason is one non-empty line (it is printed after "linked by hand: ")."""
    text = " ".join(reason.split())
    if not text:
        raise RulediffError("--reason must say why (an empty reason explains nothing)")
    return text


def check_number(text: str, what: str) -> str:
    """A rule number as the archive stores it ("702.15b", or "702.175#2" for the second of a number printed twice)."""
    base, _, nth = text.strip().partition("#")
    number = RuleNumber.try_parse(base.rstrip("."))
    if number is None or (nth and not (nth.isascii() and nth.isdigit())):  # ('²'.isdigit() is true)
        raise RulediffError(f"{what} {text!r} is not a rule number (like 702.15 or 702.15b)")
    return str(number) + (f"#{nth}" if nth else "")


def parse_corrections(text: str, source: str) -> list[Correction]:
    """The lines of a corrections file: tab-separated old version, old number, new version, new number or
    '-', reason; '#' starts a comment line. A bad line is an error naming it."""
    out: list[Correction] = []
    seen: dict[tuple[str, str, str, str | None], int] = {}
    for n, raw in enumerate(text.splitlines(), 1):
        line = raw.rstrip("\r")
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        cols = line.split("\t")
        where = f"{source}:{n}"
        if len(cols) != 5:
            raise RulediffError(
                f"expected 5 tab-separated columns (old version, old number, new version, new number or '-', "
                f"reason), found {len(cols)}",
                source=source,
                line=n,
            )
        old_v, old_n, new_v, new_n, reason = (c.strip() for c in cols)
        try:
            if not old_v or not new_v:
                raise RulediffError("a version is empty")
            old_n = check_number(old_n, "old number")
            new = None if new_n == "-" else check_number(new_n, "new number")
            reason = check_reason(reason)
        except RulediffError as e:
            raise RulediffError(e.message, source=source, line=n) from None
        ident = (old_v, old_n, new_v, new)
        if ident in seen:
            raise RulediffError(f"repeats line {seen[ident]}", source=source, line=n)
        seen[ident] = n
        out.append(Correction(LINK if new else UNLINK, old_v, old_n, new_v, new, reason, SHIPPED, where))
    keys: dict[tuple[str, str, str], Correction] = {}
    for c in out:
        other = keys.setdefault(c.key, c)
        if other is not c and UNLINK in (c.action, other.action):
            raise RulediffError(
                f"contradicts {other.where}: {c.old_number} is said both to have no successor in {c.new_version}"
                " and to continue there",
                source=source,
                line=int(c.where.rsplit(":", 1)[1]),
            )
    return out


def shipped_path() -> Path:
    return Path(str(resources.files("rulediff.data").joinpath(SHIPPED_FILE)))


def shipped_corrections() -> list[Correction]:
    """The corrections published with this rulediff."""
    path = shipped_path()
    return parse_corrections(path.read_text(encoding="utf-8"), str(path))


def hand_corrected(pairs: list[Pair], fixes: Sequence[Fix]) -> tuple[list[Pair], dict[int, str], dict[int, str]]:
    """The matcher's 1:1 pairs of two documents with their hand corrections: an unlink drops the pair, a link
    replaces the pairs of both its ends. Also what a cut left unpaired, old and new position -> reason."""
    out = list(pairs)
    cut_old: dict[int, str] = {}
    cut_new: dict[int, str] = {}
    for f in fixes:
        if f.action != UNLINK:
            continue
        # (its ends, though the matcher did not pair them: a link made after the pairs, held.py's, is not made)
        cut_old[f.old] = f.reason
        if f.new is not None:
            cut_new[f.new] = f.reason
        for p in out:
            if p.old == f.old and (f.new is None or p.new == f.new):
                cut_old[p.old], cut_new[p.new] = f.reason, f.reason
        out = [p for p in out if not (p.old == f.old and (f.new is None or p.new == f.new))]
    for f in fixes:
        if f.action == LINK and f.new is not None:
            out = [p for p in out if p.old != f.old and p.new != f.new]
            out.append(Pair(f.old, f.new, 1.0, f"{LINKED_BY_HAND}{f.reason}"))
    paired_old, paired_new = {p.old for p in out}, {p.new for p in out}
    return (
        sorted(out, key=lambda p: p.old),
        {i: r for i, r in cut_old.items() if i not in paired_old},
        {j: r for j, r in cut_new.items() if j not in paired_new},
    )


def said_cut(al: Alignment, cut_old: dict[int, str], cut_new: dict[int, str]) -> Alignment:
    """A rule a hand correction left without its counterpart says so instead of "no counterpart", and is
    not taken back into a merge or split of other rules."""
    from .records import Change, Kind  # changes calls this: imported when first used, not at load

    out: list[Change] = []
    for c in al.changes:
        why = cut_old.get(c.old[0]) if c.kind == Kind.REMOVED else None
        why = cut_new.get(c.new[0]) if c.kind == Kind.ADDED else why
        if why is not None:
            out.append(replace(c, reason=f"unlinked by hand: {why}"))
            continue
        olds = [i for i in c.old if i in cut_old] if len(c.old) > 1 and c.new else []
        news = [j for j in c.new if j in cut_new] if len(c.new) > 1 and c.old else []
        if not olds and not news:
            out.append(c)
            continue
        out.append(
            replace(c, old=tuple(i for i in c.old if i not in olds), new=tuple(j for j in c.new if j not in news))
        )
        out.extend(Change(Kind.REMOVED, (i,), (), reason=f"unlinked by hand: {cut_old[i]}") for i in olds)
        out.extend(Change(Kind.ADDED, (), (j,), reason=f"unlinked by hand: {cut_new[j]}") for j in news)
    al.changes = out
    return al
