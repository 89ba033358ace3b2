"""Named, dated fixes for specific published releases; each docstring says which release and why."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from ..model import ParseWarning

LineFix = Callable[[str], str]


@dataclass(frozen=True, slots=True)
class Quirk:
    name: str
    marker: str  # the (stripped) line, found only in the affected release(s), that the fix rewrites
    fix: LineFix

    @property
    def doc(self) -> str:
        return " ".join((self.fix.__doc__ or "").split())


QUIRKS: list[Quirk] = []


def quirk(marker: str) -> Callable[[LineFix], LineFix]:
    """Register a fix for the line ``marker`` of the releases that contain it."""

    def register(fn: LineFix) -> LineFix:
        QUIRKS.append(Quirk(fn.__name__, marker, fn))
        return fn

    return register


@quirk(
    "505.54. Third, the active player gets priority. Players may cast spells and activate abilities. "
    "The active player may play a land."
)
def rule_505_5_printed_as_505_54(line: str) -> str:
    """2010-06-18: rule 505.5 is printed "505.54." (505.4 comes before it and 505.5a after); read as 505.5."""
    return line.replace("505.54.", "505.5.", 1)


def apply(lines: list[str], source: str) -> tuple[list[str], list[ParseWarning]]:
    """Run every quirk whose marker line occurs in ``lines`` (one set lookup each); each fix it makes is
    reported as a warning on its line."""
    present = {ln.strip(): k for k, ln in enumerate(lines) if ln and ln[0].isdigit()}
    warnings: list[ParseWarning] = []
    for q in QUIRKS:
        k = present.get(q.marker)
        if k is None:
            continue
        lines = list(lines)
        lines[k] = q.fix(lines[k])
        warnings.append(ParseWarning(k + 1, f"{q.name}: {q.doc}", "quirk"))
    return lines, warnings
