"""Releases named as people name them: the shipped release names, 'archive describe', set codes wherever a
label or date is taken, and the names on the site's pages and in its API."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from rulediff.archive import Archive
from rulediff.archive.names import parse_names, shipped_names
from rulediff.cli import main
from rulediff.errors import ArchiveError
from rulediff.site.api_lists import ability_words_in
from rulediff.site.build import build_site

from .conftest import CR_CORPUS, FIXTURES, cr_file, needs_cr_corpus

CUT = FIXTURES / "history" / "mana-burn-obsolete-2009"
DATA = Path(__file__).resolve().parent.parent / "rulediff" / "data" / "releases.tsv"


@pytest.fixture
def cut_archive(tmp_path: Path) -> str:
    path = str(tmp_path / "a.sqlite")
    r = CliRunner().invoke(main, ["archive", "add", *map(str, sorted(CUT.glob("cr-*.txt"))), "--archive", path])
    assert r.exit_code == 0, r.output
    return path


def _run(archive: str, *args: str) -> tuple[int, str, str]:
    r = CliRunner().invoke(main, ["--archive", archive, *args])
    return r.exit_code, r.stdout, r.stderr


def test_describe_names_a_release_and_the_code_names_it_everywhere(cut_archive: str) -> None:
    code, out, _ = _run(cut_archive, "archive", "describe", "2009-07-11", "--set", "m10", "--set-name", "Magic 2010")
    assert code == 0 and out == "2009-07-11: M10, Magic 2010\n"
    code, out, _ = _run(cut_archive, "archive", "describe", "2014-05-01", "--set", "M10_2", "--rerelease", "Redo")
    assert code == 0 and out == "2014-05-01: M10_2 (Redo)\n"
    # diff, show and history take the code (in any case) wherever they take a label or a date
    by_code = _run(cut_archive, "diff", "M10", "m10_2", "--format", "json")
    by_label = _run(cut_archive, "diff", "2009-07-11", "2014-05-01", "--format", "json")
    assert by_code[0] == 0 and by_code[1] == by_label[1]
    code, out, err = _run(cut_archive, "show", "702.13", "--as-of", "M10")
    assert code == 0 and "702.13. Lifelink" in out and "-- 2009-07-11" in err
    code, out, _ = _run(cut_archive, "history", "702.13", "--as-of", "m10", "--format", "json")
    assert code == 0 and json.loads(out)["numbers"][-1]["number"] == "702.15"
    listed = [json.loads(line) for line in _run(cut_archive, "archive", "list", "--json")[1].splitlines()]
    named = {r["label"]: (r["code"], r["set_code"], r["set_name"], r["rerelease"], r["bulletin"]) for r in listed}
    assert named["2009-07-11"] == ("M10", "M10", "Magic 2010", None, None)
    assert named["2014-05-01"] == ("M10_2", "M10", None, "Redo", None)
    assert named["2011-02-04"] == (None, None, None, None, None)
    assert "M10, Magic 2010" in _run(cut_archive, "archive", "list")[1]
    # a field given again replaces it; "" makes it unknown; what is not given stays
    url = "https://example.org/magic-2010-update-bulletin"
    assert _run(cut_archive, "archive", "describe", "M10", "--bulletin", url)[0] == 0
    assert _run(cut_archive, "archive", "describe", "m10")[1] == f"2009-07-11: M10, Magic 2010; bulletin {url}\n"
    assert _run(cut_archive, "archive", "describe", "M10", "--set-name", "")[1] == f"2009-07-11: M10; bulletin {url}\n"


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["1999-01-01", "--set", "ABC"], "no archived version '1999-01-01'"),
        (["2011-02-04", "--set", "M10"], "M10 already names 2009-07-11"),
        (["2011-02-04", "--bulletin", "ftp://example.org/b"], "is not a web address"),
        (["2011-02-04", "--bulletin", "https://"], "is not a web address"),
        (["2011-02-04", "--bulletin", "not a url"], "is not a web address"),
        (["2011-02-04", "--set", "2011"], "is not a set code"),
        (["2011-02-04", "--set", "M10_1"], "is not a set code"),
        (["2011-02-04", "--set-name", "bell\x07"], "is not a name"),
        (["2011-02-04", "--set-name", "x" * 201], "is not a name"),
    ],
)
def test_describe_refuses_in_one_line(cut_archive: str, args: list[str], said: str) -> None:
    assert _run(cut_archive, "archive", "describe", "2009-07-11", "--set", "M10")[0] == 0
    code, out, err = _run(cut_archive, "archive", "describe", *args)
    assert code == 2 and not out and err.count("\n") == 1 and err.startswith("rulediff: error: ") and said in err
    assert "Traceback" not in err
    # nothing was recorded
    assert _run(cut_archive, "archive", "describe", "2011-02-04")[1] == "2011-02-04: no set code or name known\n"


def test_a_name_outlives_removing_and_adding_its_release_again(cut_archive: str) -> None:
    assert _run(cut_archive, "archive", "describe", "2011-02-04", "--set", "MBS", "--set-name", "Besieged")[0] == 0
    assert _run(cut_archive, "archive", "remove", "MBS")[0] == 0
    assert _run(cut_archive, "archive", "describe", "MBS")[0] == 2  # no release is MBS now
    assert _run(cut_archive, "archive", "add", str(CUT / "cr-20110204.txt"))[0] == 0
    assert _run(cut_archive, "archive", "describe", "mbs")[1] == "2011-02-04: MBS, Besieged\n"


def test_a_damaged_name_is_one_line(cut_archive: str) -> None:
    with Archive.open(cut_archive) as arc:
        sha = arc.versions.resolve("2011-02-04").sha256
        arc.db.execute("INSERT INTO release_names(sha256, code) VALUES (?, ?)", (sha, "not a code"))
    code, _, err = _run(cut_archive, "archive", "list")
    assert code == 2 and "the archive is damaged" in err and err.count("\n") == 1


def test_an_archive_without_the_table_reads_the_shipped_names_only(cut_archive: str) -> None:
    """An archive made before names were recorded, read where it cannot be written yet, has no table."""
    with Archive.open(cut_archive) as arc:
        arc.db.execute("DROP TABLE release_names")
        arc.names.forget()
        assert arc.names.recorded() == {} and arc.names.all() == {}


def test_the_site_and_its_api_show_what_releases_are_called(cut_archive: str, tmp_path: Path) -> None:
    url = "https://example.org/m10-bulletin"
    args = ["archive", "describe", "2009-07-11", "--set", "M10", "--set-name", "Magic 2010", "--bulletin", url]
    assert _run(cut_archive, *args)[0] == 0
    with Archive.open(cut_archive) as arc:
        build_site(arc, tmp_path / "site")
    site = tmp_path / "site"
    index = (site / "index.html").read_text("utf-8")
    assert "<abbr>M10</abbr> Magic 2010" in index and f'<a class="bulletin" href="{url}">' in index
    page = (site / "diff" / "2009-05-01--2009-07-11.html").read_text("utf-8")
    assert "<abbr>M10</abbr> Magic 2010" in page and f'href="{url}"' in page
    search = (site / "search-index.js").read_text("utf-8")
    assert '["M10","Magic 2010",null,"2009-07-11","diff/2009-05-01--2009-07-11.html"]' in search
    releases = json.loads((site / "api" / "releases.json").read_text("utf-8"))["releases"]
    m10 = next(r for r in releases if r["label"] == "2009-07-11")
    assert (m10["code"], m10["set_code"], m10["set_name"], m10["bulletin"]) == ("M10", "M10", "Magic 2010", url)
    # a name recorded later is on the pages of the next build
    assert _run(cut_archive, "archive", "describe", "2011-02-04", "--set", "MBS")[0] == 0
    with Archive.open(cut_archive) as arc:
        build_site(arc, site)
    assert "<abbr>MBS</abbr>" in (site / "diff" / "2009-07-11--2011-02-04.html").read_text("utf-8")
    assert "<abbr>MBS</abbr>" in (site / "diff" / "2011-02-04--2014-02-01.html").read_text("utf-8")


def test_the_shipped_names_read_and_refuse_what_is_not_one() -> None:
    names = shipped_names()
    codes = [n.code for n in names.values() if n.code]
    assert len(codes) == len(set(codes))
    row = "\t".join(["a" * 64, "2020-01-24", "THB", "Theros Beyond Death", "-", "-", "a peer's list"])
    assert parse_names(row, "x").popitem()[1].set_name == "Theros Beyond Death"
    for bad in (row.replace("THB", "T H B"), row.replace("\t-\t-", "\tftp://x\t-"), row.rsplit("\t", 1)[0]):
        with pytest.raises(ArchiveError, match="x:1"):
            parse_names(bad, "x")
    with pytest.raises(ArchiveError, match="named twice"):
        parse_names(row + "\n" + row, "x")


@needs_cr_corpus
def test_every_shipped_name_is_of_an_official_release_of_that_date() -> None:
    """Each row's sha256 is an official release's file (MANIFEST.tsv), of the effective date the row says."""
    with open(CR_CORPUS / "MANIFEST.tsv", encoding="utf-8", newline="") as fh:
        dates = {row["sha256"]: row["effective_date"] for row in csv.DictReader(fh, delimiter="\t")}
    for line in DATA.read_text("utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            sha, date, *_ = line.split("\t")
            assert dates.get(sha) == date, f"{sha[:12]} is no official release of {date}"


@needs_cr_corpus
def test_official_releases_are_named_by_their_sets(tmp_path: Path) -> None:
    """rulediff diff THB IKO, and IKO_2 for the mid-cycle re-release (the companion change of 2020-06-01)."""
    archive = str(tmp_path / "a.sqlite")
    files = [str(cr_file(d)) for d in ("2020-01-24", "2020-04-17", "2020-06-01")]
    assert _run(archive, "archive", "add", *files)[0] == 0
    code, out, _ = _run(archive, "diff", "THB", "IKO", "--format", "json")
    assert code == 0 and [json.loads(out)[side]["label"] for side in ("old", "new")] == ["2020-01-24", "2020-04-17"]
    code, out, _ = _run(archive, "diff", "iko", "IKO_2", "--format", "json")
    assert code == 0 and json.loads(out)["new"]["label"] == "2020-06-01"
    lines = _run(archive, "archive", "list", "--json")[1].splitlines()
    listed = {json.loads(line)["label"]: json.loads(line) for line in lines}
    assert listed["2020-06-01"]["set_code"] == "IKO" and listed["2020-06-01"]["rerelease"]


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("The ability words are channel, chroma, and threshold.", ["channel", "chroma", "threshold"]),
        (
            "Ability words are similar to keywords. The ability words are adamant, council's dilemma, "
            "fateful hour, and will of the council.",
            ["adamant", "council's dilemma", "fateful hour", "will of the council"],
        ),
        (
            "The list of ability words, updated through the _Shards of Alara_(TM) set, is as follows: channel, "
            "grandeur, and sweep.",
            ["channel", "grandeur", "sweep"],
        ),
        ("Ability words are similar to keywords in that they tie together cards.", []),
        ("The ability words are radiance and sweep.", ["radiance", "sweep"]),
    ],
)
def test_ability_words_are_read_from_the_rule_that_lists_them(text: str, words: list[str]) -> None:
    assert ability_words_in(text) == words
