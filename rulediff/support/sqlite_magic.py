"""What the first bytes of an SQLite file say: that it is one, and whether rulediff made it."""

# What the first bytes of an SQLite file say: that it is one, and whether rulediff made it. Read by the archive,
# which stamps its files, and by the outputs, which never replace such a file (both without loading the other).

from __future__ import annotations

SQLITE_MAGIC = b"SQLite format 3\x00"
# Our mark in the header (PRAGMA application_id): the bytes "RDif", at this offset.
APPLICATION_ID = 0x52446966
APPLICATION_ID_AT = 68
