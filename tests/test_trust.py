"""Where rulediff said it succeeded and was wrong, or wrote where it must not: archive names read as URIs, rule
numbers in characters no number has, a partial page taking over a release, readers slower than linear, input
limits crashing, the site's writer trusting files it finds, and Ctrl-C. One row or test per hole."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest
from click.testing import CliRunner

from rulediff.archive import Archive
from rulediff.cli import main
from rulediff.model import LOST_RULE
from rulediff.parsers import parse_bytes
from rulediff.parsers.build import MAX_TEXT, TreeBuilder
from rulediff.site.journal import JOURNAL, STAMP
from rulediff.site.writer import SiteWriter, digest_of, prepare_folder

from .conftest import CORPUS, FIXTURES

TINY = FIXTURES / "parsers" / "official-text" / "utf8-bom-cr-crcrlf" / "input.txt"


def _tiny() -> str:
    return TINY.read_bytes().decode("utf-8-sig")


def _write(tmp: Path, name: str, text: str) -> str:
    (tmp / name).write_text(text, encoding="utf-8")
    return str(tmp / name)


# --- 1. archive names are file names -----------------------------------------------------------------------


@pytest.mark.parametrize("name", ["file:x.sqlite", ":memory:", "a?mode=ro.sqlite", "b#c%20d.sqlite"])
def test_an_archive_name_is_a_file_name_whatever_it_looks_like(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str
) -> None:
    monkeypatch.chdir(tmp_path)
    r = CliRunner().invoke(main, ["archive", "add", str(TINY), "--archive", name])
    assert r.exit_code == 0, r.output
    assert sorted(p.name for p in tmp_path.iterdir() if not p.name.endswith(("-wal", "-shm"))) == [name]
    with Archive.open(name, create=False) as arc:
        (_, _, where) = arc.db.execute("PRAGMA database_list").fetchone()
        assert where == str(tmp_path / name)
        assert len(arc.versions.all()) == 1


def test_a_missing_uri_looking_archive_is_named_and_leaves_no_stray_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    r = CliRunner().invoke(main, ["archive", "list", "--archive", "file:newdb.sqlite"])
    assert r.exit_code == 2 and "file:newdb.sqlite: no archive here" in r.stderr, r.output
    assert list(tmp_path.iterdir()) == []


# --- 2. no rule lost without a word ------------------------------------------------------------------------

# A copy or an edit can slip these into a number: each makes it no number, and a rule is lost.
_SLIPS = {
    "zero width joiner": ("100\u200d.2.", "U+200D"),
    "fullwidth digits": ("\uff11\uff10\uff10.\uff12.", "U+FF11"),
    "arabic-indic digits": ("\u0661\u0660\u0660.\u0662.", "U+0661"),
    "combining accent": ("100.2\u0301.", "U+0301"),
    "keycap": ("1\ufe0f\u20e300.2.", "U+FE0F"),
    "zero width space first": ("\u200b100.2.", "U+200B"),
}


@pytest.mark.parametrize("slip", sorted(_SLIPS))
def test_a_rule_number_in_characters_no_number_has_is_said_everywhere_and_refused_by_the_archive(
    tmp_path: Path, slip: str
) -> None:
    spelled, named = _SLIPS[slip]
    text = _tiny()
    assert "\n100.2. " in text.replace("\r", "\n")
    odd = _write(tmp_path, "odd.txt", text.replace("100.2. ", spelled + " ", 1))
    runner = CliRunner()
    lint = runner.invoke(main, ["lint", odd])
    said = [ln for ln in lint.output.splitlines() if ": lost-rule: " in ln]
    assert len(said) == 1 and "looks like rule 100.2" in said[0], lint.output
    line = int(said[0].split("odd.txt:")[1].split(":")[0])
    assert named in lint.output
    diff = runner.invoke(main, ["diff", str(TINY), odd, "--format", "json"])
    assert diff.exit_code == 0 and f"rulediff: warning: {odd}:{line}: " in diff.stderr
    archive = str(tmp_path / "a.sqlite")
    add = runner.invoke(main, ["archive", "add", odd, "--archive", archive])
    assert add.exit_code == 2, add.output
    assert f"odd.txt:{line}: " in add.stderr and "not archived (add --accept-warnings" in add.stderr
    assert len([ln for ln in add.stderr.splitlines() if ln]) == 1
    accepted = runner.invoke(main, ["archive", "add", odd, "--archive", archive, "--accept-warnings"])
    assert accepted.exit_code == 0, accepted.output
    with Archive.open(archive, create=False) as arc:
        assert [r for r in arc.versions.document(arc.versions.all()[0].id).rules if str(r.number) == "100.2"] == []


def test_the_official_corpus_and_the_seeds_lose_no_rule(tmp_path: Path) -> None:
    """Every seed reads with no lost-rule warning (the official corpus: test_official_corpus)."""
    for seed in sorted(CORPUS.glob("*.txt")):
        doc = parse_bytes(seed.read_bytes(), str(seed))
        assert not [w for w in doc.warnings if w.code == LOST_RULE], seed.name


# --- 3. a partial page never displaces a release -------------------------------------------------------------

_PAGE = """<html><head><title>Comprehensive Rules</title></head><body>
<p>These rules are effective as of May 3, 2019.</p>
<p>100.1. These Magic rules apply to any Magic game.</p>
<p>100.1a A two-player game is a game that begins with only two players.</p>
<p>100.2. To play, each player needs their own deck.</p>
</body></html>
"""


def test_a_partial_page_of_a_releases_date_stands_beside_it(tmp_path: Path) -> None:
    page = _write(tmp_path, "page.html", _PAGE)
    archive = str(tmp_path / "a.sqlite")
    runner = CliRunner()
    out = runner.invoke(main, ["archive", "add", str(TINY), page, "--archive", archive])
    assert out.exit_code == 0, out.output
    assert "partial           2019-05-03 (partial)" in out.output
    listing = runner.invoke(main, ["archive", "list", "--archive", archive]).output
    assert "2019-05-03 (partial)" in listing and "(partial: beside 2019-05-03)" in listing
    assert "re-release" not in listing
    shown = runner.invoke(main, ["show", "100.1", "--as-of", "2019-06-01", "--archive", archive])
    assert shown.exit_code == 0 and "100.1b" in shown.output  # the release's, not the page's two lines
    history = json.loads(runner.invoke(main, ["history", "100.1", "--format", "json", "--archive", archive]).output)
    assert [v["label"] for v in history["versions"]] == ["2019-05-03"]
    with Archive.open(archive, create=False) as arc:
        assert [v.label for v in arc.versions.timeline()] == ["2019-05-03"]
        release = arc.versions.resolve("2019-05-03")
        assert release.format == "official-text" and arc.versions.in_force("2019-05-04").id == release.id


def test_a_partial_dump_with_no_release_of_its_date_stands_for_it(tmp_path: Path) -> None:
    page = _write(tmp_path, "page.html", _PAGE)
    archive = str(tmp_path / "a.sqlite")
    assert CliRunner().invoke(main, ["archive", "add", page, "--archive", archive]).exit_code == 0
    with Archive.open(archive, create=False) as arc:
        (only,) = arc.versions.timeline()
        assert only.label == "2019-05-03" and arc.versions.in_force("2019-06-01").id == only.id


# --- 4. reading is linear -------------------------------------------------------------------------------------


def test_continuations_are_gathered_not_copied_at_every_line() -> None:
    """The work of a continued text is the paragraphs' own: the node's text is never rebuilt as it grows (it
    was copied whole at every line, the square of its length)."""
    b = TreeBuilder("x.txt")
    b.rule(__import__("rulediff").RuleNumber.parse("100.1"), "First.", 1)
    first = b.columns()[1][-1]
    for k in range(2000):
        b.continuation(f"line {k}", k + 2)
        assert b.columns()[1][-1] is first  # untouched: the line went to the parts list
    (rule,), _ = b.build()
    assert rule.text == "First.\n" + "\n".join(f"line {k}" for k in range(2000))


def test_a_text_past_the_cap_is_refused_where_it_passes_it_not_at_the_end(tmp_path: Path) -> None:
    head = "Magic: The Gathering Comprehensive Rules\n\nThese rules are effective as of May 3, 2019.\n\n"
    head += "1. Game Concepts\n\n100. General\n\n100.1. First rule.\n\n"
    line = "continued text of the same rule, never ending.\n\n"
    data = (head + line * 100_000 + "Glossary\n\nCredits\n").encode()
    r = CliRunner().invoke(main, ["lint", _write(tmp_path, "long.txt", data.decode())])
    assert r.exit_code == 2 and "is over 65,536 characters long by here" in r.stderr, r.output
    at = int(r.stderr.split("long.txt:")[1].split(":")[0])
    assert at < 2 * (MAX_TEXT // (len(line) - 3)) + 40  # the line that passed the cap, not the file's end


# --- 5. input limits are errors, not crashes --------------------------------------------------------------------


@dataclass(frozen=True)
class Limit:
    name: str
    args: Callable[[Path], list[str]]
    says: str
    where: str


def _archived_tiny(tmp: Path) -> str:
    with Archive.open(tmp / "a.sqlite") as arc:
        arc.add_file(TINY)
    return str(tmp / "a.sqlite")


def _manifest_cell(tmp: Path) -> list[str]:
    folder = tmp / "corpus"
    folder.mkdir()
    (folder / "a.txt").write_bytes(TINY.read_bytes())
    (folder / "MANIFEST").write_text("file\tlabel\na.txt\t" + "x" * 200_000 + "\n")
    return ["--archive", str(tmp / "a.sqlite"), "archive", "add", str(folder)]


def _manifest_twice(tmp: Path) -> list[str]:
    folder = tmp / "corpus"
    folder.mkdir()
    (folder / "a.txt").write_bytes(TINY.read_bytes())
    (folder / "MANIFEST").write_text("file\tlabel\na.txt\tone\na.txt\ttwo\n")
    return ["--archive", str(tmp / "a.sqlite"), "archive", "add", str(folder)]


def _manifest_not_a_file(tmp: Path, kind: str) -> list[str]:
    folder = tmp / "corpus"
    folder.mkdir()
    (folder / "a.txt").write_bytes(TINY.read_bytes())
    target = folder / "MANIFEST"
    if kind == "folder":
        target.mkdir()
    elif kind == "fifo":
        os.mkfifo(target)
    else:
        target.symlink_to(target)  # a loop
    return ["--archive", str(tmp / "a.sqlite"), "archive", "add", str(folder)]


LIMITS = [
    Limit(
        "a JSON-lines number of 100,000 digits",
        lambda t: [
            "lint",
            _write(t, "n.jsonl", '{"number": "100.1", "text": "x"}\n{"number": ' + "1" * 100_000 + "}\n"),
        ],
        "a number of thousands of digits",
        "n.jsonl:2:",
    ),
    Limit(
        "identify of that file",
        lambda t: [
            "--archive",
            _archived_tiny(t),
            "identify",
            _write(t, "n.jsonl", '{"number": "100.1", "text": "x"}\n{"number": ' + "1" * 100_000 + "}\n"),
        ],
        "a number of thousands of digits",
        "n.jsonl:2:",
    ),
    Limit(
        "a CSV field over 128 KB",
        lambda t: ["lint", _write(t, "f.csv", 'number,text,examples\n100.1,"' + "x" * 200_000 + '",[]\n')],
        "field larger than field limit",
        "f.csv:",
    ),
    Limit(
        "JSON nested past the decoder",
        lambda t: [
            "lint",
            "--format",
            "dataset-jsonl",
            _write(
                t, "d.jsonl", '{"number": "100.1", "text": "x", "examples": ' + "[" * 100_000 + "]" * 100_000 + "}\n"
            ),
        ],
        "nested too deeply",
        "d.jsonl:1:",
    ),
    Limit("a MANIFEST cell over 128 KB", _manifest_cell, "field larger than field limit", "MANIFEST:2:"),
    Limit("a MANIFEST row listing a file twice", _manifest_twice, "a.txt is listed twice", "MANIFEST:3:"),
    Limit(
        "a MANIFEST that is a folder", lambda t: _manifest_not_a_file(t, "folder"), "is not a regular file", "MANIFEST"
    ),
    Limit("a MANIFEST that is a FIFO", lambda t: _manifest_not_a_file(t, "fifo"), "is not a regular file", "MANIFEST"),
    Limit("a MANIFEST in a link loop", lambda t: _manifest_not_a_file(t, "loop"), "is not a regular file", "MANIFEST"),
    Limit(
        "an empty site folder name",
        lambda t: ["--archive", str(t / "a.sqlite"), "report", "-o", ""],
        "an empty folder name",
        "-o:",
    ),
]


@pytest.mark.parametrize("case", LIMITS, ids=lambda c: c.name)
def test_an_input_limit_is_one_line_and_exit_2(case: Limit, tmp_path: Path) -> None:
    r = CliRunner().invoke(main, case.args(tmp_path))
    assert r.exit_code == 2, r.output
    lines = [ln for ln in r.stderr.splitlines() if ln.strip()]
    assert len(lines) == 1 and case.says in lines[0] and case.where in lines[0], lines
    assert "Traceback" not in r.output and "internal error" not in r.output


# --- 6. the site's writer proves what it replaces or removes ---------------------------------------------------


def _site(tmp: Path) -> tuple[str, Path]:
    archive = str(tmp / "a.sqlite")
    site = tmp / "site"
    assert CliRunner().invoke(main, ["archive", "add", str(TINY), "--archive", archive]).exit_code == 0
    r = CliRunner().invoke(main, ["report", "--archive", archive, "-o", str(site)])
    assert r.exit_code == 0, r.output
    return archive, site


def test_a_planted_stamp_deletes_nothing_the_writer_did_not_write(tmp_path: Path) -> None:
    archive, site = _site(tmp_path)
    (site / "keep.txt").write_text("mine")
    (site / "precious.db").write_text("mine too")
    stamp = json.loads((site / STAMP).read_text())
    stamp.update({"keep.txt": ["k", digest_of(b"mine")], "precious.db": "k"})
    (site / STAMP).write_text(json.dumps(stamp))
    r = CliRunner().invoke(main, ["report", "--archive", archive, "-o", str(site)])
    assert r.exit_code == 0, r.output
    assert (site / "keep.txt").read_text() == "mine" and (site / "precious.db").read_text() == "mine too"
    assert "left 2 file(s)" in r.stderr and "keep.txt" in r.stderr


def test_a_planted_journal_deletes_nothing_the_writer_did_not_write(tmp_path: Path) -> None:
    archive, site = _site(tmp_path)
    (site / "mine.txt").write_text("mine")
    (site / "diff").mkdir(exist_ok=True)
    (site / "diff" / "notes.html").write_text("my own notes")
    (site / JOURNAL).write_text("mine.txt\ndiff/notes.html\n")
    r = CliRunner().invoke(main, ["report", "--archive", archive, "-o", str(site)])
    assert r.exit_code == 0, r.output
    assert (site / "mine.txt").read_text() == "mine" and (site / "diff" / "notes.html").read_text() == "my own notes"


def test_a_users_file_at_a_page_is_replaced_only_with_force(tmp_path: Path) -> None:
    archive, site = _site(tmp_path)
    page = site / "index.html"
    page.write_text("my own index")
    os.utime(page, (time.time() + 5, time.time() + 5))
    r = CliRunner().invoke(main, ["report", "--archive", archive, "-o", str(site)])
    assert r.exit_code == 2 and "a file rulediff did not write stands where the site has a page" in r.stderr
    assert page.read_text() == "my own index"
    r = CliRunner().invoke(main, ["report", "--archive", archive, "-o", str(site), "--force"])
    assert r.exit_code == 0 and page.read_text().startswith("<!DOCTYPE html>")


def test_a_writer_only_removes_its_own_names(tmp_path: Path) -> None:
    root = tmp_path / "site"
    prepare_folder(root)
    w = SiteWriter(root)
    w.write("diff/a.html", "a", key="k")
    w.finish()
    (root / "diff" / "a.html").write_text("changed by hand")
    w = SiteWriter(root)
    w.finish()  # the page is no longer part of the site, but it is not the writer's any more
    assert (root / "diff" / "a.html").read_text() == "changed by hand" and w.left_alone == ["diff/a.html"]


# --- 7. interrupted, terminated, killed ------------------------------------------------------------------------

_ADDING = """
import signal, sys
{before}
sys.argv = ["rulediff", "--archive", sys.argv[1], "report", *sys.argv[2:]]
from rulediff.cli import run
run()
"""


# The build made slow, and saying when it is under way: the first pages the site writer writes mark a file and wait a
# little, so the signal always comes in the middle of a build, however fast the machine (no sleep-and-hope).
_BUSY = """
import pathlib, time
import rulediff.site.writer as _writer
_write = _writer.SiteWriter.write
_busy = pathlib.Path(sys.argv[1] + ".busy")  # (read now: the command's arguments replace sys.argv below)
_slowed = []
def _slow(self, *args, **kw):
    if len(_slowed) < 60:  # (three seconds: the signal comes at the first; then the build runs at its pace)
        _slowed.append(_busy.touch())
        time.sleep(0.05)
    return _write(self, *args, **kw)
_writer.SiteWriter.write = _slow
"""


def _stop(tmp: Path, sig: int, before: str = "") -> tuple[int, str]:
    sources = [str(p) for p in sorted(CORPUS.glob("*.txt"))]
    archive = tmp / "a.sqlite"
    proc = subprocess.Popen(
        [sys.executable, "-c", _ADDING.format(before=before + _BUSY), str(archive), *sources, "-o", str(tmp / "s")],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    busy = Path(str(archive) + ".busy")
    deadline = time.monotonic() + 120
    while not busy.exists() and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.05)
    assert busy.exists(), "the build never got under way"
    os.killpg(proc.pid, sig)
    _, err = proc.communicate(timeout=120)
    return proc.returncode, err


@pytest.mark.parametrize(
    ("sig", "code", "says"), [(signal.SIGINT, 130, "interrupted"), (signal.SIGTERM, 143, "terminated")]
)
def test_ctrl_c_and_sigterm_exit_as_a_shell_expects_with_one_line(
    tmp_path: Path, sig: int, code: int, says: str
) -> None:
    rc, err = _stop(tmp_path, sig)
    assert rc == code, err
    assert err.strip().splitlines()[-1] == f"rulediff: {says}; nothing half-written", err
    assert "Aborted" not in err and "Traceback" not in err and "leaked" not in err


def test_a_command_started_deaf_to_ctrl_c_keeps_its_workers_deaf(tmp_path: Path) -> None:
    """Started with Ctrl-C ignored (nohup, a script's '&'), the terminal's interrupt of the whole group does
    not stop it, and does not break it: its workers ignore it as well (they left on it, and the command died
    saying a worker ended abruptly)."""
    rc, err = _stop(tmp_path, signal.SIGINT, before="signal.signal(signal.SIGINT, signal.SIG_IGN)")
    assert rc == 0, err
    assert "worker process ended abruptly" not in err
    with Archive.open(tmp_path / "a.sqlite", create=False) as arc:
        assert len(arc.versions.all()) == 5


def test_removing_and_adding_a_release_again_changes_no_page(tmp_path: Path) -> None:
    """The lineage ids are the archive's own: a page never shows one, so re-adding a release (which gives its
    rules new ids) leaves the site as it was."""
    archive = str(tmp_path / "a.sqlite")
    seeds = sorted(CORPUS.glob("*.txt"))
    runner = CliRunner()
    assert runner.invoke(main, ["archive", "add", *map(str, seeds), "--archive", archive]).exit_code == 0
    assert runner.invoke(main, ["report", "--archive", archive, "-o", str(tmp_path / "one")]).exit_code == 0
    with Archive.open(archive) as arc:
        first = arc.versions.all()[0]
        arc.remove(f"#{first.id}")
    assert runner.invoke(main, ["archive", "add", *map(str, seeds), "--archive", archive]).exit_code == 0
    assert runner.invoke(main, ["report", "--archive", archive, "-o", str(tmp_path / "two")]).exit_code == 0
    one = {p.relative_to(tmp_path / "one"): p.read_bytes() for p in (tmp_path / "one").rglob("*.html")}
    two = {p.relative_to(tmp_path / "two"): p.read_bytes() for p in (tmp_path / "two").rglob("*.html")}
    assert one == two
    assert "(lineage" not in "".join(b.decode() for b in one.values())
    history = runner.invoke(main, ["history", "702.13", "--format", "json", "--archive", archive]).output
    assert '"lineage"' not in history


def test_an_archive_that_fills_midway_says_how_many_files_it_kept(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import rulediff.archive.adding as adding

    real = adding.Adding._add_entry
    calls = {"n": 0}

    def filling(self: adding.Adding, *a: object, **k: object) -> object:
        calls["n"] += 1
        if calls["n"] == 3:
            raise sqlite3.OperationalError("database or disk is full")
        return real(self, *a, **k)  # type: ignore[arg-type]

    monkeypatch.setattr(adding.Adding, "_add_entry", filling)
    seeds = [str(p) for p in sorted(CORPUS.glob("*.txt"))]
    r = CliRunner().invoke(main, ["archive", "add", *seeds, "--archive", str(tmp_path / "a.sqlite")])
    assert r.exit_code == 2, r.output
    assert "no space left on the device" in r.stderr and "(2 of 5 files archived before this one" in r.stderr
    assert "nothing was changed" not in r.stderr
    with Archive.open(tmp_path / "a.sqlite", create=False) as arc:
        assert len(arc.versions.all()) == 2
