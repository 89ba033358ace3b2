"""The archive's alignments and lineages: alignments stored per pair of versions (kept from whoever computed
them, never decoded back), consecutive pairs kept in step with the order, and lineage ids stored per rule."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Iterable, Iterator, Mapping

from ..matcher.classify import align
from ..matcher.lineage import LINEAGE_LOOKBACK, assign_lineages, find_bridges
from ..matcher.records import Alignment
from .base import cannot_keep, rows_of
from .codec import (
    Pair,
    changes_from_blob,
    decode_alignment,
    encode_alignment,
    engine_version,
    pairs_from_blob,
    read_json,
)
from .corrections import CorrectionsBase
from .rows import VersionRow

Change = tuple[str, list[int], list[int], str | None, bool]  # (kind, old positions, new positions, nature, uncertain)


class AligningArchive(CorrectionsBase):
    """Alignments, lineages and bridges; see ``Archive``."""

    def has_alignment(self, a: int, b: int) -> bool:
        return (
            self.db.execute("SELECT 1 FROM alignments WHERE old_id = ? AND new_id = ?", (a, b)).fetchone() is not None
        )

    def ensure_alignment(self, a: int, b: int, role: str) -> None:
        """Store the alignment of versions ``a`` and ``b`` unless it is there: one a worker already
        computed (see add_many), or a fresh one, which is also kept in memory for ``alignment``."""
        if self.has_alignment(a, b):
            return
        shas = dict(self.db.execute("SELECT id, sha256 FROM versions WHERE id IN (?, ?)", (a, b)).fetchall())
        ready = self._precomputed.pop((shas[a], shas[b]), None)
        if ready is None:
            al = align(self.document(a), self.document(b))
            self._alignments[(a, b)] = al
            ready = encode_alignment(al)
        blob, summary, pairs = ready
        self._pairs_cache[(a, b)] = pairs
        self.db.execute(
            "INSERT OR REPLACE INTO alignments(old_id, new_id, role, summary, data, engine) VALUES (?,?,?,?,?,?)",
            (a, b, role, summary, blob, engine_version()),
        )

    def ensure_alignments(self, pairs: Iterable[tuple[int, int]], role: str) -> None:
        """Store every missing alignment of ``pairs`` in one transaction."""
        missing = [(a, b) for a, b in pairs if not self.has_alignment(a, b)]
        if missing:
            with self.transaction():
                for a, b in missing:
                    self.ensure_alignment(a, b, role)

    def stale_alignments(self) -> list[tuple[int, int]]:
        """Stored alignments another engine made (an older rulediff, or other matching code)."""
        return [
            (a, b)
            for a, b in self.db.execute("SELECT old_id, new_id FROM alignments WHERE engine != ?", (engine_version(),))
        ]

    def refresh_alignments(self, progress: Callable[[str], None] | None = None) -> int:
        """Re-align what another engine stored: an answer that is the same is only re-stamped; one that
        differs replaces it, and lineages are reassigned from the earliest version it touches. Each pair is
        its own transaction, so a concurrent add waits seconds, not minutes. How many answers changed?"""
        changed: set[int] = set()
        for a, b in self.stale_alignments():
            if progress is not None:
                progress(f"re-aligning #{a} -> #{b} with this rulediff's engine")
            al = align(self.document(a), self.document(b))
            blob, summary, pairs = encode_alignment(al)
            with self.transaction():
                row = self.db.execute(
                    "SELECT data FROM alignments WHERE old_id = ? AND new_id = ? AND engine != ?",
                    (a, b, engine_version()),
                ).fetchone()
                if row is None:
                    continue  # another process refreshed it meanwhile
                if row[0] != blob:
                    changed.add(b)
                self.db.execute(
                    "UPDATE alignments SET data = ?, summary = ?, engine = ? WHERE old_id = ? AND new_id = ?",
                    (blob, summary, engine_version(), a, b),
                )
                self._pairs_cache[(a, b)] = pairs
                self._alignments[(a, b)] = al
        if changed:
            with self.transaction():
                vs = self.versions()
                at = [k for k, v in enumerate(vs) if v.id in changed]
                if at:
                    self._store_lineages(vs, min(at))
        return len(changed)

    def alignment(self, old: str, new: str) -> Alignment:
        """The alignment of two archived versions: stored for neighbours, computed (and kept) otherwise."""
        with self.snapshot():
            a, b = self.resolve(old).id, self.resolve(new).id
            fixes = self.corrections(a, b)
            if fixes:  # the matcher's answer with this pair's hand corrections: made on request, never stored
                return align(self.document(a), self.document(b), fixes)
            if (a, b) in self._alignments:
                return self._alignments[(a, b)]
            row = self.db.execute(
                "SELECT data, engine FROM alignments WHERE old_id = ? AND new_id = ?", (a, b)
            ).fetchone()
            if row is not None:
                if row[1] == engine_version():
                    al = decode_alignment(self.document(a), self.document(b), row[0])
                else:  # made by another engine: answer with this one (refresh_alignments stores it)
                    al = align(self.document(a), self.document(b))
                self._alignments[(a, b)] = al
                return al
            # The two releases as this snapshot has them: what the answer is made of, and what it may be kept for.
            old_doc, new_doc = self.document(a), self.document(b)
            shas = self._shas(a, b)
        # Worked out before the archive is written (no writer waits a long jump's second for it), then kept
        # if the archive can take it at once: a read-only or full archive, or one another process is writing,
        # still answers; it just does not keep the answer.
        al = align(old_doc, new_doc)
        self._keep_on_request(a, b, shas, al)
        self._alignments[(a, b)] = al
        return al

    def _shas(self, a: int, b: int) -> dict[int, str]:
        return dict(self.db.execute("SELECT id, sha256 FROM versions WHERE id IN (?, ?)", (a, b)).fetchall())

    def _keep_on_request(self, a: int, b: int, shas: dict[int, str], al: Alignment) -> None:
        blob, summary, pairs = encode_alignment(al)
        (wait,) = self.db.execute("PRAGMA busy_timeout").fetchone()
        self.db.execute("PRAGMA busy_timeout = 0")
        try:
            with self.transaction():
                if self._shas(a, b) != shas:
                    return  # a release removed, or its id given to another, while the answer was worked out
                if self.has_alignment(a, b):
                    return  # another process stored it meanwhile (the same engine: the same answer)
                self.db.execute(
                    "INSERT INTO alignments(old_id, new_id, role, summary, data, engine) VALUES (?,?,?,?,?,?)",
                    (a, b, "on request", summary, blob, engine_version()),
                )
            self._pairs_cache[(a, b)] = pairs
        except sqlite3.OperationalError as e:
            if not cannot_keep(e):
                raise
        finally:
            self.db.execute(f"PRAGMA busy_timeout = {int(wait)}")

    def pairs(self, a: int, b: int) -> list[Pair]:
        """(kind, old positions, new positions) of a stored alignment, without rebuilding documents."""
        got = self._pairs_cache.get((a, b))
        if got is not None:
            return got
        self.ensure_alignment(a, b, "lineage")
        if (a, b) not in self._pairs_cache:
            (blob,) = self.db.execute("SELECT data FROM alignments WHERE old_id = ? AND new_id = ?", (a, b)).fetchone()
            self._pairs_cache[(a, b)] = pairs_from_blob(blob)
        return self._pairs_cache[(a, b)]

    def stored_changes(self, a: int, b: int) -> list[Change] | None:
        """Every change of the stored alignment of ``a`` and ``b`` (None: not stored), without documents."""
        row = self.db.execute("SELECT data FROM alignments WHERE old_id = ? AND new_id = ?", (a, b)).fetchone()
        return changes_from_blob(row[0]) if row is not None else None

    def matcher_summaries(self) -> dict[tuple[int, int], dict[str, int]]:
        """The counts of every stored alignment as the matcher made it (no hand corrections applied)."""
        rows = self.db.execute("SELECT old_id, new_id, summary FROM alignments")
        return {(a, b): read_json(s, "an alignment's counts") for a, b, s in rows}

    def summaries(self) -> dict[tuple[int, int], dict[str, int]]:
        """The counts of every stored alignment, a pair with hand corrections as its diff page shows it."""
        out = self.matcher_summaries()
        for a, b in out:
            if self.corrections(a, b):  # counted as its diff page shows it, corrections applied
                out[(a, b)] = self.alignment(f"#{a}", f"#{b}").summary()
        return out

    def bridges(self) -> list[tuple[int, int]]:
        """Pairs of partial dumps that cover the same rules with other versions between them."""
        return find_bridges(self, [v.id for v in self.versions()])

    def _relink(self, start: int, progress: Callable[[str], None] | None) -> None:
        """Recompute what depends on order from position ``start`` on, after an insert or removal:
        consecutive alignments (kept when still valid) and the lineages of later versions."""
        vs = self.versions()
        ids = [v.id for v in vs]
        wanted = set(zip(ids, ids[1:], strict=False))
        # An alignment belongs to its two versions, not to their order: a pair no longer consecutive is kept
        # (lineage looks past partial dumps through such pairs), and one that becomes consecutive is reused.
        for a, b in list(self.db.execute("SELECT old_id, new_id FROM alignments WHERE role = 'consecutive'")):
            if (a, b) not in wanted:
                self.db.execute("UPDATE alignments SET role = 'lineage' WHERE old_id = ? AND new_id = ?", (a, b))
        for k in range(max(0, start - 1), len(ids) - 1):
            a, b = ids[k], ids[k + 1]
            if self.has_alignment(a, b):
                self.db.execute("UPDATE alignments SET role = 'consecutive' WHERE old_id = ? AND new_id = ?", (a, b))
            else:
                if progress is not None:
                    progress(f"aligning {vs[k].label} -> {vs[k + 1].label}")
                self.ensure_alignment(a, b, "consecutive")
        self._store_lineages(vs, max(0, start))

    def _store_lineages(self, vs: list[VersionRow], start: int) -> None:
        """Reassign the lineages of versions from ``start`` on (the ones before keep theirs) and store them."""
        db = self.db
        later = [v.id for v in vs[start:]]
        marks = ",".join("?" * len(later))
        if later:
            db.execute(f"DELETE FROM lineages WHERE first_version IN ({marks})", later)
            db.execute(f"DELETE FROM lineage_edges WHERE version_id IN ({marks})", later)
        next_id = (db.execute("SELECT coalesce(max(id), 0) FROM lineages").fetchone()[0] or 0) + 1
        known = _StoredLineages(self, [v.id for v in vs[max(0, start - LINEAGE_LOOKBACK) : start]])
        self._fix_index = None  # corrections are read afresh: versions or corrections may have changed
        got = assign_lineages(self, [v.id for v in vs], start, known, next_id)
        db.executemany("INSERT INTO lineages VALUES (?,?,?,?)", got.born)
        db.executemany("INSERT INTO lineage_edges VALUES (?,?,?,?)", got.edges)
        self._store_marks(later, got.marks)
        for vid, lin in got.ids.items():
            columns = self._unwritten.pop(vid, None)
            if columns is not None:  # a version being added: its rules are written once, lineage and all
                db.executemany(
                    "INSERT INTO rules(version_id, pos, number, line, anchor, body_id, lineage) VALUES (?,?,?,?,?,?,?)",
                    rows_of(vid, *columns, lin),
                )
                continue
            db.executemany(
                "UPDATE rules SET lineage = ? WHERE version_id = ? AND pos = ?",
                [(x, vid, j) for j, x in enumerate(lin)],
            )


class _StoredLineages(Mapping[int, list[int]]):
    """The stored lineage ids of ``vids`` (by position), each read when lineage first asks for it: a version
    looks back past its predecessor only for rules that one did not cover, which is seldom."""

    def __init__(self, arc: AligningArchive, vids: list[int]) -> None:
        self.arc, self.vids, self.read = arc, vids, dict[int, list[int]]()

    def __getitem__(self, vid: int) -> list[int]:
        if vid not in self.vids:
            raise KeyError(vid)
        if vid not in self.read:
            self.arc._write_rules(vid)
            q = "SELECT lineage FROM rules WHERE version_id = ? ORDER BY pos"
            self.read[vid] = [x for (x,) in self.arc.db.execute(q, (vid,))]
        return self.read[vid]

    def __iter__(self) -> Iterator[int]:
        return iter(self.vids)

    def __len__(self) -> int:
        return len(self.vids)
