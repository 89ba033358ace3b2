"""Hand corrections of lineage as data (shipped file, 'archive link' / 'unlink'), applied by lineage, history and
the site; and uncertain links carried through the archive into history. On tests/fixtures/align/level-changes-2009
(2009-05-01 -> 2009-07-11 cut small), plus two real releases where the corpus is at hand."""

from __future__ import annotations

import dataclasses
import json
import sqlite3
from pathlib import Path

import pytest
from click.testing import CliRunner

from rulediff import parse
from rulediff.archive import Archive
from rulediff.archive import corrections as archive_corrections
from rulediff.archive.codec import decode_alignment, encode_alignment, pairs_from_blob
from rulediff.cli import main
from rulediff.errors import RulediffError
from rulediff.matcher.classify import align
from rulediff.matcher.corrections import LINK, UNLINK, Fix, parse_corrections, shipped_corrections
from rulediff.matcher.lineage import HAND, UNLINKED, corrected
from rulediff.site.build import build_site

from .conftest import FIXTURES, cr_file, needs_cr_corpus

CASE = FIXTURES / "align" / "level-changes-2009"
WHY = "checked by hand against both releases"


def cli(arc: Path, *args: str) -> tuple[int, str, str]:
    r = CliRunner().invoke(main, [*args, "--archive", str(arc)])
    return r.exit_code, r.stdout, r.stderr


@pytest.fixture()
def arc(tmp_path: Path) -> Path:
    path = tmp_path / "a.sqlite"
    code, out, err = cli(path, "archive", "add", str(CASE / "old.txt"), str(CASE / "new.txt"))
    assert code == 0, err
    return path


# --- the file format ---------------------------------------------------------------------------------


def test_a_corrections_file_reads_links_and_cuts() -> None:
    got = parse_corrections(
        "# comment\n\n2009-05-01\t205.1\t2009-07-11\t204.1\tsame\n2009-05-01\t212.1.\t2009-07-11\t-\tgone\n", "f"
    )
    assert [(c.action, c.old_number, c.new_number, c.reason) for c in got] == [
        (LINK, "205.1", "204.1", "same"),
        (UNLINK, "212.1", None, "gone"),
    ]


@pytest.mark.parametrize(
    ("text", "want"),
    [
        ("2009-05-01\t205.1\t2009-07-11\t204.1\n", "f:1: expected 5 tab-separated columns"),
        ("2009-05-01\tfoo\t2009-07-11\t204.1\tx\n", "f:1: old number 'foo' is not a rule number"),
        ("2009-05-01\t205.1\t2009-07-11\t204.1\t \n", "f:1: --reason must say why"),
        ("a\t101.1\tb\t102.1\tx\na\t101.1\tb\t102.1\ty\n", "f:2: repeats line 1"),
        ("a\t101.1\tb\t102.1\tx\na\t101.1\tb\t-\ty\n", "f:2: contradicts f:1"),
    ],
)
def test_a_bad_corrections_line_is_named(text: str, want: str) -> None:
    with pytest.raises(RulediffError) as e:
        parse_corrections(text, "f")
    assert e.value.one_line().startswith(want)


def test_the_shipped_file_reads_and_every_line_has_a_reason() -> None:
    got = shipped_corrections()
    assert got and all(len(c.reason) > 40 for c in got)


@needs_cr_corpus
def test_every_shipped_correction_names_real_rules_of_real_releases() -> None:
    for c in shipped_corrections():
        old, new = parse(str(cr_file(c.old_version))), parse(str(cr_file(c.new_version)))
        assert any(str(r.number) == c.old_number for r in old.rules), c
        assert c.new_number is None or any(str(r.number) == c.new_number for r in new.rules), c


# --- applying them ----------------------------------------------------------------------------------


def test_a_link_replaces_the_matchers_links_of_both_ends_and_an_unlink_cuts() -> None:
    pairs = [("moved", [1], [10], False), ("edited", [2], [20], True), ("split", [3], [30, 31], False)]
    got = corrected(pairs, [Fix(LINK, 1, 20, "r1"), Fix(UNLINK, 3, 31, "r2")])
    assert sorted((p[1], p[2]) for p in got.pairs) == [([1], [20]), ([3], [30])]
    assert got.new == {20: (HAND, "r1"), 31: (UNLINKED, "r2")}
    assert got.ended == {}  # 3 still goes on as 30; 2 lost its link to a hand link, not to a cut
    whole = corrected(pairs, [Fix(UNLINK, 3, None, "r3")])
    assert whole.ended == {3: "r3"} and set(whole.new) == {30, 31}
    split = corrected(pairs, [Fix(LINK, 1, 10, "a"), Fix(LINK, 1, 11, "b")])
    assert ("linked by hand", [1], [10, 11], False) in split.pairs


def test_unlink_and_link_through_the_cli_show_in_history(arc: Path) -> None:
    code, out, err = cli(arc, "archive", "unlink", "2009-05-01", "212.2", "2009-07-11", "301", "--reason", WHY)
    assert code == 0, err
    assert out.strip() == "unlinked by hand: 2009-05-01 212.2 -> 2009-07-11 301"
    _, out, _ = cli(arc, "history", "301")
    assert f"2009-07-11: 301 first seen [unlinked by hand: {WHY}]" in out and "212.2" not in out
    # A second unlink of the same rules is refused and names the reason that stands: it is not replaced.
    code, out, err = cli(arc, "archive", "unlink", "2009-05-01", "212.2", "2009-07-11", "301", "--reason", "other")
    assert code == 2 and out == ""
    assert err.strip() == (
        f"rulediff: error: {arc}: 2009-05-01 212.2 is already unlinked from 301 of 2009-07-11 by hand ({WHY!r}); "
        "nothing changed (to give another reason: 'archive link' it, then unlink it again)"
    )
    assert "other" not in cli(arc, "archive", "corrections")[1]
    _, out, _ = cli(arc, "history", "212.2", "--as-of", "2009-05-01")
    assert out.splitlines()[-1] == f"gone from 2009-07-11 [unlinked by hand: {WHY}]"
    d = json.loads(cli(arc, "history", "212.2", "--as-of", "2009-05-01", "--format", "json")[1])
    assert d["ended"] == f"unlinked by hand: {WHY}" and d["uncertain"] is False
    # Linking them again withdraws the recorded unlink.
    code, out, err = cli(arc, "archive", "link", "2009-05-01", "212.2", "2009-07-11", "301", "--reason", "same rule")
    assert code == 0, err and "replaces 1 recorded unlink" in out
    _, out, _ = cli(arc, "history", "301")
    assert "2009-07-11: 301 renumbered and edited from 212.2 [linked by hand: same rule]" in out
    d = json.loads(cli(arc, "history", "301", "--format", "json")[1])
    assert [v["link"] for v in d["versions"]] == [None, "linked by hand: same rule"]
    assert d["stretches"][-1]["link"] == "linked by hand: same rule"
    _, out, _ = cli(arc, "archive", "corrections", "--json")
    mine = [json.loads(x) for x in out.splitlines() if json.loads(x)["source"] == "archive"]
    assert mine == [
        {
            "action": "link",
            "new_number": "301",
            "new_version": "2009-07-11",
            "old_number": "212.2",
            "old_version": "2009-05-01",
            "reason": "same rule",
            "source": "archive",
            "status": "applied",
        }
    ]


def test_the_diff_of_a_corrected_pair_applies_its_corrections(arc: Path) -> None:
    def diff() -> dict[tuple[str, ...], dict[str, object]]:
        code, out, err = cli(arc, "diff", "2009-05-01", "2009-07-11", "--format", "json")
        assert code == 0, err
        return {(*c["old"], "->", *c["new"]): c for c in json.loads(out)["changes"]}

    assert diff()[("212.2", "->", "301")]["kind"] == "renumbered"
    assert cli(arc, "archive", "unlink", "2009-05-01", "212.2", "2009-07-11", "301", "--reason", WHY)[0] == 0
    assert cli(arc, "archive", "link", "2009-05-01", "212.1", "2009-07-11", "300.1", "--reason", "same rule")[0] == 0
    got = diff()
    assert ("212.2", "->", "301") not in got
    assert got[("212.2", "->")]["kind"] == "removed" and got[("212.2", "->")]["reason"] == f"unlinked by hand: {WHY}"
    assert got[("->", "301")]["kind"] == "added" and got[("->", "301")]["reason"] == f"unlinked by hand: {WHY}"
    assert got[("212.1", "->", "300.1")]["reason"] == "linked by hand: same rule"


@pytest.mark.parametrize(
    ("args", "want"),
    [
        (["link", "2009-05-01", "212.2", "2009-07-11", "301"], "already stands (the matcher links them)"),
        (["link", "2010-01-01", "212.2", "2009-07-11", "301"], "no archived version '2010-01-01'"),
        (["link", "2009-05-01", "999.9", "2009-07-11", "301"], "2009-05-01 has no rule 999.9"),
        (["link", "2009-05-01", "212.2", "2009-07-11", "301.99"], "2009-07-11 has no rule 301.99"),
        (["link", "2009-07-11", "301", "2009-05-01", "212.2"], "2009-05-01 is not after 2009-07-11"),
        (["link", "2009-05-01", "x.y", "2009-07-11", "301"], "old number 'x.y' is not a rule number"),
        # ('²'.isdigit() is true: it was taken, and the lookup of the second 212.2 stopped with a ValueError)
        (["link", "2009-05-01", "212.2#²", "2009-07-11", "301"], "old number '212.2#²' is not a rule number"),
        (["unlink", "2009-05-01", "212.2", "2009-07-11", "300.1"], "is not linked to 300.1 of 2009-07-11"),
    ],
)
def test_a_bad_correction_is_one_line_exit_2_and_changes_nothing(arc: Path, args: list[str], want: str) -> None:
    before = sqlite3.connect(arc).execute("SELECT count(*) FROM corrections").fetchone()
    code, out, err = cli(arc, "archive", *args, "--reason", WHY)
    assert code == 2 and out == ""
    assert err.startswith("rulediff: error: ") and err.count("\n") == 1 and want in err, err
    assert sqlite3.connect(arc).execute("SELECT count(*) FROM corrections").fetchone() == before


def test_an_empty_reason_is_refused(arc: Path) -> None:
    code, _, err = cli(arc, "archive", "link", "2009-05-01", "212.1", "2009-07-11", "300.1", "--reason", "  ")
    assert code == 2 and "--reason must say why" in err


def test_a_correction_survives_removing_and_re_adding_its_version(arc: Path) -> None:
    assert cli(arc, "archive", "link", "2009-05-01", "212.1", "2009-07-11", "300.1", "--reason", WHY)[0] == 0
    assert f"[linked by hand: {WHY}]" in cli(arc, "history", "300.1")[1]
    assert cli(arc, "archive", "remove", "2009-07-11")[0] == 0
    assert "[not applied: 2009-07-11 is not archived]" in cli(arc, "archive", "corrections")[1]
    assert cli(arc, "archive", "add", str(CASE / "new.txt"))[0] == 0
    assert (
        f"2009-07-11: 300.1 renumbered and edited from 212.1 [linked by hand: {WHY}]" in cli(arc, "history", "300.1")[1]
    )


def test_the_shipped_corrections_apply_without_being_recorded(arc: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    listing = cli(arc, "archive", "corrections")[1]
    assert "shipped  2009-05-01 212.1 -/-> 2009-07-11 -  [applied]" in listing
    assert "[not applied: 2009-05-01 has no rule 408.2]" in listing
    # A rulediff whose shipped file says more: the stored lineages follow it at the next write.
    line = parse_corrections(f"2009-05-01\t212.2\t2009-07-11\t-\t{WHY}\n", "shipped")
    monkeypatch.setattr(archive_corrections, "shipped_corrections", lambda: line)
    assert "renumbered and edited from 212.2" in cli(arc, "history", "301")[1]  # history alone does not write
    with Archive.open(arc, create=False) as a:
        assert a.lineages.sync_corrections() is True and a.lineages.sync_corrections() is False
    out = cli(arc, "history", "212.2", "--as-of", "2009-05-01")[1]
    assert out.splitlines()[-1] == f"gone from 2009-07-11 [unlinked by hand: {WHY}]"


def test_an_archive_of_the_previous_schema_is_migrated(arc: Path) -> None:
    # As rulediff before migration 5 left it: no corrections tables, alignments by another engine.
    db = sqlite3.connect(arc)
    with db:
        db.execute("DROP TABLE corrections")
        db.execute("DROP TABLE link_marks")
        db.execute("DELETE FROM migrations WHERE id = 5")
        db.execute("UPDATE alignments SET engine = 'older'")
    db.close()
    code, out, err = cli(arc, "archive", "unlink", "2009-05-01", "212.2", "2009-07-11", "--reason", WHY)
    assert code == 0, err
    with Archive.open(arc, create=False) as a:
        assert 5 in {n for (n,) in a.db.execute("SELECT id FROM migrations")}
    assert f"first seen [unlinked by hand: {WHY}]" in cli(arc, "history", "301")[1]


def test_the_site_says_linked_by_hand_and_an_incremental_rebuild_equals_a_fresh_one(arc: Path, tmp_path: Path) -> None:
    site, fresh = tmp_path / "site", tmp_path / "fresh"
    with Archive.open(arc, create=False) as a:
        build_site(a, site)
        a.lineages.link("2009-05-01", "212.1", "2009-07-11", "300.1", "same rule <checked>")
        build_site(a, site)
        a.db.execute("DELETE FROM edits")  # nothing kept from the builds before: every step rendered afresh
        a.db.execute("DELETE FROM site_parts")
        build_site(a, fresh)
    files = sorted(p.relative_to(site) for p in site.rglob("*") if p.is_file())
    assert files == sorted(p.relative_to(fresh) for p in fresh.rglob("*") if p.is_file())
    assert all((site / f).read_bytes() == (fresh / f).read_bytes() for f in files)
    page = (site / "rules" / "300.1.html").read_text(encoding="utf-8")
    assert "linked by hand: same rule &lt;checked&gt;" in page


# --- uncertain links ---------------------------------------------------------------------------------


def test_the_codec_keeps_a_links_uncertain_flag() -> None:
    old, new = parse(str(CASE / "old.txt")), parse(str(CASE / "new.txt"))
    al = align(old, new)
    k = next(k for k, c in enumerate(al.changes) if c.old and c.new)
    al.changes[k] = dataclasses.replace(al.changes[k], uncertain=True)
    blob, _, pairs = encode_alignment(al)
    assert decode_alignment(old, new, blob).changes[k].uncertain is True
    assert [p for p in pairs if p[3]] == [p for p in pairs_from_blob(blob) if p[3]] != []


@needs_cr_corpus
def test_a_lineage_through_an_uncertain_link_says_so(tmp_path: Path) -> None:
    path = tmp_path / "u.sqlite"
    assert cli(path, "archive", "add", str(cr_file("2013-05-01")), str(cr_file("2013-07-13")))[0] == 0
    # 2013-07-13 made indestructible a keyword: 700.4 became 702.12 Indestructible (and its 702.12b), kept on weak
    # evidence.
    out = cli(path, "history", "702.12")[1]
    assert "renumbered and edited from 700.4 [uncertain match; split: also went to 702.12b]" in out
    assert out.splitlines()[-1].startswith("this lineage passes through an uncertain match")
    d = json.loads(cli(path, "history", "702.12", "--format", "json")[1])
    assert d["uncertain"] is True and d["versions"][-1]["link"] == "uncertain match"
    with Archive.open(path, create=False) as a:
        build_site(a, tmp_path / "site")
    page = (tmp_path / "site" / "rules" / "702.12.html").read_text(encoding="utf-8")
    assert '<span class="badge via">uncertain match</span>' in page and "passes through an uncertain match" in page
