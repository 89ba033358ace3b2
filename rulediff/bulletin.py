"""Kept for the names the README documented before the move (CHANGELOG.md): rulediff.render is their home."""

from __future__ import annotations

from .render.markdown import to_markdown
from .render.notes_json import notes_dict, to_notes_json

__all__ = ["notes_dict", "to_markdown", "to_notes_json"]
