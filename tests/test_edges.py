"""Answers at the edges of the command line: two dates naming one version, OLD newer than NEW, a future or
partial date, digits of other scripts, the counts on stderr in every format, --debug after the command."""

from __future__ import annotations

import json
from datetime import date
from pathlib import Path

import pytest
from click.testing import CliRunner

from rulediff.cli import main
from rulediff.dates import day_asked
from rulediff.errors import RulediffError

from .conftest import FIXTURES

RELEASES = (
    FIXTURES / "history" / "mana-burn-obsolete-2009"
)  # 2009-05-01, 2009-07-11, 2011-02-04, 2014-02-01, 2014-05-01


@pytest.fixture(scope="module")
def arc(tmp_path_factory: pytest.TempPathFactory) -> str:
    path = str(tmp_path_factory.mktemp("edges") / "e.sqlite")
    r = CliRunner().invoke(main, ["archive", "add", str(RELEASES), "--archive", path])
    assert r.exit_code == 0, r.output
    return path


def run(arc: str, *args: str) -> tuple[int, str, str]:
    r = CliRunner().invoke(main, [*args, "--archive", arc])
    return r.exit_code, r.stdout, r.stderr


def test_two_days_naming_one_version_are_refused(arc: str) -> None:
    """Both days fall under 2011-02-04: "No changes" would be an answer about no release at all."""
    code, out, err = run(arc, "diff", "2012-01-01", "2013-06-30")
    assert code == 2 and out == ""
    assert err.splitlines() == [
        "2012-01-01: the version in force that day is 2011-02-04",
        "2013-06-30: the version in force that day is 2011-02-04",
        "rulediff: error: OLD '2012-01-01' and NEW '2013-06-30' both name 2011-02-04 (no release is archived "
        "between them): nothing to compare",
    ]
    code, _, err = run(arc, "diff", "2011-02-04", "2011-02-04")
    assert code == 2 and err.strip() == (
        "rulediff: error: OLD '2011-02-04' and NEW '2011-02-04' both name 2011-02-04: nothing to compare"
    )
    # A day and the release in force on it: the same version too.
    assert run(arc, "diff", "2011-02-04", "2011-03-01")[0] == 2


def test_old_newer_than_new_is_said(arc: str) -> None:
    code, out, err = run(arc, "diff", "2014-05-01", "2011-02-04", "--format", "json")
    assert code == 0
    assert err.splitlines()[0] == (
        "note: OLD (2014-05-01) is newer than NEW (2011-02-04): this reads backwards in time, later rules shown "
        "as removed; swap them for what changed"
    )
    assert json.loads(out)["old"]["label"] == "2014-05-01"
    # In order: no note.
    assert "newer" not in run(arc, "diff", "2011-02-04", "2014-05-01")[2]


def test_files_in_reverse_order_are_said_too(tmp_path: Path) -> None:
    r = CliRunner().invoke(main, ["diff", str(RELEASES / "cr-20140201.txt"), str(RELEASES / "cr-20110204.txt")])
    assert r.exit_code == 0
    assert "is newer than NEW" in r.stderr
    r = CliRunner().invoke(main, ["diff", str(RELEASES / "cr-20110204.txt"), str(RELEASES / "cr-20140201.txt")])
    assert "newer" not in r.stderr


def test_the_counts_are_on_stderr_in_every_format(arc: str, tmp_path: Path) -> None:
    said = set()
    for fmt in ("md", "html", "notes", "json"):
        code, out, err = run(arc, "diff", "2011-02-04", "2014-02-01", "--format", fmt)
        assert code == 0 and out
        said.add(err.strip())
    code, _, err = run(arc, "diff", "2011-02-04", "2014-02-01", "-o", str(tmp_path / "x.md"))
    (headline,) = said
    assert headline.endswith(".") and "changes to read" in headline
    assert err.strip() == f"wrote {tmp_path / 'x.md'}: {headline}"


@pytest.mark.parametrize("command", ["history", "show"])
def test_a_future_day_is_answered_and_said(arc: str, command: str) -> None:
    code, out, err = run(arc, command, "702.15", "--as-of", "2099-12-31")
    assert code == 0 and out
    today = date.today().isoformat()
    assert (
        f"--as-of 2099-12-31: after today ({today}); answered with the latest archived release in force by then, "
        "which a release not yet published may change"
    ) in err.splitlines()


@pytest.mark.parametrize(
    ("given", "day", "label"),
    [
        ("2012", "2012-12-31", "2011-02-04"),
        ("2014-02", "2014-02-28", "2014-02-01"),
        ("2014-05", "2014-05-31", "2014-05-01"),
    ],
)
def test_a_year_or_month_means_its_last_day(arc: str, given: str, day: str, label: str) -> None:
    code, _, err = run(arc, "show", "lifelink", "--as-of", given)
    assert code == 0
    assert err.splitlines()[0] == f"--as-of {given}: read as {day}, the last day of {given}"
    assert err.splitlines()[-1].startswith(f"-- {label} ")
    code, _, err = run(arc, "diff", "2009", given)
    assert code == 0 and f"version {given}: read as {day}, the last day of {given}" in err


@pytest.mark.parametrize(
    ("given", "says"),
    [
        ("", "--as-of '': empty; expected YYYY-MM-DD, YYYY-MM or YYYY, e.g. 2026-01-16"),
        ("\u0662\u0660\u0661\u0662-\u0660\u0661-\u0660\u0661", "not a date (digits are 0-9)"),
        ("\uff12\uff10\uff11\uff12", "not a date (digits are 0-9)"),
        ("2012-13", "--as-of '2012-13': no such month"),
        ("2012-6", "--as-of '2012-6': not a date"),
    ],
)
def test_an_as_of_that_is_no_date_is_refused_without_blaming_the_archive(arc: str, given: str, says: str) -> None:
    code, out, err = run(arc, "history", "702.15", "--as-of", given)
    assert code == 2 and out == ""
    assert err.startswith("rulediff: error: --as-of ") and says in err
    assert arc not in err and "sqlite" not in err


def test_a_diff_date_that_is_none_does_not_blame_the_archive(arc: str) -> None:
    code, _, err = run(arc, "diff", "2011-02-30", "2014-05-01")
    assert code == 2 and err.strip() == (
        "rulediff: error: version '2011-02-30': no such day; expected YYYY-MM-DD, YYYY-MM or YYYY, e.g. 2026-01-16"
    )


def test_day_asked() -> None:
    past = date(2026, 11, 27)
    assert day_asked("2026-01-16", what="--as-of", today=past) == ("2026-01-16", [])
    assert day_asked(" 2024-02 ", what="--as-of", today=past) == (
        "2024-02-29",
        ["--as-of 2024-02: read as 2024-02-29, the last day of 2024-02"],
    )
    day, notes = day_asked("2026", what="--as-of", today=past)
    assert day == "2026-12-31" and len(notes) == 2 and "after today (2026-11-27)" in notes[1]
    for bad in ("0000", "2026-00", "26", "2026-1-1", "\u0968\u0966\u0968\u0966"):
        with pytest.raises(RulediffError):
            day_asked(bad, what="--as-of", today=past)


def test_a_manifest_date_in_other_digits_is_refused(tmp_path: Path) -> None:
    folder = tmp_path / "in"
    folder.mkdir()
    (folder / "a.txt").write_bytes((RELEASES / "cr-20110204.txt").read_bytes())
    (folder / "MANIFEST").write_text(
        "file\teffective\na.txt\t\u0662\u0660\u0661\u0661-\u0660\u0662-\u0660\u0664\n", encoding="utf-8"
    )
    r = CliRunner().invoke(main, ["archive", "add", str(folder), "--archive", str(tmp_path / "a.sqlite")])
    assert r.exit_code == 2
    assert f"{folder / 'MANIFEST'}:2: effective date" in r.stderr and "digits are 0-9" in r.stderr


@pytest.mark.parametrize(
    "args",
    [
        ["diff", "nonesuch-1", "nonesuch-2", "--debug"],
        ["history", "702.15", "--as-of", "yesterday", "--debug"],
        ["archive", "list", "--debug", "--archive", "/nonexistent/dir/a.sqlite"],
    ],
)
def test_debug_after_the_command(arc: str, args: list[str]) -> None:
    if "--archive" not in args:
        args = [*args, "--archive", arc]
    r = CliRunner().invoke(main, args)
    assert r.exit_code == 2
    assert "Traceback (most recent call last)" in r.stderr and r.stderr.splitlines()[-1].startswith("rulediff: error:")
    r = CliRunner().invoke(main, [a for a in args if a != "--debug"])
    assert "Traceback" not in r.stderr
