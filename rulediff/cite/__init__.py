"""Rule citations in a text followed to a newer release: found, followed, rewritten, locked."""

from __future__ import annotations

from .cited import Cited, follow_citations, rewritten
from .find import FORMATS, Citation, find_citations, format_of
from .follow import Followed, Status, worst
from .lock import Locked, check_lock, lock_dict, read_lock

__all__ = [
    "FORMATS",
    "Citation",
    "Cited",
    "Followed",
    "Locked",
    "Status",
    "check_lock",
    "find_citations",
    "follow_citations",
    "format_of",
    "lock_dict",
    "read_lock",
    "rewritten",
    "worst",
]
