"""One input cap for every kind of source: files, pipes, FIFOs and devices are read in chunks and never past
the cap; a FIFO nobody writes to does not hang."""

from __future__ import annotations

import os
import threading
from pathlib import Path

import pytest

from rulediff.errors import ParseError
from rulediff.support.bounded_read import read_input

from .conftest import FIXTURES

TINY = FIXTURES / "parsers" / "official-text" / "utf8-bom-cr-crcrlf" / "input.txt"


def _pipe_of(data: bytes, repeat: int = 1) -> tuple[str, threading.Thread, int]:
    r, w = os.pipe()

    def feed() -> None:
        try:
            for _ in range(repeat):
                os.write(w, data)
        except BrokenPipeError:
            pass  # the reader stopped at the cap
        finally:
            os.close(w)

    t = threading.Thread(target=feed, daemon=True)
    t.start()
    return f"/proc/self/fd/{r}", t, r


@pytest.mark.skipif(not Path("/proc/self/fd").is_dir(), reason="needs /proc/self/fd to name a pipe")
def test_a_pipe_is_read_whole_when_small() -> None:
    path, t, r = _pipe_of(TINY.read_bytes())
    try:
        assert read_input(path) == TINY.read_bytes()
    finally:
        t.join()
        os.close(r)


@pytest.mark.skipif(not Path("/proc/self/fd").is_dir(), reason="needs /proc/self/fd to name a pipe")
def test_a_long_pipe_is_cut_at_the_cap() -> None:
    path, t, r = _pipe_of(b"x" * 65536, repeat=64)  # 4 MB through a 1 MB cap
    try:
        with pytest.raises(ParseError, match="goes on past 1048576 bytes"):
            read_input(path, limit=1024 * 1024)
    finally:
        os.close(r)
        t.join()


def test_a_fifo_without_writer_reads_as_empty(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "f")
    assert read_input(tmp_path / "f") == b""


def test_an_endless_device_is_cut_at_the_cap() -> None:
    with pytest.raises(ParseError, match="goes on past 4096 bytes"):
        read_input("/dev/zero", limit=4096)


def test_a_file_exactly_at_the_cap_is_read(tmp_path: Path) -> None:
    (tmp_path / "f").write_bytes(b"a" * 4096)
    assert len(read_input(tmp_path / "f", limit=4096)) == 4096
    (tmp_path / "g").write_bytes(b"a" * 4097)
    with pytest.raises(ParseError, match="refusing inputs over 4096 bytes"):
        read_input(tmp_path / "g", limit=4096)
