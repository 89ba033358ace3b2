"""The alignment's result records (Pair, Change, Alignment, Kind, Shown) and their counts."""

# The alignment's result records (Pair, Change, Alignment, Kind, Shown) and how a reader counts them; no engine
# inside.

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from enum import StrEnum
from functools import lru_cache
from operator import attrgetter

from ..model import Document, GlossaryEntry
from ..words.records import Nature, Rename


@dataclass(frozen=True, slots=True)
class Pair:
    """Old node ``old`` (position in the old document) pairs with ``new``; ``score`` is 0..1."""

    old: int
    new: int
    score: float
    reason: str
    # Kept, but on evidence a reader should weigh: shown as "uncertain match".
    uncertain: bool = False
    # Paired by the first pass: the raw texts and examples are equal (what follows need not compare them).
    same: bool = False


@lru_cache(maxsize=8)
def positions(n: int) -> frozenset[int]:
    """Every position of a release of ``n`` nodes, made once per size and shared (never changed): the nodes left
    over are taken from it by set difference, where building a set of thousands anew costs twice the difference."""
    return frozenset(range(n))


@dataclass(slots=True)
class Grouping:
    """The matcher's pairs with the splits and merges found among them (old position -> new positions, new
    position -> old positions), the pairs both ways as maps: what the grouping steps after the passes add to."""

    pairs: list[Pair]
    a2b: dict[int, int]
    b2a: dict[int, int]
    splits: dict[int, list[int]] = field(default_factory=dict)
    merges: dict[int, list[int]] = field(default_factory=dict)

    def grouped(self) -> tuple[set[int], set[int]]:
        """The old and the new nodes in a split or a merge."""
        return (
            {*self.splits, *(i for olds in self.merges.values() for i in olds)},
            {*self.merges, *(j for js in self.splits.values() for j in js)},
        )

    def free(self, n_old: int, n_new: int, cut: tuple[set[int], set[int]]) -> tuple[list[int], list[int]]:
        """The old and the new nodes (of ``n_old`` and ``n_new``) no pair or group holds, and no hand correction
        (``cut``) left unpaired, in order."""
        grouped_old, grouped_new = self.grouped()
        return (
            sorted(positions(n_old).difference(self.a2b, grouped_old, cut[0])),
            sorted(positions(n_new).difference(self.b2a, grouped_new, cut[1])),
        )


# Below this text similarity an edited rule reads as rewritten: shown old above new, not as a diff.
REWRITTEN_BELOW = 0.5


class Kind(StrEnum):
    UNCHANGED = "unchanged"
    RENUMBERED = "renumbered"
    EDITED = "edited"
    RENUMBERED_EDITED = "renumbered_edited"
    MOVED = "moved"
    MOVED_EDITED = "moved_edited"
    SPLIT = "split"
    MERGED = "merged"
    ADDED = "added"
    REMOVED = "removed"
    NOT_COVERED = "not_covered"


EDITED_KINDS = frozenset({Kind.EDITED, Kind.RENUMBERED_EDITED, Kind.MOVED_EDITED})


class Shown(StrEnum):
    """How a reader meets a change: the one definition every count and every renderer uses."""

    EDITED = "edited"  # a substantive edit, renumbered or not
    ADDED = "added"
    REMOVED = "removed"
    MOVED = "moved"  # out of order, edited or not: the reader must find it somewhere else
    SPLIT = "split"
    MERGED = "merged"
    GLOSSARY = "glossary"  # a term added, removed or substantively redefined
    REFERENCES_ONLY = "references_only"  # collapsed: only followed renumbered references
    TYPOGRAPHY_ONLY = "typography_only"  # collapsed: quotes, dashes, spacing
    RENAMED = "renamed"  # collapsed under the release's renames: only a term renamed throughout changed
    RENUMBERED = "renumbered"  # collapsed into ranges: number changed, words did not


# What the reader must read, rule by rule (the headline count), then what is shown collapsed.
MUST_READ = (Shown.EDITED, Shown.ADDED, Shown.REMOVED, Shown.MOVED, Shown.SPLIT, Shown.MERGED)


COLLAPSED = (Shown.RENAMED, Shown.REFERENCES_ONLY, Shown.TYPOGRAPHY_ONLY, Shown.RENUMBERED)


# The summary keys holding those counts (Alignment.summary, stored with every archived alignment).
READER_COUNTS = tuple(f"reader_{s.value}" for s in Shown)


_BY_NATURE = {
    Nature.SUBSTANTIVE: Shown.EDITED,
    Nature.REFERENCES_ONLY: Shown.REFERENCES_ONLY,
    Nature.TYPOGRAPHY_ONLY: Shown.TYPOGRAPHY_ONLY,
    Nature.RENAMED: Shown.RENAMED,
}


def reader_counts(summary: dict[str, int]) -> dict[Shown, int]:
    """The reader's counts out of a summary (also one stored by an archive)."""
    if summary and "reader_edited" not in summary:
        # Stored by an engine older than this definition: its nearest reading, until it is realigned.
        legacy = {Shown.EDITED: "edited_substantive", Shown.GLOSSARY: "glossary_added"}
        out = {s: summary.get(legacy.get(s, s.value), 0) for s in Shown}
        out[Shown.MOVED] += summary.get("moved_edited", 0)
        return out
    return {s: summary.get(f"reader_{s.value}", 0) for s in Shown}


def reader_changes(summary: dict[str, int]) -> int:
    """The headline: how many rule changes a reader must read."""
    counts = reader_counts(summary)
    return sum(counts[s] for s in MUST_READ)


@dataclass(frozen=True, slots=True)
class ExampleChange:
    """One example of a changed rule: ``kind`` is unchanged, edited, added or removed."""

    kind: str
    old: str | None
    new: str | None
    nature: Nature | None = None


@dataclass(frozen=True, slots=True)
class Closest:
    """The nearest text the other release has for a node the matcher left unpaired, and why no link was made:
    ``number`` as the number map writes it, ``text`` how alike the texts are (0..1), ``meaning`` how much of
    the node's meaning the other holds (0..1), ``why`` the refusal in words."""

    number: str
    text: float
    meaning: float
    why: str

    def said(self) -> str:
        """ "closest: 603.2f (0.97), refused because ..." """
        return f"closest: {self.number} ({self.text:.2f}), refused because {self.why}"

    def as_dict(self) -> dict[str, object]:
        return {"number": self.number, "text": self.text, "meaning": self.meaning, "why": self.why}


@dataclass(frozen=True, slots=True)
class Change:
    """What happened to one node. ``old``/``new`` are positions in the documents' ``rules``; a split has
    several ``new``, a merge several ``old``. ``similarity`` is the text similarity 0..1."""

    kind: Kind
    old: tuple[int, ...]
    new: tuple[int, ...]
    nature: Nature | None = None
    score: float = 1.0
    similarity: float = 1.0
    reason: str = ""
    examples: tuple[ExampleChange, ...] = ()
    # The link old -> new is kept on weak evidence (see match.Pair.uncertain).
    uncertain: bool = False
    # A removed node: the nearest text of the new release, and why the matcher did not link it (refusals.py).
    closest: Closest | None = None

    @property
    def rewritten(self) -> bool:
        return self.kind in EDITED_KINDS and self.nature == Nature.SUBSTANTIVE and self.similarity < REWRITTEN_BELOW


@dataclass(frozen=True, slots=True)
class GlossaryChange:
    kind: Kind
    old: GlossaryEntry | None
    new: GlossaryEntry | None
    nature: Nature | None = None
    reason: str = ""
    # The link old -> new is kept on weak evidence (see glossary.pair_terms), shown as "uncertain match".
    uncertain: bool = False


@dataclass(slots=True)
class Alignment:
    """The result of aligning two documents: every node's change, the number map, the glossary."""

    old: Document
    new: Document
    changes: list[Change]
    number_map: dict[str, str | list[str]]
    glossary: list[GlossaryChange]
    inferred: dict[str, tuple[str, float]] = field(default_factory=dict)
    # Terms renamed throughout the release (EDH -> Commander), each with the rules it touched.
    renames: tuple[Rename, ...] = ()
    # summary() is read by the headline, the report, the notes and the archive of one diff: counted once.
    _summary: dict[str, int] | None = field(default=None, init=False, repr=False, compare=False)

    def summary(self) -> dict[str, int]:
        if self._summary is None:
            self._summary = self._count()
        return dict(self._summary)

    def _count(self) -> dict[str, int]:
        # Everything counted depends on a change's kind and nature only: counted by those (C-speed), then
        # read per distinct (kind, nature), whatever the number of changes.
        by = Counter(map(_KIND_NATURE, self.changes))
        out = {k.value: 0 for k in Kind}
        edited = dict.fromkeys(Nature, 0)
        shown: Counter[Shown | None] = Counter()
        for (kind, nature), n in by.items():
            out[kind.value] += n
            if kind in EDITED_KINDS and nature is not None:
                edited[nature] += n
            shown[_shown(kind, nature)] += n
        for nat in Nature:
            out[f"edited_{nat.value}"] = edited[nat]
        out["examples_changed"] = sum(
            1
            for ch in filter(_HAS_EXAMPLES, self.changes)
            if ch.kind != Kind.NOT_COVERED
            for e in ch.examples
            if e.kind != "unchanged" and e.nature != Nature.TYPOGRAPHY_ONLY
        )
        gl = Counter(map(_KIND_NATURE, self.glossary))
        for k in (Kind.ADDED, Kind.REMOVED, Kind.EDITED, Kind.UNCHANGED, Kind.NOT_COVERED):
            out[f"glossary_{k.value}"] = sum(n for (kind, _), n in gl.items() if kind == k)
        for (kind, nature), n in gl.items():
            shown[_glossary_shown(kind, nature)] += n
        for sh in Shown:
            out[f"reader_{sh.value}"] = shown.get(sh, 0)
        return out

    def substantive(self) -> list[Change]:
        """Changes a reader must see: everything but unchanged, pure renumbering and noise-only edits."""
        return [ch for ch in self.changes if is_substantive(ch)]


def shown_as(ch: Change) -> Shown | None:
    """How ``ch`` reaches the reader; None when it does not (unchanged, outside a source's coverage)."""
    return _shown(ch.kind, ch.nature)


def _shown(kind: Kind, nature: Nature | None) -> Shown | None:
    if kind in (Kind.UNCHANGED, Kind.NOT_COVERED):
        return None
    if kind in (Kind.MOVED, Kind.MOVED_EDITED):
        return Shown.MOVED
    if kind == Kind.RENUMBERED:
        return Shown.RENUMBERED
    if kind in EDITED_KINDS:
        shown = _BY_NATURE[nature or Nature.SUBSTANTIVE]
        # A renumbered rule whose words only followed the renumbering is read in the renumbering ranges;
        # one whose words followed a rename is read under the rename.
        if kind == Kind.RENUMBERED_EDITED and shown not in (Shown.EDITED, Shown.RENAMED):
            return Shown.RENUMBERED
        return shown
    return Shown(kind.value)


def glossary_shown(g: GlossaryChange) -> Shown | None:
    return _glossary_shown(g.kind, g.nature)


def _glossary_shown(kind: Kind, nature: Nature | None) -> Shown | None:
    if kind in (Kind.ADDED, Kind.REMOVED):
        return Shown.GLOSSARY
    if kind == Kind.EDITED:
        shown = _BY_NATURE[nature or Nature.SUBSTANTIVE]
        return Shown.GLOSSARY if shown == Shown.EDITED else shown
    return None


_KIND_NATURE = attrgetter("kind", "nature")


_HAS_EXAMPLES = attrgetter("examples")


def is_substantive(ch: Change) -> bool:
    return shown_as(ch) in MUST_READ
