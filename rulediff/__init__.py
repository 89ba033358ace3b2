"""rulediff: archive every version of the Magic: The Gathering Comprehensive Rules and diff any two."""

from __future__ import annotations

from .archive import Archive
from .changes import Alignment, Change, Kind, Nature, align
from .errors import ArchiveError, FormatError, ParseError, RulediffError
from .model import Coverage, Document, Example, GlossaryEntry, Rule, VersionInfo
from .numbering import RuleNumber, find_references
from .parsers import FORMATS, detect, parse_bytes, parse_file

__version__ = "0.1.0"


def diff(old: str | Document, new: str | Document) -> Alignment:
    """Align two versions given as files (any supported format) or parsed Documents."""
    a = old if isinstance(old, Document) else parse(old)
    b = new if isinstance(new, Document) else parse(new)
    return align(a, b)


def parse(path: str, format: str | None = None, *, lint: bool = False) -> Document:
    """Parse a Comprehensive Rules file of any supported format into a Document (``lint`` adds
    rulediff.lint's findings to its warnings)."""
    return parse_file(path, format, lint=lint)


__all__ = [
    "FORMATS",
    "Alignment",
    "Archive",
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
    "diff",
    "find_references",
    "parse",
    "parse_bytes",
    "parse_file",
]
