"""The archive's SQLite schema: registered migrations and the "is this file ours" check."""

# The archive's SQLite schema: registered migrations (each run once, in its own transaction, recorded), and the
# check that refuses, without writing a byte of ours, a file that is not a rulediff archive.

from __future__ import annotations

import contextlib
import json
import sqlite3
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path

from ..errors import ArchiveBusyError, ArchiveError, DamagedArchiveError
from ..support.sqlite_magic import APPLICATION_ID, SQLITE_MAGIC
from .store import environment_error

APPLICATION = "rulediff-archive"

Migration = Callable[[sqlite3.Connection], None]
MIGRATIONS: list[tuple[int, str, Migration]] = []
# Migrations an archive that cannot be written now (a read-only file system) is read without: they make
# what only saves work (an index, a cache the site keeps), whose readers take a table not there as empty.
CAN_WAIT: set[int] = set()


def migration(number: int, name: str, *, can_wait: bool = False) -> Callable[[Migration], Migration]:
    """Register a schema migration; each runs once, in its own transaction, and is recorded. ``can_wait``:
    see CAN_WAIT."""

    def register(fn: Migration) -> Migration:
        MIGRATIONS.append((number, name, fn))
        MIGRATIONS.sort(key=lambda m: m[0])
        if can_wait:
            CAN_WAIT.add(number)
        return fn

    return register


@migration(1, "versions, rules, bodies, glossary, alignments, lineage, full-text search")
def _create(db: sqlite3.Connection) -> None:
    # One statement at a time: executescript() would COMMIT the migration's transaction early.
    _run_script(
        db,
        """
        CREATE TABLE versions(
            id INTEGER PRIMARY KEY,
            sha256 TEXT NOT NULL UNIQUE,
            label TEXT NOT NULL,
            effective_date TEXT,
            era TEXT,
            sort_date TEXT NOT NULL,
            seq INTEGER NOT NULL,
            format TEXT NOT NULL,
            source TEXT NOT NULL,
            provenance TEXT,
            raw BLOB NOT NULL,
            size INTEGER NOT NULL,
            rule_count INTEGER NOT NULL,
            extra TEXT NOT NULL
        );
        CREATE TABLE bodies(
            id INTEGER PRIMARY KEY,
            hash TEXT NOT NULL UNIQUE,
            title TEXT, text TEXT NOT NULL, norm TEXT NOT NULL, examples TEXT, category TEXT, notes TEXT,
            digest TEXT NOT NULL,
            search TEXT NOT NULL
        );
        CREATE TABLE rules(
            version_id INTEGER NOT NULL REFERENCES versions(id) ON DELETE CASCADE,
            pos INTEGER NOT NULL,
            number TEXT,
            line INTEGER NOT NULL,
            anchor TEXT,
            body_id INTEGER NOT NULL REFERENCES bodies(id),
            lineage INTEGER,
            PRIMARY KEY(version_id, pos)
        );
        CREATE INDEX rules_number ON rules(number);
        CREATE INDEX rules_lineage ON rules(lineage);
        CREATE INDEX rules_body ON rules(body_id);
        CREATE TABLE glossary(
            version_id INTEGER NOT NULL REFERENCES versions(id) ON DELETE CASCADE,
            pos INTEGER NOT NULL, term TEXT NOT NULL, text TEXT NOT NULL, line INTEGER NOT NULL,
            senses TEXT NOT NULL, norm TEXT NOT NULL,
            PRIMARY KEY(version_id, pos)
        );
        CREATE TABLE alignments(
            old_id INTEGER NOT NULL REFERENCES versions(id) ON DELETE CASCADE,
            new_id INTEGER NOT NULL REFERENCES versions(id) ON DELETE CASCADE,
            role TEXT NOT NULL,
            summary TEXT NOT NULL,
            data BLOB NOT NULL,
            PRIMARY KEY(old_id, new_id)
        );
        CREATE TABLE lineages(
            id INTEGER PRIMARY KEY,
            first_version INTEGER NOT NULL,
            first_number TEXT,
            title TEXT
        );
        CREATE TABLE lineage_edges(
            from_lineage INTEGER NOT NULL, to_lineage INTEGER NOT NULL, version_id INTEGER NOT NULL, kind TEXT NOT NULL
        );
        CREATE VIRTUAL TABLE bodies_fts USING fts5(
            search, content='bodies', content_rowid='id', tokenize='unicode61 remove_diacritics 2'
        );
        """,
    )


@migration(2, "identifications: the official release an undated dump's text matches")
def _identifications(db: sqlite3.Connection) -> None:
    # ``matched``: the closest release explains the text (the dump is placed by it); ``releases`` fingerprints
    # the official releases the dump was judged against, so a new one makes the identification stale.
    db.execute(
        "CREATE TABLE identifications(version_id INTEGER PRIMARY KEY REFERENCES versions(id) ON DELETE CASCADE,"
        " release_label TEXT NOT NULL, release_date TEXT NOT NULL, verdict TEXT NOT NULL, score REAL NOT NULL,"
        " matched INTEGER NOT NULL, releases TEXT NOT NULL, engine TEXT NOT NULL)"
    )


@migration(3, "publication day of re-releases; the engine that made each stored alignment")
def _published_and_engine(db: sqlite3.Connection) -> None:
    db.execute("ALTER TABLE versions ADD COLUMN published TEXT")
    db.execute("ALTER TABLE alignments ADD COLUMN engine TEXT NOT NULL DEFAULT ''")


@migration(4, "bodies indexed by comparison text and digest", can_wait=True)
def _body_indexes(db: sqlite3.Connection) -> None:
    # identify looks a dump's rule texts up among every stored body; without these it reads them all.
    db.execute("CREATE INDEX bodies_norm ON bodies(norm)")
    db.execute("CREATE INDEX bodies_digest ON bodies(digest)")


@migration(5, "hand corrections of lineage; links a lineage passes through by hand or on weak evidence")
def _corrections(db: sqlite3.Connection) -> None:
    # Versions by sha256, not id: a correction outlives removing and re-adding its versions.
    db.execute(
        "CREATE TABLE corrections(id INTEGER PRIMARY KEY, action TEXT NOT NULL, old_sha TEXT NOT NULL,"
        " old_number TEXT NOT NULL, new_sha TEXT NOT NULL, new_number TEXT, reason TEXT NOT NULL)"
    )
    # Derived with the lineages (rebuilt with them): where a lineage goes through a hand link, an uncertain
    # link, or was cut by hand (kind), in the version where that happens.
    db.execute(
        "CREATE TABLE link_marks(version_id INTEGER NOT NULL REFERENCES versions(id) ON DELETE CASCADE,"
        " lineage INTEGER NOT NULL, kind TEXT NOT NULL, reason TEXT NOT NULL)"
    )
    db.execute("CREATE INDEX link_marks_lineage ON link_marks(lineage)")


@migration(6, "edits the site's history pages worked out (nature and word diff), by their two texts", can_wait=True)
def _edits(db: sqlite3.Connection) -> None:
    # A cache: rebuilding a site after one new release reuses every earlier edit instead of diffing it again.
    # ``engine`` names the code that made an edit; another engine's edits are worked out again.
    db.execute("CREATE TABLE edits(key TEXT PRIMARY KEY, engine TEXT NOT NULL, data BLOB NOT NULL)")


@migration(7, "each version's raw bytes in a table of their own")
def _raws_apart(db: sqlite3.Connection) -> None:
    # A column of a row is reached by walking the row's overflow pages up to it: with the compressed file
    # (a hundred pages and more) in the versions row, every listing of the versions read every file archived.
    db.execute(
        "CREATE TABLE raws(version_id INTEGER PRIMARY KEY REFERENCES versions(id) ON DELETE CASCADE, raw BLOB NOT NULL)"
    )
    db.execute("INSERT INTO raws(version_id, raw) SELECT id, raw FROM versions")
    if sqlite3.sqlite_version_info >= (3, 35):
        db.execute("ALTER TABLE versions DROP COLUMN raw")
    else:  # no DROP COLUMN before SQLite 3.35: the column stays, empty (new versions get x'' there too)
        db.execute("UPDATE versions SET raw = x''")


@migration(8, "rendered steps of the site's history and glossary pages, by what they show", can_wait=True)
def _site_parts(db: sqlite3.Connection) -> None:
    # A cache like ``edits``: a page's steps up to the newest release are reused, not rendered again.
    db.execute("CREATE TABLE site_parts(key TEXT PRIMARY KEY, engine TEXT NOT NULL, data BLOB NOT NULL)")


@migration(9, "search text with words apart at dashes and hyphens")
def _search_apart(db: sqlite3.Connection) -> None:
    # Search looked through the comparison form, which joins the words at a hyphen ("turnbased"): "turn-based
    # action" found no rule, "mana burn" missed "mana burn\u2014don't". Each body's search text is made again.
    from .codec import search_text

    rows = db.execute("SELECT id, text, examples, notes FROM bodies").fetchall()
    again = []
    for bid, text, examples, notes in rows:
        shown = [e[0] for e in json.loads(examples)] if examples else []
        again.append((search_text(text, shown, json.loads(notes) if notes else []), bid))
    db.executemany("UPDATE bodies SET search = ? WHERE id = ?", again)
    db.execute("INSERT INTO bodies_fts(bodies_fts) VALUES ('rebuild')")


def _run_script(db: sqlite3.Connection, script: str) -> None:
    for stmt in script.split(";"):
        if stmt.strip():
            db.execute(stmt)


@contextmanager
def _transaction(db: sqlite3.Connection) -> Iterator[None]:
    db.execute("BEGIN IMMEDIATE")
    try:
        yield
    except BaseException:
        db.execute("ROLLBACK")
        raise
    db.execute("COMMIT")


def _tables(db: sqlite3.Connection) -> set[str]:
    return {name for (name,) in db.execute("SELECT name FROM sqlite_master WHERE type='table'")}


def migrate(db: sqlite3.Connection, path: Path) -> None:
    """Bring the archive's schema up to date: mark a new file as ours and create the bookkeeping tables,
    then run every registered migration it has not seen. Each step re-reads the state inside its write
    transaction, so two processes opening one new archive at once do the work once. On an archive that
    cannot be written now, the migrations that can wait (CAN_WAIT) are left for later."""
    if "meta" in _tables(db) and _application_id(db) != APPLICATION_ID:
        # An archive from before the application id: stamp it when it can be written, read it anyway.
        with contextlib.suppress(sqlite3.OperationalError), _transaction(db):
            db.execute(f"PRAGMA application_id = {APPLICATION_ID}")
    if "meta" not in _tables(db):
        with _transaction(db):
            if "meta" not in _tables(db):
                db.execute("CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT NOT NULL)")
                db.execute(
                    "CREATE TABLE migrations(id INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)"
                )
                db.execute("INSERT INTO meta VALUES ('application', ?)", (APPLICATION,))
            db.execute(f"PRAGMA application_id = {APPLICATION_ID}")
    known = {n for n, _, _ in MIGRATIONS}
    done = _applied(db)
    if done - known:
        raise ArchiveError(
            f"archive has schema migrations {sorted(done - known)} unknown to this rulediff; upgrade rulediff",
            source=str(path),
        )
    for number, name, fn in MIGRATIONS:
        if number in done:
            continue
        try:
            _migrate_one(db, path, number, name, fn)
        except sqlite3.OperationalError as e:
            if number not in CAN_WAIT or e.sqlite_errorcode & 0xFF != sqlite3.SQLITE_READONLY:
                raise
            # Rolled back: the archive is read as it is, and the next opening that can write makes it.


def _migrate_one(db: sqlite3.Connection, path: Path, number: int, name: str, fn: Migration) -> None:
    with _transaction(db):
        if number in _applied(db):
            return
        try:
            fn(db)
        except sqlite3.OperationalError as e:
            if "already exists" not in str(e) and "duplicate column" not in str(e):
                raise
            # Its tables are there, its record is not: the record was edited outside rulediff.
            raise DamagedArchiveError(
                f"the archive is damaged: its record of schema changes lacks #{number} ({name}), which its "
                f"tables show was made ({e}); restore a copy",
                source=str(path),
            ) from None
        db.execute(
            "INSERT INTO migrations VALUES (?, ?, ?)",
            (number, name, datetime.now(UTC).isoformat(timespec="seconds")),
        )


def _applied(db: sqlite3.Connection) -> set[int]:
    return {n for (n,) in db.execute("SELECT id FROM migrations")}


def _application_id(db: sqlite3.Connection) -> int:
    return int(db.execute("PRAGMA application_id").fetchone()[0])


def check_magic(p: Path) -> None:
    """Refuse, without opening it as a database, a non-empty file that is not SQLite at all."""
    try:
        with open(p, "rb") as fh:
            head = fh.read(len(SQLITE_MAGIC))
    except OSError as e:
        raise ArchiveError(f"cannot read the archive: {e.strerror}", source=str(p)) from None
    if head and head != SQLITE_MAGIC:
        raise ArchiveError("not an SQLite file, so not a rulediff archive; refusing to touch it", source=str(p))


def judge(db: sqlite3.Connection, p: Path) -> bool:
    """Is this open database ours (True), or new and empty (False)? Anything else is refused before a
    byte of ours is written. The first read also rolls back a journal (or replays a WAL) that a killed
    process left, so the file is judged as it really is, never as a crash left it."""
    try:
        app = _application_id(db)
        user_version = int(db.execute("PRAGMA user_version").fetchone()[0])
        objects = db.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]
        marker = (
            db.execute("SELECT value FROM meta WHERE key = 'application'").fetchone() if "meta" in _tables(db) else None
        )
    except sqlite3.DatabaseError as e:
        low = str(e).lower()
        if "locked" in low or "busy" in low:  # another process holds it: said as every busy archive is
            raise ArchiveBusyError(environment_error(e), source=str(p)) from None
        raise ArchiveError(f"cannot read the archive: {e}", source=str(p)) from None
    if app == APPLICATION_ID or (app == 0 and marker is not None and marker[0] == APPLICATION):
        return True  # ours (archives made before the application id was set carry only the marker row)
    if app == 0 and user_version == 0 and objects == 0:
        return False
    raise ArchiveError("an SQLite database that is not a rulediff archive; refusing to touch it", source=str(p))
