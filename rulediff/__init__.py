"""rulediff: archive every version of the Magic: The Gathering Comprehensive Rules and diff any two."""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .archive import Archive
    from .coverage import Coverage
    from .errors import ArchiveError, FormatError, ParseError, RulediffError
    from .matcher.classify import align
    from .matcher.records import Alignment, Change, Kind
    from .model import Document, Example, GlossaryEntry, Rule, VersionInfo
    from .numbering import RuleNumber
    from .parsers import FORMATS, detect, parse_bytes, parse_file
    from .references import find_references
    from .words.records import Nature

from ._version import __version__

# The public names and the module each lives in, imported on first use (PEP 562): a command pays only
# for what it runs (`rulediff diff` never loads the archive's SQLite layer, the site or Jinja).
_HOME = {
    "Archive": "archive",
    "Alignment": "matcher.records",
    "Change": "matcher.records",
    "Kind": "matcher.records",
    "Nature": "words.nature",
    "align": "matcher.classify",
    "ArchiveError": "errors",
    "FormatError": "errors",
    "ParseError": "errors",
    "RulediffError": "errors",
    "Coverage": "model",
    "Document": "model",
    "Example": "model",
    "GlossaryEntry": "model",
    "Rule": "model",
    "VersionInfo": "model",
    "RuleNumber": "numbering",
    "find_references": "references",
    "FORMATS": "parsers",
    "detect": "parsers",
    "parse_bytes": "parsers",
    "parse_file": "parsers",
}


def __getattr__(name: str) -> Any:
    home = _HOME.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(import_module(f".{home}", __name__), name)
    globals()[name] = value  # found once; later lookups are plain attribute reads
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_HOME))


def diff(old: str | Document, new: str | Document) -> Alignment:
    """Align two versions given as files (any supported format) or parsed Documents."""
    from .matcher.classify import align
    from .model import Document

    a = old if isinstance(old, Document) else parse(old)
    b = new if isinstance(new, Document) else parse(new)
    return align(a, b)


def parse(path: str, format: str | None = None, *, lint: bool = False) -> Document:
    """Parse a Comprehensive Rules file of any supported format into a Document (``lint`` adds
    rulediff.parsers.lint's findings to its warnings)."""
    from .parsers import parse_file

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
