"""The SQLite archive: atomic adds (even when killed), idempotent re-adds, out-of-order adds, re-releases,
foreign files refused untouched, lineage through renumbering, search, history, export."""

from __future__ import annotations

import hashlib
import sqlite3
import subprocess
import sys
import textwrap
import zlib
from pathlib import Path
from typing import Any

import pytest

from rulediff.archive import AddResult, Archive
from rulediff.archive.manifest import entries
from rulediff.errors import ArchiveError
from rulediff.history.rule import history, show

from .conftest import CORPUS, FIXTURES, cr_file, needs_cr_corpus

TINY = FIXTURES / "parsers" / "official-text" / "utf8-bom-cr-crcrlf" / "input.txt"


def _sha(p: Path) -> str:
    return hashlib.sha256(p.read_bytes()).hexdigest()


@pytest.fixture(scope="module")
def seeded(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("arc") / "seeds.sqlite"
    with Archive.open(path) as arc:
        arc.add_many(entries([str(CORPUS)]))
    return path


def test_seeds_are_ordered_by_era_with_their_manifest_labels(seeded: Path) -> None:
    with Archive.open(seeded, create=False) as arc:
        labels = [v.label for v in arc.versions.all()]
    assert labels == ["2011-2014-rst", "2011-blog", "2017-judge", "2022-markdown", "2024-dataset"]


def test_lifelink_lineage_crosses_the_keyword_page(seeded: Path) -> None:
    with Archive.open(seeded, create=False) as arc:
        h = history(arc, "lifelink")
        assert [(n, a) for n, a, _ in h.numbers()] == [("702.13", "2011-blog"), ("702.15", "2022-markdown")]
        flash = history(arc, "Flashback")
        numbers = [s.number for s in flash.steps]
        assert numbers[0] == "702.31" and numbers[-1] == "702.34" and None in numbers  # the 2017 page
        shown = show(arc, "702.15")
        assert shown.version.label == "2022-markdown" and shown.rule is not None and shown.rule.title == "Lifelink"
        with pytest.raises(ArchiveError, match="no rule 702.999"):
            show(arc, "702.999")


def test_search_reports_first_and_last_seen(seeded: Path) -> None:
    with Archive.open(seeded, create=False) as arc:
        hits = arc.search("lifelink is a static ability")
    assert hits and hits[0]["first_seen"] == "2011-blog" and hits[0]["last_seen"] == "2022-markdown"
    assert set(hits[0]["numbers"]) == {"702.13a", "702.15a"}


def test_export_is_json_ready(seeded: Path) -> None:
    with Archive.open(seeded, create=False) as arc:
        recs = list(arc.export())
    assert sum(1 for r in recs if r["type"] == "version") == 5
    assert all(r["lineage"] for r in recs if r["type"] == "rule")


def test_re_adding_the_same_bytes_is_a_no_op(tmp_path: Path) -> None:
    with Archive.open(tmp_path / "a.sqlite") as arc:
        first = arc.add_file(TINY)
        again = arc.add_file(TINY)
        assert first.status == "added" and again.status == "already archived"
        assert len(arc.versions.all()) == 1


def test_same_date_different_bytes_is_a_re_release(tmp_path: Path) -> None:
    changed = tmp_path / "second.txt"
    changed.write_bytes(TINY.read_bytes().replace(b"two or more players", b"two or more people", 1))
    with Archive.open(tmp_path / "a.sqlite") as arc:
        arc.add_file(TINY)
        res = arc.add_file(changed)
        assert res.status == "re-release"
        vs = arc.versions.all()
        assert [v.effective_date for v in vs] == ["2019-05-03", "2019-05-03"]
        assert vs[1].label.endswith("(re-release 2)")
        # A date names the version whose label it is; the re-release is named by its own label.
        assert arc.versions.resolve("2019-05-03").id == vs[0].id
        assert arc.versions.resolve(vs[1].label).id == vs[1].id
        al = arc.alignments.get(f"#{vs[0].id}", f"#{vs[1].id}")
        assert al.summary()["edited_substantive"] == 1


def test_removing_a_release_of_a_date_labels_the_others_again(tmp_path: Path) -> None:
    """Labels say the order of publication among the archived versions of a date: removing one leaves no
    gap ("(re-release 3)" beside no "(re-release 2)"), and removing the first makes the next the date's own."""
    texts = [
        TINY.read_bytes().replace(b"two or more players", w, 1) for w in (b"two or more players", b"people", b"folk")
    ]
    files = []
    for k, t in enumerate(texts):
        f = tmp_path / f"r{k}.txt"
        f.write_bytes(t)
        files.append(f)
    with Archive.open(tmp_path / "a.sqlite") as arc:
        for f in files:
            arc.add_file(f)
        by_source = lambda: {v.source: v.label for v in arc.versions.all()}  # noqa: E731
        assert by_source() == {
            "r0.txt": "2019-05-03",
            "r1.txt": "2019-05-03 (re-release 2)",
            "r2.txt": "2019-05-03 (re-release 3)",
        }
        arc.remove("2019-05-03 (re-release 2)")
        assert by_source() == {"r0.txt": "2019-05-03", "r2.txt": "2019-05-03 (re-release 2)"}
        assert arc.versions.resolve("2019-05-03 (re-release 2)").source == "r2.txt"
        arc.remove("2019-05-03")
        assert by_source() == {"r2.txt": "2019-05-03"}
        assert arc.versions.resolve("2019-05-03").source == "r2.txt"
        arc.add_file(files[0])
        assert by_source() == {"r2.txt": "2019-05-03", "r0.txt": "2019-05-03 (re-release 2)"}
    with Archive.open(tmp_path / "a.sqlite", create=False) as arc:
        assert [v.label for v in arc.versions.all()] == ["2019-05-03", "2019-05-03 (re-release 2)"]


def test_out_of_order_adds_end_up_in_order_with_the_same_lineages(tmp_path: Path, seeded: Path) -> None:
    items = entries([str(CORPUS)])
    with Archive.open(tmp_path / "rev.sqlite") as arc:
        for e in reversed(items):
            arc.add_many([e])
        labels = [v.label for v in arc.versions.all()]
        rev = [(n, a) for n, a, _ in history(arc, "lifelink").numbers()]
        pairs = {(a, b) for a, b in arc.db.execute("SELECT old_id, new_id FROM alignments WHERE role='consecutive'")}
        ids = [v.id for v in arc.versions.all()]
    assert labels == ["2011-2014-rst", "2011-blog", "2017-judge", "2022-markdown", "2024-dataset"]
    assert pairs == set(zip(ids, ids[1:], strict=False))
    with Archive.open(seeded, create=False) as arc:
        assert rev == [(n, a) for n, a, _ in history(arc, "lifelink").numbers()]


def test_remove_relinks_neighbours(tmp_path: Path) -> None:
    with Archive.open(tmp_path / "a.sqlite") as arc:
        arc.add_many(entries([str(CORPUS)]))
        arc.remove("2017-judge")
        ids = [v.id for v in arc.versions.all()]
        pairs = {(a, b) for a, b in arc.db.execute("SELECT old_id, new_id FROM alignments WHERE role='consecutive'")}
        assert pairs == set(zip(ids, ids[1:], strict=False))
        with pytest.raises(ArchiveError, match="no archived version"):
            arc.versions.resolve("2017-judge")


def test_a_foreign_sqlite_file_is_refused_and_untouched(tmp_path: Path) -> None:
    p = tmp_path / "other.sqlite"
    db = sqlite3.connect(p)
    db.execute("CREATE TABLE photos(id INTEGER PRIMARY KEY, name TEXT)")
    db.commit()
    db.close()
    before = _sha(p)
    with pytest.raises(ArchiveError, match="not a rulediff archive"):
        Archive.open(p)
    assert _sha(p) == before


def test_a_non_sqlite_file_is_refused_and_untouched(tmp_path: Path) -> None:
    p = tmp_path / "notes.sqlite"
    p.write_text("my notes\n" * 50)
    before = _sha(p)
    with pytest.raises(ArchiveError, match="not an SQLite file"):
        Archive.open(p)
    assert _sha(p) == before


def test_missing_archive_is_not_created_when_reading(tmp_path: Path) -> None:
    with pytest.raises(ArchiveError, match="no archive here"):
        Archive.open(tmp_path / "none.sqlite", create=False)
    assert not (tmp_path / "none.sqlite").exists()


KILLER = textwrap.dedent(
    """
    import os, signal, sys
    from rulediff.archive import Archive
    from rulediff.archive.store import _Transaction
    real = _Transaction.__exit__
    def die_before_commit(self, exc_type, *rest):
        written = self.store.db.execute("SELECT count(*) FROM rules").fetchone()[0]
        if exc_type is None and written > int(sys.argv[4]):   # the add's rules are in, nothing committed
            print(written, flush=True)
            if sys.argv[3] == "kill":
                os.kill(os.getpid(), signal.SIGKILL)
            real(self, KeyboardInterrupt, KeyboardInterrupt(), None)  # Ctrl-C as the block's last step
            raise KeyboardInterrupt
        return real(self, exc_type, *rest)
    _Transaction.__exit__ = die_before_commit
    with Archive.open(sys.argv[1]) as arc:
        arc.add_file(sys.argv[2])
    """
)


@pytest.mark.parametrize("how", ["kill", "interrupt"])
def test_a_killed_or_interrupted_add_leaves_the_archive_as_it_was(tmp_path: Path, how: str) -> None:
    path = tmp_path / "a.sqlite"
    with Archive.open(path) as arc:
        arc.add_file(CORPUS / "003_8b50984e948ebee1.txt")
        before = [(v.id, v.label, v.sha256) for v in arc.versions.all()]
        rules_before = arc.db.execute("SELECT count(*) FROM rules").fetchone()[0]
    proc = subprocess.run(
        [sys.executable, "-c", KILLER, str(path), str(CORPUS / "000_67b17b6c7d536d12.txt"), how, str(rules_before)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode != 0
    assert int(proc.stdout) > rules_before  # it died with the new release's rules written, not before
    with Archive.open(path, create=False) as arc:
        assert [(v.id, v.label, v.sha256) for v in arc.versions.all()] == before
        assert arc.db.execute("SELECT count(*) FROM rules").fetchone()[0] == rules_before
        assert arc.db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        # And the archive still works afterwards.
        assert arc.add_file(CORPUS / "000_67b17b6c7d536d12.txt").status == "added"


@needs_cr_corpus
def test_lifelink_history_across_the_2009_rewrite_and_two_renumberings(tmp_path: Path) -> None:
    dates = ["2007-05-01", "2009-05-01", "2009-07-11", "2011-05-01", "2011-06-17", "2013-05-01", "2013-07-13"]
    with Archive.open(tmp_path / "a.sqlite") as arc:
        arc.add_many(entries([str(cr_file(d)) for d in dates]))
        h = history(arc, "lifelink")
        assert h.numbers() == [
            ("502.68", "2007-05-01", "2009-05-01"),
            ("702.13", "2009-07-11", "2011-05-01"),
            ("702.14", "2011-06-17", "2013-05-01"),
            ("702.15", "2013-07-13", "2013-07-13"),
        ]
        assert h.steps[2].change in ("moved", "moved_edited", "renumbered", "renumbered_edited")
        # The same number meant another rule before: 702.15 was Reach in 2011.
        old = history(arc, "702.15", as_of="2011-05-01")
        assert old.title == "Reach"
        shown = show(arc, "702.15", "2011-05-01")
        assert shown.rule is not None and shown.rule.title == "Reach" and shown.version.label == "2011-05-01"


def test_re_releases_are_ordered_by_publication_not_by_file_name(tmp_path: Path) -> None:
    # '-' sorts before '.', so the re-release's file name comes first in the folder.
    folder = tmp_path / "txt"
    folder.mkdir()
    (folder / "cr-20190503.txt").write_bytes(TINY.read_bytes())
    later = TINY.read_bytes().replace(b"two or more players", b"two or more people", 1)
    (folder / "cr-20190503-rerelease-20190520.txt").write_bytes(later)
    with Archive.open(tmp_path / "a.sqlite") as arc:
        arc.add_many(entries([str(folder)]))
        vs = arc.versions.all()
        assert [(v.source, v.label, v.published) for v in vs] == [
            ("cr-20190503.txt", "2019-05-03", None),
            ("cr-20190503-rerelease-20190520.txt", "2019-05-03 (re-release 2)", "2019-05-20"),
        ]
        assert arc.versions.resolve("2019-05-03").source == "cr-20190503.txt"
        al = arc.alignments.get("2019-05-03", "2019-05-03 (re-release 2)")
        assert al.old.version.sha256 != al.new.version.sha256 and al.summary()["edited_substantive"] == 1
        assert arc.versions.in_force("2019-05-10").source == "cr-20190503.txt"
        assert arc.versions.in_force("2019-05-20").source == "cr-20190503-rerelease-20190520.txt"


def test_a_date_two_versions_share_resolves_only_by_label(tmp_path: Path) -> None:
    changed = tmp_path / "second.txt"
    changed.write_bytes(TINY.read_bytes().replace(b"two or more players", b"two or more people", 1))
    with Archive.open(tmp_path / "a.sqlite") as arc:
        arc.add_file(TINY, label="first printing")
        arc.add_file(changed, label="second printing")
        with pytest.raises(ArchiveError, match="'2019-05-03' names 2 archived versions: 'first printing'.*'second pr"):
            arc.versions.resolve("2019-05-03")
        assert arc.versions.resolve("second printing").source == "second.txt"


_SMALL = [
    FIXTURES / "parsers" / "official-text" / n / "input.txt"
    for n in (
        "cr-only",
        "lf-only",
        "curly-quotes-utf8",
        "straight-quotes-2019",
        "typo-901.4-no-space",
        "typos-119.1d-606.5",
    )
]


def _tree(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


@pytest.mark.parametrize("seed", [0, 1])
def test_an_incremental_rebuild_is_byte_identical_to_a_fresh_build(tmp_path: Path, seed: int) -> None:
    import random

    from rulediff.site.build import build_site

    files = list(_SMALL)
    random.Random(seed).shuffle(files)  # releases arrive out of order, and one is removed again
    with Archive.open(tmp_path / "a.sqlite") as arc:
        for f in files:
            arc.add_file(f)
            build_site(arc, tmp_path / "kept")
        arc.remove(arc.versions.all()[2].label)
        build_site(arc, tmp_path / "kept")
        # The fresh build works out every edit and renders every step again.
        arc.db.execute("DELETE FROM edits")
        arc.db.execute("DELETE FROM site_parts")
        build_site(arc, tmp_path / "fresh")
    assert _tree(tmp_path / "kept") == _tree(tmp_path / "fresh")


def test_a_site_rebuilt_from_stored_edits_diffs_no_text_again(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Rendered steps and edits (nature and word diff) of the history and glossary pages are kept in the
    archive: a second site, every page written again, renders and diffs nothing; without the rendered
    steps it renders them from the stored edits, diffing nothing; another engine's edits and steps are
    not used. Every site comes out byte-identical."""
    from rulediff.site import step_cache as site_parts
    from rulediff.site.build import build_site
    from rulediff.words import edits

    with Archive.open(tmp_path / "a.sqlite") as arc:
        for f in _SMALL:
            arc.add_file(f)
        build_site(arc, tmp_path / "first")
        assert arc.db.execute("SELECT count(*) FROM edits").fetchone()[0] > 0
        assert arc.db.execute("SELECT count(*) FROM site_parts").fetchone()[0] > 0
        calls: list[str] = []
        real = edits.whole_diff
        monkeypatch.setattr(edits, "whole_diff", lambda a, b, pairs=None: calls.append(a) or real(a, b, pairs))
        rendered: list[object] = []  # steps rendered (not read back)
        real_body = site_parts._body
        monkeypatch.setattr(site_parts, "_body", lambda out, s: rendered.append(s) or real_body(out, s))
        build_site(arc, tmp_path / "second")
        assert calls == [] and rendered == []
        arc.db.execute("UPDATE site_parts SET engine = 'other'")
        build_site(arc, tmp_path / "third")
        assert rendered, "another engine's steps are rendered again"
        assert calls == [], "from the stored edits"
        arc.db.execute("UPDATE site_parts SET engine = 'other'")
        arc.db.execute("UPDATE edits SET engine = 'other'")
        build_site(arc, tmp_path / "fourth")
        assert calls, "another engine's edits are worked out again"
        assert {e for (e,) in arc.db.execute("SELECT DISTINCT engine FROM edits")} == {edits.edit_engine()}
        assert {e for (e,) in arc.db.execute("SELECT DISTINCT engine FROM site_parts")} == {site_parts.part_engine()}
    trees = [_tree(tmp_path / n) for n in ("first", "second", "third", "fourth")]
    assert all(t == trees[0] for t in trees)


def _lineage_partition(arc: Archive) -> set[frozenset[tuple[int, int]]]:
    groups: dict[int, set[tuple[int, int]]] = {}
    for vid, pos, lin in arc.db.execute("SELECT version_id, pos, lineage FROM rules"):
        groups.setdefault(lin, set()).add((vid, pos))
    return {frozenset(g) for g in groups.values()}


def test_alignments_record_their_engine_and_a_newer_engine_re_aligns(tmp_path: Path) -> None:
    from rulediff.archive.codec import engine_version

    with Archive.open(tmp_path / "a.sqlite") as arc:
        for f in _SMALL[:4]:
            arc.add_file(f)
        assert {e for (e,) in arc.db.execute("SELECT engine FROM alignments")} == {engine_version()}
        good = dict(((a, b), d) for a, b, d in arc.db.execute("SELECT old_id, new_id, data FROM alignments"))
        lineages = _lineage_partition(arc)
        ids = [v.id for v in arc.versions.all()]
        # An older engine's answers: one pair that now aligns the same, one it aligned wrongly (no pairs).
        wrong = zlib.compress(b'{"changes":[],"number_map":{},"glossary":[],"inferred":{}}')
        pair = "WHERE old_id = ? AND new_id = ?"
        arc.db.execute(f"UPDATE alignments SET engine = '0.0.1' {pair}", (ids[0], ids[1]))
        arc.db.execute(f"UPDATE alignments SET engine = '0.0.1', data = ? {pair}", (wrong, ids[1], ids[2]))
        with arc.transaction():
            arc.forget()
            arc.lineages.assign(arc.versions.all(), 2)  # lineages as the wrong answer gives them
        assert _lineage_partition(arc) != lineages
        assert len(arc.alignments.stale()) == 2
        assert arc.alignments.get(f"#{ids[1]}", f"#{ids[2]}").changes  # a reader gets this engine's answer at once
        assert arc.lineages.refresh() == 1
        assert arc.alignments.stale() == []
        assert dict(((a, b), d) for a, b, d in arc.db.execute("SELECT old_id, new_id, data FROM alignments")) == good
        assert _lineage_partition(arc) == lineages


def test_an_archive_from_before_the_raws_table_keeps_every_file(tmp_path: Path) -> None:
    path = tmp_path / "a.sqlite"
    with Archive.open(path) as arc:
        for f in _SMALL[:2]:
            arc.add_file(f)
        labels = [v.label for v in arc.versions.all()]
    # As migration 6 left archives: the compressed bytes in the versions row, no raws table.
    db = sqlite3.connect(path, isolation_level=None)
    if "raw" not in {r[1] for r in db.execute("PRAGMA table_info(versions)")}:  # kept by an SQLite before 3.35
        db.execute("ALTER TABLE versions ADD COLUMN raw BLOB")
    db.execute("UPDATE versions SET raw = (SELECT raw FROM raws WHERE version_id = versions.id)")
    db.execute("DROP TABLE raws")
    db.execute("DELETE FROM migrations WHERE id = 7")
    db.close()
    with Archive.open(path) as arc:
        assert [arc.versions.raw(label) for label in labels] == [f.read_bytes() for f in _SMALL[:2]]
        # Dropped, or (an SQLite before 3.35 cannot drop a column) kept empty.
        kept = "raw" in {r[1] for r in arc.db.execute("PRAGMA table_info(versions)")}
        assert kept == (sqlite3.sqlite_version_info < (3, 35))
        arc.remove(labels[0])
        assert arc.db.execute("SELECT count(*) FROM raws").fetchone()[0] == 1


def test_rows_a_worker_prepared_after_a_file_not_stored_here_are_added_from_the_file(tmp_path: Path) -> None:
    from rulediff.archive.ingest import Preparer
    from rulediff.archive.manifest import Entry
    from rulediff.parsers import parse_bytes

    first = _SMALL[0].read_bytes()
    second = first.replace(b"apply to any Magic game", b"apply to every Magic game")
    preparer = Preparer()
    for data in (first, second):
        rows = preparer.prepare(parse_bytes(data, "x.txt"), data, hashlib.sha256(data).hexdigest())
    assert 0 < len(rows.bodies) < len(set(rows.hashes))  # only what the first file did not have
    path = tmp_path / "second.txt"
    path.write_bytes(second)
    with Archive.open(tmp_path / "a.sqlite") as arc:
        parsed_here: list[str] = []
        add = arc._adding.add

        def spy(data: bytes, source: str, **kw: Any) -> AddResult:
            parsed_here.append(source)
            return add(data, source, **kw)

        arc._adding.add = spy  # type: ignore[method-assign]
        got = arc._adding._add_entry(Entry(path), second, rows, True, None)  # the first file's bodies are not here
        assert got.status == "added" and parsed_here == [str(path)]
        exported = list(arc.export())
    with Archive.open(tmp_path / "b.sqlite") as arc:
        arc.add_file(path)
        assert list(arc.export()) == exported
        # Rule rows are written with their lineage ids, none left without.
        assert arc.db.execute("SELECT count(*) FROM rules WHERE lineage IS NULL").fetchone()[0] == 0


class _CommitFails:
    """A connection whose COMMIT fails as on a full disk (SQLite rolls the transaction back)."""

    def __init__(self, db: sqlite3.Connection) -> None:
        self.db = db

    def execute(self, sql: str, *args: Any) -> Any:
        if sql == "COMMIT":
            self.db.execute("ROLLBACK")
            raise sqlite3.OperationalError("database or disk is full")
        return self.db.execute(sql, *args)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.db, name)


def test_an_add_whose_commit_fails_leaves_nothing_the_next_add_could_reuse(tmp_path: Path) -> None:
    # The body ids a failed add gave out were kept in memory: the next add handed one of them to a new text,
    # and a rule read another rule's words.
    base = (FIXTURES / "parsers" / "official-text" / "cr-only" / "input.txt").read_bytes()
    second = base.replace(b"apply to any Magic game", b"apply to every Magic game", 1)
    third = second.replace(b"There is no maximum deck size.", b"There is no maximum deck size at all.", 1)
    assert base != second != third
    path = tmp_path / "a.sqlite"
    with Archive.open(path) as arc:
        arc.add(base, "2001-01-01.txt", effective="2001-01-01")
        real = arc.db
        arc.db = _CommitFails(real)  # type: ignore[assignment]
        with pytest.raises(sqlite3.OperationalError):
            arc.add(second, "2002-01-01.txt", effective="2002-01-01")
        arc.db = real
        assert [v.label for v in arc.versions.all()] == ["2001-01-01"]
        arc.add(third, "2003-01-01.txt", effective="2003-01-01")
    with Archive.open(path, create=False) as arc:
        fresh = tmp_path / "fresh.sqlite"
        with Archive.open(fresh) as ref:
            ref.add(base, "2001-01-01.txt", effective="2001-01-01")
            ref.add(third, "2003-01-01.txt", effective="2003-01-01")
            want = [(str(r.number), r.text) for r in ref.versions.document("2003-01-01").rules]
        assert [(str(r.number), r.text) for r in arc.versions.document("2003-01-01").rules] == want


def _small_release(date: str, rules: list[str]) -> bytes:
    head = f"Magic: The Gathering Comprehensive Rules\n\nThese rules are effective as of {date}.\n\n"
    body = "1. Game Concepts\n\n100. General\n\n" + "\n\n".join(f"100.{k + 1}. {t}" for k, t in enumerate(rules))
    return (head + body + "\n\nGlossary\n\nCredits\n").encode()


def test_kept_steps_whose_links_moved_are_rendered_again(tmp_path: Path) -> None:
    # A rule (X) points at another (T) by number, then goes; the rule that takes X's number (Y) goes too, and
    # T moves up into it, so T's page moves. X's steps read as they did (their runs are the same), so the
    # build may reuse them only after checking that each link still leads where it did: X's "rule 100.14"
    # must now lead to T's new page, not to the page of the rule now numbered 100.14.
    from rulediff.site.build import build_site

    filler = [f"Filler rule number {k} says something about tapping {k} lands." for k in range(12)]
    x = "Players follow rule 100.14 whenever they draw a card."
    t = "Drawing a card means taking the top card of the library into the hand."
    y = "Sideboards may hold up to fifteen cards in a tournament match of best of three games."
    e = "A rule added later, so the release differs."
    releases = [
        ("January 1, 2020", [x, t]),
        ("February 1, 2020", [x, t, e]),
        ("March 1, 2020", [y, t, e]),
        ("April 1, 2020", [t, e]),
    ]
    with Archive.open(tmp_path / "a.sqlite") as arc:
        for k, (date, rules) in enumerate(releases):
            arc.add(_small_release(date, filler + rules), f"r{k}.txt")
            build_site(arc, tmp_path / "kept")
        arc.db.execute("DELETE FROM edits")
        arc.db.execute("DELETE FROM site_parts")
        build_site(arc, tmp_path / "fresh")
    kept, fresh = _tree(tmp_path / "kept"), _tree(tmp_path / "fresh")
    link = b'Players follow rule <a class="ref" href="../rules/100.13.html">100.14</a>'
    assert link in fresh["rules/100.13-until-2020-02-01.html"]  # T's page, by the number X wrote
    assert kept == fresh


def test_an_sqlite_without_drop_column_keeps_the_raw_column_empty(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # SQLite before 3.35 (Debian 11, Ubuntu 20.04) cannot drop a column: migration 7 empties it instead, and
    # every version added later gives it an empty value. The archive works all the same.
    import rulediff.archive.schema as schema

    monkeypatch.setattr(schema.sqlite3, "sqlite_version_info", (3, 31, 1))
    files = [CORPUS / "000_67b17b6c7d536d12.txt", CORPUS / "003_8b50984e948ebee1.txt"]
    with Archive.open(tmp_path / "old.sqlite") as arc:
        for f in files:
            assert arc.add_file(f).status == "added"
        columns = [row[1] for row in arc.db.execute("PRAGMA table_info(versions)")]
        raws = arc.db.execute("SELECT raw FROM versions").fetchall()
        old = [(str(r.number), r.text) for r in arc.versions.document(arc.versions.all()[-1].label).rules]
    assert "raw" in columns and raws == [(b"",), (b"",)]
    monkeypatch.undo()
    with Archive.open(tmp_path / "new.sqlite") as arc:
        for f in files:
            arc.add_file(f)
        kept = "raw" in [row[1] for row in arc.db.execute("PRAGMA table_info(versions)")]
        assert kept == (sqlite3.sqlite_version_info < (3, 35))  # the real SQLite's way, whichever it is
        assert [(str(r.number), r.text) for r in arc.versions.document(arc.versions.all()[-1].label).rules] == old


def test_an_export_left_unfinished_after_its_archive_closes_quietly(seeded: Path) -> None:
    """A reader of one snapshot left unfinished (``export`` read in part, as by ``archive export | head``) and
    closed after its archive: ending the snapshot on the closed connection raised ProgrammingError, printed by
    the garbage collector as 'Exception ignored'."""
    arc = Archive.open(seeded, create=False)
    records = arc.export()
    assert next(records)["type"] == "version"
    arc.close()
    records.close()  # raised before
