"""The caches the site keeps in the archive: worked-out edits and rendered steps, by key and code."""

# The caches the site keeps in the archive: edits (the nature and word diff of one text becoming another) and
# rendered steps of its pages, each by key and by the code that made it; an archive that cannot take them now
# (read-only, full, or another process's) keeps none, and one made by an older rulediff has none yet.

from __future__ import annotations

import json
import sqlite3
import zlib

from ..words.diff import Op, Piece
from ..words.edits import Edit
from .codec import stored
from .store import Store, cannot_keep


class SiteCache:
    """The site's caches in an open archive."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.path = store.path
        self.tables: set[str] | None = None

    @staticmethod
    def pack(edit: Edit) -> bytes:
        """An edit as the cache keeps it (compressed; opaque to its callers, who hold many at once)."""
        return _encode_edit(edit)

    @staticmethod
    def unpack(data: bytes) -> Edit:
        """The edit ``pack`` made ``data`` of (DamagedArchiveError when it does not read)."""
        return _decode_edit(data)

    def edit_keys(self, engine: str) -> set[str]:
        """The keys of the edits ``engine`` stored (reading a key costs far less than its edit)."""
        if not self.has("edits"):
            return set()
        return {key for (key,) in self.store.db.execute("SELECT key FROM edits WHERE engine = ?", (engine,))}

    def edit(self, key: str, engine: str) -> Edit | None:
        if not self.has("edits"):
            return None
        row = self.store.db.execute("SELECT data FROM edits WHERE key = ? AND engine = ?", (key, engine)).fetchone()
        return _decode_edit(row[0]) if row is not None else None

    def store_edits(self, engine: str, edits: dict[str, bytes]) -> None:
        """Keep ``edits`` (each as ``pack`` made it; other engines' edits are dropped) for the next build."""
        self._keep("edits", engine, edits)

    def parts(self, engine: str) -> dict[str, bytes]:
        """The rendered steps of history and glossary pages ``engine`` stored, compressed, by key."""
        if not self.has("site_parts"):
            return {}
        return dict(self.store.db.execute("SELECT key, data FROM site_parts WHERE engine = ?", (engine,)).fetchall())

    def part(self, key: str, engine: str) -> bytes | None:
        """One rendered step of ``site_parts``, or None."""
        if not self.has("site_parts"):
            return None
        row = self.store.db.execute(
            "SELECT data FROM site_parts WHERE key = ? AND engine = ?", (key, engine)
        ).fetchone()
        return bytes(row[0]) if row is not None else None

    def store_parts(self, engine: str, parts: dict[str, bytes]) -> None:
        self._keep("site_parts", engine, parts)

    def has(self, table: str) -> bool:
        """Is cache ``table`` there? Not yet, in an archive made by an older rulediff that could not be written
        since (its migration waits: schema.CAN_WAIT); then it holds nothing."""
        if self.tables is None:
            self.tables = {
                name
                for (name,) in self.store.db.execute(
                    "SELECT name FROM sqlite_master WHERE type = 'table' AND name IN ('edits', 'site_parts')"
                )
            }
        return table in self.tables

    def _keep(self, table: str, engine: str, rows: dict[str, bytes]) -> None:
        """Keep ``rows`` of a cache table and drop other engines' rows; an archive that cannot take them now
        (read-only, full, or another process's) keeps none."""
        if not self.has(table):
            return  # its migration waits for an opening that can write (see _has_cache)
        try:
            with self.store.transaction():
                self.store.db.execute(f"DELETE FROM {table} WHERE engine != ?", (engine,))
                self.store.db.executemany(
                    f"INSERT OR REPLACE INTO {table}(key, engine, data) VALUES (?,?,?)",
                    [(key, engine, data) for key, data in sorted(rows.items())],
                )
        except sqlite3.OperationalError as e:
            if not cannot_keep(e):
                raise


def _encode_edit(edit: Edit) -> bytes:
    nature, pieces = edit
    return zlib.compress(json.dumps([nature, [[p.op, p.text, p.old] for p in pieces]]).encode("utf-8"), 1)


@stored("an edit of the site's")
def _decode_edit(data: bytes) -> Edit:
    nature, pieces = json.loads(zlib.decompress(data))
    return (nature, [Piece(Op(op), text, old) for op, text, old in pieces])
