"""Dates where they enter: real days in one form, YYYY-MM-DD; a re-release's publication day from its name."""

from __future__ import annotations

from datetime import date

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rulediff.archive.rows import published_from_name
from rulediff.dates import check_day, days_in_name
from rulediff.errors import RulediffError


@pytest.mark.parametrize(
    ("text", "want"),
    [
        ("2026-01-16", "2026-01-16"),
        (" 2024-02-29 ", "2024-02-29"),
        ("2023-02-29", "no such day"),
        ("2026-13-45", "no such day"),
        ("yesterday", "not a date"),
        ("2026/01/16", "not a date"),
        ("20260116", "not a date"),
        ("", "empty"),
    ],
)
def test_check_day(text: str, want: str) -> None:
    if want[0].isdigit():
        assert check_day(text) == want
    else:
        with pytest.raises(RulediffError, match=f"{want}; expected YYYY-MM-DD, e.g. 2026-01-16"):
            check_day(text)


@given(st.dates())
def test_every_real_day_passes_as_itself(d: date) -> None:
    text = f"{d.year:04d}-{d.month:02d}-{d.day:02d}"
    assert check_day(text) == text


@given(st.text(max_size=12))
def test_anything_else_is_refused_or_a_real_day(text: str) -> None:
    try:
        day = check_day(text)
    except RulediffError:
        return
    assert date.fromisoformat(day).isoformat() == day


@pytest.mark.parametrize(
    ("name", "effective", "want"),
    [
        ("cr-20260807-rerelease-20260819.txt", "2026-08-07", "2026-08-19"),
        ("cr-20260807.txt", "2026-08-07", None),
        ("MagicCompRules 2026-08-19.txt", "2026-08-07", "2026-08-19"),
        ("cr-20260807-rerelease-20260799.txt", "2026-08-07", None),  # no such day: not a publication
        ("notes-2019.txt", "2019-05-03", None),
        ("cr-20260819.txt", None, None),
    ],
)
def test_publication_day_from_a_file_name(name: str, effective: str | None, want: str | None) -> None:
    assert published_from_name(name, effective) == want


def test_days_in_name_skips_longer_digit_runs() -> None:
    assert days_in_name("build-120260807-x.txt") == []
