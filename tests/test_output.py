"""Outputs land whole or not at all, and a writer killed while writing leaves nothing for good: the next write
of the same target removes the temp file it left (rulediff.support.safe_write)."""

from __future__ import annotations

import fcntl
import os
import subprocess
import sys
import time
from pathlib import Path

from click.testing import CliRunner

from rulediff.cli import main
from rulediff.support.safe_write import LEFTOVER_AGE, fresh_file_beside, write_atomic

from .conftest import FIXTURES

MD = FIXTURES / "parsers" / "markdown" / "slipped-bold-markers" / "input.txt"

# Writes a target and is killed (SIGKILL) at the moment its bytes are being made durable.
_KILLED_WRITER = """
import os, signal, sys
from rulediff.support import safe_write as output
os.fsync = lambda fd: os.kill(os.getpid(), signal.SIGKILL)
output.write_atomic(sys.argv[1], "x" * 100_000)
"""


def _parts(folder: Path) -> list[Path]:
    return sorted(folder.glob(".*.part"))


def _age(path: Path) -> None:
    old = time.time() - LEFTOVER_AGE - 5
    os.utime(path, (old, old))


def test_the_temp_file_of_a_writer_killed_while_writing_is_removed_by_the_next_write(tmp_path: Path) -> None:
    target = tmp_path / "changes.md"
    done = subprocess.run([sys.executable, "-c", _KILLED_WRITER, str(target)], capture_output=True)
    assert done.returncode == -9, done.stderr
    (left,) = _parts(tmp_path)  # what the kill leaves: the temp file, the target never made
    assert not target.exists()
    _age(left)
    r = CliRunner().invoke(main, ["diff", str(MD), str(MD), "-o", str(target)])
    assert r.exit_code == 0, r.output
    assert target.is_file() and _parts(tmp_path) == []


def test_a_temp_file_being_written_is_left_alone(tmp_path: Path) -> None:
    """Another writer of the same target still at work holds its temp file locked: it is not a leftover."""
    target = tmp_path / "changes.md"
    fd, tmp = fresh_file_beside(target)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        _age(Path(tmp))
        write_atomic(target, "mine")
        assert Path(tmp).exists() and target.read_text() == "mine"
    finally:
        os.close(fd)


def test_only_old_unlocked_temp_files_of_the_same_target_go(tmp_path: Path) -> None:
    target = tmp_path / "changes.md"
    young = tmp_path / ".changes.md.0123456789ab.part"  # its writer may not have locked it yet
    young.write_text("young")
    other = tmp_path / ".other.md.0123456789ab.part"  # another target's
    unlike = tmp_path / ".changes.md.not-hex-digit.part"  # not a name rulediff makes
    planted = tmp_path / ".changes.md.ba9876543210.part"  # a symlink: none of ours
    keep = tmp_path / "keep.txt"
    keep.write_text("kept")
    planted.symlink_to(keep)
    old = tmp_path / ".changes.md.aaaaaaaaaaaa.part"
    for p in (other, unlike, old):
        p.write_text("left")
        _age(p)
    write_atomic(target, "new")
    assert target.read_text() == "new"
    assert not old.exists()
    assert young.exists() and other.exists() and unlike.exists() and planted.is_symlink()
    assert keep.read_text() == "kept"


def test_a_fifo_named_like_a_temp_file_is_not_opened(tmp_path: Path) -> None:
    """Opening a FIFO wakes a writer waiting on it: a name like a leftover's does not make it one."""
    import threading

    target = tmp_path / "changes.md"
    fifo = tmp_path / ".changes.md.aaaaaaaaaaaa.part"
    os.mkfifo(fifo)
    _age(fifo)
    opened = threading.Event()

    def wait_to_write() -> None:
        fd = os.open(fifo, os.O_WRONLY)  # blocks until a reader opens the FIFO
        opened.set()
        os.close(fd)

    writer = threading.Thread(target=wait_to_write, daemon=True)
    writer.start()
    try:
        write_atomic(target, "new")
        assert not opened.wait(0.5), "the FIFO was opened"
        assert fifo.exists() and target.read_text() == "new"
    finally:
        os.close(os.open(fifo, os.O_RDONLY | os.O_NONBLOCK))  # let the writer go
        writer.join(5)


def test_a_leftover_of_a_name_with_a_newline_goes_too(tmp_path: Path) -> None:
    target = tmp_path / "odd\nname.md"
    left = tmp_path / ".odd\nname.md.0123456789ab.part"
    left.write_text("left")
    _age(left)
    write_atomic(target, "new")
    assert not left.exists() and target.read_text() == "new"
