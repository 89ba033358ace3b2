"""Which printing of its number a rule is, where a release prints one number more than once."""

from __future__ import annotations

from ..matcher.sides import number_labels
from ..model import Document

_TIMES = {2: "twice", 3: "three times", 4: "four times"}
_NTH = ("first", "second", "third", "fourth")


def printings(doc: Document) -> dict[int, str]:
    """Position -> "printed twice: first" (or "second", ...) for every rule of ``doc`` whose number the release
    prints more than once (2009-09-04 prints 702.30d twice, 2024-09-20 702.175): what tells their two headings
    apart wherever a number is shown. Empty for a release that prints each number once (nearly all)."""
    labels = number_labels(doc)
    twice = {label.partition("#")[0] for label in labels if label is not None and "#" in label}
    if not twice:
        return {}
    at: dict[str, list[int]] = {}
    for i, label in enumerate(labels):
        if label is not None and label.partition("#")[0] in twice:
            at.setdefault(label.partition("#")[0], []).append(i)
    out: dict[int, str] = {}
    for places in at.values():
        times = _TIMES.get(len(places), f"{len(places)} times")
        for k, i in enumerate(places):
            nth = _NTH[k] if k < len(_NTH) else f"number {k + 1}"
            out[i] = f"printed {times}: {nth}"
    return out


def said(number: str, printing: str) -> str:
    """A number as a reader is told it: "702.30d", or "702.30d (printed twice: second)"."""
    return f"{number} ({printing})" if printing else number
