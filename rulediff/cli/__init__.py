"""The command line (click only): every command registered here; imports any stage, the archive by its face."""

# The command line (click only): every command registered here, from one module per command group; each parses its
# options, calls the library and prints, and errors become one line and exit 2.

from __future__ import annotations

import errno
import gc
import io
import os
import sys
from typing import Any, TextIO

from . import archive, corrections, documents, identify, lookup, site
from .frame import debug_option, leave, main, os_error_line, reader_gone, say

# Every command, in one place (each module imports the library inside its commands: `rulediff --help` and
# `rulediff diff` load none of the archive's SQLite layer, the site or the history machinery).
COMMANDS = (
    documents.parse,
    documents.lint,
    documents.formats,
    documents.diff,
    archive.archive,
    lookup.history,
    lookup.show,
    lookup.search,
    identify.identify_command,
    site.report,
)
ARCHIVE_COMMANDS = (
    archive.archive_add,
    archive.archive_list,
    archive.archive_remove,
    archive.archive_export,
    corrections.archive_link,
    corrections.archive_unlink,
    corrections.archive_corrections,
)
for _command in COMMANDS:
    main.add_command(_command)
for _command in ARCHIVE_COMMANDS:
    archive.archive.add_command(_command)
for _command in (*COMMANDS, *ARCHIVE_COMMANDS):
    _command.params.append(debug_option())


class _ClosedOutput(io.TextIOBase):
    """The standard output of a program started without one: Python gives None, to which click writes nothing,
    so a command whose output went nowhere ended with exit 0. Writing to it fails as writing to a closed
    descriptor does (no descriptor is named: the number may since belong to another file)."""

    def writable(self) -> bool:
        return True

    def write(self, s: str) -> int:
        raise OSError(errno.EBADF, os.strerror(errno.EBADF), "standard output")


_REPLACED: list[TextIO] = []


def whole_writes(stream: TextIO) -> TextIO:
    """``stream`` as it is, unless its bytes go straight to the file (Python run unbuffered, PYTHONUNBUFFERED
    or -u): then the same file behind a buffer, flushed at every write as before. Straight to the file, a write
    that fills the disk writes part of what it was given and says so, and nothing writes the rest: the output
    ended short with exit 0. A buffer writes the rest, and a full disk then fails the write: one line, exit 2."""
    raw = getattr(stream, "buffer", None)
    if not isinstance(raw, io.RawIOBase):
        return stream
    _REPLACED.append(stream)  # kept open: closed when collected, it would close the file both write to
    return io.TextIOWrapper(io.BufferedWriter(raw), encoding=stream.encoding, errors=stream.errors, write_through=True)


def run() -> None:
    """The ``rulediff`` program: the command line in a process of its own. What was imported to start it
    lives as long as the process, so the cyclic garbage collector stops walking it (gc.freeze), and it
    collects the young generation every 50,000 new containers instead of 700: a command makes hundreds of
    thousands of long-lived, acyclic objects (rules, changes, rows), and each collection walks them. It
    ends through ``leave``: what it printed written out, the interpreter not torn down."""
    gc.freeze()
    gc.set_threshold(50_000, 20, 100)
    if sys.stdout is None:  # started with standard output closed (>&-): what it prints fails, as it would
        sys.stdout = _ClosedOutput()
    else:
        sys.stdout = whole_writes(sys.stdout)
    stdout = sys.stdout
    try:
        main()
        code: Any = 0
    except SystemExit as e:
        code = e.code
        if sys.stdout is not stdout:
            # click met a broken pipe outside every command (--help, --version) and exited 1, having put a
            # wrapper round standard output: a reader that went away, or else an error, as in a command.
            code = 0 if reader_gone() else 2
            if code:
                say("standard output: Broken pipe")
    except OSError as e:
        # Outside every command's guard: --version or --help written to a full disk.
        code = 2
        say(os_error_line(e))
    leave(code)


__all__ = ["main", "run", "whole_writes"]
