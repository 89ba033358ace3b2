"""Calendar dates where they enter rulediff, checked to be real days written YYYY-MM-DD."""

# Calendar dates where they enter rulediff (MANIFEST rows, --as-of, labels, file names): checked to be real days in
# one form, YYYY-MM-DD, with an example in every refusal.

from __future__ import annotations

import calendar
import re
from datetime import date

from .errors import RulediffError

EXAMPLE = "2026-01-16"
# Digits are 0-9 only: Python's \\d and int() also take other scripts' digits ("٢٠٢٦"), which no date here is in.
_DAY = re.compile(r"([0-9]{4})-([0-9]{2})-([0-9]{2})")
_PERIOD = re.compile(r"([0-9]{4})(?:-([0-9]{2}))?")
_FORMS = "YYYY-MM-DD, YYYY-MM or YYYY"
_IN_NAME = re.compile(r"(?<![0-9])((?:19|20)[0-9]{2})-?([0-9]{2})-?([0-9]{2})(?![0-9])")


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
        why = "no such day" if m else _not_a_date(value)
        raise RulediffError(f"{what} {value!r}: {why}; expected YYYY-MM-DD, e.g. {EXAMPLE}", source=source, line=line)
    return day


def _not_a_date(value: str) -> str:
    if not value:
        return "empty"
    if any(c.isdigit() and not c.isascii() for c in value):
        return "not a date (digits are 0-9)"
    return "not a date"


def day_asked(text: str, *, what: str, today: date | None = None) -> tuple[str, list[str]]:
    """The day a question about the version in force names, with what was assumed reading it (one line
    each, for stderr): YYYY-MM-DD, or a year or year-month, meaning the last day of that period; a day
    after today is answered with what the archive holds, which a later release may change."""
    value = text.strip()
    notes: list[str] = []
    said = f"{what} {value}" if what else value
    m = _PERIOD.fullmatch(value)
    if m is not None:
        year, month = int(m[1]), int(m[2] or 12)
        if not (1 <= month <= 12 and year >= 1):
            raise RulediffError(
                f"{what} {value!r}: no such month; expected YYYY-MM-DD, YYYY-MM or YYYY, e.g. {EXAMPLE}"
            )
        day = date(year, month, calendar.monthrange(year, month)[1]).isoformat()
        notes.append(f"{said}: read as {day}, the last day of {value}")
    else:
        try:
            day = check_day(value, what=what or "date")
        except RulediffError as e:
            raise RulediffError(
                e.message.replace("expected YYYY-MM-DD,", "expected YYYY-MM-DD, YYYY-MM or YYYY,")
            ) from None
    now = (today or date.today()).isoformat()
    if day > now:
        notes.append(
            f"{said}: after today ({now}); answered with the latest archived release in force by then, "
            "which a release not yet published may change"
        )
    return day, notes


def looks_like_day(text: str) -> bool:
    """Is ``text`` written as a date (whether or not the day exists)?"""
    return _DAY.fullmatch(text.strip()) is not None


def days_in_name(name: str) -> list[str]:
    """The real days written in a file name ("cr-20260807-rerelease-20260819.txt" -> both), in order."""
    return [d for d in (real_day(*m.groups()) for m in _IN_NAME.finditer(name)) if d is not None]
