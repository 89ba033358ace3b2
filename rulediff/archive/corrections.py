"""The hand corrections of lineage an archive applies: recorded over shipped, at rule positions."""

# The archive's hand corrections of lineage: the ones users recorded (stored by sha256, so they outlive removing and
# re-adding a version) over the shipped ones, resolved to rule positions, and what each one's status is.

from __future__ import annotations

import contextlib
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
from .rows import VersionRow
from .store import Store
from .versions import Versions

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


class Corrections:
    """The hand corrections an open archive applies: recorded and shipped, by version pair."""

    def __init__(self, store: Store, versions: Versions) -> None:
        self.store, self.versions = store, versions
        self.path = store.path
        # The corrections by version pair at rule positions, worked out on first use (``forget``: afresh).
        self.fix_index: dict[tuple[int, int], list[Fix]] | None = None
        self._shipped_list: list[Correction] | None = None

    def forget(self) -> None:
        """Work the corrections out afresh at the next use (versions or corrections may have changed)."""
        self.fix_index = None

    def shipped(self) -> list[Correction]:
        if self._shipped_list is None:
            self._shipped_list = shipped_corrections()
        return self._shipped_list

    def recorded(self) -> list[Correction]:
        """The corrections users recorded in this archive (versions as sha256), oldest first. One that is not
        as 'archive link' or 'unlink' wrote it is damage (DamagedArchiveError)."""
        out = []
        for cid, action, old_sha, old_n, new_sha, new_n, reason in self.store.db.execute(
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

    def effective(self) -> list[tuple[Correction, VersionRow | None, VersionRow | None]]:
        """Every correction in force with the versions it names (None: not archived). One the archive
        records replaces the shipped ones about the same rule and version pair."""
        vs = self.versions.all()
        by_sha = {v.sha256: v for v in vs}
        recorded = self.recorded()
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

    def for_pair(self, a: int, b: int) -> list[Fix]:
        """The corrections of the pair of versions ``a`` -> ``b``, at rule positions (lineage reads them)."""
        if self.fix_index is None:
            index: dict[tuple[int, int], list[Fix]] = {}
            for c, old, new in self.effective():
                if old is None or new is None:
                    continue
                i = self.versions.position(old.id, c.old_number)
                j = self.versions.position(new.id, c.new_number) if c.new_number is not None else None
                if i is None or (c.new_number is not None and j is None):
                    continue  # names a rule that version does not have; 'archive corrections' says so
                index.setdefault((old.id, new.id), []).append(Fix(c.action, i, j, c.reason))
            self.fix_index = index
        return self.fix_index.get((a, b), [])

    def shipped_state(self) -> tuple[str, str | None]:
        """(the shipped corrections now, as JSON; those the stored lineages were made with)."""
        now = json.dumps(
            [[c.action, c.old_version, c.old_number, c.new_version, c.new_number, c.reason] for c in self.shipped()],
            ensure_ascii=False,
        )
        row = self.store.db.execute("SELECT value FROM meta WHERE key = 'shipped_corrections'").fetchone()
        return now, row[0] if row is not None else None

    def check_neighbours(self, old: VersionRow, new: VersionRow) -> None:
        """A correction is about two versions lineage compares: ``new`` after ``old``, with at most partial
        dumps between them (lineage looks past those). A dump beside a release follows the release's lineage:
        correct the release's."""
        vs = self.versions.timeline()
        ids = [v.id for v in vs]
        for v in (old, new):
            if v.id not in ids:
                raise ArchiveError(
                    f"{v.label} is a partial dump beside a release of its date, whose lineage it follows; "
                    "correct the release's lineage instead",
                    source=str(self.path),
                )
        i, j = ids.index(old.id), ids.index(new.id)
        if j <= i:
            raise ArchiveError(
                f"{new.label} is not after {old.label}; name the older version first", source=str(self.path)
            )
        between = [v for v in vs[i + 1 : j] if self.versions.coverage(v.id).complete]
        if between:
            raise ArchiveError(
                f"{old.label} and {new.label} are not neighbours ({between[0].label} lies between); "
                "correct the link between consecutive versions",
                source=str(self.path),
            )

    def forget_recorded(
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
        return self.store.db.execute(q, args).rowcount

    def standing(
        self, old: VersionRow, number: str, new: VersionRow, action: str, new_number: str | None
    ) -> str | None:
        """The reason of a correction of ``action`` in force about the rule and version pair (an unlink of
        every successor covers each one), or None."""
        for c, o, n in self.effective():
            if c.action != action or o is None or n is None or (o.id, c.old_number, n.id) != (old.id, number, new.id):
                continue
            if c.new_number == new_number or (action == UNLINK and c.new_number is None):
                return c.reason
        return None

    def record(
        self, action: str, old: VersionRow, number: str, new: VersionRow, new_number: str | None, reason: str
    ) -> None:
        self.store.db.execute(
            "INSERT INTO corrections(action, old_sha, old_number, new_sha, new_number, reason) VALUES (?,?,?,?,?,?)",
            (action, old.sha256, number, new.sha256, new_number, reason),
        )
        self.fix_index = None

    def listing(self) -> list[dict[str, object]]:
        """Every correction in force, shipped or recorded, with whether lineage applies it and why not."""
        out: list[dict[str, object]] = []
        for c, old, new in self.effective():
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
        if self.versions.position(old.id, c.old_number) is None:
            return f"not applied: {old.label} has no rule {c.old_number}"
        if c.new_number is not None and self.versions.position(new.id, c.new_number) is None:
            return f"not applied: {new.label} has no rule {c.new_number}"
        with contextlib.suppress(ArchiveError):
            self.check_neighbours(old, new)
            return "applied"
        return "not applied: the versions are not neighbours in this archive"
