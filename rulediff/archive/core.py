"""The Archive: one open archive file, a facade over the parts that own its tables."""

# The Archive: one open archive file as a facade over its parts (versions, corrections, alignments, lineages, texts,
# the site's caches, identifications, adding), which own its tables; opening refuses files that are not ours, and
# every change is one transaction.

from __future__ import annotations

import os
import sqlite3
from collections.abc import Callable, Generator
from contextlib import AbstractContextManager
from pathlib import Path
from typing import Any

from ..errors import ArchiveError
from .adding import Adding
from .alignments import Alignments
from .cache import SiteCache
from .connection import connect, use_wal
from .corrections import Corrections
from .identifications import Identifications
from .lineages import Lineages
from .manifest import Entry
from .rows import AddResult, VersionRow, default_path
from .schema import check_magic, migrate
from .store import Store, environment_error, file_identity
from .texts import Texts
from .versions import Versions

REPLACED = "was replaced by another file while this command ran; run it again"


class Archive:
    """An open archive. Use ``with Archive.open(path) as arc:``; every change is one transaction. Its parts:
    ``versions`` (finding versions, their documents), ``corrections`` (hand corrections in force),
    ``alignments``, ``lineages`` (and hand links), ``texts`` (search, export, bodies, glossary), ``cache`` (the
    site's), ``identifications`` (of undated dumps); adding and removing files spans them all."""

    def __init__(self, db: sqlite3.Connection, path: Path) -> None:
        self.store = Store(db, path)
        self.versions = Versions(self.store)
        self.corrections = Corrections(self.store, self.versions)
        self.alignments = Alignments(self.store, self.versions, self.corrections)
        self.lineages = Lineages(self.store, self.versions, self.alignments, self.corrections)
        self.texts = Texts(self.store, self.versions)
        self.cache = SiteCache(self.store)
        self.identifications = Identifications(self.store, self.versions, self.lineages)
        self._adding = Adding(self.store, self.versions, self.alignments, self.lineages)
        self.store.forget_all = self.forget

    @property
    def db(self) -> sqlite3.Connection:
        return self.store.db

    @db.setter
    def db(self, db: sqlite3.Connection) -> None:
        self.store.db = db  # (a test's stand-in for the connection: every part reads it through the store)

    @property
    def path(self) -> Path:
        return self.store.path

    @property
    def identity(self) -> tuple[int, int]:
        return self.store.identity

    @classmethod
    def open(cls, path: str | os.PathLike[str] | None = None, *, create: bool = True) -> Archive:
        """Open (or create) the archive at ``path``. A journal left by a killed process is rolled back
        before the file is judged; a file that is not ours is refused untouched."""
        p = Path(path) if path is not None else default_path()
        src = str(p)
        if p.is_dir():
            raise ArchiveError("is a directory; expected an archive file", source=src)
        if p.exists():
            if not p.is_file():
                raise ArchiveError("is not a regular file; expected an archive file", source=src)
            check_magic(p)
        else:
            if p.is_symlink():  # a link to nothing, or in a loop: not a place to read or make an archive
                raise ArchiveError("is a symbolic link that leads to no file; expected an archive file", source=src)
            if not create:
                raise ArchiveError("no archive here; create one with 'rulediff archive add FILE'", source=src)
            if not (p.parent if str(p.parent) else Path(".")).is_dir():
                raise ArchiveError(f"folder {str(p.parent)!r} does not exist", source=src)
        before = p.exists() and file_identity(p)
        db, ours = connect(p)
        try:
            arc = cls(db, p)
            if before and before != arc.identity:  # which of the two files is open here cannot be told
                raise ArchiveError(REPLACED, source=src)
            if not ours and not create:
                raise ArchiveError("an empty file, not an archive yet; add a version to start one", source=src)
            db.execute("PRAGMA foreign_keys = ON")
            use_wal(db)
            migrate(db, p)
        except sqlite3.Error as e:
            db.close()
            raise ArchiveError(environment_error(e), source=src) from None
        except BaseException:
            db.close()
            raise
        return arc

    @classmethod
    def open_again(cls, path: str, identity: tuple[int, int]) -> Archive:
        """In a worker: the archive its command has open (``identity``, that ``Archive.identity``), opened
        again by its ``path``, if that is still the same file. A file moved into its place meanwhile would
        give the worker other rows under the same ids; it is refused before it is opened (and changed)."""
        p = Path(path)
        try:
            same = file_identity(p) == identity
        except OSError:
            same = False
        if not same:
            raise ArchiveError(REPLACED, source=path)
        arc = cls.open(p, create=False)
        if arc.identity != identity:  # replaced between the look and the opening
            arc.close()
            raise ArchiveError(REPLACED, source=path)
        return arc

    def __enter__(self) -> Archive:
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: object) -> None:
        self.close()
        if isinstance(exc, sqlite3.OperationalError) or type(exc) is sqlite3.DatabaseError:
            # The machine failed us (disk full, read-only, locked): say so in one line naming the file.
            raise ArchiveError(environment_error(exc), source=str(self.path)) from None

    def close(self) -> None:
        self.store.db.close()

    def transaction(self) -> AbstractContextManager[None]:
        """All or nothing: an exception (or Ctrl-C) inside rolls everything back; a killed process
        leaves SQLite's journal, which rolls back on the next open."""
        return self.store.transaction()

    def snapshot(self) -> AbstractContextManager[None]:
        """Every read inside sees the archive as it was at the first one (see ``Store.snapshot``)."""
        return self.store.snapshot()

    def forget(self) -> None:
        """Drop what every part keeps in memory (after a removal or a rolled-back change)."""
        self.versions.forget()
        self.alignments.forget()
        self.corrections.forget()
        self._adding.forget()
        self.store.unwritten.clear()

    def release_caches(self) -> None:
        """Forget every document and alignment kept in memory; all of them can be read back."""
        self.forget()
        self.alignments.precomputed.clear()

    # -- what spans every part -----------------------------------------------------------------

    def add(self, data: bytes, source: str, **kw: Any) -> AddResult:
        """Archive one file: parse, store, align with its neighbours, carry lineages (see ``Adding.add``)."""
        return self._adding.add(data, source, **kw)

    def add_file(self, path: str | os.PathLike[str], **kw: Any) -> AddResult:
        return self._adding.add_file(path, **kw)

    def add_many(
        self,
        items: list[Entry],
        *,
        on_added: Callable[[Entry, AddResult], None] | None = None,
        progress: Callable[[str], None] | None = None,
        accept_warnings: bool = False,
    ) -> list[AddResult]:
        """Archive several files, each in its own transaction (see ``Adding.add_many``)."""
        return self._adding.add_many(items, on_added=on_added, progress=progress, accept_warnings=accept_warnings)

    def remove(self, ref: str) -> VersionRow:
        """Remove a version; its neighbours are re-aligned, the other versions of its date labelled again."""
        return self._adding.remove(ref)

    def search(self, phrase: str, limit: int = 500) -> list[dict[str, Any]]:
        """Rules whose text or examples contain ``phrase`` (see ``Texts.search``)."""
        return self.texts.search(phrase, limit)

    def export(self) -> Generator[dict[str, Any], None, None]:
        """Every version and its rules as JSON-ready records (see ``Texts.export``)."""
        return self.texts.export()
