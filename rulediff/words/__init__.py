"""Word-level edits: the word diff, the nature of an edit, rename substitution; imports records and support."""
