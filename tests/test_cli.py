"""The command line through click's CliRunner: every command has help and is in the README, and each one
does its job on the shipped corpus."""

from __future__ import annotations

import json
import re
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from rulediff.cli import main

from .conftest import CORPUS, FIXTURES, ROOT

PASTE = str(CORPUS / "003_8b50984e948ebee1.txt")
MD = str(CORPUS / "000_67b17b6c7d536d12.txt")
PAIR = FIXTURES / "report"


def _commands(group: click.Group, prefix: str = "") -> list[str]:
    out = []
    for name, cmd in sorted(group.commands.items()):
        full = f"{prefix}{name}"
        out.append(full)
        if isinstance(cmd, click.Group):
            out += _commands(cmd, full + " ")
    return out


COMMANDS = _commands(main)


@pytest.mark.parametrize("command", COMMANDS)
def test_every_command_has_help_with_an_example_and_is_in_the_readme(command: str) -> None:
    r = CliRunner().invoke(main, [*command.split(), "--help"])
    assert r.exit_code == 0, r.output
    assert "Example" in r.output, f"'{command} --help' shows an example"
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert re.search(rf"`rulediff {re.escape(command)}\b", readme), f"README documents 'rulediff {command}'"


def test_the_readmes_daily_run_lines_are_commands_rulediff_takes() -> None:
    """The scheduled runs the README shows (cron, systemd, CI, the --check script) parse as rulediff's options."""
    import shlex

    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split("## Watching for new releases", 1)[1].split("\n## ", 1)[0]
    assert "cron" in section and "systemd" in section and "schedule" in section and "exits 10" in section
    runs = re.findall(r"rulediff (update[^`;>\n]*)", section)
    assert len(runs) >= 4, runs
    for run in runs:
        args = [a for a in shlex.split(run) if a != "&&"]
        r = CliRunner().invoke(main, [*args, "--help"])  # an option rulediff lacks fails before --help answers
        assert r.exit_code == 0, f"rulediff {run}: {r.output}"


def test_formats_lists_every_parser() -> None:
    r = CliRunner().invoke(main, ["formats"])
    for name in (
        "official-text",
        "docx",
        "pdf-paste",
        "markdown",
        "sphinx-rst",
        "keyword-page",
        "html",
        "dataset-viewer",
    ):
        assert name in r.output


def test_parse_summary_and_json() -> None:
    r = CliRunner().invoke(main, ["parse", PASTE])
    assert r.exit_code == 0 and "pdf-paste" in r.output and "194 rules" in r.output
    r = CliRunner().invoke(main, ["parse", MD, "--json"])
    d = json.loads(r.stdout)
    assert d["schema"] == "rulediff.document/1"
    assert {"version", "coverage", "rules", "glossary", "warnings"} <= set(d)
    assert {"label", "effective_date", "format", "sha256"} <= set(d["version"])
    first = d["rules"][1]
    assert {"number", "parent", "title", "text", "examples"} <= set(first)
    assert any(w["code"] == "markup" for w in d["warnings"])


def test_lint_reports_lines() -> None:
    r = CliRunner().invoke(main, ["lint", str(CORPUS / "004_009a5df1986052e3.txt")])
    assert r.exit_code == 0
    assert "004_009a5df1986052e3.txt:117: heading: heading 'Impulse' but its text defines 'Surge'" in r.stdout


@pytest.mark.parametrize(
    ("fmt", "start"), [("md", "# Comprehensive Rules changes"), ("json", "{"), ("html", "<!DOCTYPE html>")]
)
def test_diff_formats(fmt: str, start: str, tmp_path: Path) -> None:
    out = tmp_path / f"d.{fmt}"
    r = CliRunner().invoke(main, ["diff", str(PAIR / "old.txt"), str(PAIR / "new.txt"), "-o", str(out)])
    assert r.exit_code == 0, r.output
    assert out.read_text(encoding="utf-8").startswith(start)
    assert "changes to read" in r.stderr
    r = CliRunner().invoke(main, ["diff", str(PAIR / "old.txt"), str(PAIR / "new.txt"), "--format", fmt])
    assert r.stdout.startswith(start)


def test_archive_history_show_search_and_report(tmp_path: Path) -> None:
    arc = str(tmp_path / "a.sqlite")
    run = CliRunner().invoke
    r = run(main, ["--archive", arc, "archive", "add", str(CORPUS)])
    assert r.exit_code == 0, r.output
    assert r.stdout.count("added") == 5
    r = run(main, ["--archive", arc, "archive", "add", PASTE])
    assert "already archived" in r.stdout
    r = run(main, ["--archive", arc, "archive", "list"])
    assert [ln.split()[1] for ln in r.stdout.splitlines()[1:]] == [
        "2011-2014-rst",
        "2011-blog",
        "2017-judge",
        "2022-markdown",
        "2024-dataset",
    ]
    r = run(main, ["--archive", arc, "history", "lifelink"])
    assert "702.13     2011-blog" in r.stdout and "702.15     2022-markdown" in r.stdout
    r = run(main, ["--archive", arc, "history", "702.15", "--format", "json"])
    assert json.loads(r.stdout)["numbers"][0] == {"number": "702.13", "from": "2011-blog", "to": "2011-blog"}
    r = run(main, ["--archive", arc, "history", "lifelink", "--format", "html"])
    assert r.stdout.startswith("<!DOCTYPE html>") and "702.13" in r.stdout
    r = run(main, ["--archive", arc, "show", "702.13", "--as-of", "2011-06-01"])
    assert r.stdout.startswith("702.13. Lifelink")
    r = run(main, ["--archive", arc, "search", "lifelink is a static ability"])
    assert "702.13a, 702.15a" in r.stdout and "2011-blog .. 2022-markdown" in r.stdout
    r = run(main, ["--archive", arc, "diff", "2011-blog", "2022-markdown", "--format", "json"])
    d = json.loads(r.stdout)
    assert d["number_map"]["702.13"] == "702.15"
    r = run(main, ["--archive", arc, "archive", "export"])
    assert sum(1 for ln in r.stdout.splitlines() if json.loads(ln)["type"] == "version") == 5
    r = run(main, ["--archive", arc, "report", "-o", str(tmp_path / "site")])
    assert r.exit_code == 0, r.output
    assert (tmp_path / "site" / "index.html").is_file()
    r = run(main, ["--archive", arc, "archive", "remove", "2017-judge"])
    assert "removed 2017-judge" in r.stdout


def test_report_with_no_archive_builds_one_from_the_shipped_corpus(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    r = CliRunner().invoke(main, ["report"])
    assert r.exit_code == 0, r.output
    assert (tmp_path / "rulediff.sqlite").is_file()
    assert (tmp_path / "site" / "index.html").is_file()
    assert "5 versions" in r.stdout
    again = CliRunner().invoke(main, ["report"])
    assert "0 files written" in again.stdout, "an unchanged rebuild rewrites nothing"


def test_python_dash_m_entry_point() -> None:
    import subprocess
    import sys

    out = subprocess.run([sys.executable, "-m", "rulediff", "--version"], capture_output=True, text=True, check=True)
    assert out.stdout.startswith("rulediff, version")


def test_archive_remove_says_which_releases_of_the_date_were_labelled_again(tmp_path: Path) -> None:
    tiny = FIXTURES / "parsers" / "official-text" / "utf8-bom-cr-crcrlf" / "input.txt"
    first, second = tmp_path / "a.txt", tmp_path / "b.txt"
    first.write_bytes(tiny.read_bytes())
    second.write_bytes(tiny.read_bytes().replace(b"two or more players", b"two or more people", 1))
    arc = str(tmp_path / "a.sqlite")
    for f in (first, second):
        r = CliRunner().invoke(main, ["--archive", arc, "archive", "add", str(f)])
        assert r.exit_code == 0, r.output
    r = CliRunner().invoke(main, ["--archive", arc, "archive", "remove", "2019-05-03"])
    assert r.exit_code == 0, r.output
    assert r.stdout.splitlines()[:2] == ["removed 2019-05-03", "relabelled 2019-05-03 (re-release 2) as 2019-05-03"]
    r = CliRunner().invoke(main, ["--archive", arc, "archive", "list"])
    assert [ln.split()[1] for ln in r.stdout.splitlines()[1:]] == ["2019-05-03"]
