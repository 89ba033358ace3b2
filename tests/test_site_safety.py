"""The site writer touches nothing outside its folder: planted stamp entries, symlinks at page names or on
the way to them, special files, a folder of someone else's files, two builds at once."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from hypothesis import given
from hypothesis import strategies as st

from rulediff.archive import Archive
from rulediff.cli import main
from rulediff.errors import OutputError
from rulediff.site import journal
from rulediff.site.journal import STAMP, safe_relative
from rulediff.site.writer import SiteWriter, digest_of, is_site, prepare_folder, write_if_changed

from .conftest import FIXTURES

OFFICIAL = FIXTURES / "parsers" / "official-text"
SMALL = [OFFICIAL / n / "input.txt" for n in ("cr-only", "lf-only", "curly-quotes-utf8")]


@pytest.fixture()
def layout(tmp_path: Path) -> tuple[Path, Path]:
    """A site folder and, beside it, a folder of files that must never change."""
    site, outside = tmp_path / "site", tmp_path / "outside"
    site.mkdir()
    outside.mkdir()
    (outside / "x").write_text("keep me")
    (outside / "page.html").write_text("keep me too")
    return site, outside


def _untouched(outside: Path) -> None:
    assert sorted(p.name for p in outside.iterdir() if p.name != STAMP) == ["page.html", "x"]
    assert (outside / "x").read_text() == "keep me" and (outside / "page.html").read_text() == "keep me too"


@pytest.mark.parametrize("entry", ["../outside/x", "OUTSIDE_ABS", "a/../../outside/x", "..\\outside\\x", "./../x"])
def test_planted_stamp_entries_delete_nothing_outside(layout: tuple[Path, Path], entry: str) -> None:
    site, outside = layout
    entry = str(outside / "x") if entry == "OUTSIDE_ABS" else entry
    (site / STAMP).write_text(json.dumps({entry: "k", "diff/old.html": "k"}))
    (site / "diff").mkdir()
    (site / "diff" / "old.html").write_text("a page of an earlier build")
    w = SiteWriter(site)
    w.write("index.html", "<p>new</p>")
    w.finish()
    _untouched(outside)
    # a page of ours that is gone is still removed (a stamp from before digests vouches for its own names)
    assert not (site / "diff" / "old.html").exists()
    assert json.loads((site / STAMP).read_text()) == {"index.html": ["", digest_of(b"<p>new</p>")]}


def test_a_symlink_at_a_page_name_is_replaced_not_written_through(layout: tuple[Path, Path]) -> None:
    site, outside = layout
    (site / "page.html").symlink_to(outside / "page.html")
    (site / ".page.html.part").symlink_to(outside / "x")  # the temp name an older writer used
    assert write_if_changed(site, "page.html", "<p>ours</p>")
    _untouched(outside)
    assert not (site / "page.html").is_symlink() and (site / "page.html").read_text() == "<p>ours</p>"


def test_a_symlinked_folder_on_the_way_is_refused(layout: tuple[Path, Path]) -> None:
    site, outside = layout
    (site / "diff").symlink_to(outside, target_is_directory=True)
    with pytest.raises(OutputError, match="not a plain folder"):
        write_if_changed(site, "diff/page.html", "<p>ours</p>")
    _untouched(outside)


def test_special_files_are_never_replaced(tmp_path: Path) -> None:
    site = tmp_path / "site"
    site.mkdir()
    os.mkfifo(site / "index.html")
    with pytest.raises(OutputError, match="special file"):
        write_if_changed(site, "index.html", "<p>ours</p>")
    assert (site / "index.html").is_fifo()


def test_a_folder_of_other_files_is_refused_without_force(layout: tuple[Path, Path]) -> None:
    _, outside = layout
    with pytest.raises(OutputError, match="not a rulediff site"):
        prepare_folder(outside)
    assert not (outside / STAMP).exists()
    prepare_folder(outside, force=True)  # now it is a site too: our stamp, the user's files as they were
    _untouched(outside)
    assert (outside / STAMP).is_file()


def test_report_into_a_folder_of_the_users_files(layout: tuple[Path, Path], tmp_path: Path) -> None:
    _, outside = layout
    archive = tmp_path / "a.sqlite"
    with Archive.open(archive) as arc:
        for f in SMALL:
            arc.add_file(f)
    runner = CliRunner()
    out = runner.invoke(main, ["--archive", str(archive), "report", "-o", str(outside)])
    assert out.exit_code == 2 and "use --force" in out.output
    _untouched(outside)
    out = runner.invoke(main, ["--archive", str(archive), "report", "-o", str(outside), "--force"])
    assert out.exit_code == 0, out.output
    assert (outside / "index.html").is_file() and (outside / "x").read_text() == "keep me"
    # Rebuilding the site later never removes the user's files either.
    shutil.rmtree(outside / "rules")
    out = runner.invoke(main, ["--archive", str(archive), "report", "-o", str(outside)])
    assert out.exit_code == 0, out.output
    assert (outside / "x").read_text() == "keep me"


@given(st.text(max_size=40))
def test_safe_relative_never_lets_a_path_out(rel: str) -> None:
    clean = safe_relative(rel)
    if clean is not None:
        parts = clean.split("/")
        assert not clean.startswith("/") and ".." not in parts and "" not in parts and "\\" not in clean


def test_builds_preparing_one_new_folder_at_once_all_go_on(tmp_path: Path) -> None:
    # Two reports into one new folder: the one that looks second must find either an empty folder or a site,
    # never the first one's stamp half made (a temp file beside no stamp yet), which it took for a user's file.
    import sys
    from concurrent.futures import ThreadPoolExecutor

    was = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    try:
        for trial in range(40):
            root = tmp_path / f"site{trial}"
            with ThreadPoolExecutor(4) as pool:
                list(pool.map(prepare_folder, [root] * 4))
            assert [p.name for p in root.iterdir()] == [STAMP]
            assert is_site(root)
    finally:
        sys.setswitchinterval(was)


def test_a_symlink_planted_at_the_stamp_of_a_new_folder_is_not_written_through(tmp_path: Path) -> None:
    root, elsewhere = tmp_path / "site", tmp_path / "elsewhere.json"
    root.mkdir()
    elsewhere.write_text("mine")
    (root / STAMP).symlink_to(elsewhere)
    with pytest.raises(OutputError):
        prepare_folder(root)
    prepare_folder(root, force=True)
    assert elsewhere.read_text() == "mine" and is_site(root)


def test_an_old_page_another_build_removed_first_is_no_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import rulediff.site.writer as sitewriter

    root = tmp_path / "site"
    prepare_folder(root)
    writer = SiteWriter(root)
    writer.write("old.html", "old", key="k")
    writer.finish()
    again = SiteWriter(root)
    (root / "old.html").unlink()  # the build beside this one got there between its look and its removal
    monkeypatch.setattr(sitewriter, "_existing_kind", lambda target: "file")
    again.finish()
    assert json.loads((root / STAMP).read_text()) == {}


@pytest.mark.parametrize("umask", [0o022, 0o027, 0o077])
def test_pages_get_the_mode_a_plain_open_gives(tmp_path: Path, umask: int) -> None:
    was = os.umask(umask)
    try:
        write_if_changed(tmp_path, "a/page.html", "one")
        write_if_changed(tmp_path, "a/page.html", "two")  # replaced: the new file's mode, not the old one's
        plain = tmp_path / "plain"
        plain.write_text("x")
    finally:
        os.umask(was)
    assert (tmp_path / "a" / "page.html").stat().st_mode & 0o777 == plain.stat().st_mode & 0o777 == 0o666 & ~umask
    assert [p.name for p in (tmp_path / "a").iterdir()] == ["page.html"]


def test_a_full_disk_while_stamping_a_new_folder_is_one_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import errno

    import rulediff.site.writer as sitewriter

    class Full:
        def __init__(self, fd: int, *args: object, **kwargs: object) -> None:
            os.close(fd)

        def __enter__(self) -> Full:
            return self

        def __exit__(self, *exc: object) -> None:
            return None

        def write(self, data: str) -> int:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(sitewriter.os, "fdopen", Full)
    with pytest.raises(OutputError, match="No space left on device"):
        prepare_folder(tmp_path / "site")
    monkeypatch.undo()
    prepare_folder(tmp_path / "site")  # the empty stamp left behind reads as a site with nothing built yet
    assert is_site(tmp_path / "site")


@pytest.mark.parametrize("umask", [0o022, 0o077])
def test_a_written_output_gets_a_plain_opens_mode_and_a_replaced_one_keeps_its_own(tmp_path: Path, umask: int) -> None:
    from rulediff.support.safe_write import write_atomic

    was = os.umask(umask)
    try:
        write_atomic(tmp_path / "new.json", "{}")
        (tmp_path / "mine.json").write_text("old")
        (tmp_path / "mine.json").chmod(0o600)
        write_atomic(tmp_path / "mine.json", "{}", force=True)
    finally:
        os.umask(was)
    assert (tmp_path / "new.json").stat().st_mode & 0o777 == 0o666 & ~umask
    assert (tmp_path / "mine.json").stat().st_mode & 0o777 == 0o600
    assert sorted(p.name for p in tmp_path.iterdir()) == ["mine.json", "new.json"]


def test_a_file_planted_where_a_folder_of_the_site_was_is_named(tmp_path: Path) -> None:
    """A rebuild that finds a file where the site keeps a folder of pages ('glossary') says that the folder
    is not a plain one, naming it, and writes nothing through it: a page already built there is not
    mistaken for a missing one by the bare error of the file system ('Not a directory')."""
    archive, site = tmp_path / "a.sqlite", tmp_path / "site"
    with Archive.open(archive) as arc:
        for f in SMALL:
            arc.add_file(f)
    runner = CliRunner()
    out = runner.invoke(main, ["--archive", str(archive), "report", "-o", str(site)])
    assert out.exit_code == 0, out.output
    shutil.rmtree(site / "glossary")
    (site / "glossary").write_text("planted")
    out = runner.invoke(main, ["--archive", str(archive), "report", "-o", str(site)])
    assert out.exit_code == 2
    assert out.output.count("\n") == 1 and "'glossary' is not a plain folder of the site" in out.output, out.output
    assert (site / "glossary").read_text() == "planted"


def test_a_stamp_nested_past_the_decoders_depth_costs_a_full_rebuild(tmp_path: Path) -> None:
    """A planted stamp file of arrays nested 200,000 deep (400 KB) is damaged like any other: the rebuild
    makes every page again, the same as a fresh build, instead of failing inside the JSON decoder."""
    archive, site, fresh = tmp_path / "a.sqlite", tmp_path / "site", tmp_path / "fresh"
    with Archive.open(archive) as arc:
        for f in SMALL:
            arc.add_file(f)
    runner = CliRunner()
    for folder in (site, fresh):
        out = runner.invoke(main, ["--archive", str(archive), "report", "-o", str(folder)])
        assert out.exit_code == 0, out.output
    (site / STAMP).write_text("[" * 200_000 + "]" * 200_000)
    out = runner.invoke(main, ["--archive", str(archive), "report", "-o", str(site)])
    assert out.exit_code == 0, out.output  # every page made again: each the same bytes
    (site / STAMP).write_text("[" * 200_000 + "]" * 200_000)
    (site / "index.html").write_text("changed since")
    out = runner.invoke(main, ["--archive", str(archive), "report", "-o", str(site)])
    assert out.exit_code == 2 and "a file rulediff did not write" in out.output, out.output  # nothing vouches for it
    out = runner.invoke(main, ["--archive", str(archive), "report", "-o", str(site), "--force"])
    assert out.exit_code == 0, out.output
    pages = sorted(p.relative_to(fresh) for p in fresh.rglob("*") if p.is_file() and p.name != STAMP)
    assert pages == sorted(p.relative_to(site) for p in site.rglob("*") if p.is_file() and p.name != STAMP)
    assert all((site / p).read_bytes() == (fresh / p).read_bytes() for p in pages)
    # A stamp entry whose lookups nest past the depth: that page is made again, the rest are kept.
    stamps = json.loads((site / STAMP).read_text())
    page = min(p for p in stamps if p.startswith("rules/"))
    stamps[page][0] = stamps[page][0].partition(" ")[0] + " " + "[" * 200_000 + "]" * 200_000
    (site / STAMP).write_text(json.dumps(stamps))
    out = runner.invoke(main, ["--archive", str(archive), "report", "-o", str(site)])
    assert out.exit_code == 0, out.output
    assert (site / page).read_bytes() == (fresh / page).read_bytes()


def _stopped_at_write(monkeypatch: pytest.MonkeyPatch, after: int) -> None:
    """Make the site writer stop at its ``after``-th page, as a killed or disk-full build does: the page's
    temp file made and left, nothing replaced, the stamp not saved."""
    import rulediff.site.writer as sitewriter
    from rulediff.support.safe_write import fresh_file_beside

    calls = {"n": 0}
    real = sitewriter.write_if_changed

    def stopping(root: Path, rel: str, text: str, checked: Any = None, before: Any = None) -> bool:
        calls["n"] += 1
        if calls["n"] == after:
            if before is not None:
                before(rel, None)
            fd, _ = fresh_file_beside(root / rel)
            os.close(fd)
            raise OutputError("cannot write: No space left on device", source=str(root / rel))
        return real(root, rel, text, checked, before)

    monkeypatch.setattr(sitewriter, "write_if_changed", stopping)


def test_a_build_that_stopped_midway_is_mended_by_the_next(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A build that adds a release and stops midway has replaced some pages and added others, with the old
    stamp still on disk. Once that release is removed again, the next build must not take those pages for
    the ones the stamp describes: it makes them again, removes the ones no longer part of the site and the
    temp file left, and the site equals a fresh build of the same archive, stamp and all."""
    archive, site, fresh = tmp_path / "a.sqlite", tmp_path / "site", tmp_path / "fresh"
    runner = CliRunner()
    with Archive.open(archive) as arc:
        for f in SMALL[:2]:
            arc.add_file(f)
    assert runner.invoke(main, ["--archive", str(archive), "report", "-o", str(site)]).exit_code == 0
    (site / "notes.part").write_text("the user's")  # not a temp file of ours
    with monkeypatch.context() as m:
        _stopped_at_write(m, after=20)
        out = runner.invoke(main, ["--archive", str(archive), "report", str(SMALL[2]), "-o", str(site)])
        assert out.exit_code == 2 and "No space left on device" in out.output, out.output
    assert list(site.rglob(".*.part")), "the stopped build left its temp file"
    with Archive.open(archive) as arc:
        added = max(arc.versions.all(), key=lambda v: v.id).label
    out = runner.invoke(main, ["--archive", str(archive), "archive", "remove", added])
    assert out.exit_code == 0, out.output
    for folder in (site, fresh):
        out = runner.invoke(main, ["--archive", str(archive), "report", "-o", str(folder)])
        assert out.exit_code == 0, out.output
    assert not list(site.rglob(".*.part"))
    assert (site / "notes.part").read_text() == "the user's"
    (site / "notes.part").unlink()
    mine = {str(p.relative_to(site)): p.read_bytes() for p in sorted(site.rglob("*")) if p.is_file()}
    assert mine == {str(p.relative_to(fresh)): p.read_bytes() for p in sorted(fresh.rglob("*")) if p.is_file()}


def test_a_second_build_of_one_site_waits_for_the_first(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import threading

    root = tmp_path / "site"
    prepare_folder(root)
    first = SiteWriter(root)
    first.write("a.html", "first", key="k1")
    got: list[str] = []

    told: list[str] = []

    def build() -> None:
        writer = SiteWriter(root, on_wait=lambda: told.append("waiting"))
        got.append(writer.stamps.get("a.html", "none"))
        writer.close()

    second = threading.Thread(target=build)
    second.start()
    second.join(1.5)
    assert second.is_alive() and not got  # waiting: the first has not saved its stamp yet
    assert told == ["waiting"]  # and it said so, once
    first.finish()
    second.join(10)
    assert got == ["k1"]  # it read the stamp the first one saved
    monkeypatch.setattr(journal, "LOCK_WAIT", 0.2)
    holder = SiteWriter(root)
    with pytest.raises(OutputError, match="another build has been writing this site"):
        SiteWriter(root)
    holder.close()
    SiteWriter(root).close()  # closed, it lets the next one in


def test_a_symlink_planted_at_the_journal_is_not_written_through(layout: tuple[Path, Path]) -> None:
    site, outside = layout
    prepare_folder(site)
    (site / ".rulediff-site.journal").symlink_to(outside / "x")
    with pytest.raises(OutputError, match="not a plain file of the site"):
        SiteWriter(site)
    _untouched(outside)


def test_stamp_entries_for_pages_that_are_not_there_make_no_folders(tmp_path: Path) -> None:
    """A stamp naming pages under folders the site does not have (planted, or from a much older build)
    removes nothing and makes none of those folders (each was made, and resolved, to look for its page)."""
    root = tmp_path / "site"
    prepare_folder(root)
    (root / STAMP).write_text(json.dumps({f"junk/{k}/a/b.html": "k" for k in range(1000)} | {"diff/old.html": "k"}))
    (root / "diff").mkdir()
    (root / "diff" / "old.html").write_text("an old page")
    w = SiteWriter(root)
    w.write("index.html", "<p>new</p>")
    w.finish()
    assert sorted(p.name for p in root.iterdir()) == sorted([STAMP, ".rulediff-site.journal", "index.html", "diff"])
    assert not list((root / "diff").iterdir())


def _journal_read_only(monkeypatch: pytest.MonkeyPatch) -> None:
    """Opening the journal to write it is refused, as for a journal another user's build made (the tests
    may run as root, whom file modes do not stop)."""
    import rulediff.site.writer as sitewriter

    real = os.open

    def refusing(path: object, flags: int, *rest: int) -> int:
        if str(path).endswith(sitewriter.JOURNAL) and flags & os.O_RDWR:
            raise PermissionError(13, "Permission denied", str(path))
        return real(path, flags, *rest)  # type: ignore[arg-type]

    monkeypatch.setattr(sitewriter.os, "open", refusing)


def test_a_journal_this_user_may_only_read_is_still_heeded(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A journal naming a page a stopped build replaced, which this user may read but not write: the page is
    not taken for fresh on the old stamp's word; writing it again is refused, naming the journal. With
    nothing to write, the build goes on and leaves the journal as it was."""
    root = tmp_path / "site"
    prepare_folder(root)
    w = SiteWriter(root)
    w.write("diff/a.html", "old", key="k")
    w.finish()
    (root / "diff" / "a.html").write_text("what a stopped build wrote")
    stopped = digest_of(b"what a stopped build wrote")
    (root / ".rulediff-site.journal").write_text(f"diff/a.html\t{stopped}\n")
    with monkeypatch.context() as m:
        _journal_read_only(m)
        w = SiteWriter(root)
        assert not w.fresh_if("diff/a.html", lambda stamped: stamped == "k")
        with pytest.raises(OutputError, match="cannot write: Permission denied"):
            w.write("diff/a.html", "old", key="k")
        w.close()
        (root / ".rulediff-site.journal").write_text("")
        w = SiteWriter(root)
        w.write("diff/a.html", "what a stopped build wrote", key="k2")  # the same bytes: nothing to write
        w.finish()
        w.close()
    assert json.loads((root / STAMP).read_text()) == {"diff/a.html": ["k2", stopped]}


def test_a_file_system_without_locks_still_builds(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import errno

    def no_locks(fd: int, op: int) -> None:
        raise OSError(errno.ENOLCK, "No locks available")

    monkeypatch.setattr(journal.fcntl, "flock", no_locks)
    root = tmp_path / "site"
    prepare_folder(root)
    w = SiteWriter(root)
    w.write("a.html", "page", key="k")
    w.finish()
    assert (root / "a.html").read_text() == "page"


def test_the_journal_is_written_whole_whatever_each_write_takes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import rulediff.site.writer as sitewriter

    real = os.write
    monkeypatch.setattr(sitewriter.os, "write", lambda fd, data: real(fd, bytes(data[:3])))  # short writes
    root = tmp_path / "site"
    prepare_folder(root)
    w = SiteWriter(root)
    w.expect(["diff/a--b.html", "rules/702.15.html"])
    w.close()
    assert (root / ".rulediff-site.journal").read_text() == "diff/a--b.html\nrules/702.15.html\n"


def test_a_journal_longer_than_any_build_writes_trusts_no_stamp(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Over its limit the journal is not read (planted, or damaged): every page the stamp names is made again,
    and those no longer part of the site are removed."""

    root = tmp_path / "site"
    prepare_folder(root)
    w = SiteWriter(root)
    w.write("diff/a.html", "a", key="ka")
    w.write("diff/gone.html", "gone", key="kg")
    w.finish()
    monkeypatch.setattr(journal, "JOURNAL_MOST", 10)
    (root / ".rulediff-site.journal").write_text("x.html\n" * 10)
    w = SiteWriter(root)
    assert not w.fresh_if("diff/a.html", lambda stamped: True)
    w.write("diff/a.html", "a", key="ka")
    w.finish()
    assert not (root / "diff" / "gone.html").exists() and (root / "diff" / "a.html").read_text() == "a"
    assert (root / ".rulediff-site.journal").read_text() == ""
