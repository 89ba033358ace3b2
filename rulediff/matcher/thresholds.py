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
# A heading renamed as it grew or shrank: EVIDENCE of one side's content went to the other, which holds at least
# this share of it (the rest new), under titles that share a word or the number; kept, marked uncertain.
GROWN_EVIDENCE = 0.2
# A pair made on text similarity plus structure points (0-100+) below this is marked uncertain.
UNCERTAIN_BELOW = 70.0
# Leftovers (leftovers.py): an unpaired text pairs with one anywhere in the other release when the two are at
# least RESCUE_NEAR alike, or RESCUE_TEXT alike with RESCUE_CARRIED of each side's content words in the other.
RESCUE_NEAR = 0.85
RESCUE_TEXT = 0.62
RESCUE_CARRIED = 0.6
# ... or, where their places agree (parents paired, or a parent with a further ancestor), PLACED_TEXT alike (or one
# held inside the other) with PLACED_MEANING of their meaning (the Dice share of their content words, or
# containment: meaning.Likeness).
PLACED_TEXT = 0.45
PLACED_MEANING = 0.5
# A link made on weak text gives way to an unpaired node this much closer in text and meaning together (the mean of
# the text likeness and the Dice share of content words), no less in meaning and at most WORSE_TEXT_BY further in
# text.
BETTER_BY = 0.1
WORSE_TEXT_BY = 0.1
# An uncertain link between two texts sharing less than this of their meaning (meaning.Likeness) is not kept: in
# the hand-checked calibration half every such link was wrong (tests/fixtures/align/hand-checked/).
KEPT_MEANING = 0.25
# ... a link whose texts are at least this alike stands.
STANDS = 0.75
# A text held inside another shares its meaning (0.9 x the share of its content words the other holds) when it has
# at least this many content words; nodes whose places agree pair on text held inside the other's at this meaning.
CONTAINED_WORDS = 6
CONTAINED = 0.8
# An old text at least this much of whose content words a new rule continuing another old rule holds went there
# (merged into it, absorbed.py), when that is more of it, and more alike, than its own link.
ABSORBED = 0.6
# ... and this share of its words are words that rule gained (not a sentence both old rules said, nor boilerplate).
ABSORBED_OWN = 0.3
# ... making up at least this share of the words it gained.
ABSORBED_GAIN = 0.33
