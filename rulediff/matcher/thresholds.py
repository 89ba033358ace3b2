"""The matcher's thresholds in one place."""

# The matcher's thresholds in one place: how alike two texts must be to pair, and how much evidence a link needs.

from __future__ import annotations

# Similarity (0-100) at or above which two nodes may pair on text alone, and the lower bar used when
# structure vouches for the pair (same parent mapping and same number, or the only candidate left).
PAIR_CUTOFF = 62.0
STRUCTURAL_CUTOFF = 45.0
# Rules and subrules with no structural support must be this similar: the rules are full of
# boilerplate that differs only in a keyword ("Multiple instances of X are redundant.").
LOOSE_CUTOFF = 62.0
# Headings and sections are short titles: "Keyword Abilities" and "Linked Abilities" are 0.73 alike.
TITLE_CUTOFF = 85.0
# Two nodes that each lie outside what the other source covers pair only on near-identical text.
OUTSIDE_CUTOFF = 90.0
# Share of its meaning (see ``evidence.evidence``) a node must have taken to a differently named one.
EVIDENCE = 0.5
# Below this share such a link is kept but marked uncertain.
STRONG_EVIDENCE = 0.75
# A pair made on text similarity plus structure points (0-100+) below this is marked uncertain.
UNCERTAIN_BELOW = 70.0
