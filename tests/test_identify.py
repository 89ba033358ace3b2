"""`rulediff identify`: which archived release a dump's text is from, against an archive of real releases (the
seeds' twins and their neighbours only, built once per session), through the library and the CLI."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from rulediff.archive import Archive
from rulediff.archive.manifest import Entry
from rulediff.cli import main
from rulediff.coverage import Coverage
from rulediff.identify import Identification, identify, scope_ranges, summarize
from rulediff.model import Document, Rule, VersionInfo
from rulediff.numbering import RuleNumber
from rulediff.parsers import parse_file
from rulediff.site.build import build_site
from rulediff.words.diff import Op, Piece

from .conftest import CORPUS, cr_file, needs_cr_corpus

# The release each seed was taken from, the releases whose text is the same inside its coverage, and
# the neighbours that must lose to them. The 2011 blog is dated 2011-03-30 but reads "EDH" and "general"
# where 2011-02-04 says "Commander": its text is 2010-10-01's.
SEEDS = {
    "000_67b17b6c7d536d12.txt": ("2022-06-10", ["2022-06-10"]),
    "001_6371d5d2d2027b19.txt": ("2011-06-17", ["2011-06-17", "2011-07-15"]),
    "002_a6604bb320e98856.txt": ("2024-03-08", ["2024-03-08", "2024-04-12", "2024-06-07"]),
    "003_8b50984e948ebee1.txt": ("2010-10-01", ["2010-10-01"]),
    "004_009a5df1986052e3.txt": ("2017-07-08", ["2017-07-08", "2017-08-25"]),
}
NEIGHBOURS = ["2022-07-08", "2011-09-30", "2024-07-30", "2011-02-04", "2017-06-05"]
RELEASES = sorted({d for _, same in SEEDS.values() for d in same} | set(NEIGHBOURS))


@pytest.fixture(scope="session")
def official(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """An archive of the official releases these tests need (not all 136: the suite stays fast)."""
    if not cr_file(RELEASES[0]).is_file():
        pytest.skip("official release corpus not found (../shared/cr-corpus)")
    path = tmp_path_factory.mktemp("identify") / "official.sqlite"
    with Archive.open(path) as arc:
        arc.add_many([Entry(cr_file(d)) for d in RELEASES])
    return path


def _identify(archive: Path, file: Path) -> Identification:
    with Archive.open(archive, create=False) as arc:
        return identify(arc, parse_file(str(file)), str(file))


@needs_cr_corpus
@pytest.mark.parametrize("seed", sorted(SEEDS))
def test_each_seed_identifies_as_the_release_it_was_taken_from(official: Path, seed: str) -> None:
    source, same = SEEDS[seed]
    ident = _identify(official, CORPUS / seed)
    assert ident.best.version.label == source, ident.verdict
    assert sorted(c.version.label for c in ident.tied) == same, ident.verdict
    for loser in ident.candidates[len(ident.tied) :]:
        assert loser.key() > ident.best.key()
    head = ident.verdict.split(";")[0]
    assert head.startswith("tie:" if len(same) > 1 else "text of "), ident.verdict
    assert source in head
    assert ident.next_release is not None


@needs_cr_corpus
@pytest.mark.parametrize("seed", [s for s in sorted(SEEDS) if not s.startswith("004")])
def test_the_official_twin_of_a_seed_has_no_substantive_difference_inside_its_coverage(
    official: Path, seed: str
) -> None:
    # Curly quotes, lost line-end hyphens ("turnbased") and *emphasis* are typography, not differences.
    best = _identify(official, CORPUS / seed).best
    assert best.substantive == best.missing == best.extra == 0
    assert best.score == 1.0


@needs_cr_corpus
def test_the_blog_verdict_names_what_the_next_release_changed(official: Path) -> None:
    ident = _identify(official, CORPUS / "003_8b50984e948ebee1.txt")
    assert ident.next_release is not None and ident.next_release.version.label == "2011-02-04"
    assert any("EDH" in c and "Commander" in c for c in ident.next_changes), ident.next_changes
    assert "the next release, 2011-02-04, differs in" in ident.verdict


@needs_cr_corpus
def test_the_keyword_page_is_judged_by_its_keywords_and_how_they_read(official: Path) -> None:
    ident = _identify(official, CORPUS / "004_009a5df1986052e3.txt")
    # 2017-06-05 lacks Afflict (Hour of Devastation, 2017-07-08): the page names a keyword it does not have.
    older = next(c for c in ident.candidates if c.version.label == "2017-06-05")
    assert older.extra >= 1 and older.key() > ident.best.key()
    # The page says "last updated 2017-08-02": of the tied releases, 2017-07-08 was in force then.
    assert "in force on the dump's date 2017-08-02: 2017-07-08" in ident.verdict
    assert {d.release_number for d in ident.differences} <= {
        str(r.number) for r in Archive.open(official, create=False).versions.document("2017-07-08").rules
    }


@needs_cr_corpus
def test_an_official_release_identifies_itself_with_a_perfect_score(official: Path) -> None:
    ident = _identify(official, cr_file("2022-06-10"))
    best = ident.best
    assert best.version.label == "2022-06-10" and best.score == 1.0
    assert best.identical == best.compared and best.compared > 2500
    assert ident.differences == [] and ident.tied == [best]


@needs_cr_corpus
def test_a_mutated_copy_identifies_its_source_with_the_mutations_listed(official: Path, tmp_path: Path) -> None:
    out = []
    for line in cr_file("2022-06-10").read_bytes().decode("utf-8-sig").splitlines(keepends=True):
        if line.startswith("702.15b "):
            line = line.replace("controller", "controller twice", 1)  # an edit
        elif line.startswith("702.15d "):
            continue  # a deletion
        elif line.startswith("702.15f "):
            out.append("702.15g This rule was never published.\r")  # an insertion
        out.append(line)
    text = "".join(out)
    mutant = tmp_path / "mutant.txt"
    mutant.write_text(text, encoding="utf-8")
    ident = _identify(official, mutant)
    best = ident.best
    assert best.version.label == "2022-06-10", ident.verdict
    assert (best.substantive, best.missing, best.extra) == (1, 1, 1), ident.verdict
    got = {(d.kind, d.release_number, d.dump_number) for d in ident.differences}
    assert got == {("substantive", "702.15b", "702.15b"), ("missing", "702.15d", None), ("extra", None, "702.15g")}
    diff = next(d for d in ident.differences if d.release_number == "702.15b").diff
    assert [p.text.strip() for p in diff if p.op == Op.INSERT] == ["twice"]
    assert ident.verdict.startswith("closest to 2022-06-10"), ident.verdict


def test_without_official_releases_identify_says_what_it_needs(tmp_path: Path) -> None:
    missing = tmp_path / "none.sqlite"
    r = CliRunner().invoke(main, ["identify", str(CORPUS / "000_67b17b6c7d536d12.txt"), "--archive", str(missing)])
    assert r.exit_code == 2
    lines = r.output.strip().splitlines()
    assert len(lines) == 1 and "needs an archive of official releases" in lines[0], r.output
    assert lines[0].startswith("rulediff: error: ") and not missing.exists()
    # An archive of partial dumps only cannot explain a dump either.
    seeds = tmp_path / "seeds.sqlite"
    with Archive.open(seeds) as arc:
        arc.add_file(CORPUS / "003_8b50984e948ebee1.txt")
    r = CliRunner().invoke(main, ["identify", str(CORPUS / "000_67b17b6c7d536d12.txt"), "--archive", str(seeds)])
    assert r.exit_code == 2 and len(r.output.strip().splitlines()) == 1
    assert "official releases" in r.output


@needs_cr_corpus
def test_cli_text_and_json(official: Path) -> None:
    seed = str(CORPUS / "003_8b50984e948ebee1.txt")
    r = CliRunner().invoke(main, ["identify", seed, "--archive", str(official), "--top", "2"])
    assert r.exit_code == 0, r.output
    assert r.output.startswith("verdict:  text of 2010-10-01 (")
    ranks = [ln for ln in r.output.splitlines() if ln[:1].isdigit()]
    assert len(ranks) == 2 and "2010-10-01" in ranks[0]
    r = CliRunner().invoke(main, ["identify", seed, "--archive", str(official), "--format", "json", "--top", "3"])
    assert r.exit_code == 0, r.output
    out = json.loads(r.output)
    assert {"file", "coverage", "candidates", "verdict"} <= set(out) and out["schema"] == "rulediff.identify/1"
    assert len(out["candidates"]) == 3 and out["candidates"][0]["label"] == "2010-10-01"
    assert set(out["candidates"][0]) == {
        "label",
        "effective_date",
        "score",
        "compared",
        "identical",
        "typography_only",
        "substantive",
        "missing",
        "extra",
    }
    scores = [c["score"] for c in out["candidates"]]
    assert scores == sorted(scores, reverse=True)
    again = CliRunner().invoke(main, ["identify", seed, "--archive", str(official), "--format", "json", "--top", "3"])
    assert again.output == r.output  # deterministic


def test_bad_input_is_one_line(tmp_path: Path) -> None:
    junk = tmp_path / "junk.txt"
    junk.write_text("nothing like rules here\n", encoding="utf-8")
    arc = tmp_path / "a.sqlite"
    with Archive.open(arc) as a:
        a.add_file(CORPUS / "000_67b17b6c7d536d12.txt")
    r = CliRunner().invoke(main, ["identify", str(junk), "--archive", str(arc)])
    assert r.exit_code == 2 and len(r.output.strip().splitlines()) == 1 and "junk.txt" in r.output


def _doc(rules: list[Rule], coverage: Coverage) -> Document:
    return Document(VersionInfo("t", None, "t", "markdown", "0"), tuple(rules), coverage=coverage)


@pytest.mark.parametrize(
    ("coverage", "want"),
    [
        (Coverage(complete=True), None),
        (Coverage(sections=(7,)), [("7", "7~")]),
        (Coverage(headings=(702,)), [("702", "702.~")]),
        (Coverage(interval=("701.42b", "702.10")), [("701.42b", "702.10")]),
        (Coverage(sections=(6,), headings=(702,)), [("6", "6~"), ("702", "702.~")]),
    ],
)
def test_scope_ranges(coverage: Coverage, want: list[tuple[str, str]] | None) -> None:
    doc = _doc([Rule.make(RuleNumber.parse("702.1"), "x", 1)], coverage)
    assert scope_ranges(doc) == want
    if want:
        lo, hi = want[-1]
        assert lo <= "702.15b" <= hi or lo <= "701.5" <= hi


def test_keyword_summaries_are_looked_for_where_their_kind_lives() -> None:
    rules = [
        Rule.make(None, "Flying is an evasion ability.", 1, title="Flying", category="keyword ability"),
        Rule.make(None, "To scry N, look at ...", 2, title="Scry", category="keyword action"),
    ]
    assert scope_ranges(_doc(rules, Coverage(titles=("Flying", "Scry")))) == [("701", "701.~"), ("702", "702.~")]


def test_summarize_reads_from_the_dump_to_the_release() -> None:
    from rulediff.identify import Difference

    d = Difference(
        "substantive",
        "903.3",
        "903.3",
        None,
        1,
        (Piece(Op.EQUAL, "an "), Piece(Op.DELETE, "Commander"), Piece(Op.INSERT, "EDH"), Piece(Op.EQUAL, " game")),
    )
    m = Difference("missing", "702.150", None, "Compleated", None, (Piece(Op.DELETE, "Compleated"),))
    assert summarize([d, d, m]) == ["EDH \u2192 Commander", "+702.150 Compleated"]


@needs_cr_corpus
def test_archive_add_records_the_identification_and_places_the_dump_by_it(tmp_path: Path) -> None:
    db = tmp_path / "with-blog.sqlite"
    with Archive.open(db) as arc:
        arc.add_many([Entry(cr_file(d)) for d in ("2010-07-16", "2010-10-01", "2011-02-04")])
    blog = str(CORPUS / "003_8b50984e948ebee1.txt")
    r = CliRunner().invoke(main, ["archive", "add", blog, "--archive", str(db)])
    assert r.exit_code == 0, r.output
    assert "identified        2011-03-30 paste  (text matches 2010-10-01)" in r.output
    with Archive.open(db, create=False) as arc:
        order = [v.label for v in arc.versions.all()]
        # Dated 2011-03-30 by its blog, it now sits right after the release its text is from.
        assert order[order.index("2010-10-01") + 1] == "2011-03-30 paste"
        blog_row = next(v for v in arc.versions.all() if v.label == "2011-03-30 paste")
        assert blog_row.era == "2011" and blog_row.date == "2011"
        ident = arc.identifications.all()[blog_row.id]
        assert ident.matched and ident.release_label == "2010-10-01" and ident.verdict.startswith("text of 2010-10-01")
    r = CliRunner().invoke(main, ["archive", "list", "--archive", str(db)])
    line = next(ln for ln in r.output.splitlines() if "2011-03-30 paste" in ln)
    assert line.endswith("text matches 2010-10-01")
    r = CliRunner().invoke(main, ["archive", "list", "--json", "--archive", str(db)])
    rows = [json.loads(ln) for ln in r.output.splitlines()]
    assert {row["label"]: row["text_matches"] for row in rows}["2011-03-30 paste"] == "2010-10-01"
    assert {row["label"]: row["text_matches"] for row in rows}["2010-10-01"] is None
    # Adding it again is a no-op and does not identify it again.
    r = CliRunner().invoke(main, ["archive", "add", blog, "--archive", str(db)])
    assert r.exit_code == 0 and "identified" not in r.output
    # The site's timeline says so too.
    with Archive.open(db, create=False) as arc:
        build_site(arc, tmp_path / "site")
    index = (tmp_path / "site" / "index.html").read_text(encoding="utf-8")
    assert re.search(r"2011-03-30 paste <small class=\"matches\">text matches 2010-10-01</small>", index)
    assert index.count("text matches") == 1
    # Without the release it matched, the dump is identified again against what is left.
    r = CliRunner().invoke(main, ["archive", "remove", "2010-10-01", "--archive", str(db)])
    assert r.exit_code == 0, r.output
    assert "identified        2011-03-30 paste  (text matches 2011-02-04)" in r.output


@needs_cr_corpus
def test_a_text_no_release_explains_says_so(official: Path, tmp_path: Path) -> None:
    fake = tmp_path / "fake.md"
    fake.write_text(
        "# **702.** Keyword Abilities\n\n**702.15.** Moonwalk\n\n"
        "+ **702.15a** Moonwalk is a dance performed only under a full moon by kobolds.\n"
        "+ **702.15b** A kobold with moonwalk sings twice during each of its owner's upkeeps.\n",
        encoding="utf-8",
    )
    ident = _identify(official, fake)
    assert not ident.confident
    assert ident.verdict.startswith("no archived release explains this text well; the closest is "), ident.verdict


@needs_cr_corpus
def test_the_release_names_a_rule_and_a_dump_heading_that_differs_is_said(official: Path, tmp_path: Path) -> None:
    """The 2017 keyword page heads Surge's summary "Impulse": the difference is listed under the release's
    heading (702.116 Surge) with the dump's beside it, never as "702.116 Impulse"."""
    seed = str(CORPUS / "004_009a5df1986052e3.txt")
    r = CliRunner().invoke(main, ["identify", seed, "--archive", str(official)])
    assert r.exit_code == 0, r.output
    assert "702.116 Impulse" not in r.output
    assert "702.116 Surge (dump's heading: Impulse)" in r.output
    r = CliRunner().invoke(main, ["identify", seed, "--archive", str(official), "--format", "json"])
    said = [(d["release_number"], d["title"], d["dump_title"]) for d in json.loads(r.output)["differences"]]
    assert [d for d in said if d[2] is not None] == [("702.116", "Surge", "Impulse")], said
    # A summary that reads as its rule under another keyword's heading is no identical summary.
    mutant = tmp_path / "judge-page.txt"
    text = (CORPUS / "004_009a5df1986052e3.txt").read_text(encoding="utf-8")
    mutant.write_text(text.replace("\nAfflict\n", "\nForesight\n", 1), encoding="utf-8")
    before, after = _identify(official, CORPUS / "004_009a5df1986052e3.txt"), _identify(official, mutant)
    assert after.best.substantive == before.best.substantive + 1
    heading = [d for d in after.differences if d.kind == "heading"]
    assert [(d.title, d.dump_title) for d in heading] == [("Afflict", "Foresight")]
