"""The archive's lineages: a permanent id per rule, kept in step with the order and hand links."""

# The archive's lineages: a permanent id per rule carried through the alignments of consecutive versions, kept in
# step with the order (relinking after an insert or removal, re-aligning what another engine stored), hand links and
# unlinks recorded and applied at once, and the reads of a lineage's rules, edges and marks.

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable, Iterator, Mapping
from operator import itemgetter

from ..errors import ArchiveError, RulediffError
from ..matcher.classify import align
from ..matcher.corrections import LINK, UNLINK, check_number, check_reason
from ..matcher.lineage import LINEAGE_LOOKBACK, assign_lineages, corrected
from .alignments import Alignments
from .codec import encode_alignment, engine_version, examples_from_row, orphan_rule
from .corrections import Corrections, Mark
from .rows import VersionRow
from .store import Store, rows_of
from .versions import Versions

# (version id, position, number, title, text, example texts) of one rule of a lineage
LineageRow = tuple[int, int, str | None, str | None, str, list[str]]


class Lineages:
    """The lineages of an open archive's rules."""

    def __init__(self, store: Store, versions: Versions, alignments: Alignments, corrections: Corrections) -> None:
        self.store, self.versions, self.alignments, self.corrections = store, versions, alignments, corrections
        self.path = store.path

    def refresh(self, progress: Callable[[str], None] | None = None) -> int:
        """Re-align what another engine stored: an answer that is the same is only re-stamped; one that
        differs replaces it, and lineages are reassigned from the earliest version it touches. Each pair is
        its own transaction, so a concurrent add waits seconds, not minutes. How many answers changed?"""
        changed: set[int] = set()
        for a, b in self.alignments.stale():
            if progress is not None:
                progress(f"re-aligning #{a} -> #{b} with this rulediff's engine")
            al = align(self.versions.document(a), self.versions.document(b))
            blob, summary, pairs = encode_alignment(al)
            with self.store.transaction():
                row = self.store.db.execute(
                    "SELECT data FROM alignments WHERE old_id = ? AND new_id = ? AND engine != ?",
                    (a, b, engine_version()),
                ).fetchone()
                if row is None:
                    continue  # another process refreshed it meanwhile
                if row[0] != blob:
                    changed.add(b)
                self.store.db.execute(
                    "UPDATE alignments SET data = ?, summary = ?, engine = ? WHERE old_id = ? AND new_id = ?",
                    (blob, summary, engine_version(), a, b),
                )
                self.alignments.pairs_cache[(a, b)] = pairs
                self.alignments.memo[(a, b)] = al
        if changed:
            with self.store.transaction():
                vs = self.versions.timeline()
                at = [k for k, v in enumerate(vs) if v.id in changed]
                if at:
                    self.assign(vs, min(at))
                self.assign_beside()
        return len(changed)

    def relink(self, start: int, progress: Callable[[str], None] | None) -> None:
        """Recompute what depends on order from position ``start`` on (of every version, in order), after an
        insert or removal: consecutive alignments along the timeline (kept when still valid), the lineages of
        later versions, and the versions beside a release (aligned with it, its lineages carried over)."""
        every = self.versions.all()
        aside = self.versions.beside(every)
        vs = [v for v in every if v.id not in aside]
        start = sum(1 for v in every[:start] if v.id not in aside)  # the same place, on the timeline
        ids = [v.id for v in vs]
        wanted = set(zip(ids, ids[1:], strict=False))
        # An alignment belongs to its two versions, not to their order: a pair no longer consecutive is kept
        # (lineage looks past partial dumps through such pairs), and one that becomes consecutive is reused.
        for a, b in list(self.store.db.execute("SELECT old_id, new_id FROM alignments WHERE role = 'consecutive'")):
            if (a, b) not in wanted:
                self.store.db.execute("UPDATE alignments SET role = 'lineage' WHERE old_id = ? AND new_id = ?", (a, b))
        for k in range(max(0, start - 1), len(ids) - 1):
            a, b = ids[k], ids[k + 1]
            if self.alignments.has(a, b):
                self.store.db.execute(
                    "UPDATE alignments SET role = 'consecutive' WHERE old_id = ? AND new_id = ?", (a, b)
                )
            else:
                if progress is not None:
                    progress(f"aligning {vs[k].label} -> {vs[k + 1].label}")
                self.alignments.ensure(a, b, "consecutive")
        self.assign(vs, max(0, start))
        self.assign_beside(progress)

    def assign_beside(self, progress: Callable[[str], None] | None = None) -> None:
        """Give the rules of every version beside a release the lineages of the release's rules they pair
        with (none to a rule the release has no counterpart of), through their alignment with the release."""
        every = self.versions.all()
        for vid in sorted(self.versions.beside(every)):
            release = self.versions.release_of(vid, every)
            if release is None:
                continue
            if progress is not None and not self.alignments.has(release.id, vid):
                progress(f"aligning {release.label} with {next(v.label for v in every if v.id == vid)}")
            self.alignments.ensure(release.id, vid, "beside")
            self.store.write_rules(release.id)
            self.store.write_rules(vid)
            q = "SELECT lineage FROM rules WHERE version_id = ? ORDER BY pos"
            theirs = [x for (x,) in self.store.db.execute(q, (release.id,))]
            mine: dict[int, int | None] = {}
            for _, old, new, _ in self.alignments.pairs(release.id, vid):
                for j in new:
                    mine.setdefault(j, theirs[old[0]] if old else None)
            self.store.db.execute("UPDATE rules SET lineage = NULL WHERE version_id = ?", (vid,))
            self.store.db.executemany(
                "UPDATE rules SET lineage = ? WHERE version_id = ? AND pos = ?",
                [(lin, vid, j) for j, lin in mine.items() if lin is not None],
            )

    def assign(self, vs: list[VersionRow], start: int) -> None:
        """Reassign the lineages of versions from ``start`` on (the ones before keep theirs) and store them."""
        db = self.store.db
        later = [v.id for v in vs[start:]]
        marks = ",".join("?" * len(later))
        if later:
            db.execute(f"DELETE FROM lineages WHERE first_version IN ({marks})", later)
            db.execute(f"DELETE FROM lineage_edges WHERE version_id IN ({marks})", later)
        next_id = (db.execute("SELECT coalesce(max(id), 0) FROM lineages").fetchone()[0] or 0) + 1
        known = _StoredLineages(self.store, [v.id for v in vs[max(0, start - LINEAGE_LOOKBACK) : start]])
        self.corrections.fix_index = None  # corrections are read afresh: versions or corrections may have changed
        got = assign_lineages(self.alignments.keys, [v.id for v in vs], start, known, next_id)
        db.executemany("INSERT INTO lineages VALUES (?,?,?,?)", got.born)
        db.executemany("INSERT INTO lineage_edges VALUES (?,?,?,?)", got.edges)
        self._store_marks(later, got.marks)
        for vid, lin in got.ids.items():
            columns = self.store.unwritten.pop(vid, None)
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

    def link(self, old_ref: str, old_number: str, new_ref: str, new_number: str, reason: str) -> str:
        """Record that ``old_number`` of ``old_ref`` continues as ``new_number`` of ``new_ref``. Replaces a
        recorded unlink of the two; refuses a link that already stands. Returns what was done, one line."""
        old, i, new, j, why = self._checked_correction(old_ref, old_number, new_ref, new_number, reason)
        assert j is not None
        with self.store.transaction():
            said = self._linked_by(old, i, new, j)
            if said is not None:
                raise ArchiveError(f"{self._name(old, old_number, new, new_number)} already stands ({said})")
            gone = self.corrections.forget_recorded(old, old_number, new, UNLINK, new_number)
            self.corrections.record(LINK, old, old_number, new, new_number, why)
            self._relineage(new)
        return f"linked by hand: {self._name(old, old_number, new, new_number)}" + (
            f" (replaces {gone} recorded unlink{'s' if gone > 1 else ''})" if gone else ""
        )

    def unlink(self, old_ref: str, old_number: str, new_ref: str, new_number: str | None, reason: str) -> str:
        """Record that ``old_number`` of ``old_ref`` does not continue as ``new_number`` of ``new_ref`` (None:
        as nothing there). Withdraws recorded links of the two; refuses when nothing links them."""
        old, i, new, j, why = self._checked_correction(old_ref, old_number, new_ref, new_number, reason)
        with self.store.transaction():
            targets = [j] if j is not None else self._successors(old, i, new)
            if not [t for t in targets if self._linked_by(old, i, new, t) is not None]:
                what = f"{new_number} of {new.label}" if new_number else f"anything in {new.label}"
                said = self.corrections.standing(old, old_number, new, UNLINK, new_number)
                if said is not None:
                    raise ArchiveError(
                        f"{old.label} {old_number} is already unlinked from {what} by hand ({said!r}); nothing "
                        "changed (to give another reason: 'archive link' it, then unlink it again)",
                        source=str(self.path),
                    )
                raise ArchiveError(
                    f"{old.label} {old_number} is not linked to {what}; nothing to unlink", source=str(self.path)
                )
            gone = self.corrections.forget_recorded(old, old_number, new, LINK, new_number)
            self.corrections.fix_index = None
            still = [t for t in targets if self._linked_by(old, i, new, t) is not None]
            if still:
                self.corrections.record(UNLINK, old, old_number, new, new_number, why)
            self._relineage(new)
        done = f"unlinked by hand: {self._name(old, old_number, new, new_number)}"
        if gone and not still:
            return f"{done} (withdrew {gone} recorded link{'s' if gone > 1 else ''})"
        return done

    def sync_corrections(self) -> bool:
        """Bring stored lineages in step with the corrections this rulediff ships (after an upgrade that
        changed them): reassign from the earliest version a changed line names. Did anything change?"""
        now, before = self.corrections.shipped_state()
        if now == before:
            return False
        try:
            with self.store.transaction():
                now, before = self.corrections.shipped_state()
                if now == before:
                    return False
                vs = self.versions.timeline()
                lines = {tuple(x) for x in json.loads(now)} ^ {tuple(x) for x in json.loads(before or "[]")}
                at = [k for k, v in enumerate(vs) if any(v.label == ln[3] or v.effective_date == ln[3] for ln in lines)]
                if at:
                    self.assign(vs, min(at))
                self.store.db.execute("INSERT OR REPLACE INTO meta VALUES ('shipped_corrections', ?)", (now,))
        except sqlite3.OperationalError as e:
            if "readonly" not in str(e).lower():
                raise
            return False  # a read-only archive keeps the lineages it has
        return True

    def _checked_correction(
        self, old_ref: str, old_number: str, new_ref: str, new_number: str | None, reason: str
    ) -> tuple[VersionRow, int, VersionRow, int | None, str]:
        src = str(self.path)
        try:
            why = check_reason(reason)
            old_number = check_number(old_number, "old number")
            if new_number is not None:
                new_number = check_number(new_number, "new number")
        except RulediffError as e:
            raise ArchiveError(e.message, source=src) from None
        old, new = self.versions.resolve(old_ref), self.versions.resolve(new_ref)
        self.corrections.check_neighbours(old, new)
        i = self.versions.position(old.id, old_number)
        if i is None:
            raise ArchiveError(f"{old.label} has no rule {old_number}", source=src)
        j = self.versions.position(new.id, new_number) if new_number is not None else None
        if new_number is not None and j is None:
            raise ArchiveError(f"{new.label} has no rule {new_number}", source=src)
        return old, i, new, j, why

    def _effective_pairs(self, old: VersionRow, new: VersionRow) -> list[tuple[str, list[int], list[int], bool]]:
        self.corrections.fix_index = None
        self.alignments.ensure(old.id, new.id, "lineage")
        return corrected(self.alignments.pairs(old.id, new.id), self.corrections.for_pair(old.id, new.id)).pairs

    def _linked_by(self, old: VersionRow, i: int, new: VersionRow, j: int) -> str | None:
        """Who links rule ``i`` of ``old`` to rule ``j`` of ``new`` now: "by hand", "by the matcher", or None."""
        for kind, o, n, _ in self._effective_pairs(old, new):
            if i in o and j in n:
                return "linked by hand" if kind == "linked by hand" else "the matcher links them"
        return None

    def _successors(self, old: VersionRow, i: int, new: VersionRow) -> list[int]:
        return [j for _, o, n, _ in self._effective_pairs(old, new) if i in o for j in n]

    def _relineage(self, new: VersionRow) -> None:
        vs = self.versions.timeline()
        self.assign(vs, [v.id for v in vs].index(new.id))
        self.assign_beside()

    @staticmethod
    def _name(old: VersionRow, number: str, new: VersionRow, new_number: str | None) -> str:
        return f"{old.label} {number} -> {new.label} {new_number or '-'}"

    def at(self, vid: int, *, number: str | None = None, title: str | None = None) -> int | None:
        """The lineage of the first rule of version ``vid`` with this number, or this title (any case)."""
        if number is not None:
            row = self.store.db.execute(
                "SELECT lineage FROM rules WHERE version_id = ? AND number = ? ORDER BY pos LIMIT 1", (vid, number)
            ).fetchone()
        else:
            row = self.store.db.execute(
                "SELECT r.lineage FROM rules r JOIN bodies b ON b.id = r.body_id"
                " WHERE r.version_id = ? AND lower(b.title) = lower(?) ORDER BY r.pos LIMIT 1",
                (vid, (title or "").strip()),
            ).fetchone()
        return int(row[0]) if row is not None and row[0] is not None else None

    def rules(self, lineage: int) -> list[LineageRow]:
        """Every rule of one lineage, in no particular order."""
        return [
            (vid, pos, number, title, text, examples_from_row(examples))
            for vid, pos, number, title, text, examples in self.store.db.execute(
                "SELECT r.version_id, r.pos, r.number, b.title, b.text, b.examples FROM rules r"
                " JOIN bodies b ON b.id = r.body_id WHERE r.lineage = ?",
                (lineage,),
            )
        ]

    def edges(self, lineage: int) -> list[tuple[int, int, int, str]]:
        """(from lineage, to lineage, version id, kind) of the splits and merges touching ``lineage``."""
        return [
            (a, b, vid, kind)
            for a, b, vid, kind in self.store.db.execute(
                "SELECT from_lineage, to_lineage, version_id, kind FROM lineage_edges"
                " WHERE from_lineage = ? OR to_lineage = ?",
                (lineage, lineage),
            )
        ]

    def all_edges(self) -> list[tuple[int, int, int, str]]:
        """``edges`` of every lineage at once (for the site), in no order."""
        return [
            (a, b, vid, kind)
            for a, b, vid, kind in self.store.db.execute(
                "SELECT from_lineage, to_lineage, version_id, kind FROM lineage_edges"
            )
        ]

    def rule_index(self) -> tuple[list[tuple[int, int, str | None, int]], dict[int, str]]:
        """(lineage, version id, number, body id) of every archived rule, and the title of every body that has
        one: one pass for the site, which makes its rows of them. A rule row of no archived version is damage
        (DamagedArchiveError)."""
        titles = dict(self.store.db.execute("SELECT id, title FROM bodies WHERE title IS NOT NULL").fetchall())
        known = {v.id for v in self.versions.all()}
        rows = self.store.db.execute("SELECT lineage, version_id, number, body_id FROM rules ORDER BY rowid").fetchall()
        stray = set(map(itemgetter(1), rows)) - known  # (at C speed: 300,000 rows)
        if stray:
            raise orphan_rule(next(vid for _, vid, _, _ in rows if vid in stray))
        return rows, titles

    def marks(self, lineage: int) -> list[Mark]:
        """Where lineage ``lineage`` goes through a hand link, a cut, or an uncertain link."""
        return [
            (vid, kind, reason)
            for vid, kind, reason in self.store.db.execute(
                "SELECT version_id, kind, reason FROM link_marks WHERE lineage = ? ORDER BY version_id, kind",
                (lineage,),
            )
        ]

    def all_marks(self) -> dict[int, list[Mark]]:
        """``link_marks`` of every lineage at once (for the site)."""
        out: dict[int, list[Mark]] = {}
        for lin, vid, kind, reason in self.store.db.execute(
            "SELECT lineage, version_id, kind, reason FROM link_marks ORDER BY lineage, version_id, kind"
        ):
            out.setdefault(lin, []).append((vid, kind, reason))
        return out

    def _store_marks(self, later: list[int], marks: list[tuple[int, int, str, str]]) -> None:
        """Replace the marks of the versions whose lineages were just reassigned."""
        if later:
            self.store.db.execute(f"DELETE FROM link_marks WHERE version_id IN ({','.join('?' * len(later))})", later)
        self.store.db.executemany("INSERT INTO link_marks VALUES (?,?,?,?)", marks)


class _StoredLineages(Mapping[int, list[int]]):
    """The stored lineage ids of ``vids`` (by position), each read when lineage first asks for it: a version
    looks back past its predecessor only for rules that one did not cover, which is seldom."""

    def __init__(self, store: Store, vids: list[int]) -> None:
        self.store, self.vids, self.read = store, vids, dict[int, list[int]]()

    def __getitem__(self, vid: int) -> list[int]:
        if vid not in self.vids:
            raise KeyError(vid)
        if vid not in self.read:
            self.store.write_rules(vid)
            q = "SELECT lineage FROM rules WHERE version_id = ? ORDER BY pos"
            self.read[vid] = [x for (x,) in self.store.db.execute(q, (vid,))]
        return self.read[vid]

    def __iter__(self) -> Iterator[int]:
        return iter(self.vids)

    def __len__(self) -> int:
        return len(self.vids)
