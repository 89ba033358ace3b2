"""Plain records the archive hands out (a version row, the result of an add) and the small helpers they need."""

from __future__ import annotations

import os
import re
from collections import OrderedDict
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

from ..dates import days_in_name

DEFAULT_NAME = "rulediff.sqlite"
ENV_VAR = "RULEDIFF_ARCHIVE"
VERSION_COLS = (
    "id, label, effective_date, era, sort_date, format, source, provenance, sha256, size, rule_count, seq, published"
)
# Versions in order: by date, then re-releases of one date by when they were published, then by arrival.
UNDATED = "9999-12-31"  # the day an undated version sorts by: after every dated one
VERSION_ORDER = "sort_date, coalesce(published, sort_date), seq"

K = TypeVar("K")
V = TypeVar("V")


class Lru(OrderedDict[K, V]):
    """A dict that forgets its least recently used entries beyond ``size``."""

    def __init__(self, size: int) -> None:
        super().__init__()
        self.size = size

    def __getitem__(self, key: K) -> V:
        value = super().__getitem__(key)
        self.move_to_end(key)
        return value

    def __setitem__(self, key: K, value: V) -> None:
        super().__setitem__(key, value)
        self.move_to_end(key)
        while len(self) > self.size:
            self.popitem(last=False)


@dataclass(frozen=True, slots=True)
class VersionRow:
    id: int
    label: str
    effective_date: str | None
    era: str | None
    sort_date: str
    format: str
    source: str
    provenance: str | None
    sha256: str
    size: int
    rule_count: int
    seq: int
    published: str | None = None  # a later publication of the same date's rules (a re-release)

    @property
    def date(self) -> str:
        """The date a reader is shown: effective date, era, or "undated" (never the day it sorts by)."""
        return self.effective_date or self.era or ("undated" if self.sort_date == UNDATED else self.sort_date)

    @property
    def in_force_from(self) -> str:
        """The first day this text was the rules: its date, or a re-release's later publication."""
        return max(self.sort_date, self.published or self.sort_date)


@dataclass(frozen=True, slots=True)
class AddResult:
    version: VersionRow
    status: str  # "added", "already archived", "re-release"


def default_path() -> Path:
    return Path(os.environ.get(ENV_VAR) or DEFAULT_NAME)


def sort_date_of(effective: str | None, era: str | None) -> str:
    """A sortable day for a version: its effective date, or the start of its era ("2011-2014" -> 2011-01-01)."""
    if effective:
        return effective
    m = re.fullmatch(r"([0-9]{4})(?:-([0-9]{2})(?:-([0-9]{2}))?)?", (era or "").strip())
    if m:
        return f"{m[1]}-{m[2] or '01'}-{m[3] or '01'}"
    first = re.search(r"\b(1[89][0-9][0-9]|20[0-9][0-9])\b", era or "", re.ASCII)  # a range like "2011-2014": its start
    return f"{first[1]}-01-01" if first else UNDATED


def published_from_name(source: str, effective: str | None) -> str | None:
    """A re-release's publication day from its file name: the latest day the name gives, when it is later
    than the effective date ("cr-20260807-rerelease-20260819.txt" -> 2026-08-19)."""
    days = days_in_name(os.path.basename(source))
    latest = max(days, default=None)
    return latest if latest is not None and effective is not None and latest > effective else None


def printable(name: str) -> str:
    """A file name as text: bytes that are not UTF-8 (kept by the OS as surrogates) become U+FFFD."""
    return name.encode("utf-8", "surrogateescape").decode("utf-8", "replace")
