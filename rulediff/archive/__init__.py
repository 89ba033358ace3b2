"""The SQLite archive, sole owner of SQL and stored formats; imports parsers to matcher, is reached by this face."""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .core import Archive
    from .identifications import Identified
    from .manifest import Entry, entries, shipped_corpus
    from .names import ReleaseName
    from .rows import DEFAULT_NAME, ENV_VAR, AddResult, VersionRow, default_path, sort_date_of

# What the stages above the archive use, each imported on first use: naming the default archive path (every
# command's --archive) loads no SQLite layer. Layout: core.py (the Archive facade) over its parts: store.py
# (the connection, transactions), versions.py, corrections.py, alignments.py, lineages.py, texts.py, cache.py,
# identifications.py, adding.py; codec.py (the stored formats), schema.py (migrations), connection.py,
# ingest.py (the parse worker), rows.py (the records it hands out), manifest.py (corpus folders).
_HOME = {
    "Archive": "core",
    "AddResult": "rows",
    "DEFAULT_NAME": "rows",
    "ENV_VAR": "rows",
    "Entry": "manifest",
    "Identified": "identifications",
    "ReleaseName": "names",
    "VersionRow": "rows",
    "default_path": "rows",
    "entries": "manifest",
    "shipped_corpus": "manifest",
    "sort_date_of": "rows",
}


def __getattr__(name: str) -> Any:
    home = _HOME.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(import_module(f".{home}", __name__), name)


__all__ = [
    "DEFAULT_NAME",
    "ENV_VAR",
    "AddResult",
    "Archive",
    "Entry",
    "Identified",
    "ReleaseName",
    "VersionRow",
    "default_path",
    "entries",
    "shipped_corpus",
    "sort_date_of",
]
