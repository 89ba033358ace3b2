"""Named, dated fixes for specific published releases; each docstring says which release and why."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

LineFix = Callable[[list[str]], list[str]]


@dataclass(frozen=True, slots=True)
class Quirk:
    name: str
    marker: str  # a line that only the affected release(s) contain
    fix: LineFix

    @property
    def doc(self) -> str:
        return (self.fix.__doc__ or "").strip()


QUIRKS: list[Quirk] = []


def quirk(marker: str) -> Callable[[LineFix], LineFix]:
    """Register a fix that runs on releases containing the exact line ``marker``."""

    def register(fn: LineFix) -> LineFix:
        QUIRKS.append(Quirk(fn.__name__, marker, fn))
        return fn

    return register


def apply(lines: list[str], source: str) -> list[str]:
    """Run every quirk whose marker line occurs in ``lines`` (cheap: one set lookup each)."""
    if not QUIRKS:
        return lines
    present = set(lines)
    for q in QUIRKS:
        if q.marker in present:
            lines = q.fix(lines)
    return lines
