"""Releases named as people name them: set code, set name, update bulletin, shipped and recorded by hand."""

# Releases named as people name them: the set a release came with ("THB", "Theros Beyond Death"), a mid-cycle
# re-release's own code and name ("IKO_2", "Companion update") and its official Update Bulletin, keyed by the file's
# sha256 (a re-release is its own row). rulediff/data/releases.tsv ships what public facts establish; 'rulediff
# archive describe' records more in an archive, field by field over the shipped row; a field never said stays
# unknown.

from __future__ import annotations

import re
import sqlite3
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from importlib import resources
from urllib.parse import urlsplit

from ..errors import ArchiveError, DamagedArchiveError
from .rows import VersionRow
from .store import Store
from .versions import Versions

SHIPPED_FILE = "releases.tsv"
# A release's code: a set code (letters and digits, at least one letter), and for a mid-cycle re-release "_N",
# its place among the releases of that set ("IKO_2").
_CODE = re.compile(r"(?=[A-Z0-9]*[A-Z])[A-Z0-9]{2,8}(?:_[2-9]|_[1-9][0-9])?")
_LONGEST = 200  # a set or re-release name, a URL: one line, and short
FIELDS = ("code", "set_name", "bulletin", "rerelease")


@dataclass(frozen=True, slots=True)
class ReleaseName:
    """What a release is called: its code ("IKO_2"), the set's name, the re-release's own name, and the URL of
    its official Update Bulletin; None where unknown."""

    code: str | None = None
    set_name: str | None = None
    bulletin: str | None = None
    rerelease: str | None = None

    @property
    def set_code(self) -> str | None:
        """The set's code alone ("IKO" of "IKO_2")."""
        return self.code.split("_", 1)[0] if self.code else None

    def said(self) -> bool:
        return any(getattr(self, f) for f in FIELDS)

    def as_dict(self) -> dict[str, str | None]:
        return {
            "code": self.code,
            "set_code": self.set_code,
            "set_name": self.set_name,
            "rerelease": self.rerelease,
            "bulletin": self.bulletin,
        }


def check_code(text: str) -> str:
    """A release code as stored: upper case, a set code and maybe "_N" ("iko_2" -> "IKO_2")."""
    code = text.strip().upper()
    if not _CODE.fullmatch(code):
        raise ArchiveError(
            f"--set {text!r} is not a set code (2 to 8 letters and digits, like THB or 2XM; a mid-cycle re-release "
            "adds _2, _3: IKO_2)"
        )
    return code


def check_name(text: str, option: str) -> str:
    """A set or re-release name: one line of text, not too long."""
    name = " ".join(text.split())
    if not name or len(name) > _LONGEST or any(ord(c) < 32 for c in name):
        raise ArchiveError(f"{option} {text!r} is not a name (one line of text, at most {_LONGEST} characters)")
    return name


def check_url(text: str) -> str:
    """An Update Bulletin's address: an absolute http(s) URL with a host, no spaces or control characters."""
    url = text.strip()
    try:
        parts = urlsplit(url)
        host = parts.hostname
    except ValueError:
        host = None
    if (
        not url
        or len(url) > 2 * _LONGEST
        or any(c.isspace() or ord(c) < 32 or c in '"<>\\' for c in url)
        or parts.scheme not in ("http", "https")
        or not host
        or "." not in host
    ):
        raise ArchiveError(f"--bulletin {text!r} is not a web address (expected https://HOST/PATH)")
    return url


def parse_names(text: str, source: str) -> dict[str, ReleaseName]:
    """The rows of a releases.tsv: sha256, effective date, code, set name, bulletin, re-release name, and where
    the facts come from, tab-separated, '-' for unknown; '#' starts a comment line."""
    out: dict[str, ReleaseName] = {}
    for n, line in enumerate(text.splitlines(), 1):
        if not line.strip() or line.startswith("#"):
            continue
        cols = line.split("\t")
        if len(cols) != 7 or not re.fullmatch(r"[0-9a-f]{64}", cols[0]) or not cols[6].strip():
            raise ArchiveError(
                "expected sha256, date, code, set name, bulletin, re-release, source", source=source, line=n
            )
        sha, _date, code, set_name, bulletin, rerelease, _where = (c.strip() for c in cols)
        if sha in out:
            raise ArchiveError(f"release {sha[:12]} named twice", source=source, line=n)
        try:
            out[sha] = ReleaseName(
                check_code(code) if code != "-" else None,
                check_name(set_name, "set name") if set_name != "-" else None,
                check_url(bulletin) if bulletin != "-" else None,
                check_name(rerelease, "re-release name") if rerelease != "-" else None,
            )
        except ArchiveError as e:
            raise ArchiveError(e.message, source=source, line=n) from None
    return out


@cache
def shipped_names() -> dict[str, ReleaseName]:
    """The release names published with this rulediff, by sha256."""
    path = resources.files("rulediff.data").joinpath(SHIPPED_FILE)
    return parse_names(path.read_text(encoding="utf-8"), str(path))


class Names:
    """What the releases of an open archive are called: shipped rows under the ones recorded by hand."""

    def __init__(self, store: Store, versions: Versions) -> None:
        self.store, self.versions = store, versions
        self.path = store.path
        self._all: dict[int, ReleaseName] | None = None

    def forget(self) -> None:
        self._all = None

    def recorded(self) -> dict[str, tuple[str | None, ...]]:
        """What 'archive describe' recorded, by sha256: each field as said (None: not said, '': said unknown)."""
        try:
            rows = self.store.db.execute(
                "SELECT sha256, code, set_name, bulletin, rerelease FROM release_names"
            ).fetchall()
        except sqlite3.OperationalError as e:
            if "no such table" in str(e):
                return {}  # an archive made by an older rulediff, read where it cannot be written yet
            raise
        out: dict[str, tuple[str | None, ...]] = {}
        checks: tuple[Callable[[str], str], ...] = (
            check_code,
            lambda t: check_name(t, "set name"),
            check_url,
            lambda t: check_name(t, "name"),
        )
        for sha, *fields in rows:
            for value, check in zip(fields, checks, strict=True):
                if value is None or value == "":
                    continue
                try:
                    ok = isinstance(value, str) and check(value) == value
                except ArchiveError:
                    ok = False
                if not ok:
                    raise DamagedArchiveError(
                        f"the archive is damaged: the name recorded for release {str(sha)[:12]} ({value!r}) is not "
                        "as 'archive describe' writes one; restore a copy of the archive"
                    )
            out[sha] = tuple(fields)
        return out

    def all(self) -> dict[int, ReleaseName]:
        """Version id -> its name, for the archived versions that have one. A code two versions would share
        stays with the one it was recorded for by hand (else the earlier release)."""
        if self._all is None:
            self._all = self._work_out(self.versions.all())
        return self._all

    def _work_out(self, versions: list[VersionRow]) -> dict[int, ReleaseName]:
        shipped, recorded = shipped_names(), self.recorded()
        out: dict[int, ReleaseName] = {}
        by_hand: set[int] = set()
        for v in versions:
            base = shipped.get(v.sha256, ReleaseName())
            said = recorded.get(v.sha256)
            fields = [getattr(base, f) for f in FIELDS]
            if said is not None:
                fields = [(s or None) if s is not None else b for s, b in zip(said, fields, strict=True)]
                if said[0]:
                    by_hand.add(v.id)
            name = ReleaseName(*fields)
            if name.said():
                out[v.id] = name
        holder: dict[str, int] = {}
        place = {v.id: k for k, v in enumerate(versions)}
        for vid in sorted(out, key=lambda vid: (vid not in by_hand, place[vid])):
            code = out[vid].code
            if code is None:
                continue
            if code in holder:
                n = out[vid]
                out[vid] = ReleaseName(None, n.set_name, n.bulletin, n.rerelease)
            else:
                holder[code] = vid
        return out

    def codes(self) -> dict[int, str]:
        """Version id -> its code, for the versions that have one."""
        return {vid: n.code for vid, n in self.all().items() if n.code}

    def of(self, vid: int) -> ReleaseName:
        return self.all().get(vid, ReleaseName())

    def describe(
        self,
        ref: str,
        code: str | None = None,
        set_name: str | None = None,
        bulletin: str | None = None,
        rerelease: str | None = None,
    ) -> tuple[VersionRow, ReleaseName]:
        """Record what version ``ref`` is called, over what was shipped or recorded before: each given field
        replaces the one known ('' makes it unknown). A code another archived version has, a bad code, name or
        address is an ArchiveError and records nothing."""
        v = self.versions.resolve(ref)
        said = [
            None if code is None else (check_code(code) if code.strip() else ""),
            None if set_name is None else (check_name(set_name, "--set-name") if set_name.strip() else ""),
            None if bulletin is None else (check_url(bulletin) if bulletin.strip() else ""),
            None if rerelease is None else (check_name(rerelease, "--rerelease") if rerelease.strip() else ""),
        ]
        if said[0]:
            holder = next((vid for vid, c in self.codes().items() if c == said[0] and vid != v.id), None)
            if holder is not None:
                other = self.versions.get(holder)
                raise ArchiveError(
                    f"{said[0]} already names {other.label}; a mid-cycle re-release of a set takes the next "
                    f"number ({said[0].split('_')[0]}_2, _3, ...)",
                    source=str(self.path),
                )
        with self.store.transaction():
            before = self.store.db.execute(
                "SELECT code, set_name, bulletin, rerelease FROM release_names WHERE sha256 = ?", (v.sha256,)
            ).fetchone()
            merged = [s if s is not None else (before[k] if before else None) for k, s in enumerate(said)]
            self.store.db.execute(
                "INSERT OR REPLACE INTO release_names(sha256, code, set_name, bulletin, rerelease)"
                " VALUES (?, ?, ?, ?, ?)",
                (v.sha256, *merged),
            )
        self.forget()
        return v, self.of(v.id)
