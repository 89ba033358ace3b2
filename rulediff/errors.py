"""The error family: every failure a user can cause is a RulediffError with a one-line message."""

from __future__ import annotations


class RulediffError(Exception):
    """Base of every error caused by input or usage; the CLI prints it as one line, exit code 2."""

    exit_code = 2

    def __init__(self, message: str, *, source: str | None = None, line: int | None = None) -> None:
        self.message = message
        self.source = source
        self.line = line
        super().__init__(self.one_line())

    def one_line(self) -> str:
        where = ""
        if self.source is not None:
            where = self.source
            if self.line is not None:
                where += f":{self.line}"
            where += ": "
        return where + " ".join(self.message.split())


class ParseError(RulediffError):
    """The input is not a Comprehensive Rules document we can read (carries source and line)."""


class FormatError(ParseError):
    """No parser recognises the input, or the requested one does not exist."""


class AlignmentError(RulediffError):
    """Two documents that cannot be aligned in reasonable time (hostile input: texts of a size no release has)."""


class ArchiveError(RulediffError):
    """The archive file is missing, foreign, corrupt, or the request does not match its contents."""


class NotFoundError(ArchiveError):
    """The archive has no rule (or term, or version) by what was asked: an answer, not a failure."""


class ArchiveBusyError(ArchiveError):
    """Another process holds the archive locked (longer than a command waits)."""


class DamagedArchiveError(ArchiveError):
    """Something stored in the archive does not read back as rulediff wrote it: changed outside rulediff, or
    damaged on the disk inside a row (which SQLite's own checks do not see)."""


class OutputError(RulediffError):
    """An output path cannot be written safely."""
