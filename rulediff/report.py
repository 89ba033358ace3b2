"""Kept for the names the README documented before the move (CHANGELOG.md): rulediff.render is their home."""

from __future__ import annotations

from .render.diff_json import iter_json, to_dict, to_json
from .render.html import to_html
from .render.markdown import to_markdown

__all__ = ["iter_json", "to_dict", "to_html", "to_json", "to_markdown"]
