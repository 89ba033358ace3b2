"""The one decision on the nature of an edit: typography only, references only, or substantive."""

from __future__ import annotations

from enum import StrEnum

from .numbering import references_follow
from .text import mask_references, normalize


class Nature(StrEnum):
    SUBSTANTIVE = "substantive"
    REFERENCES_ONLY = "references_only"
    TYPOGRAPHY_ONLY = "typography_only"


def nature_of(
    old: str,
    new: str,
    old_norm: str | None = None,
    new_norm: str | None = None,
    number_map: dict[str, str | list[str]] | None = None,
) -> Nature | None:
    """None when the raw texts are equal; otherwise what kind of edit separates them.

    Every count, badge and word diff reads this answer (``textdiff.word_diff`` mutes by it), so a rule
    shown as typography-only can never show a visible edit, nor a substantive one show none."""
    if old == new:
        return None
    a = normalize(old) if old_norm is None else old_norm
    b = normalize(new) if new_norm is None else new_norm
    if a == b:
        return Nature.TYPOGRAPHY_ONLY
    if mask_references(a) == mask_references(b) and references_follow(a, b, number_map or {}):
        return Nature.REFERENCES_ONLY
    return Nature.SUBSTANTIVE
