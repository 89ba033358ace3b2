"""Data shipped with rulediff: the published hand corrections of lineage (corrections.tsv)."""
