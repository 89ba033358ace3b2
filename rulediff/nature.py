"""The one decision on the nature of an edit: typography only, references only, or substantive."""

from __future__ import annotations

from collections.abc import Sequence
from enum import StrEnum

from .numbering import references_follow
from .renames import Rename, substitute
from .text import mask_references, normalize


class Nature(StrEnum):
    SUBSTANTIVE = "substantive"
    REFERENCES_ONLY = "references_only"
    TYPOGRAPHY_ONLY = "typography_only"
    # Only a release-wide term substitution (EDH -> Commander), reported once for the release; the
    # word diff still shows the substituted words: the rule's wording did change.
    RENAMED = "renamed"


def nature_of(
    old: str,
    new: str,
    old_norm: str | None = None,
    new_norm: str | None = None,
    number_map: dict[str, str | list[str]] | None = None,
    renames: Sequence[Rename] = (),
) -> Nature | None:
    """None when the raw texts are equal; otherwise what kind of edit separates them.

    Every count, badge and word diff reads this answer (``textdiff.word_diff`` mutes by it), so a rule
    shown as typography-only can never show a visible edit, nor a substantive one show none. An edit
    that the release's ``renames`` explain (with typography and followed references) is RENAMED: it
    shows the substituted words, and nothing else, as changed."""
    if old == new:
        return None
    a = normalize(old) if old_norm is None else old_norm
    b = normalize(new) if new_norm is None else new_norm
    if a == b:
        return Nature.TYPOGRAPHY_ONLY
    if mask_references(a) == mask_references(b) and references_follow(a, b, number_map or {}):
        return Nature.REFERENCES_ONLY
    if renames:
        r = normalize(substitute(old, renames))
        if r == b or (mask_references(r) == mask_references(b) and references_follow(r, b, number_map or {})):
            return Nature.RENAMED
    return Nature.SUBSTANTIVE
