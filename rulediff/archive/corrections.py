"""The archive's hand corrections: the ones users recorded (stored by sha256, so they outlive removing and
re-adding a version) over the shipped ones, resolved to rule positions for lineage; and the marks lineage
leaves where it goes through a hand link, a cut, or an uncertain link."""

from __future__ import annotations

import json
from collections.abc import Callable

from ..errors import ArchiveError, DamagedArchiveError, RulediffError
from ..matcher.corrections import (
    ARCHIVE,
    LINK,
    UNLINK,
    Correction,
    Fix,
    check_number,
    check_reason,
    shipped_corrections,
)
from .base import ArchiveBase
from .rows import VersionRow

# (version id, kind, reason) of one mark of a lineage
Mark = tuple[int, str, str]


def _as_written(value: object, check: Callable[[str], str]) -> bool:
    """Is ``value`` as a recorded correction stores it: what ``check`` (corrections.check_number or
    check_reason, which validate it on the way in) makes of it, unchanged?"""
    try:
        return isinstance(value, str) and check(value) == value
    except RulediffError:
        return False


def _number(text: str) -> str:
    return check_number(text, "")


class CorrectionsBase(ArchiveBase):
    """Corrections as lineage reads them; see ``Archive``."""

    _fix_index: dict[tuple[int, int], list[Fix]] | None = None
    _shipped: list[Correction] | None = None

    def shipped(self) -> list[Correction]:
        if self._shipped is None:
            self._shipped = shipped_corrections()
        return self._shipped

    def recorded_corrections(self) -> list[Correction]:
        """The corrections users recorded in this archive (versions as sha256), oldest first. One that is not
        as 'archive link' or 'unlink' wrote it is damage (DamagedArchiveError)."""
        out = []
        for cid, action, old_sha, old_n, new_sha, new_n, reason in self.db.execute(
            "SELECT id, action, old_sha, old_number, new_sha, new_number, reason FROM corrections ORDER BY id"
        ):
            new_ok = _as_written(new_n, _number) or (action == UNLINK and new_n is None)
            if not (
                action in (LINK, UNLINK)
                and new_ok
                and _as_written(old_n, _number)
                and _as_written(reason, check_reason)
            ):
                raise DamagedArchiveError(
                    f"the archive is damaged: hand correction #{cid} ({action!r}, {old_n!r} -> {new_n!r}) is not as "
                    "rulediff writes one; restore a copy of the archive"
                )
            out.append(Correction(action, old_sha, old_n, new_sha, new_n, reason, ARCHIVE, f"#{cid}"))
        return out

    def effective_corrections(self) -> list[tuple[Correction, VersionRow | None, VersionRow | None]]:
        """Every correction in force with the versions it names (None: not archived). One the archive
        records replaces the shipped ones about the same rule and version pair."""
        vs = self.versions()
        by_sha = {v.sha256: v for v in vs}
        recorded = self.recorded_corrections()
        mine = {c.key for c in recorded}
        out: list[tuple[Correction, VersionRow | None, VersionRow | None]] = []
        for c in self.shipped():
            old, new = self._named(vs, c.old_version), self._named(vs, c.new_version)
            key = (old.sha256 if old else "", c.old_number, new.sha256 if new else "")
            if key not in mine:
                out.append((c, old, new))
        out.extend((c, by_sha.get(c.old_version), by_sha.get(c.new_version)) for c in recorded)
        return out

    def _named(self, vs: list[VersionRow], ref: str) -> VersionRow | None:
        """The archived version a shipped line names by label or effective date (None: not archived)."""
        for hits in ([v for v in vs if v.label == ref], [v for v in vs if v.effective_date == ref]):
            if len(hits) == 1:
                return hits[0]
        return None

    def corrections(self, a: int, b: int) -> list[Fix]:
        """The corrections of the pair of versions ``a`` -> ``b``, at rule positions (lineage reads them)."""
        if self._fix_index is None:
            index: dict[tuple[int, int], list[Fix]] = {}
            for c, old, new in self.effective_corrections():
                if old is None or new is None:
                    continue
                i = self.position(old.id, c.old_number)
                j = self.position(new.id, c.new_number) if c.new_number is not None else None
                if i is None or (c.new_number is not None and j is None):
                    continue  # names a rule that version does not have; 'archive corrections' says so
                index.setdefault((old.id, new.id), []).append(Fix(c.action, i, j, c.reason))
            self._fix_index = index
        return self._fix_index.get((a, b), [])

    def position(self, vid: int, number: str) -> int | None:
        """The position of rule ``number`` in version ``vid`` ("702.175#2": the second rule printed so)."""
        base, _, nth = number.partition("#")
        self._write_rules(vid)
        rows = self.db.execute(
            "SELECT pos FROM rules WHERE version_id = ? AND number = ? ORDER BY pos", (vid, base)
        ).fetchall()
        k = int(nth) - 1 if nth else 0
        return int(rows[k][0]) if 0 <= k < len(rows) else None

    def link_marks(self, lineage: int) -> list[Mark]:
        """Where lineage ``lineage`` goes through a hand link, a cut, or an uncertain link."""
        return [
            (vid, kind, reason)
            for vid, kind, reason in self.db.execute(
                "SELECT version_id, kind, reason FROM link_marks WHERE lineage = ? ORDER BY version_id, kind",
                (lineage,),
            )
        ]

    def all_link_marks(self) -> dict[int, list[Mark]]:
        """``link_marks`` of every lineage at once (for the site)."""
        out: dict[int, list[Mark]] = {}
        for lin, vid, kind, reason in self.db.execute(
            "SELECT lineage, version_id, kind, reason FROM link_marks ORDER BY lineage, version_id, kind"
        ):
            out.setdefault(lin, []).append((vid, kind, reason))
        return out

    def _store_marks(self, later: list[int], marks: list[tuple[int, int, str, str]]) -> None:
        """Replace the marks of the versions whose lineages were just reassigned."""
        if later:
            self.db.execute(f"DELETE FROM link_marks WHERE version_id IN ({','.join('?' * len(later))})", later)
        self.db.executemany("INSERT INTO link_marks VALUES (?,?,?,?)", marks)

    def _shipped_state(self) -> tuple[str, str | None]:
        """(the shipped corrections now, as JSON; those the stored lineages were made with)."""
        now = json.dumps(
            [[c.action, c.old_version, c.old_number, c.new_version, c.new_number, c.reason] for c in self.shipped()],
            ensure_ascii=False,
        )
        row = self.db.execute("SELECT value FROM meta WHERE key = 'shipped_corrections'").fetchone()
        return now, row[0] if row is not None else None

    def _check_versions(self, old: VersionRow, new: VersionRow) -> None:
        """A correction is about two versions lineage compares: ``new`` after ``old``, with at most partial
        dumps between them (lineage looks past those)."""
        vs = self.versions()
        ids = [v.id for v in vs]
        i, j = ids.index(old.id), ids.index(new.id)
        if j <= i:
            raise ArchiveError(
                f"{new.label} is not after {old.label}; name the older version first", source=str(self.path)
            )
        between = [v for v in vs[i + 1 : j] if self.coverage(v.id).complete]
        if between:
            raise ArchiveError(
                f"{old.label} and {new.label} are not neighbours ({between[0].label} lies between); "
                "correct the link between consecutive versions",
                source=str(self.path),
            )
