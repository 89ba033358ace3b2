"""The SQLite archive, the one place that speaks SQL and the stored formats: versions (raw bytes compressed,
sha256, dates, provenance), their rules, alignments, a lineage id per rule, full-text search, migrations.

Layout: ``core`` (Archive: open, add, remove) builds on ``correcting`` (recording hand corrections),
``identifying`` (reads for identify), ``queries`` (reads for history, search, site), ``alignments`` (stored
alignments, lineages), ``corrections`` (corrections as lineage reads them) and ``base`` (connection,
versions, documents); ``codec`` is the stored formats, ``schema`` the migrations and the "is this ours"
check, ``ingest`` the parse worker (each file parsed, aligned with the one before and made into rows)."""

from __future__ import annotations

from .core import Archive
from .rows import DEFAULT_NAME, ENV_VAR, AddResult, VersionRow, default_path, sort_date_of

__all__ = ["DEFAULT_NAME", "ENV_VAR", "AddResult", "Archive", "VersionRow", "default_path", "sort_date_of"]
