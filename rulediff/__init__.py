"""rulediff: archive every version of the Magic: The Gathering Comprehensive Rules and diff any two."""

from __future__ import annotations

from .changes import Alignment, Change, Kind, Nature, align
from .errors import ArchiveError, FormatError, ParseError, RulediffError
from .model import Coverage, Document, Example, GlossaryEntry, Rule, VersionInfo
from .numbering import RuleNumber, find_references
from .parsers import FORMATS, detect, parse_bytes, parse_file

__version__ = "0.1.0"


def parse(path: str, format: str | None = None, *, lint: bool = False) -> Document:
    """Parse a Comprehensive Rules file of any supported format into a Document (``lint`` adds
    rulediff.lint's findings to its warnings)."""
    return parse_file(path, format, lint=lint)


__all__ = [
    "FORMATS",
    "Alignment",
    "ArchiveError",
    "Change",
    "Coverage",
    "Document",
    "Example",
    "FormatError",
    "GlossaryEntry",
    "Kind",
    "Nature",
    "ParseError",
    "Rule",
    "RuleNumber",
    "RulediffError",
    "VersionInfo",
    "__version__",
    "align",
    "detect",
    "find_references",
    "parse",
    "parse_bytes",
    "parse_file",
]
