"""The identifications of undated dumps, and the reads identify makes of the archive."""

# The archive's identifications of undated dumps (the official release a dump's text is from, placing it on the
# timeline), and the reads identify makes: rule rows by number range, stored bodies by text or digest, and parts of
# a release rebuilt without the rest of it.

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from ..model import Document
from .lineages import Lineages
from .rows import sort_date_of
from .store import Store
from .versions import Versions

# Inclusive (low, high) bounds on rule numbers, compared as strings: ("7", "7~") is all of section 7.
Ranges = Sequence[tuple[str, str]]
_CHUNK = 500


def _where(ranges: Ranges | None) -> tuple[str, list[str]]:
    if ranges is None:
        return "", []
    if not ranges:
        return " AND 0", []
    return " AND (" + " OR ".join("r.number BETWEEN ? AND ?" for _ in ranges) + ")", [b for r in ranges for b in r]


@dataclass(frozen=True, slots=True)
class Identified:
    """A dump's recorded identification: the closest release (label and date), the verdict, the score,
    whether that release explains the text (``matched``: the dump is placed by it), and ``releases``, a
    fingerprint of the official releases it was judged against."""

    release_label: str
    release_date: str
    verdict: str
    score: float
    matched: bool
    releases: str
    engine: str = ""


class Identifications:
    """The identifications of an open archive's undated dumps."""

    def __init__(self, store: Store, versions: Versions, lineages: Lineages) -> None:
        self.store, self.versions, self.lineages = store, versions, lineages
        self.path = store.path

    def all(self) -> dict[int, Identified]:
        """Version id -> its recorded identification, for the dumps that have one."""
        return {
            vid: Identified(*rest)
            for vid, *rest in self.store.db.execute(
                "SELECT version_id, release_label, release_date, verdict, score, matched, releases, engine"
                " FROM identifications"
            )
        }

    def record(self, vid: int, ident: Identified | None, progress: Callable[[str], None] | None = None) -> None:
        """Store (or, with None, drop) a dump's identification and place it on the timeline by it: right
        after the release its text matches, else back at its own date. Later alignments and lineages follow."""
        with self.store.transaction():
            self.store.db.execute("DELETE FROM identifications WHERE version_id = ?", (vid,))
            if ident is not None:
                self.store.db.execute(
                    "INSERT INTO identifications VALUES (?,?,?,?,?,?,?,?)",
                    (
                        vid,
                        ident.release_label,
                        ident.release_date,
                        ident.verdict,
                        ident.score,
                        int(ident.matched),
                        ident.releases,
                        ident.engine,
                    ),
                )
            eff, era = self.store.db.execute("SELECT effective_date, era FROM versions WHERE id = ?", (vid,)).fetchone()
            day = ident.release_date if ident is not None and ident.matched else sort_date_of(eff, era)
            before = [v.id for v in self.versions.all()]
            if self.store.db.execute("SELECT sort_date FROM versions WHERE id = ?", (vid,)).fetchone()[0] != day:
                # After everything dated that day: a copy comes after the release it copies.
                self.store.db.execute(
                    "UPDATE versions SET sort_date = ?, seq = (SELECT max(seq) + 1 FROM versions) WHERE id = ?",
                    (day, vid),
                )
            after = [v.id for v in self.versions.all()]
            if before != after:
                start = next(k for k, (a, b) in enumerate(zip(before, after, strict=True)) if a != b)
                self.lineages.relink(start, progress)

    def rule_rows(self, ranges: Ranges | None = None) -> list[tuple[int, str | None, int]]:
        """(version id, number, body id) of every archived rule whose number lies in one of ``ranges``
        (None: every rule), in no particular order. Equal body ids are equal text, examples and notes,
        so these rows compare versions without rebuilding any."""
        where, args = _where(ranges)
        return self.store.db.execute(
            f"SELECT r.version_id, r.number, r.body_id FROM rules r WHERE 1{where}", args
        ).fetchall()

    def bodies_with(self, norms: Iterable[str], digests: Iterable[str]) -> dict[int, str]:
        """Body id -> comparison text of the stored bodies whose comparison text is one of ``norms`` or
        whose content digest (``Rule.digest``) is one of ``digests`` (one pass over the bodies)."""
        out: dict[int, str] = {}
        ns, ds = sorted(set(norms)), sorted(set(digests))
        step = _CHUNK * 10
        for k in range(0, max(len(ns), len(ds)), step):
            a, b = ns[k : k + step], ds[k : k + step]
            marks_a, marks_b = ",".join("?" * len(a)), ",".join("?" * len(b))
            q = f"SELECT id, norm FROM bodies WHERE norm IN ({marks_a}) OR digest IN ({marks_b})"
            out.update(self.store.db.execute(q, [*a, *b]).fetchall())
        return out

    def body_norms(self, ids: Iterable[int]) -> dict[int, str]:
        """Body id -> comparison text of the given stored bodies."""
        out: dict[int, str] = {}
        values = sorted(set(ids))
        for k in range(0, len(values), _CHUNK):
            chunk = values[k : k + _CHUNK]
            q = f"SELECT id, norm FROM bodies WHERE id IN ({','.join('?' * len(chunk))})"
            out.update(self.store.db.execute(q, chunk).fetchall())
        return out

    def document_part(self, vid: int, ranges: Ranges | None) -> Document:
        """Version ``vid`` with only the rules whose numbers lie in ``ranges`` (None: all of it) and no
        glossary: a slice of a release costs a slice of the rebuilding."""
        if ranges is None:
            return self.versions.document(vid)
        where, args = _where(ranges)
        return self.versions.load(vid, where, tuple(args), glossary=False)
