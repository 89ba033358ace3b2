"""What a source covers of the Comprehensive Rules, and whether it could hold a given rule."""

# What a source covers of the Comprehensive Rules (sections, headings, a string interval, titles, the glossary), and
# whether it could hold a given rule.

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .numbering import Level, RuleNumber


@dataclass(frozen=True, slots=True)
class Coverage:
    """Which part of the Comprehensive Rules a source contains.

    A number is covered when the whole document is (``complete``), or its section, or its
    three-digit heading, is listed, or it falls in the string-order ``interval`` (dataset slices are
    sorted as strings, so 701.42b..702.10 holds 702.1 and 702.10 but not 702.2). Unnumbered sources
    cover only the ``titles`` they name.
    """

    complete: bool = False
    sections: tuple[int, ...] = ()
    headings: tuple[int, ...] = ()
    interval: tuple[str, str] | None = None
    titles: tuple[str, ...] = ()
    glossary: bool = False
    description: str = ""

    def covers(self, number: RuleNumber) -> bool:
        if self.complete:
            return True
        if number.section in self.sections:
            return True
        if number.heading is not None and number.heading in self.headings:
            return True
        if self.interval is not None:
            lo, hi = self.interval
            s = str(number)
            if number.level < Level.RULE and s not in (lo, hi):
                # A heading sorts right before its first rule ("702" < "702.1"): a slice that holds
                # 702.1 but not 702 came from rows without headings, so it says nothing about 702.
                return False
            return lo <= s <= hi
        return False

    def covers_title(self, title: str) -> bool:
        return self.complete or title.casefold() in {t.casefold() for t in self.titles}

    def as_dict(self) -> dict[str, Any]:
        return {
            "complete": self.complete,
            "sections": list(self.sections),
            "headings": list(self.headings),
            "interval": list(self.interval) if self.interval else None,
            "titles": list(self.titles),
            "glossary": self.glossary,
            "description": self.description,
        }


def covers(coverage: Coverage, number: RuleNumber | None, title: str | None, category: str | None) -> bool:
    if number is None:
        # A keyword summary belongs under 702 (abilities) or 701 (actions) wherever it is numbered.
        home = _KEYWORD_HOME.get(category or "")
        if home is not None and coverage.covers(home):
            return True
        return coverage.complete or coverage.covers_title(title or "")
    return coverage.covers(number)


_KEYWORD_HOME = {"keyword ability": RuleNumber(7, 702), "keyword action": RuleNumber(7, 701)}
