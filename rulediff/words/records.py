"""Records of the word layer, no engine inside: the nature of an edit and a release-wide rename."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class Nature(StrEnum):
    SUBSTANTIVE = "substantive"
    REFERENCES_ONLY = "references_only"
    TYPOGRAPHY_ONLY = "typography_only"
    # Only a release-wide term substitution (EDH -> Commander), reported once for the release; the
    # word diff still shows the substituted words: the rule's wording did change.
    RENAMED = "renamed"


@dataclass(frozen=True, slots=True)
class Rename:
    """``old`` became ``new`` throughout the release, in ``rules`` rules of the aligned pair (counted once
    the pair is aligned: paired rules whose old text used the old term). ``spellings`` are the exact
    words substituted, case kept: "Tribal" -> "Kindred" and "tribal" -> "kindred", never the heading
    "General" for a rename of the noun "general"."""

    old: str
    new: str
    spellings: tuple[tuple[str, str], ...]
    rules: int = 0
    # Renamed only inside quoted text (the card text the rules quote): 2024-07-30's "enters the battlefield" ->
    # "enters", which the rules' own text kept.
    quoted: bool = False

    def as_dict(self) -> dict[str, object]:
        return {"old": self.old, "new": self.new, "rules": self.rules, "quoted": self.quoted}
