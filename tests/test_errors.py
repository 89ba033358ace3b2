"""Bad input, one row per case: the exit code, the one-line error (file, line, what was expected), and no
output file left behind. Exit codes: 0 ok, 1 internal failure, 2 bad input or usage, 3 lint findings
with --strict."""

from __future__ import annotations

import codecs
import errno
import io
import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest
from click.testing import CliRunner

from rulediff.cli import main

from .conftest import FIXTURES

TINY = FIXTURES / "parsers" / "official-text" / "utf8-bom-cr-crcrlf" / "input.txt"
MD = FIXTURES / "parsers" / "markdown" / "slipped-bold-markers" / "input.txt"


def _release_text() -> str:
    return TINY.read_bytes().decode("utf-8-sig")


def _write(tmp: Path, name: str, data: bytes) -> str:
    p = tmp / name
    p.write_bytes(data)
    return str(p)


def _two_rules_same_number(tmp: Path) -> list[str]:
    text = _release_text().replace("100.2.", "100.1.", 1)
    return ["lint", "--strict", _write(tmp, "dup.txt", text.encode("utf-8"))]


def _out_of_order(tmp: Path) -> list[str]:
    text = _release_text()
    a, b = text.index("100.2."), text.index("100.3.")
    # Swap the numbers of 100.2 and 100.3 so 100.3 comes first.
    text = text[:a] + "100.3." + text[a + 6 : b] + "100.2." + text[b + 6 :]
    return ["lint", "--strict", _write(tmp, "order.txt", text.encode("utf-8"))]


def _big_repeated(tmp: Path) -> list[str]:
    head = _release_text().split("100.1.")[0]
    rule = "100.1. These Magic rules apply to any Magic game with two or more players.\n\n"
    body = rule * ((30 * 1024 * 1024) // len(rule))  # under the input cap: the parser's own guard answers
    return ["parse", _write(tmp, "big.txt", (head + body + "Glossary\n\nA\nB.\n\nCredits\n\nC\n").encode())]


def _impossible_date(tmp: Path) -> list[str]:
    """A release that dates itself February 30: read as undated (a warning), never a crash."""
    text = _release_text()
    dated = text.replace("effective as of", "effective as of February 30, 2020. Formerly", 1)
    assert dated != text
    return ["parse", _write(tmp, "feb30.txt", dated.encode("utf-8"))]


def _foreign_sqlite(tmp: Path) -> list[str]:
    import sqlite3

    db = sqlite3.connect(tmp / "photos.sqlite")
    db.execute("CREATE TABLE photos(id INTEGER PRIMARY KEY)")
    db.commit()
    db.close()
    return ["--archive", str(tmp / "photos.sqlite"), "archive", "add", str(MD)]


def _existing_output(tmp: Path) -> list[str]:
    (tmp / "out.html").write_text("keep me")
    return ["diff", str(MD), str(MD), "-o", str(tmp / "out.html")]


def _internal_failure(tmp: Path) -> list[str]:
    return ["diff", str(MD), str(MD), "-o", str(tmp / "never.html")]


def _sqlite(tmp: Path, name: str, statement: str) -> str:
    import sqlite3

    db = sqlite3.connect(tmp / name)
    db.execute(statement)
    db.commit()
    db.close()
    return str(tmp / name)


def _fifo_output(tmp: Path) -> list[str]:
    import os

    os.mkfifo(tmp / "pipe.html")
    return ["diff", str(MD), str(MD), "-o", str(tmp / "pipe.html"), "--force"]


def _fifo_without_writer(tmp: Path) -> list[str]:
    import os

    os.mkfifo(tmp / "waiting.txt")
    return ["parse", str(tmp / "waiting.txt")]


def _over_the_cap(tmp: Path) -> list[str]:
    from rulediff.support.bounded_read import MAX_BYTES

    with open(tmp / "huge.txt", "wb") as fh:
        fh.truncate(MAX_BYTES + 1)  # sparse: costs no disk
    return ["parse", str(tmp / "huge.txt")]


def _manifest(tmp: Path, effective: str, *, label: str = "", sha: str = "", encoding: str = "utf-8") -> str:
    """A folder with TINY and a MANIFEST row for it."""
    folder = tmp / "corpus"
    folder.mkdir()
    (folder / "r\u00e8gles.txt").write_bytes(TINY.read_bytes())
    text = "file\tlabel\teffective\tformat\tsha256\tprovenance\n"
    text += f"r\u00e8gles.txt\t{label}\t{effective}\t\t{sha}\tcopied \u2018by hand\u2019\n"
    (folder / "MANIFEST").write_bytes(text.encode(encoding))
    return str(folder)


def _archive_add(folder: str, tmp: Path) -> list[str]:
    return ["--archive", str(tmp / "a.sqlite"), "archive", "add", folder]


def _archived(tmp: Path, *command: str) -> list[str]:
    CliRunner().invoke(main, ["--archive", str(tmp / "a.sqlite"), "archive", "add", str(TINY)])
    return [command[0], "--archive", str(tmp / "a.sqlite"), *command[1:]]


def _loop(tmp: Path) -> str:
    (tmp / "a.sqlite").symlink_to(tmp / "b.sqlite")
    (tmp / "b.sqlite").symlink_to(tmp / "a.sqlite")
    return str(tmp / "a.sqlite")


def _non_utf8_name(tmp: Path) -> list[str]:
    import os

    folder = tmp / "latin1"
    folder.mkdir()
    (folder / os.fsdecode(b"r\xe8gles-2019.txt")).write_bytes(TINY.read_bytes())
    return ["--archive", str(tmp / "a.sqlite"), "archive", "add", str(folder)]


def _report_into_users_folder(tmp: Path) -> list[str]:
    (tmp / "mine").mkdir()
    (tmp / "mine" / "thesis.tex").write_text("keep me")
    return ["--archive", str(tmp / "a.sqlite"), "report", str(MD), "-o", str(tmp / "mine")]


@dataclass(frozen=True)
class Case:
    name: str
    args: Callable[[Path], list[str]]
    code: int
    says: str  # must appear in the one error line (stderr)
    line: str | None = None  # the "file:line:" prefix that must appear
    no_output: str | None = None  # a file that must not exist afterwards


def _empty_folder(tmp: Path) -> str:
    (tmp / "nothing").mkdir()
    return str(tmp / "nothing")


def _giant_rule(tmp: Path) -> list[str]:
    text = _release_text().replace("100.2.", "100.2. " + "word " * 20_000, 1)
    return ["parse", _write(tmp, "giant.txt", text.encode("utf-8"))]


def _huge_rules(tmp: Path) -> list[str]:
    """Two releases of 40 rules of 60 KB each (just under the parsers' limit), all edited: comparing them all
    would take minutes. Rule text is untrusted; the alignment stops at its budget, in seconds, and names a
    rule."""
    junk = "x.com " + "a." * 30_000
    head = "Magic: The Gathering Comprehensive Rules\n\nThese rules are effective as of {}.\n\n1. Game Concepts\n\n"
    names = []
    for name, date, word in (("huge-old.txt", "May 1, 2020", "Widget"), ("huge-new.txt", "June 1, 2020", "Gadget")):
        rules = "\n\n".join(f"100.{k + 1}. {word} rule {k} reads {junk} {word}." for k in range(40))
        text = head.format(date) + "100. General\n\n" + rules + "\n\nGlossary\n\nCredits\n"
        names.append(_write(tmp, name, text.encode()))
    return ["diff", *names, "-o", str(tmp / "out.html")]


CASES = [
    Case("empty file", lambda t: ["parse", _write(t, "empty.txt", b"")], 2, "file is empty", "empty.txt:1:"),
    Case(
        "binary junk",
        lambda t: ["parse", _write(t, "junk.txt", bytes(range(256)) * 20)],
        2,
        "binary data",
        "junk.txt:1:",
    ),
    Case(
        "a PNG renamed .txt",
        lambda t: ["parse", _write(t, "pic.txt", b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + bytes(100))],
        2,
        "PNG image",
        "pic.txt:1:",
    ),
    Case(
        "release cut mid-rule",
        lambda t: ["parse", _write(t, "cut.txt", TINY.read_bytes()[: TINY.read_bytes().index(b"100.3") + 20])],
        2,
        "truncated release",
        "cut.txt:",
    ),
    Case(
        "release cut mid-UTF-8 character",
        lambda t: ["parse", _write(t, "cut8.txt", TINY.read_bytes() + "\u201c".encode()[:2])],
        2,
        "middle of a UTF-8 character",
        "cut8.txt:",
    ),
    Case(
        "UTF-16 without BOM (readable: parsed)",
        lambda t: ["parse", _write(t, "u16.txt", _release_text().encode("utf-16-le"))],
        0,
        "effective date: 2019-05-03",
    ),
    Case(
        "UTF-16 with BOM cut mid-character",
        lambda t: ["parse", _write(t, "u16cut.txt", codecs.BOM_UTF16_LE + _release_text().encode("utf-16-le")[:-1])],
        2,
        "middle of a UTF-16 character",
        "u16cut.txt:",
    ),
    Case("two rules with one number", _two_rules_same_number, 3, "duplicate rule number 100.1", "dup.txt:"),
    Case("rules out of order", _out_of_order, 3, "out of order", "order.txt:"),
    Case("30 MB of one rule repeated", _big_repeated, 2, "appears more than 50 times", "big.txt:"),
    Case("path that does not exist", lambda t: ["parse", str(t / "nope.txt")], 2, "no such file", "nope.txt:"),
    Case("directory instead of a file", lambda t: ["parse", str(t)], 2, "is a directory"),
    Case(
        "output folder that does not exist",
        lambda t: ["diff", str(MD), str(MD), "-o", str(t / "no" / "such" / "out.html")],
        2,
        "does not exist",
        no_output="no/such/out.html",
    ),
    Case("output file that exists", _existing_output, 2, "already exists; use --force"),
    Case(
        "unknown format",
        lambda t: ["parse", _write(t, "prose.txt", b"Just some prose.\nNothing like rules at all.\n" * 20)],
        2,
        "unknown format",
        "prose.txt:1:",
    ),
    Case("no such parser", lambda t: ["parse", str(MD), "--format", "nope"], 2, "Invalid value for '--format'"),
    Case("an SQLite file that is not our archive", _foreign_sqlite, 2, "not a rulediff archive", "photos.sqlite:"),
    Case(
        "not an archive (plain text)",
        lambda t: ["--archive", _write(t, "notes.sqlite", b"hello\n" * 100), "archive", "list"],
        2,
        "not an SQLite file",
    ),
    Case(
        "a foreign SQLite file named with '#'",
        lambda t: ["--archive", _sqlite(t, "foreign#1.db", "CREATE TABLE t(x)"), "archive", "add", str(MD)],
        2,
        "not a rulediff archive",
        "foreign#1.db:",
    ),
    Case(
        "a foreign SQLite file named with '?'",
        lambda t: ["--archive", _sqlite(t, "foreign?x=1.db", "CREATE TABLE t(x)"), "archive", "add", str(MD)],
        2,
        "not a rulediff archive",
    ),
    Case(
        "an SQLite file with only a view",
        lambda t: ["--archive", _sqlite(t, "view.db", "CREATE VIEW v AS SELECT 1"), "archive", "add", str(MD)],
        2,
        "not a rulediff archive",
    ),
    Case(
        "an SQLite file with only user_version set",
        lambda t: ["--archive", _sqlite(t, "uv.db", "PRAGMA user_version = 3"), "archive", "add", str(MD)],
        2,
        "not a rulediff archive",
    ),
    Case("an endless device (/dev/zero)", lambda t: ["parse", "/dev/zero"], 2, "goes on past", "/dev/zero:"),
    Case("a FIFO nobody writes to", _fifo_without_writer, 2, "file is empty", "waiting.txt:"),
    Case("a file over the input cap", _over_the_cap, 2, "refusing inputs over", "huge.txt:"),
    Case(
        "MANIFEST effective date that is no day",
        lambda t: _archive_add(_manifest(t, "2026-13-45"), t),
        2,
        "effective date '2026-13-45': no such day; expected YYYY-MM-DD, e.g. 2026-01-16",
        "MANIFEST:2:",
    ),
    Case(
        "MANIFEST effective date in words",
        lambda t: _archive_add(_manifest(t, "yesterday"), t),
        2,
        "effective date 'yesterday': not a date; expected YYYY-MM-DD",
        "MANIFEST:2:",
    ),
    Case(
        "MANIFEST label that is no day",
        lambda t: _archive_add(_manifest(t, "2019-05-03", label="2019-02-30"), t),
        2,
        "label '2019-02-30': no such day",
        "MANIFEST:2:",
    ),
    Case(
        "MANIFEST sha256 that does not match the file",
        lambda t: _archive_add(_manifest(t, "2019-05-03", sha="0" * 64), t),
        2,
        "not " + "0" * 64 + " as listed",
        "MANIFEST:2:",
    ),
    Case(
        "MANIFEST sha256 that is not a digest",
        lambda t: _archive_add(_manifest(t, "2019-05-03", sha="abc"), t),
        2,
        "not 64 hexadecimal digits",
        "MANIFEST:2:",
    ),
    Case(
        "MANIFEST in cp1252 (read like any text input)",
        lambda t: _archive_add(_manifest(t, "2019-05-03", encoding="cp1252"), t),
        0,
        "added",
    ),
    Case(
        "MANIFEST with a UTF-8 BOM",
        lambda t: _archive_add(_manifest(t, "2019-05-03", encoding="utf-8-sig"), t),
        0,
        "added",
    ),
    Case("a file name that is not UTF-8 (archived)", _non_utf8_name, 0, "added"),
    Case(
        "--as-of in words",
        lambda t: _archived(t, "history", "100.1", "--as-of", "yesterday"),
        2,
        "--as-of 'yesterday': not a date; expected YYYY-MM-DD, YYYY-MM or YYYY, e.g. 2026-01-16",
    ),
    Case(
        "--as-of that is no day",
        lambda t: _archived(t, "show", "100.1", "--as-of", "2026-02-30"),
        2,
        "--as-of '2026-02-30': no such day",
    ),
    Case(
        # (it was taken for "no such rule": the query was then answered as a glossary term, exit 0)
        "--as-of in words, for a glossary term",
        lambda t: _archived(t, "history", "ability", "--as-of", "yesterday"),
        2,
        "--as-of 'yesterday': not a date",
    ),
    Case(
        "--as-of before every release, for a glossary term",
        lambda t: _archived(t, "history", "ability", "--as-of", "1900-01-01"),
        2,
        "no archived version in force on 1900-01-01",
    ),
    Case(
        # (it said "--as-of", which the user never typed)
        "diff of a day that is none",
        lambda t: _archived(t, "diff", "2011-02-30", "2019-05-03"),
        2,
        "version '2011-02-30': no such day",
    ),
    Case(
        # (it said "no archive here; create one")
        "--archive naming a symlink loop",
        lambda t: ["--archive", _loop(t), "archive", "list"],
        2,
        "is a symbolic link that leads to no file",
    ),
    Case(
        "a query that is not UTF-8",
        lambda t: _archived(t, "history", os.fsdecode(b"\xff")),
        2,
        "search needs at least one word",
    ),
    Case("diff -o onto a FIFO, even with --force", _fifo_output, 2, "device, FIFO or socket"),
    Case("an effective date that is no day (February 30)", _impossible_date, 0, "no effective date found"),
    Case("report into a folder of the user's files", _report_into_users_folder, 2, "not a rulediff site"),
    Case(
        "report -o naming a file (a usage error, on one line)",
        lambda t: ["report", "-o", _write(t, "a-file", b"x")],
        2,
        "Invalid value for '-o' / '--output': Directory",
    ),
    Case(
        "--archive naming a folder",
        lambda t: ["--archive", str(t), "archive", "list"],
        2,
        "Invalid value for '--archive'",
    ),
    Case("an option no command has", lambda t: ["diff", "--bogus"], 2, "No such option '--bogus'"),
    Case("a command that does not exist", lambda t: ["difff"], 2, "No such command 'difff'"),
    Case(
        "report of an empty folder (not the shipped corpus instead)",
        lambda t: ["--archive", str(t / "a.sqlite"), "report", _empty_folder(t), "-o", str(t / "site")],
        2,
        "no files to add",
        "nothing:",
        "site",
    ),
    Case("a rule of 100 KB", _giant_rule, 2, "characters long, and no rule of any release is over 4,000", "giant.txt:"),
    Case(
        "JSON Lines with a line nested past the decoder's depth",
        lambda t: [
            "parse",
            _write(t, "deep.jsonl", b'{"number": "100.1", "text": "x"}\n' + b"[" * 100_000 + b"]" * 100_000),
        ],
        2,
        "not a JSON object: nested too deeply",
        "deep.jsonl:2:",
    ),
    Case(
        "JSON whose first line nests past the decoder's depth",
        lambda t: ["parse", _write(t, "deep.json", b'{"rules": ' + b"[" * 1500 + b"]" * 1500 + b"}")],
        2,
        "unknown format",
        "deep.json:1:",
    ),
    Case(
        "releases of huge rules, too much to compare",
        _huge_rules,
        2,
        "characters, and the alignment would compare more than 10 times as much text as any two real releases",
        "huge-",
        "out.html",
    ),
]


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_bad_input(case: Case, tmp_path: Path) -> None:
    args = case.args(tmp_path)
    result = CliRunner().invoke(main, args)
    assert result.exit_code == case.code, result.output
    assert "Traceback" not in result.output
    text = result.stderr if case.code in (1, 2) else result.stdout
    assert case.says in text, text
    if case.code == 2:
        lines = [ln for ln in result.stderr.splitlines() if ln.strip()]
        assert len(lines) == 1, lines
    if case.line:
        assert case.line in text
    if case.no_output:
        assert not (tmp_path / case.no_output).exists()
    assert not list(tmp_path.rglob("*.part")), "no half-written output"


def test_existing_output_is_kept_without_force_and_replaced_with_it(tmp_path: Path) -> None:
    out = tmp_path / "out.html"
    out.write_text("keep me")
    r = CliRunner().invoke(main, ["diff", str(MD), str(MD), "-o", str(out)])
    assert r.exit_code == 2 and out.read_text() == "keep me"
    r = CliRunner().invoke(main, ["diff", str(MD), str(MD), "-o", str(out), "--force"])
    assert r.exit_code == 0 and out.read_text().startswith("<!DOCTYPE html>")


def test_internal_failure_is_exit_1_with_one_line_and_debug_shows_traceback(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import rulediff.matcher.classify as changes

    def boom(*_: object) -> None:
        raise RuntimeError("simulated bug")

    # `rulediff diff` imports the matcher when it runs (not at start-up), so it finds this one.
    monkeypatch.setattr(changes, "align", boom)
    r = CliRunner().invoke(main, _internal_failure(tmp_path))
    assert r.exit_code == 1
    assert "internal error: RuntimeError: simulated bug" in r.stderr
    assert "Traceback" not in r.output
    assert not (tmp_path / "never.html").exists()
    r = CliRunner().invoke(main, ["--debug", *_internal_failure(tmp_path)])
    assert r.exit_code == 1 and "Traceback" in r.stderr


# -- the machine fails, not the input: a full disk, a read-only file system ---------------------------------

OFFICIAL = FIXTURES / "parsers" / "official-text"
SMALL = [OFFICIAL / n / "input.txt" for n in ("cr-only", "lf-only", "curly-quotes-utf8", "straight-quotes-2019")]


@dataclass(frozen=True)
class EnvCase:
    name: str
    size: str  # of the tmpfs
    read_only: bool
    args: Callable[[Path, Path], list[str]]  # (mounted folder, archive there) -> command line
    code: int
    says: str


ENV_CASES = [
    EnvCase(
        "disk full during archive add",
        "260k",
        False,
        lambda d, a: ["--archive", str(a), "archive", "add", *map(str, SMALL[2:])],
        2,
        "no space left on the device while writing the archive",
    ),
    EnvCase(
        "disk full while report writes pages",
        "260k",
        False,
        lambda d, a: ["--archive", str(a), "report", "-o", str(d / "site")],
        2,
        "No space left on device",
    ),
    EnvCase(
        "read-only file system: archive add",
        "2m",
        True,
        lambda d, a: ["--archive", str(a), "archive", "add", str(SMALL[2])],
        2,
        "the archive is read-only",
    ),
    EnvCase(
        "read-only file system: report into it",
        "2m",
        True,
        lambda d, a: ["--archive", str(a), "report", "-o", str(d / "site")],
        2,
        "Read-only file system",
    ),
    EnvCase(
        "read-only archive: diff of two versions answers without caching",
        "2m",
        True,
        lambda d, a: ["diff", "2006-10-01", "2014-07-18", "--archive", str(a)],
        0,
        "",
    ),
]


@pytest.fixture(scope="module")
def small_archive(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from rulediff.archive import Archive

    path = tmp_path_factory.mktemp("env") / "a.sqlite"
    with Archive.open(path) as arc:
        for f in SMALL[:2]:
            arc.add_file(f)
    return path


@pytest.mark.parametrize("case", ENV_CASES, ids=[c.name for c in ENV_CASES])
def test_environment_error(case: EnvCase, tmp_path: Path, small_archive: Path) -> None:
    import shutil
    import subprocess

    disk = tmp_path / "disk"
    disk.mkdir()
    mount = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={case.size}", "tmpfs", str(disk)], capture_output=True)
    if mount.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {mount.stderr.decode(errors='replace').strip() or 'not permitted'}")
    try:
        archive = disk / "a.sqlite"
        shutil.copy(small_archive, archive)
        if case.read_only:
            subprocess.run(["mount", "-o", "remount,ro", str(disk)], check=True)
        result = CliRunner().invoke(main, case.args(disk, archive))
        assert result.exit_code == case.code, result.output
        assert "Traceback" not in result.output and "internal error" not in result.stderr
        if case.code == 2:
            lines = [ln for ln in result.stderr.splitlines() if ln.strip()]
            assert len(lines) == 1 and case.says in lines[0] and str(disk) in lines[0], lines
    finally:
        subprocess.run(["umount", str(disk)], check=False)


def _run_python(code: str, cwd: Path, *, close_early: bool = False) -> tuple[int, str, str]:
    """Run ``code`` in a fresh interpreter in ``cwd`` with its output on a pipe; ``close_early``: this end
    reads one chunk and closes the pipe, as ``| head`` does."""
    import subprocess
    import sys

    proc = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=cwd)
    assert proc.stdout is not None and proc.stderr is not None
    if close_early:
        proc.stdout.read(64)
        proc.stdout.close()
        err = proc.stderr.read().decode()
        return proc.wait(timeout=60), "", err
    out, err = proc.communicate(timeout=60)
    return proc.returncode, out.decode(), err.decode()


def test_output_cut_short_by_its_reader_ends_quietly(tmp_path: Path) -> None:
    # The whole document as JSON is far longer than a pipe holds: the writer meets the closed pipe.
    code = f"import sys; from rulediff.cli import run; sys.argv = ['rulediff', 'parse', {str(TINY)!r}, '--json']; run()"
    rc, _, err = _run_python(code, tmp_path, close_early=True)
    assert rc == 0 and err == "", err


def test_a_broken_pipe_that_is_not_the_output_is_an_error(tmp_path: Path) -> None:
    """A pipe other than standard output breaking (a worker process that could not start, or died) is an
    error on one line, exit 2: not the quiet success of a reader that went away (the site was not built)."""
    from rulediff.archive import Archive

    with Archive.open(tmp_path / "a.sqlite") as arc:
        arc.add_file(TINY)
    code = (
        "import sys\n"
        "import rulediff.archive.versions as V\n"
        "def broken(self, *a, **k):\n"
        "    raise BrokenPipeError(32, 'Broken pipe')\n"
        "V.Versions.all = broken\n"
        "sys.argv = ['rulediff', '--archive', 'a.sqlite', 'archive', 'list']\n"
        "from rulediff.cli import run\n"
        "run()\n"
    )
    rc, out, err = _run_python(code, tmp_path)
    assert rc == 2, (out, err)
    assert err.count("\n") == 1 and "Broken pipe (not the output" in err, err


def _run_to(path: str, args: list[str], cwd: Path) -> tuple[int, str]:
    """``rulediff ARGS`` as a program, its standard output written to ``path``; (exit code, stderr)."""
    import subprocess
    import sys

    with open(path, "w") as out:
        done = subprocess.run([sys.executable, "-m", "rulediff", *args], stdout=out, stderr=subprocess.PIPE, cwd=cwd)
    return done.returncode, done.stderr.decode()


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="no /dev/full on this system")
@pytest.mark.parametrize(
    "args",
    [["parse", str(TINY), "--json"], ["parse", str(TINY)], ["formats"], ["--version"], ["--help"]],
    ids=["long output", "short output", "formats", "version", "help"],
)
def test_standard_output_on_a_full_disk_is_named_on_one_line(args: list[str], tmp_path: Path) -> None:
    """Output written to a full disk: one line naming standard output, exit 2. Short outputs fail only when
    the process flushes them at its end; --version and formats were tracebacks, a command's error named no
    file ("rulediff: No space left on device")."""
    rc, err = _run_to("/dev/full", args, tmp_path)
    assert rc == 2, err
    assert err == "rulediff: error: standard output: No space left on device\n", err


class _NearlyFullDisk(io.RawIOBase):
    """A file on a disk with ``room`` bytes left: a write takes what fits and says how much, then fails."""

    def __init__(self, room: int) -> None:
        self.room, self.got = room, bytearray()

    def writable(self) -> bool:
        return True

    def write(self, b) -> int:  # type: ignore[no-untyped-def, override]
        if not self.room:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        n = min(len(b), self.room)
        self.got += bytes(b[:n])
        self.room -= n
        return n


@pytest.mark.parametrize("room", [0, 1, 5, 3999])
def test_unbuffered_output_to_a_nearly_full_disk_is_never_cut_short_quietly(room: int) -> None:
    """Run unbuffered (PYTHONUNBUFFERED, -u), standard output's text went straight to the file: a write that
    filled the disk wrote part, said so, and nothing wrote the rest (the JSON ended short, exit 0). Behind the
    buffer the program puts there, what is written is all there, or the write fails."""
    from rulediff.cli import whole_writes

    text = "\u2019x" * 1000  # 4,000 bytes
    if room:
        disk = _NearlyFullDisk(room)
        unbuffered = io.TextIOWrapper(disk, encoding="utf-8", write_through=True)
        unbuffered.write(text)
        unbuffered.flush()  # (the trouble: no error at all)
        assert len(disk.got) == room < len(text.encode())
    disk = _NearlyFullDisk(room)
    stream = whole_writes(io.TextIOWrapper(disk, encoding="utf-8", write_through=True))
    with pytest.raises(OSError) as e:
        stream.write(text)
        stream.flush()
    assert e.value.errno == errno.ENOSPC
    assert bytes(disk.got) == text.encode()[:room]
    roomy = _NearlyFullDisk(10**6)
    stream = whole_writes(io.TextIOWrapper(roomy, encoding="utf-8", write_through=True))
    stream.write(text)
    stream.flush()
    assert bytes(roomy.got) == text.encode()


def test_buffered_output_is_left_as_it_is() -> None:
    from rulediff.cli import whole_writes

    buffered = io.TextIOWrapper(io.BytesIO(), encoding="utf-8")
    assert whole_writes(buffered) is buffered


def test_a_program_run_writes_all_its_output(tmp_path: Path) -> None:
    """The program ends without tearing the interpreter down (cli_base.leave): what it printed is all there,
    byte for byte what the command gives in-process."""
    rc, err = _run_to(str(tmp_path / "out.json"), ["parse", str(TINY), "--json"], tmp_path)
    assert rc == 0 and err == ""
    want = CliRunner().invoke(main, ["parse", str(TINY), "--json"])
    assert want.exit_code == 0
    assert (tmp_path / "out.json").read_text(encoding="utf-8") == want.output


def test_help_into_a_pipe_whose_reader_has_gone_ends_quietly(tmp_path: Path) -> None:
    """--help and --version are written outside every command, where click turned a broken pipe into exit 1."""
    import subprocess
    import sys

    for args in (["--help"], ["--version"]):
        proc = subprocess.Popen(
            [sys.executable, "-m", "rulediff", *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=tmp_path
        )
        assert proc.stdout is not None and proc.stderr is not None
        proc.stdout.close()  # gone before the program has started
        err = proc.stderr.read().decode()
        proc.stderr.close()
        assert proc.wait(timeout=60) == 0 and err == "", (args, err)


def test_a_profiler_still_reports(tmp_path: Path) -> None:
    """The program skips the interpreter's teardown (cli_base.leave), except under a profiler or tracer."""
    import subprocess
    import sys

    done = subprocess.run(
        [sys.executable, "-m", "cProfile", "-m", "rulediff", "formats"], capture_output=True, text=True, cwd=tmp_path
    )
    assert done.returncode == 0 and "function calls" in done.stdout, done.stdout[-500:]


# -- reading an archive another process holds, or one whose last commits sit in its log -----------------------

# Holds the archive locked (exclusive locking mode) after committing a change, and says so on stdout.
_HOLDER = """
import sqlite3, sys
db = sqlite3.connect(sys.argv[1], isolation_level=None)
db.execute("PRAGMA locking_mode = EXCLUSIVE")
db.execute("BEGIN EXCLUSIVE")
db.execute("DELETE FROM versions WHERE id = (SELECT max(id) FROM versions)")
db.execute("COMMIT")
db.execute("SELECT count(*) FROM versions").fetchone()
print("held", flush=True)
sys.stdin.read()
"""


def test_an_archive_another_process_holds_is_busy_not_read_as_it_stands(
    tmp_path: Path, small_archive: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The file as it stands lacks what the holder committed to its log (or holds what it has not): reading it
    immutable (meant for read-only file systems) answered with a release the holder had removed, exit 0."""
    import shutil
    import subprocess
    import sys

    import rulediff.archive.connection as core

    archive = tmp_path / "a.sqlite"
    shutil.copy(small_archive, archive)
    monkeypatch.setattr(core, "BUSY_WAIT", 0.2)
    holder = subprocess.Popen(
        [sys.executable, "-c", _HOLDER, str(archive)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
        r = CliRunner().invoke(main, ["--archive", str(archive), "archive", "list"])
        assert r.exit_code == 2, r.output
        assert r.stderr.count("\n") == 1 and "the archive is busy" in r.stderr and str(archive) in r.stderr
    finally:
        holder.communicate("", timeout=60)


def test_last_commits_in_the_log_on_a_read_only_file_system_are_not_dropped(
    tmp_path: Path, small_archive: Path
) -> None:
    """An archive copied with its write-ahead log (a reader kept the log from being copied into the file) onto a
    file system mounted read-only: the file alone lacks the last release added, and was listed without it."""
    import shutil
    import sqlite3
    import subprocess

    from rulediff.archive import Archive

    src = tmp_path / "src" / "a.sqlite"
    src.parent.mkdir()
    shutil.copy(small_archive, src)
    reader = sqlite3.connect(src)
    try:
        reader.execute("BEGIN")
        reader.execute("SELECT count(*) FROM versions").fetchone()  # a snapshot the log must keep
        with Archive.open(src) as arc:
            arc.add_file(SMALL[2])
        assert Path(f"{src}-wal").stat().st_size > 0
        disk = tmp_path / "disk"
        disk.mkdir()
        mount = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=4m", "tmpfs", str(disk)], capture_output=True)
        if mount.returncode != 0:
            pytest.skip(
                f"cannot mount a tmpfs here: {mount.stderr.decode(errors='replace').strip() or 'not permitted'}"
            )
        try:
            shutil.copy(src, disk / "a.sqlite")
            shutil.copy(f"{src}-wal", disk / "a.sqlite-wal")
        finally:
            reader.close()
        try:
            subprocess.run(["mount", "-o", "remount,ro", str(disk)], check=True)
            r = CliRunner().invoke(main, ["--archive", str(disk / "a.sqlite"), "archive", "list"])
            assert r.exit_code == 2, r.output
            assert r.stderr.count("\n") == 1 and "a.sqlite-wal" in r.stderr and "cannot be read" in r.stderr, r.stderr
        finally:
            subprocess.run(["umount", str(disk)], check=False)
    finally:
        reader.close()


# Holds the archive's write lock (an open write transaction) until its input closes; readers go on.
_WRITER = """
import sqlite3, sys
db = sqlite3.connect(sys.argv[1], isolation_level=None)
db.execute("BEGIN IMMEDIATE")
print("writing", flush=True)
sys.stdin.read()
db.execute("ROLLBACK")
"""


# Never neighbours: their alignment is worked out on request, and kept if it can be.
_DIFF_TWO_ARCHIVED = ["diff", "2006-10-01", "2019-01-25", "--format", "json"]


def _three_versions(small_archive: Path, archive: Path) -> None:
    import shutil

    from rulediff.archive import Archive

    shutil.copy(small_archive, archive)
    with Archive.open(archive) as arc:
        arc.add_file(SMALL[3])


def test_a_diff_of_two_archived_versions_answers_while_another_process_writes(
    tmp_path: Path, small_archive: Path
) -> None:
    """The answer is worked out first and kept only if the archive can take it at once: it waited for the
    writer (30 s), then failed with 'the archive is busy' although the answer was ready."""
    import hashlib
    import subprocess
    import sys
    import time

    archive = tmp_path / "a.sqlite"
    _three_versions(small_archive, archive)
    before = hashlib.sha256(archive.read_bytes()).hexdigest()
    writer = subprocess.Popen(
        [sys.executable, "-c", _WRITER, str(archive)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
    )
    try:
        assert writer.stdout is not None and writer.stdout.readline().strip() == "writing"
        t = time.monotonic()
        r = CliRunner().invoke(main, ["--archive", str(archive), *_DIFF_TWO_ARCHIVED])
        assert r.exit_code == 0, r.output
        assert time.monotonic() - t < 20, "it waited for the writer"
        assert '"changes"' in r.stdout
    finally:
        writer.communicate("", timeout=60)
    assert hashlib.sha256(archive.read_bytes()).hexdigest() == before


def test_a_diff_of_two_archived_versions_answers_on_a_full_disk(tmp_path: Path, small_archive: Path) -> None:
    import subprocess

    disk = tmp_path / "disk"
    disk.mkdir()
    mount = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=4m", "tmpfs", str(disk)], capture_output=True)
    if mount.returncode != 0:
        why = mount.stderr.decode(errors="replace").strip() or "not permitted"
        pytest.skip(f"cannot mount a tmpfs here: {why}")
    try:
        archive = disk / "a.sqlite"
        _three_versions(small_archive, archive)
        with open(disk / "filler", "wb", buffering=0) as fh:  # the rest of the disk
            try:
                while True:
                    fh.write(b"\0" * 4096)
            except OSError:
                pass
        r = CliRunner().invoke(main, ["--archive", str(archive), *_DIFF_TWO_ARCHIVED])
        assert r.exit_code == 0, r.output
        assert '"changes"' in r.stdout
    finally:
        subprocess.run(["umount", str(disk)], check=False)


# -- an archive whose rows hold what rulediff did not write -------------------------------------------------

_TWO = ["2006-10-01", "2014-07-18"]
_LAST_RULE = "version_id = 2 AND pos = (SELECT max(pos) FROM rules WHERE version_id = 2)"
_CORRECTION = (
    "INSERT INTO corrections(action, old_sha, old_number, new_sha, new_number, reason)"
    " SELECT '{}', a.sha256, {}, b.sha256, {}, 'hand' FROM versions a, versions b WHERE a.id = 1 AND b.id = 2"
)
DAMAGE = [
    ("a version's extras", "UPDATE versions SET extra = 'x' WHERE id = 2", ["show", "100.1"]),
    ("a version's extras, a field gone", "UPDATE versions SET extra = '{}' WHERE id = 2", ["show", "100.1"]),
    (
        "a rule's examples",
        "UPDATE bodies SET examples = '{not json' WHERE examples IS NOT NULL",
        ["diff", "2006-10-01", "2014-07-18"],
    ),
    ("an alignment's counts", "UPDATE alignments SET summary = 'nope'", ["archive", "list"]),
    ("an alignment", "UPDATE alignments SET data = x'deadbeef'", ["history", "100.1"]),
    # (rows that contradict one another: deleted with the database's foreign keys off, as a plain connection has them)
    ("a rule of a version it does not have", "DELETE FROM versions WHERE id = 2", ["search", "game"]),
    # a version short of rules: a stored alignment names its rules by position, and would name others (or none)
    ("a version's rules, some gone", "DELETE FROM rules WHERE version_id = 2 AND pos > 3", ["diff", *_TWO]),
    ("a version's rules, the last gone", f"DELETE FROM rules WHERE {_LAST_RULE}", ["diff", *_TWO]),
    # (read by lineage or by text, not as whole versions: the rule would be missing from a release, exit 0)
    (
        "a version's rules, one gone: history",
        "DELETE FROM rules WHERE version_id = 2 AND pos = 3",
        ["history", "100.1a"],
    ),
    ("a version's rules, one gone: search", "DELETE FROM rules WHERE version_id = 2 AND pos = 3", ["search", "game"]),
    # the record of schema changes short of one the tables show was made: it would be made again, and fail
    (
        "its record of schema changes",
        "DELETE FROM migrations WHERE id = 8",  # (the newest that cannot simply be made again)
        ["archive", "list"],
    ),
    # a hand correction not as 'archive link' or 'unlink' records one
    ("a hand correction's number", _CORRECTION.format("link", "'100.1#abc'", "'100.1'"), ["archive", "corrections"]),
    ("a hand correction's action", _CORRECTION.format("lnk", "'100.1'", "'100.1'"), ["archive", "corrections"]),
    ("a hand link to no rule", _CORRECTION.format("link", "'100.1'", "NULL"), ["diff", *_TWO]),
    (
        "a hand correction's nth, a digit of another script",
        _CORRECTION.format("link", "'100.1#²'", "'100.1'"),
        ["diff", *_TWO],
    ),
    (
        "a hand correction's reason, two lines",
        _CORRECTION.format("link", "'100.1'", "'100.1'").replace(
            "'hand'", "'one' || char(10) || 'rulediff: error: two'"
        ),
        ["archive", "corrections"],
    ),
    (
        "a rule's body",
        "DELETE FROM bodies WHERE id IN (SELECT body_id FROM rules WHERE version_id = 2)",
        ["diff", *_TWO],
    ),
]


@pytest.mark.parametrize(("what", "sql", "command"), DAMAGE, ids=[d[0] for d in DAMAGE])
def test_a_damaged_row_is_said_on_one_line_naming_the_archive(
    what: str, sql: str, command: list[str], tmp_path: Path, small_archive: Path
) -> None:
    """A value that does not read back (changed outside rulediff, or damaged inside a row, which SQLite's own
    checks do not see) was an internal error (exit 1) naming no file."""
    import shutil
    import sqlite3

    archive = tmp_path / "a.sqlite"
    shutil.copy(small_archive, archive)
    db = sqlite3.connect(archive, isolation_level=None)
    assert db.execute(sql).rowcount > 0
    db.close()
    r = CliRunner().invoke(main, ["--archive", str(archive), *command])
    assert r.exit_code == 2, r.output
    assert r.stderr.count("\n") == 1, r.stderr
    assert r.stderr.startswith(f"rulediff: error: {archive}: the archive is damaged: "), r.stderr


def test_a_damaged_entry_of_the_site_caches_is_worked_out_again(tmp_path: Path, small_archive: Path) -> None:
    """The steps and edits a build keeps in the archive are a cache: one that does not read back is made again
    (the site equal to before), not a failed build."""
    import shutil
    import sqlite3

    archive = tmp_path / "a.sqlite"
    shutil.copy(small_archive, archive)
    site = tmp_path / "site"
    r = CliRunner().invoke(main, ["--archive", str(archive), "report", "-o", str(site)])
    assert r.exit_code == 0, r.output
    before = {p.relative_to(site): p.read_bytes() for p in site.rglob("*.html")}
    shutil.rmtree(site)
    db = sqlite3.connect(archive, isolation_level=None)
    assert db.execute("UPDATE site_parts SET data = x'00'").rowcount > 0
    db.execute("UPDATE edits SET data = x'00'")
    db.close()
    r = CliRunner().invoke(main, ["--archive", str(archive), "report", "-o", str(site)])
    assert r.exit_code == 0, r.output
    assert {p.relative_to(site): p.read_bytes() for p in site.rglob("*.html")} == before


def test_an_answer_is_not_kept_for_a_release_replaced_while_it_was_worked_out(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A diff worked out on request outside any transaction is kept only for the releases it was made of: one
    removed meanwhile, its id given to another release, left an alignment of the wrong text in the archive, and
    every later diff of that pair failed."""
    import sqlite3
    import subprocess
    import sys

    import rulediff.archive.alignments as alignments
    from rulediff.archive import Archive

    archive = tmp_path / "a.sqlite"
    with Archive.open(archive) as arc:
        for f in (SMALL[0], SMALL[2], SMALL[3]):  # ids 1, 2, 3: 2006-10-01, 2014-05-01, 2019-01-25
            arc.add_file(f)
    real = alignments.align
    cli = [sys.executable, "-m", "rulediff", "--archive", str(archive), "archive"]

    def replaced_meanwhile(*args: object, **kwargs: object) -> object:
        answer = real(*args, **kwargs)  # type: ignore[arg-type]
        subprocess.run([*cli, "remove", "2019-01-25"], check=True, capture_output=True)
        subprocess.run([*cli, "add", str(SMALL[1])], check=True, capture_output=True)  # 2014-07-18, given id 3
        return answer

    monkeypatch.setattr(alignments, "align", replaced_meanwhile)
    with Archive.open(archive) as arc:
        arc.alignments.get("#1", "#3")
    monkeypatch.undo()
    db = sqlite3.connect(archive)
    assert db.execute("SELECT label FROM versions WHERE id = 3").fetchone() == ("2014-07-18",)
    assert db.execute("SELECT count(*) FROM alignments WHERE old_id = 1 AND new_id = 3").fetchone() == (0,)
    db.close()
    r = CliRunner().invoke(main, ["--archive", str(archive), "diff", "2006-10-01", "2014-07-18", "--format", "json"])
    assert r.exit_code == 0, r.output


def test_debug_shows_where_a_stored_value_failed_to_read(tmp_path: Path, small_archive: Path) -> None:
    """The damaged-archive error keeps the error it met as its cause: --debug shows where that was raised (a
    bug in the reading code must stay findable)."""
    import shutil
    import sqlite3

    archive = tmp_path / "a.sqlite"
    shutil.copy(small_archive, archive)
    db = sqlite3.connect(archive, isolation_level=None)
    db.execute("UPDATE versions SET extra = 'x' WHERE id = 2")
    db.close()
    r = CliRunner().invoke(main, ["--debug", "--archive", str(archive), "show", "100.1"])
    assert r.exit_code == 2
    assert "JSONDecodeError" in r.stderr and "direct cause of the following exception" in r.stderr, r.stderr


@pytest.mark.parametrize("args", [["parse", str(TINY)], ["--version"]], ids=["a command", "version"])
def test_a_program_started_without_standard_output_says_so(args: list[str], tmp_path: Path) -> None:
    """Started with standard output closed (>&-), a command that prints ended with exit 0 having printed nothing."""
    import os
    import subprocess
    import sys

    done = subprocess.run(
        [sys.executable, "-m", "rulediff", *args], stderr=subprocess.PIPE, cwd=tmp_path, preexec_fn=lambda: os.close(1)
    )
    assert done.returncode == 2, done.stderr
    assert done.stderr.decode() == "rulediff: error: standard output: Bad file descriptor\n"


def test_a_worker_process_that_dies_is_said_on_one_line(
    tmp_path: Path, small_archive: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A worker process killed under a command (the OOM killer, kill -9) was an internal error naming
    BrokenProcessPool, exit 1."""
    import multiprocessing
    import os
    import shutil
    from concurrent.futures import ProcessPoolExecutor

    from rulediff.site import build as site

    def dying(workers: int, *, spawn: bool = False) -> ProcessPoolExecutor:
        context = multiprocessing.get_context("spawn")
        return ProcessPoolExecutor(workers, mp_context=context, initializer=os._exit, initargs=(9,))

    archive = tmp_path / "a.sqlite"
    shutil.copy(small_archive, archive)
    monkeypatch.setattr(site, "worker_pool", dying)
    r = CliRunner().invoke(main, ["--archive", str(archive), "report", "-o", str(tmp_path / "site")])
    assert r.exit_code == 2, r.output
    assert r.stderr == (
        "rulediff: error: a worker process ended abruptly (killed, or out of memory?); run the command again\n"
    )


def test_a_worker_refuses_an_archive_file_replaced_under_its_command(tmp_path: Path, small_archive: Path) -> None:
    """A site build's workers open the archive again by its path, partway through the build: another file
    moved into its place meanwhile would give them other rows under the ids the build hands them. They
    refuse it, one line naming the archive."""
    import os
    import shutil
    import sqlite3

    from rulediff.archive import Archive
    from rulediff.errors import ArchiveError
    from rulediff.site.build import _render_pages
    from rulediff.site.step_work import work_out_apart

    archive = tmp_path / "a.sqlite"
    shutil.copy(small_archive, archive)
    with Archive.open(archive) as arc:
        identity = arc.identity
        _render_pages(str(archive), identity, str(tmp_path / "site"), [], {}, {}, False)  # the same file: no complaint
        assert work_out_apart("one build", str(archive), identity, [], {}, []) == ([], {}, {})
    # another archive, one an older rulediff made: opened, it would be brought up to date
    shutil.copy(small_archive, tmp_path / "b.sqlite")
    db = sqlite3.connect(tmp_path / "b.sqlite", isolation_level=None)
    db.execute("DROP TABLE site_parts")
    db.execute("DELETE FROM migrations WHERE id = 8")
    db.close()
    before = (tmp_path / "b.sqlite").read_bytes()
    os.replace(tmp_path / "b.sqlite", archive)
    said = f"{archive}: was replaced by another file while this command ran; run it again"
    with pytest.raises(ArchiveError) as diff_pages:
        _render_pages(str(archive), identity, str(tmp_path / "site"), [], {}, {}, False)
    with pytest.raises(ArchiveError) as history_steps:
        work_out_apart("another build", str(archive), identity, [], {}, [])
    assert diff_pages.value.one_line() == history_steps.value.one_line() == said
    assert archive.read_bytes() == before  # refused unopened: not changed
    archive.write_bytes(b"")  # nor read: an empty file is not what is said
    with pytest.raises(ArchiveError) as empty:
        _render_pages(str(archive), identity, str(tmp_path / "site"), [], {}, {}, False)
    assert empty.value.one_line() == said


def test_an_older_archive_is_read_where_it_cannot_be_written(tmp_path: Path, small_archive: Path) -> None:
    """An archive made by an older rulediff, on a read-only file system, was refused by every command of a
    rulediff that adds a schema change ("the archive is read-only"). The changes that only save work (an
    index, the site's caches: schema.CAN_WAIT) wait for an opening that can write, and the caches read as
    empty meanwhile: every command answers as it does once they are made."""
    import shutil
    import sqlite3
    import subprocess

    from rulediff.archive.schema import MIGRATIONS

    waiting = (4, 6, 8)  # the changes that can wait: schema.CAN_WAIT, checked at the end
    disk = tmp_path / "disk"
    disk.mkdir()
    mount = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=4m", "tmpfs", str(disk)], capture_output=True)
    if mount.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {mount.stderr.decode(errors='replace').strip() or 'not permitted'}")
    archive = disk / "a.sqlite"
    try:
        shutil.copy(small_archive, archive)
        db = sqlite3.connect(archive, isolation_level=None)
        # as a rulediff before those changes left it
        for sql in ("DROP TABLE site_parts", "DROP TABLE edits", "DROP INDEX bodies_norm", "DROP INDEX bodies_digest"):
            db.execute(sql)
        db.execute(f"DELETE FROM migrations WHERE id IN {waiting}")
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        db.close()
        subprocess.run(["mount", "-o", "remount,ro", str(disk)], check=True)
        read_only = {}
        for command in (["archive", "list"], ["diff", *_TWO], ["history", "100.1"], ["search", "game"]):
            r = CliRunner().invoke(main, ["--archive", str(archive), *command])
            assert r.exit_code == 0, r.output
            read_only[command[0]] = r.stdout
        r = CliRunner().invoke(main, ["--archive", str(archive), "report", "-o", str(tmp_path / "site")])
        assert r.exit_code == 0, r.output
        writable = tmp_path / "a.sqlite"
        shutil.copy(archive, writable)
    finally:
        subprocess.run(["umount", str(disk)], check=False)
    # Where it can be written, the changes are made, and every answer is the same.
    for command in (["archive", "list"], ["diff", *_TWO], ["history", "100.1"], ["search", "game"]):
        r = CliRunner().invoke(main, ["--archive", str(writable), *command])
        assert r.exit_code == 0 and r.stdout == read_only[command[0]], r.output
    r = CliRunner().invoke(main, ["--archive", str(writable), "report", "-o", str(tmp_path / "site2")])
    assert r.exit_code == 0, r.output
    assert _tree(tmp_path / "site") == _tree(tmp_path / "site2")
    done = sqlite3.connect(writable).execute("SELECT id FROM migrations").fetchall()
    assert sorted(n for (n,) in done) == [n for n, _, _ in MIGRATIONS]
    from rulediff.archive.schema import CAN_WAIT

    assert set(waiting) == CAN_WAIT


def _tree(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


# -- archive export: whole or not at all ---------------------------------------------------------------------


def _damaged_copy(tmp_path: Path, small_archive: Path, sql: str) -> Path:
    import shutil
    import sqlite3

    archive = tmp_path / "a.sqlite"
    shutil.copy(small_archive, archive)
    db = sqlite3.connect(archive, isolation_level=None)
    assert db.execute(sql).rowcount > 0
    db.close()
    return archive


def test_an_export_to_a_file_is_whole_or_not_written(tmp_path: Path, small_archive: Path) -> None:
    """Damage found partway (the last version's extras do not read back) wrote part of the
    JSON lines, exit 2: now the file named keeps what it held, and no temp file is left."""
    archive = _damaged_copy(
        tmp_path,
        small_archive,
        "UPDATE versions SET extra = 'x'"
        " WHERE id = (SELECT id FROM versions ORDER BY sort_date DESC, seq DESC LIMIT 1)",
    )
    out = tmp_path / "out.jsonl"
    out.write_text("before\n")
    r = CliRunner().invoke(main, ["--archive", str(archive), "archive", "export", "-o", str(out), "--force"])
    assert r.exit_code == 2, r.output
    assert r.stderr.startswith(f"rulediff: error: {archive}: the archive is damaged: ") and r.stderr.count("\n") == 1
    assert out.read_text() == "before\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.sqlite", "out.jsonl"]
    # (and standard output had lines before the damage: what -o is for)
    r = CliRunner().invoke(main, ["--archive", str(archive), "archive", "export"])
    assert r.exit_code == 2 and '"type": "version"' in r.stdout


def test_an_export_of_an_archive_short_of_rule_rows_writes_nothing(tmp_path: Path, small_archive: Path) -> None:
    archive = _damaged_copy(tmp_path, small_archive, "DELETE FROM rules WHERE version_id = 2 AND pos = 3")
    r = CliRunner().invoke(main, ["--archive", str(archive), "archive", "export"])
    assert r.exit_code == 2, r.output
    assert r.stdout == "" and "the archive is damaged: " in r.stderr


def test_an_export_to_a_file_equals_standard_output(tmp_path: Path, small_archive: Path) -> None:
    out = tmp_path / "out.jsonl"
    r = CliRunner().invoke(main, ["--archive", str(small_archive), "archive", "export", "-o", str(out)])
    assert r.exit_code == 0, r.output
    assert r.stdout == ""
    r = CliRunner().invoke(main, ["--archive", str(small_archive), "archive", "export"])
    assert r.exit_code == 0 and out.read_text(encoding="utf-8") == r.stdout and r.stdout.count("\n") > 10
    r = CliRunner().invoke(main, ["--archive", str(small_archive), "archive", "export", "-o", str(out)])
    assert r.exit_code == 2 and "already exists; use --force" in r.stderr


@pytest.mark.parametrize(
    "command",
    [["archive", "export", "-o"], ["diff", "2006-10-01", "2014-07-18", "--format", "json", "-o"]],
    ids=["export", "diff"],
)
def test_no_output_replaces_an_archive_even_forced(command: list[str], tmp_path: Path, small_archive: Path) -> None:
    """`-o rulediff.sqlite --force` (a slip of the finger) replaced the archive with the output: every version
    archived was lost. An archive is refused by its SQLite header, whichever archive the command reads."""
    import hashlib
    import shutil

    archive = tmp_path / "a.sqlite"
    shutil.copy(small_archive, archive)
    other = tmp_path / "b.sqlite"
    shutil.copy(small_archive, other)
    before = {p: hashlib.sha256(p.read_bytes()).hexdigest() for p in (archive, other)}
    for target in (archive, other):
        r = CliRunner().invoke(main, ["--archive", str(archive), *command, str(target), "--force"])
        assert r.exit_code == 2, r.output
        assert (
            r.stderr == f"rulediff: error: {target}: is a rulediff archive; refusing to replace it, even with --force\n"
        )
    assert {p: hashlib.sha256(p.read_bytes()).hexdigest() for p in (archive, other)} == before


def test_no_output_replaces_a_database_or_its_log_even_forced(tmp_path: Path, small_archive: Path) -> None:
    """The review's cases: an archive killed in its first add has its versions in its write-ahead log and a
    header without the application id yet (it was replaced, and all four versions lost); and the log itself,
    or its index, was replaced (a version lost)."""
    import hashlib
    import shutil
    import sqlite3

    archive = tmp_path / "a.sqlite"
    shutil.copy(small_archive, archive)
    other = tmp_path / "other.db"
    sqlite3.connect(other).execute("CREATE TABLE t(x)").connection.close()  # a header with no application id
    db = sqlite3.connect(archive, isolation_level=None)
    db.execute("PRAGMA journal_mode = WAL")
    db.execute("BEGIN")
    db.execute("CREATE TABLE pending(x)")
    db.execute("COMMIT")  # in the log, till a checkpoint: the connection stays open
    try:
        targets = {
            other: "is an SQLite database",
            Path(f"{archive}-wal"): f"is part of the SQLite database {archive} (its wal file)",
            Path(f"{archive}-shm"): f"is part of the SQLite database {archive} (its shm file)",
        }
        for target, said in targets.items():
            before = hashlib.sha256(target.read_bytes()).hexdigest()
            command = ["--archive", str(small_archive), "archive", "export", "-o", str(target), "--force"]
            r = CliRunner().invoke(main, command)
            assert r.exit_code == 2, r.output
            assert r.stderr == f"rulediff: error: {target}: {said}; refusing to replace it, even with --force\n"
            assert hashlib.sha256(target.read_bytes()).hexdigest() == before
    finally:
        db.close()


def test_an_export_read_in_part_ends_quietly(small_archive: Path) -> None:
    """`archive export | head -1`: the reader goes; the export's snapshot, left to the garbage collector, ended on
    a closed database and printed a traceback ("Exception ignored in ... Cannot operate on a closed database")."""
    import subprocess
    import sys

    proc = subprocess.Popen(
        [sys.executable, "-m", "rulediff", "--archive", str(small_archive), "archive", "export"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert proc.stdout is not None and proc.stderr is not None
    assert proc.stdout.readline().startswith(b"{")
    proc.stdout.close()
    err = proc.stderr.read().decode()
    proc.wait(timeout=60)
    assert err == "" and proc.returncode == 0, (proc.returncode, err)
