"""Fault injection on the archive: kill -9 and SIGTERM while a write is under way, a hot journal left by a
crash, a full disk, odd archive paths and foreign SQLite files. After every fault the archive opens, reads
and re-adds; a file that is not ours is never written."""

from __future__ import annotations

import hashlib
import random
import shutil
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from rulediff.archive import Archive
from rulediff.errors import ArchiveError

from .conftest import FIXTURES

OFFICIAL = FIXTURES / "parsers" / "official-text"
# Small cuts of real releases, each with its own effective date, so a trial costs a fraction of a second.
BASE = OFFICIAL / "cr-only" / "input.txt"
MORE = [
    OFFICIAL / name / "input.txt"
    for name in ("lf-only", "curly-quotes-utf8", "straight-quotes-2019", "typo-901.4-no-space", "typos-119.1d-606.5")
]
KILL_TRIALS = 20


def _cli(archive: Path, *args: str) -> list[str]:
    return [sys.executable, "-m", "rulediff", "--archive", str(archive), *args]


@pytest.fixture(scope="module")
def base_archive(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("faults") / "base.sqlite"
    with Archive.open(path) as arc:
        arc.add_file(BASE)
    return path


def _journal_live(archive: Path) -> bool:
    """Does a write-ahead log (or rollback journal) hold work not yet folded into the archive?"""
    for suffix in ("-wal", "-journal"):
        j = Path(f"{archive}{suffix}")
        try:
            if j.stat().st_size > 0:
                return True
        except FileNotFoundError:
            pass
    return False


def _interrupt(archive: Path, sig: int, delay: float) -> tuple[bool, int | None]:
    """Start adding MORE, send ``sig`` ``delay`` seconds after its journal goes live; (live at the signal, exit)."""
    proc = subprocess.Popen(
        _cli(archive, "archive", "add", *map(str, MORE)), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    live_since = None
    deadline = time.monotonic() + 120
    while proc.poll() is None and time.monotonic() < deadline:
        if live_since is None and _journal_live(archive):
            live_since = time.monotonic()
        if live_since is not None and time.monotonic() - live_since >= delay:
            break
        time.sleep(0.0005)
    # Its helpers first: reading /proc takes a while on a busy machine, and the add could end meanwhile
    # (it did: a trial counted live was an add that had finished, exit 0). Nothing is read between the
    # check and the signal.
    helpers = _children(proc.pid)
    live = proc.poll() is None and _journal_live(archive)
    proc.send_signal(sig)
    code = proc.wait()
    # Its helper processes go with it: none is left sleeping for ever (a forked worker was, after kill -9).
    deadline = time.monotonic() + 20
    while (left := [p for p in helpers if Path(f"/proc/{p}").exists()]) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not left, f"processes of the interrupted add still alive: {left}"
    return live, code


def _children(pid: int) -> list[int]:
    """The processes whose parent is ``pid`` (from /proc; none where there is no /proc)."""
    out = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid:
            out.append(int(stat.parent.name))
    return out


def _live_window(base_archive: Path, tmp_path: Path) -> float:
    """How long an uninterrupted add keeps its journal live on this machine (the shortest of three
    runs), so that signals are timed inside that window whether the machine is idle or busy."""
    windows = []
    for k in range(3):
        archive = tmp_path / f"calibrate{k}.sqlite"
        shutil.copy(base_archive, archive)
        proc = subprocess.Popen(
            _cli(archive, "archive", "add", *map(str, MORE)), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
        )
        live_since = None
        while proc.poll() is None:
            if live_since is None and _journal_live(archive):
                live_since = time.monotonic()
            time.sleep(0.0005)
        assert proc.returncode == 0
        assert live_since is not None, "the add finished before its journal was seen"
        windows.append(time.monotonic() - live_since)
    return min(windows)


def _recovers(archive: Path, before: set[str]) -> None:
    """The archive opens at once, holds at least what it held before, passes its integrity check and
    takes the same files again."""
    with Archive.open(archive, create=False) as arc:
        have = {v.sha256 for v in arc.versions.all()}
        assert before <= have
        assert arc.db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        for f in MORE:
            arc.add_file(f)
        want = {hashlib.sha256(f.read_bytes()).hexdigest() for f in MORE} | before
        assert {v.sha256 for v in arc.versions.all()} == want
        assert all(len(arc.versions.document(v.id).rules) == v.rule_count for v in arc.versions.all())


def _shas(archive: Path) -> set[str]:
    with Archive.open(archive, create=False) as arc:
        return {v.sha256 for v in arc.versions.all()}


def test_kill_9_while_the_journal_is_live_never_locks_the_archive(base_archive: Path, tmp_path: Path) -> None:
    rng = random.Random(11)
    before = _shas(base_archive)
    window = _live_window(base_archive, tmp_path)
    live = tried = 0
    while live < KILL_TRIALS and tried < 3 * KILL_TRIALS:
        tried += 1
        archive = tmp_path / f"trial{tried}.sqlite"
        shutil.copy(base_archive, archive)
        hot, code = _interrupt(archive, signal.SIGKILL, rng.uniform(0, 0.8 * window))
        # Killed, or ended on its own just before the signal (in the instant after the check): then the kill
        # did not land and is not counted.
        assert code in (0, -signal.SIGKILL), code
        live += hot and code == -signal.SIGKILL
        _recovers(archive, before)
    assert live >= KILL_TRIALS, f"only {live} of {tried} kills landed while the journal was live"


def test_sigterm_rolls_back_and_the_archive_reopens(base_archive: Path, tmp_path: Path) -> None:
    before = _shas(base_archive)
    for trial, delay in enumerate((0.0, 0.05, 0.1)):
        archive = tmp_path / f"term{trial}.sqlite"
        shutil.copy(base_archive, archive)
        hot, code = _interrupt(archive, signal.SIGTERM, delay)
        # 143: our handler rolled back and exited; -15: the signal came while the interpreter was already
        # shutting down (its handlers are gone by then), after the work was done.
        assert code in (0, 128 + signal.SIGTERM, -signal.SIGTERM), code
        _recovers(archive, before)


_HOT_JOURNAL = """
import os, sqlite3, sys
db = sqlite3.connect(sys.argv[1], isolation_level=None)
db.execute("PRAGMA journal_mode = DELETE")
db.execute("PRAGMA cache_size = 1")  # spill changed pages into the file before the commit
db.execute("BEGIN IMMEDIATE")
db.execute("UPDATE versions SET label = 'torn'")
db.execute("CREATE TABLE half_written(x)")
db.execute("INSERT INTO half_written SELECT randomblob(4000) FROM rules")
os._exit(9)  # a crash: the journal stays hot and the file holds half a transaction
"""


def test_a_hot_rollback_journal_is_rolled_back_before_the_file_is_judged(base_archive: Path, tmp_path: Path) -> None:
    archive = tmp_path / "hot.sqlite"
    shutil.copy(base_archive, archive)
    with sqlite3.connect(archive) as db:
        db.execute("PRAGMA journal_mode = DELETE")  # as archives made before write-ahead logging were
    subprocess.run([sys.executable, "-c", _HOT_JOURNAL, str(archive)], check=False)
    assert Path(f"{archive}-journal").stat().st_size > 0
    with Archive.open(archive, create=False) as arc:
        assert [v.label for v in arc.versions.all()] == ["2006-10-01"]
        assert "half_written" not in {n for (n,) in arc.db.execute("SELECT name FROM sqlite_master")}
    _recovers(archive, _shas(base_archive))


def _mount_tmpfs(where: Path, size: str) -> str | None:
    """Mount a small tmpfs; the reason it could not be done otherwise."""
    if not sys.platform.startswith("linux"):
        return "tmpfs mounts need Linux"
    where.mkdir()
    out = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(where)], capture_output=True)
    if out.returncode != 0:
        return f"cannot mount a tmpfs here ({out.stderr.decode(errors='replace').strip() or 'not permitted'})"
    return None


def test_a_full_disk_leaves_the_previous_state(base_archive: Path, tmp_path: Path) -> None:
    disk = tmp_path / "disk"
    # Room for the base archive and not a page more (its size follows the schema).
    why = _mount_tmpfs(disk, f"{base_archive.stat().st_size // 1024}k")
    if why:
        pytest.skip(why)
    try:
        archive = disk / "a.sqlite"
        shutil.copy(base_archive, archive)
        before = _shas(archive)
        out = subprocess.run(_cli(archive, "archive", "add", *map(str, MORE)), capture_output=True, text=True)
        assert out.returncode == 2, out.stderr
        assert out.stderr.count("\n") == 1 and "no space left" in out.stderr and str(archive) in out.stderr
        with Archive.open(archive, create=False) as arc:  # whatever did fit is whole; the rest is not there
            assert before <= {v.sha256 for v in arc.versions.all()}
            assert arc.db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        roomy = tmp_path / "moved.sqlite"
        shutil.copy(archive, roomy)
    finally:
        subprocess.run(["umount", str(disk)], check=False)
    _recovers(roomy, before)


@pytest.mark.parametrize("name", ["foreign#1.db", "foreign?x=1.db", "foreign%41.db", "file:foreign.db"])
def test_odd_archive_names_are_the_file_they_name(tmp_path: Path, name: str) -> None:
    foreign = tmp_path / name
    with sqlite3.connect(foreign) as db:
        db.execute("CREATE TABLE accounts(id INTEGER PRIMARY KEY, owner TEXT)")
    before = foreign.read_bytes()
    with pytest.raises(ArchiveError, match="not a rulediff archive"):
        Archive.open(foreign)
    assert foreign.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == [name]
    ours = tmp_path / f"ours-{name}"
    with Archive.open(ours) as arc:
        arc.add_file(BASE)
    with Archive.open(ours, create=False) as arc:
        assert len(arc.versions.all()) == 1


@pytest.mark.parametrize(
    "make",
    [
        "CREATE VIEW v AS SELECT 1",
        "PRAGMA user_version = 7",
        "PRAGMA application_id = 1234",
        "CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT NOT NULL)",
    ],
)
def test_only_our_marker_makes_a_file_ours(tmp_path: Path, make: str) -> None:
    p = tmp_path / "x.sqlite"
    with sqlite3.connect(p) as db:
        db.execute(make)
    before = p.read_bytes()
    with pytest.raises(ArchiveError, match="not a rulediff archive"):
        Archive.open(p)
    assert p.read_bytes() == before


def test_our_archives_carry_the_application_id(base_archive: Path) -> None:
    with sqlite3.connect(base_archive) as db:
        assert db.execute("PRAGMA application_id").fetchone()[0] == 0x52446966


def test_an_archive_made_before_the_application_id_is_still_ours(base_archive: Path, tmp_path: Path) -> None:
    p = tmp_path / "old.sqlite"
    shutil.copy(base_archive, p)
    with sqlite3.connect(p) as db:
        db.execute("PRAGMA application_id = 0")
    with Archive.open(p, create=False) as arc:
        assert len(arc.versions.all()) == 1
    with sqlite3.connect(p) as db:
        assert db.execute("PRAGMA application_id").fetchone()[0] == 0x52446966


def test_an_archive_on_a_read_only_file_system_is_read_but_not_written(base_archive: Path, tmp_path: Path) -> None:
    disk = tmp_path / "disk"
    why = _mount_tmpfs(disk, "4m")
    if why:
        pytest.skip(why)
    try:
        archive = disk / "a.sqlite"
        shutil.copy(base_archive, archive)
        subprocess.run(["mount", "-o", "remount,ro", str(disk)], check=True)
        with Archive.open(archive, create=False) as arc:
            assert len(arc.versions.all()) == 1
            assert arc.search("rules")
        out = subprocess.run(_cli(archive, "archive", "add", str(MORE[0])), capture_output=True, text=True)
        assert out.returncode == 2 and out.stderr.count("\n") == 1, out.stderr
        assert "read-only" in out.stderr and str(archive) in out.stderr
    finally:
        subprocess.run(["umount", str(disk)], check=False)
