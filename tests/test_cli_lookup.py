"""The command line as users type it: --archive after the command, clean --help for every command,
`show` of a whole rule, `diff --only` in every output format, progress kept off stdout."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from rulediff.cli import main

from .conftest import CORPUS, FIXTURES
from .test_cli import COMMANDS

PAIR = FIXTURES / "report"
# Every command that reads or writes the archive, with arguments that work on the seed archive.
ARCHIVE_COMMANDS = [
    ["archive", "list"],
    ["archive", "export"],
    ["history", "lifelink"],
    ["show", "702.15"],
    ["search", "lifelink"],
    ["diff", "2011-blog", "2022-markdown", "--format", "json"],
]


@pytest.fixture(scope="module")
def seed_archive(tmp_path_factory: pytest.TempPathFactory) -> str:
    path = str(tmp_path_factory.mktemp("arc") / "seed.sqlite")
    r = CliRunner().invoke(main, ["archive", "add", str(CORPUS), "--archive", path])
    assert r.exit_code == 0, r.output
    return path


@pytest.mark.parametrize("command", COMMANDS)
def test_every_help_renders_clean_with_examples(command: str) -> None:
    r = CliRunner().invoke(main, [*command.split(), "--help"])
    assert r.exit_code == 0, r.output
    assert "\\b" not in r.output and "\b" not in r.output, f"'{command} --help' shows a literal \\b"
    examples = r.output.split("Example", 1)[1].split("Options:", 1)[0]
    assert f"rulediff {command}" in examples, f"'{command} --help' has an example of itself"


@pytest.mark.parametrize("args", ARCHIVE_COMMANDS, ids=lambda a: " ".join(a[:2]))
def test_archive_option_after_the_command(args: list[str], seed_archive: str, tmp_path: Path) -> None:
    after = CliRunner().invoke(main, [*args, "--archive", seed_archive])
    assert after.exit_code == 0, after.output
    before = CliRunner().invoke(main, ["--archive", seed_archive, *args])
    assert after.stdout == before.stdout
    # After the command it wins over the one before it.
    missing = str(tmp_path / "none.sqlite")
    r = CliRunner().invoke(main, ["--archive", missing, *args, "--archive", seed_archive])
    assert r.stdout == before.stdout


def test_archive_option_after_archive_add_and_report(tmp_path: Path) -> None:
    arc = str(tmp_path / "a.sqlite")
    r = CliRunner().invoke(main, ["archive", "add", str(CORPUS / "003_8b50984e948ebee1.txt"), "--archive", arc])
    assert r.exit_code == 0 and Path(arc).is_file()
    r = CliRunner().invoke(main, ["report", "-o", str(tmp_path / "site"), "--archive", arc])
    assert r.exit_code == 0, r.output
    assert "1 versions" in r.stdout and not (tmp_path / "rulediff.sqlite").exists()


def test_progress_stays_off_stdout_when_not_a_terminal(tmp_path: Path) -> None:
    r = CliRunner().invoke(main, ["--archive", str(tmp_path / "a.sqlite"), "archive", "add", str(CORPUS)])
    assert r.exit_code == 0
    assert r.stdout.count("\n") == 5 and all(ln.startswith("added") for ln in r.stdout.splitlines())
    assert "archiving" not in r.output and "%" not in r.stderr
    r = CliRunner().invoke(main, ["--archive", str(tmp_path / "a.sqlite"), "report", "-o", str(tmp_path / "s")])
    assert r.stdout.startswith("wrote ") and r.stderr == ""


def test_show_prints_the_whole_headed_rule(seed_archive: str) -> None:
    r = CliRunner().invoke(main, ["show", "702.13", "--as-of", "2011-06-01", "--archive", seed_archive])
    assert r.exit_code == 0, r.output
    lines = r.stdout.splitlines()
    assert lines[0] == "702.13. Lifelink"
    assert [ln.split()[0] for ln in lines[1:]] == ["702.13a", "702.13b", "702.13c", "702.13d", "702.13e"]
    assert lines[1] == "  702.13a Lifelink is a static ability."
    assert "2011-blog" in r.stderr
    only = CliRunner().invoke(main, ["show", "702.13", "--only", "--as-of", "2011-06-01", "--archive", seed_archive])
    assert only.stdout == "702.13. Lifelink\n"


def test_show_nests_subrules_and_examples(seed_archive: str) -> None:
    r = CliRunner().invoke(main, ["show", "613", "--archive", seed_archive])
    lines = r.stdout.splitlines()
    assert lines[0] == "613. Interaction of Continuous Effects"
    assert "  613.1. The values of an object's characteristics" in r.stdout
    assert "    613.1a Layer 1: Copy effects are applied." in r.stdout
    example = next(ln for ln in lines if "Example:" in ln)
    assert example.startswith("      ") and example.lstrip().startswith("Example:")


def test_show_by_title_and_unknown_rule(seed_archive: str) -> None:
    by_title = CliRunner().invoke(main, ["show", "Lifelink", "--as-of", "2011-06-01", "--archive", seed_archive])
    assert by_title.stdout.startswith("702.13. Lifelink\n")
    r = CliRunner().invoke(main, ["show", "799.9", "--archive", seed_archive])
    assert r.exit_code == 2 and r.stderr.startswith("rulediff: error:") and "no rule 799.9" in r.stderr


@pytest.mark.parametrize("fmt", ["md", "json", "html", "notes"])
def test_diff_only_limits_every_format(fmt: str) -> None:
    args = ["diff", str(PAIR / "old.txt"), str(PAIR / "new.txt"), "--format", fmt]
    whole = CliRunner().invoke(main, args)
    only = CliRunner().invoke(main, [*args, "--only", "100"])
    assert only.exit_code == 0, only.output
    assert "100.4" in only.stdout and "702.2" in whole.stdout
    if fmt == "json":
        touched = {n for c in json.loads(only.stdout)["changes"] for n in c["old"] + c["new"]}
        assert touched and all(n.startswith("100") for n in touched)
    elif fmt == "notes":
        assert json.loads(only.stdout)["schema"] == "rulediff.notes/1.1"
        assert "702.2" not in json.dumps(json.loads(only.stdout)["changes"])
    else:
        # 100.3 names 702.3 in its text, but only as a references-only change, which is summarised.
        assert "702." not in only.stdout


def test_diff_only_is_repeatable_and_follows_the_number_tree() -> None:
    args = ["diff", str(PAIR / "old.txt"), str(PAIR / "new.txt"), "--format", "json"]
    d = json.loads(CliRunner().invoke(main, [*args, "--only", "100.4", "--only", "702.2"]).stdout)
    touched = {n for c in d["changes"] for n in c["old"] + c["new"]}
    assert touched == {"100.4", "100.5", "702.2", "702.2a", "702.2b", "702.3", "702.3a", "702.3b"}
    assert d["glossary"] == []
    assert set(d["number_map"]) == {"100.4", "702.2", "702.2a", "702.2b"}


def test_diff_only_rejects_what_is_not_a_number() -> None:
    r = CliRunner().invoke(main, ["diff", str(PAIR / "old.txt"), str(PAIR / "new.txt"), "--only", "layers"])
    assert r.exit_code == 2 and "--only 'layers'" in r.stderr and "Traceback" not in r.output


def test_diff_of_archived_versions_by_date_in_force(seed_archive: str) -> None:
    r = CliRunner().invoke(
        main, ["diff", "2011-06-01", "2022-markdown", "--only", "702.13", "--format", "json", "--archive", seed_archive]
    )
    assert r.exit_code == 0, r.output
    assert "the version in force that day is 2011-blog" in r.stderr
    assert json.loads(r.stdout)["number_map"]["702.13"] == "702.15"
