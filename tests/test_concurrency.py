"""Two commands at once on one archive or one site folder: the same file added twice, two files of one date,
a report while an add runs, two reports into one folder. No crash, and one consistent answer."""

from __future__ import annotations

import hashlib
import subprocess
import sys
from pathlib import Path

import pytest

from rulediff.archive import Archive

from .conftest import FIXTURES

OFFICIAL = FIXTURES / "parsers" / "official-text"
FILES = [
    OFFICIAL / name / "input.txt"
    for name in ("cr-only", "lf-only", "curly-quotes-utf8", "straight-quotes-2019", "typo-901.4-no-space")
]
SAME_DAY = [OFFICIAL / "typo-901.4-no-space" / "input.txt", OFFICIAL / "duplicate-number-2024" / "input.txt"]


def _start(archive: Path, *args: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "rulediff", "--archive", str(archive), *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def _finish(*procs: subprocess.Popen[str]) -> list[tuple[int, str]]:
    out = []
    for p in procs:
        _, err = p.communicate(timeout=300)
        out.append((p.returncode, err))
    return out


@pytest.mark.parametrize("trial", range(3))
def test_the_same_file_added_twice_at_once(tmp_path: Path, trial: int) -> None:
    archive = tmp_path / "a.sqlite"
    results = _finish(*(_start(archive, "archive", "add", str(FILES[trial])) for _ in range(2)))
    assert all(code == 0 for code, _ in results), results
    with Archive.open(archive, create=False) as arc:
        assert [v.sha256 for v in arc.versions.all()] == [hashlib.sha256(FILES[trial].read_bytes()).hexdigest()]


def test_two_files_of_one_date_added_at_once_get_two_labels(tmp_path: Path) -> None:
    archive = tmp_path / "a.sqlite"
    results = _finish(*(_start(archive, "archive", "add", str(f)) for f in SAME_DAY))
    assert all(code == 0 for code, _ in results), results
    with Archive.open(archive, create=False) as arc:
        labels = sorted(v.label for v in arc.versions.all())
    assert labels == ["2024-09-20", "2024-09-20 (re-release 2)"]


def test_report_while_an_add_runs(tmp_path: Path) -> None:
    archive = tmp_path / "a.sqlite"
    with Archive.open(archive) as arc:
        arc.add_file(FILES[0])
    adding = _start(archive, "archive", "add", *map(str, FILES[1:]))
    reports = [_start(archive, "report", "-o", str(tmp_path / f"site{k}")) for k in range(3)]
    results = _finish(adding, *reports)
    assert all(code == 0 for code, _ in results), results
    for k in range(3):
        # Each site is whole: every version it lists has its diff page.
        index = (tmp_path / f"site{k}" / "index.html").read_text("utf-8")
        for page in (tmp_path / f"site{k}").glob("diff/*.html"):
            assert page.name in index


def test_two_reports_into_one_folder(tmp_path: Path) -> None:
    archive = tmp_path / "a.sqlite"
    with Archive.open(archive) as arc:
        for f in FILES:
            arc.add_file(f)
    site = tmp_path / "site"
    results = _finish(*(_start(archive, "report", "-o", str(site)) for _ in range(2)))
    assert all(code == 0 for code, _ in results), results
    assert not list(site.rglob("*.part"))
    fresh = tmp_path / "fresh"
    _finish(_start(archive, "report", "-o", str(fresh)))
    assert _tree(site) == _tree(fresh)


def _tree(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}
