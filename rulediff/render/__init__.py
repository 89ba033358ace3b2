"""What a reader sees of an Alignment: notes, Markdown, HTML, JSON; imports the matcher, never the archive."""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .diff_json import iter_json, to_dict, to_json
    from .html import to_html
    from .markdown import to_markdown
    from .notes import build_notes
    from .notes_json import notes_dict, to_notes_json
    from .view import headline

# The renderers by name, each module imported on first use: `diff --format json` loads no HTML renderer.
_HOME = {
    "build_notes": "notes",
    "headline": "view",
    "iter_json": "diff_json",
    "notes_dict": "notes_json",
    "to_dict": "diff_json",
    "to_html": "html",
    "to_json": "diff_json",
    "to_markdown": "markdown",
    "to_notes_json": "notes_json",
}


def __getattr__(name: str) -> Any:
    home = _HOME.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(import_module(f".{home}", __name__), name)


__all__ = [
    "build_notes",
    "headline",
    "iter_json",
    "notes_dict",
    "to_dict",
    "to_html",
    "to_json",
    "to_markdown",
    "to_notes_json",
]
