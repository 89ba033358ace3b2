"""Recording hand corrections in an archive ('rulediff archive link' / 'unlink'): checked against what the
archive holds, recorded by sha256, and the lineages from the corrected version on reassigned at once; and
keeping stored lineages in step with the corrections shipped with this rulediff."""

from __future__ import annotations

import contextlib
import json
import sqlite3

from ..errors import ArchiveError, RulediffError
from ..matcher.corrections import LINK, UNLINK, Correction, check_number, check_reason
from ..matcher.lineage import corrected
from .identifying import IdentifyingArchive
from .rows import VersionRow


class CorrectingArchive(IdentifyingArchive):
    """User corrections; see ``Archive``."""

    def link(self, old_ref: str, old_number: str, new_ref: str, new_number: str, reason: str) -> str:
        """Record that ``old_number`` of ``old_ref`` continues as ``new_number`` of ``new_ref``. Replaces a
        recorded unlink of the two; refuses a link that already stands. Returns what was done, one line."""
        old, i, new, j, why = self._checked_correction(old_ref, old_number, new_ref, new_number, reason)
        assert j is not None
        with self.transaction():
            said = self._linked_by(old, i, new, j)
            if said is not None:
                raise ArchiveError(f"{self._name(old, old_number, new, new_number)} already stands ({said})")
            gone = self._forget_recorded(old, old_number, new, UNLINK, new_number)
            self._record(LINK, old, old_number, new, new_number, why)
            self._relineage(new)
        return f"linked by hand: {self._name(old, old_number, new, new_number)}" + (
            f" (replaces {gone} recorded unlink{'s' if gone > 1 else ''})" if gone else ""
        )

    def unlink(self, old_ref: str, old_number: str, new_ref: str, new_number: str | None, reason: str) -> str:
        """Record that ``old_number`` of ``old_ref`` does not continue as ``new_number`` of ``new_ref`` (None:
        as nothing there). Withdraws recorded links of the two; refuses when nothing links them."""
        old, i, new, j, why = self._checked_correction(old_ref, old_number, new_ref, new_number, reason)
        with self.transaction():
            targets = [j] if j is not None else self._successors(old, i, new)
            if not [t for t in targets if self._linked_by(old, i, new, t) is not None]:
                what = f"{new_number} of {new.label}" if new_number else f"anything in {new.label}"
                raise ArchiveError(f"{old.label} {old_number} is not linked to {what}; nothing to unlink")
            gone = self._forget_recorded(old, old_number, new, LINK, new_number)
            self._fix_index = None
            still = [t for t in targets if self._linked_by(old, i, new, t) is not None]
            if still:
                self._record(UNLINK, old, old_number, new, new_number, why)
            self._relineage(new)
        done = f"unlinked by hand: {self._name(old, old_number, new, new_number)}"
        if gone and not still:
            return f"{done} (withdrew {gone} recorded link{'s' if gone > 1 else ''})"
        return done

    def sync_corrections(self) -> bool:
        """Bring stored lineages in step with the corrections this rulediff ships (after an upgrade that
        changed them): reassign from the earliest version a changed line names. Did anything change?"""
        now, before = self._shipped_state()
        if now == before:
            return False
        try:
            with self.transaction():
                now, before = self._shipped_state()
                if now == before:
                    return False
                vs = self.versions()
                lines = {tuple(x) for x in json.loads(now)} ^ {tuple(x) for x in json.loads(before or "[]")}
                at = [k for k, v in enumerate(vs) if any(v.label == ln[3] or v.effective_date == ln[3] for ln in lines)]
                if at:
                    self._store_lineages(vs, min(at))
                self.db.execute("INSERT OR REPLACE INTO meta VALUES ('shipped_corrections', ?)", (now,))
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
        old, new = self.resolve(old_ref), self.resolve(new_ref)
        self._check_versions(old, new)
        i = self.position(old.id, old_number)
        if i is None:
            raise ArchiveError(f"{old.label} has no rule {old_number}", source=src)
        j = self.position(new.id, new_number) if new_number is not None else None
        if new_number is not None and j is None:
            raise ArchiveError(f"{new.label} has no rule {new_number}", source=src)
        return old, i, new, j, why

    def _effective_pairs(self, old: VersionRow, new: VersionRow) -> list[tuple[str, list[int], list[int], bool]]:
        self._fix_index = None
        self.ensure_alignment(old.id, new.id, "lineage")
        return corrected(self.pairs(old.id, new.id), self.corrections(old.id, new.id)).pairs

    def _linked_by(self, old: VersionRow, i: int, new: VersionRow, j: int) -> str | None:
        """Who links rule ``i`` of ``old`` to rule ``j`` of ``new`` now: "by hand", "by the matcher", or None."""
        for kind, o, n, _ in self._effective_pairs(old, new):
            if i in o and j in n:
                return "linked by hand" if kind == "linked by hand" else "the matcher links them"
        return None

    def _successors(self, old: VersionRow, i: int, new: VersionRow) -> list[int]:
        return [j for _, o, n, _ in self._effective_pairs(old, new) if i in o for j in n]

    def _forget_recorded(
        self, old: VersionRow, number: str, new: VersionRow, action: str, new_number: str | None
    ) -> int:
        """Withdraw recorded corrections of ``action`` about the same rule and version pair (for an unlink
        of every successor, or a link, every one about that rule; else the one about ``new_number``)."""
        q = "DELETE FROM corrections WHERE action = ? AND old_sha = ? AND old_number = ? AND new_sha = ?"
        args: list[str] = [action, old.sha256, number, new.sha256]
        if new_number is not None and action == LINK:
            q += " AND new_number = ?"
            args.append(new_number)
        if action == UNLINK and new_number is not None:
            q += " AND (new_number IS NULL OR new_number = ?)"
            args.append(new_number)
        return self.db.execute(q, args).rowcount

    def _record(
        self, action: str, old: VersionRow, number: str, new: VersionRow, new_number: str | None, reason: str
    ) -> None:
        self.db.execute(
            "INSERT INTO corrections(action, old_sha, old_number, new_sha, new_number, reason) VALUES (?,?,?,?,?,?)",
            (action, old.sha256, number, new.sha256, new_number, reason),
        )
        self._fix_index = None

    def _relineage(self, new: VersionRow) -> None:
        vs = self.versions()
        self._store_lineages(vs, [v.id for v in vs].index(new.id))

    @staticmethod
    def _name(old: VersionRow, number: str, new: VersionRow, new_number: str | None) -> str:
        return f"{old.label} {number} -> {new.label} {new_number or '-'}"

    def corrections_listing(self) -> list[dict[str, object]]:
        """Every correction in force, shipped or recorded, with whether lineage applies it and why not."""
        out: list[dict[str, object]] = []
        for c, old, new in self.effective_corrections():
            out.append(
                {
                    "source": c.source,
                    "action": c.action,
                    "old_version": old.label if old else c.old_version,
                    "old_number": c.old_number,
                    "new_version": new.label if new else c.new_version,
                    "new_number": c.new_number,
                    "reason": c.reason,
                    "status": self._status(c, old, new),
                }
            )
        return out

    def _status(self, c: Correction, old: VersionRow | None, new: VersionRow | None) -> str:
        if old is None or new is None:
            return f"not applied: {c.old_version if old is None else c.new_version} is not archived"
        if self.position(old.id, c.old_number) is None:
            return f"not applied: {old.label} has no rule {c.old_number}"
        if c.new_number is not None and self.position(new.id, c.new_number) is None:
            return f"not applied: {new.label} has no rule {c.new_number}"
        with contextlib.suppress(ArchiveError):
            self._check_versions(old, new)
            return "applied"
        return "not applied: the versions are not neighbours in this archive"
