"""Kept for the names the README documented before the move (CHANGELOG.md): rulediff.render is their home."""

from __future__ import annotations

from .render.notes import build_notes
from .render.view import headline

__all__ = ["build_notes", "headline"]
