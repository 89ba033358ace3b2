"""Calendar dates where they enter rulediff, checked to be real days written YYYY-MM-DD."""

# Calendar dates where they enter rulediff (MANIFEST rows, --as-of, labels, file names): checked to be real days in
# one form, YYYY-MM-DD, with an example in every refusal.

from __future__ import annotations

import re
from datetime import date

from .errors import RulediffError

EXAMPLE = "2026-01-16"
_DAY = re.compile(r"(\d{4})-(\d{2})-(\d{2})")
_IN_NAME = re.compile(r"(?<!\d)((?:19|20)\d{2})-?(\d{2})-?(\d{2})(?!\d)")


def real_day(year: str, month: str, day: str) -> str | None:
    try:
        return date(int(year), int(month), int(day)).isoformat()
    except ValueError:
        return None


def check_day(text: str, *, what: str = "date", source: str | None = None, line: int | None = None) -> str:
    """``text`` as a YYYY-MM-DD day, or a RulediffError naming it, saying why and showing the form."""
    value = text.strip()
    m = _DAY.fullmatch(value)
    day = real_day(*m.groups()) if m else None
    if day is None:
        why = "no such day" if m else "not a date"
        raise RulediffError(f"{what} {value!r}: {why}; expected YYYY-MM-DD, e.g. {EXAMPLE}", source=source, line=line)
    return day


def looks_like_day(text: str) -> bool:
    """Is ``text`` written as a date (whether or not the day exists)?"""
    return _DAY.fullmatch(text.strip()) is not None


def days_in_name(name: str) -> list[str]:
    """The real days written in a file name ("cr-20260807-rerelease-20260819.txt" -> both), in order."""
    return [d for d in (real_day(*m.groups()) for m in _IN_NAME.finditer(name)) if d is not None]
