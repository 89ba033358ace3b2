"""The archive's alignments: stored for neighbours, worked out on request, hand corrections on top."""

# The archive's alignments: stored per pair of versions (kept from whoever computed them, never decoded back for
# lineage), worked out on request for other pairs, with the hand corrections of a pair applied on top.

from __future__ import annotations

import sqlite3
from collections.abc import Iterable

from ..coverage import Coverage
from ..matcher.classify import align
from ..matcher.corrections import Fix
from ..matcher.lineage import find_bridges
from ..matcher.records import Alignment
from .codec import (
    Encoded,
    Pair,
    changes_from_blob,
    decode_alignment,
    encode_alignment,
    engine_version,
    pairs_from_blob,
    read_json,
)
from .corrections import Corrections
from .rows import Lru
from .store import Store, cannot_keep
from .versions import RuleKey, Versions

# Alignments computed in this process, kept so a caller gets the object rather than its stored copy decoded.
ALIGNMENT_CACHE = 4

Change = tuple[str, list[int], list[int], str | None, bool]  # (kind, old positions, new positions, nature, uncertain)


class Alignments:
    """The alignments of an open archive's versions."""

    def __init__(self, store: Store, versions: Versions, corrections: Corrections) -> None:
        self.store, self.versions, self.corrections = store, versions, corrections
        self.path = store.path
        self.memo: Lru[tuple[int, int], Alignment] = Lru(ALIGNMENT_CACHE)
        # The paired changes of stored alignments, by pair: what lineage reads.
        self.pairs_cache: dict[tuple[int, int], list[Pair]] = {}
        # Alignments a worker computed ahead of time, by (old sha256, new sha256).
        self.precomputed: dict[tuple[str, str], Encoded] = {}
        self.keys = _Keys(self)

    @property
    def engine(self) -> str:
        """Names the code that makes alignments (codec.engine_version): what a cache of their counts is keyed by."""
        return engine_version()

    def forget(self) -> None:
        """Drop what is kept in memory (after a removal or a rolled-back change)."""
        self.memo.clear()
        self.pairs_cache.clear()

    def trim(self, keep: int) -> None:
        """Forget the paired changes of all but the ``keep`` newest pairs (see ``Versions.trim``)."""
        for pair in list(self.pairs_cache)[: max(0, len(self.pairs_cache) - keep)]:
            del self.pairs_cache[pair]

    def has(self, a: int, b: int) -> bool:
        return (
            self.store.db.execute("SELECT 1 FROM alignments WHERE old_id = ? AND new_id = ?", (a, b)).fetchone()
            is not None
        )

    def ensure(self, a: int, b: int, role: str) -> None:
        """Store the alignment of versions ``a`` and ``b`` unless it is there: one a worker already
        computed (see add_many), or a fresh one, which is also kept in memory for ``alignment``."""
        if self.has(a, b):
            return
        shas = dict(self.store.db.execute("SELECT id, sha256 FROM versions WHERE id IN (?, ?)", (a, b)).fetchall())
        ready = self.precomputed.pop((shas[a], shas[b]), None)
        if ready is None:
            al = align(self.versions.document(a), self.versions.document(b))
            self.memo[(a, b)] = al
            ready = encode_alignment(al)
        blob, summary, pairs = ready
        self.pairs_cache[(a, b)] = pairs
        self.store.db.execute(
            "INSERT OR REPLACE INTO alignments(old_id, new_id, role, summary, data, engine) VALUES (?,?,?,?,?,?)",
            (a, b, role, summary, blob, engine_version()),
        )

    def ensure_all(self, pairs: Iterable[tuple[int, int]], role: str) -> None:
        """Store every missing alignment of ``pairs`` in one transaction."""
        missing = [(a, b) for a, b in pairs if not self.has(a, b)]
        if missing:
            with self.store.transaction():
                for a, b in missing:
                    self.ensure(a, b, role)

    def stale(self) -> list[tuple[int, int]]:
        """Stored alignments another engine made (an older rulediff, or other matching code)."""
        return [
            (a, b)
            for a, b in self.store.db.execute(
                "SELECT old_id, new_id FROM alignments WHERE engine != ?", (engine_version(),)
            )
        ]

    def get(self, old: str, new: str) -> Alignment:
        """The alignment of two archived versions: stored for neighbours, computed (and kept) otherwise."""
        with self.store.snapshot():
            a, b = self.versions.resolve(old).id, self.versions.resolve(new).id
            fixes = self.corrections.for_pair(a, b)
            if fixes:  # the matcher's answer with this pair's hand corrections: made on request, never stored
                return align(self.versions.document(a), self.versions.document(b), fixes)
            if (a, b) in self.memo:
                return self.memo[(a, b)]
            row = self.store.db.execute(
                "SELECT data, engine FROM alignments WHERE old_id = ? AND new_id = ?", (a, b)
            ).fetchone()
            if row is not None:
                if row[1] == engine_version():
                    al = decode_alignment(self.versions.document(a), self.versions.document(b), row[0])
                else:  # made by another engine: answer with this one (refresh_alignments stores it)
                    al = align(self.versions.document(a), self.versions.document(b))
                self.memo[(a, b)] = al
                return al
            # The two releases as this snapshot has them: what the answer is made of, and what it may be kept for.
            old_doc, new_doc = self.versions.document(a), self.versions.document(b)
            shas = self._shas(a, b)
        # Worked out before the archive is written (no writer waits a long jump's second for it), then kept
        # if the archive can take it at once: a read-only or full archive, or one another process is writing,
        # still answers; it just does not keep the answer.
        al = align(old_doc, new_doc)
        self._keep_on_request(a, b, shas, al)
        self.memo[(a, b)] = al
        return al

    def _shas(self, a: int, b: int) -> dict[int, str]:
        return dict(self.store.db.execute("SELECT id, sha256 FROM versions WHERE id IN (?, ?)", (a, b)).fetchall())

    def _keep_on_request(self, a: int, b: int, shas: dict[int, str], al: Alignment) -> None:
        blob, summary, pairs = encode_alignment(al)
        (wait,) = self.store.db.execute("PRAGMA busy_timeout").fetchone()
        self.store.db.execute("PRAGMA busy_timeout = 0")
        try:
            with self.store.transaction():
                if self._shas(a, b) != shas:
                    return  # a release removed, or its id given to another, while the answer was worked out
                if self.has(a, b):
                    return  # another process stored it meanwhile (the same engine: the same answer)
                self.store.db.execute(
                    "INSERT INTO alignments(old_id, new_id, role, summary, data, engine) VALUES (?,?,?,?,?,?)",
                    (a, b, "on request", summary, blob, engine_version()),
                )
            self.pairs_cache[(a, b)] = pairs
        except sqlite3.OperationalError as e:
            if not cannot_keep(e):
                raise
        finally:
            self.store.db.execute(f"PRAGMA busy_timeout = {int(wait)}")

    def pairs(self, a: int, b: int) -> list[Pair]:
        """(kind, old positions, new positions) of a stored alignment, without rebuilding documents."""
        got = self.pairs_cache.get((a, b))
        if got is not None:
            return got
        self.ensure(a, b, "lineage")
        if (a, b) not in self.pairs_cache:
            (blob,) = self.store.db.execute(
                "SELECT data FROM alignments WHERE old_id = ? AND new_id = ?", (a, b)
            ).fetchone()
            self.pairs_cache[(a, b)] = pairs_from_blob(blob)
        return self.pairs_cache[(a, b)]

    def stored_changes(self, a: int, b: int) -> list[Change] | None:
        """Every change of the stored alignment of ``a`` and ``b`` (None: not stored), without documents."""
        row = self.store.db.execute("SELECT data FROM alignments WHERE old_id = ? AND new_id = ?", (a, b)).fetchone()
        return changes_from_blob(row[0]) if row is not None else None

    def matcher_summaries(self) -> dict[tuple[int, int], dict[str, int]]:
        """The counts of every stored alignment as the matcher made it (no hand corrections applied)."""
        rows = self.store.db.execute("SELECT old_id, new_id, summary FROM alignments")
        return {(a, b): read_json(s, "an alignment's counts") for a, b, s in rows}

    def summaries(self) -> dict[tuple[int, int], dict[str, int]]:
        """The counts of every stored alignment, a pair with hand corrections as its diff page shows it."""
        out = self.matcher_summaries()
        for a, b in out:
            if self.corrections.for_pair(a, b):  # counted as its diff page shows it, corrections applied
                out[(a, b)] = self.get(f"#{a}", f"#{b}").summary()
        return out

    def bridges(self) -> list[tuple[int, int]]:
        """Pairs of partial dumps that cover the same rules with other versions between them."""
        return find_bridges(self.keys, [v.id for v in self.versions.timeline()])

    def release(self) -> None:
        """Forget the alignments kept in memory (documents stay)."""
        self.memo.clear()


class _Keys:
    """What lineage reads of an archive (matcher.lineage.RuleKeys): each version's coverage and rule keys, the
    paired changes of two versions, and their hand corrections."""

    def __init__(self, alignments: Alignments) -> None:
        self.alignments = alignments

    def coverage(self, vid: int) -> Coverage:
        return self.alignments.versions.coverage(vid)

    def light(self, vid: int) -> tuple[Coverage, list[RuleKey]]:
        return self.alignments.versions.light(vid)

    def pairs(self, a: int, b: int) -> list[Pair]:
        return self.alignments.pairs(a, b)

    def corrections(self, a: int, b: int) -> list[Fix]:
        return self.alignments.corrections.for_pair(a, b)
