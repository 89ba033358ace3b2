"""The whole rules of every release on the site (cr/<slug>/): every rule exactly once with both anchors, references
and glossary terms linked within the release, each rule leading to its history, the data the scripts read, rule
text escaped, and a site that gains a release equal to one built at once."""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path

import lxml.html
import pytest

from rulediff.archive import Archive
from rulediff.archive.manifest import entries
from rulediff.site.build import build_site
from rulediff.site.reader_body import rule_ids, yawgatog_id

from .conftest import CORPUS, FIXTURES, OfficialSite

MANA_BURN = sorted((FIXTURES / "history" / "mana-burn-obsolete-2009").glob("cr-*.txt"))
BASE = FIXTURES / "parsers" / "official-text" / "lf-only" / "input.txt"
_ID = re.compile(r'\sid="([^"]+)"')


@pytest.fixture(scope="module")
def seeds(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """The site of the five shipped seed dumps (partial dumps, one with no numbers at all)."""
    root = tmp_path_factory.mktemp("seeds")
    with Archive.open(root / "a.sqlite") as arc:
        arc.add_many(entries([str(CORPUS)]))
        build_site(arc, root / "site")
    return root / "a.sqlite", root / "site"


@pytest.fixture(scope="module")
def linked(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """The site of five real releases cut small (2009-05 .. 2014-05): Lifelink is 502.68, 702.13, then 702.15."""
    root = tmp_path_factory.mktemp("linked")
    with Archive.open(root / "a.sqlite") as arc:
        for f in MANA_BURN:
            arc.add_file(f)
        build_site(arc, root / "site")
    return root / "a.sqlite", root / "site"


def release_ids(site: Path, slug: str) -> Counter[str]:
    """Every id the pages of one release carry, counted over its pages."""
    out: Counter[str] = Counter()
    for page in (site / "cr" / slug).glob("*.html"):
        if page.name != "history.html":
            out.update(_ID.findall(page.read_text("utf-8")))
    return out


def check_every_rule_once(archive: Path, site: Path) -> int:
    """Each release's pages hold each of its numbered rules once, under both anchors, with its text and
    examples, and each unnumbered rule once; returns how many rules were checked."""
    from rulediff.render.links import slug as slug_of

    checked = 0
    with Archive.open(archive) as arc:
        for v in arc.versions.all():
            doc = arc.versions.document(v.id)
            folder = site / "cr" / slug_of(v.label)
            ids = release_ids(site, slug_of(v.label))
            every = rule_ids([(str(r.number) if r.number else None, r.title) for r in doc.rules])
            assert all(ids[i] == 1 for i in every), (v.label, [i for i in every if ids[i] != 1][:5])
            numbered = [(str(r.number), i) for r, i in zip(doc.rules, every, strict=True) if r.number]
            ours = ["r" + n + i[len(yawgatog_id(n)) :] for n, i in numbered]
            assert all(ids[i] == 1 for i in ours), (v.label, [i for i in ours if ids[i] != 1][:5])
            assert sum(1 for i in ids if i[:1] == "R") == len(numbered), v.label  # and no rule it does not print
            pages = "".join(p.read_text("utf-8") for p in folder.glob("[0-9u]*.html"))
            assert pages.count('class="u"') == sum(1 for r in doc.rules if r.number is None), v.label
            checked += len(doc.rules)
    return checked


def test_every_rule_of_every_release_once_with_both_anchors(
    seeds: tuple[Path, Path], linked: tuple[Path, Path]
) -> None:
    assert check_every_rule_once(*seeds) > 300
    assert check_every_rule_once(*linked) > 100


def test_a_rule_reads_whole_with_its_text_examples_and_links(linked: tuple[Path, Path]) -> None:
    _, site = linked
    page = lxml.html.parse(str(site / "cr" / "2014-02-01" / "7.html")).getroot()
    rule = page.get_element_by_id("R70215b")
    assert " ".join(rule.text_content().split()).startswith("702.15b Damage dealt by a source with lifelink causes")
    number = rule.find("a")
    assert number.get("id") == "r702.15b" and number.get("href") == "history.html#R70215b"
    # a glossary term links to its entry on the release's glossary page once a rule: the first time it is named
    terms = [a for a in page.get_element_by_id("R70215c").iter("a") if a.get("class") == "g"]
    assert [a.get("href") for a in terms] == ["glossary.html#lifelink"]
    assert rule.text_content().count("lifelink") == 1
    glossary = lxml.html.parse(str(site / "cr" / "2014-02-01" / "glossary.html")).getroot()
    assert glossary.get_element_by_id("lifelink").text_content() == "Lifelink"
    entry = glossary.get_element_by_id("lifelink").getnext()
    assert [a.get("href") for a in entry.iter("a")] == ["7.html#R70215"]  # "See rule 702.15" in this release
    # a reference to a rule this cut release does not print stays text
    assert "See rule 119.3." in rule.text_content() and not [a for a in rule.iter("a") if "119" in a.text_content()]


def test_each_rule_leads_to_its_history_through_its_release(linked: tuple[Path, Path]) -> None:
    _, site = linked
    old = lxml.html.parse(str(site / "cr" / "2011-02-04" / "history.html")).getroot()
    assert old.get_element_by_id("R70213").find("a").get("href") == "../../rules/702.15.html"  # Lifelink now
    new = lxml.html.parse(str(site / "cr" / "2014-02-01" / "history.html")).getroot()
    assert new.get_element_by_id("R70215").find("a").get("href") == "../../rules/702.15.html"
    assert "location.replace" in (site / "cr" / "2011-02-04" / "history.html").read_text("utf-8")


def test_latest_the_release_list_and_the_history_date_index(linked: tuple[Path, Path]) -> None:
    _, site = linked
    latest = (site / "cr" / "latest" / "index.html").read_text("utf-8")
    assert '"../2014-05-01/"' in latest and "../2014-05-01/index.html" in latest
    listing = lxml.html.parse(str(site / "cr" / "index.html")).getroot()
    assert [a.get("href") for a in listing.xpath("//tbody//a")][:2] == [
        "2014-05-01/index.html",
        "2014-02-01/index.html",
    ]
    history = lxml.html.parse(str(site / "rules" / "702.15.html")).getroot()
    dates = history.xpath("//nav[@class='dates']/a")
    assert [(a.get("href"), a.text) for a in dates] == [
        ("#s1", "2009-05-01"),
        ("#s2", "2009-07-11"),
        ("#s3", "2011-02-04"),
        ("#s4", "2014-02-01"),
    ]


def _script_data(path: Path) -> list[object]:
    """The arguments a data script passes to the registry (it is one call of JSON arguments)."""
    text = path.read_text("utf-8")
    return list(json.loads("[" + text[text.index("(") + 1 : text.rindex(")")] + "]"))


def test_the_scripts_data_spell_every_release(linked: tuple[Path, Path]) -> None:
    """nodes.js and texts.js give back each release's rules: numbers in order, their texts and examples, and one
    lineage for Lifelink through its three numbers."""
    archive, site = linked
    releases, edges = _script_data(site / "cr" / "releases.js")
    assert isinstance(edges, list)
    assert isinstance(releases, list)
    files: dict[str, dict[int, str]] = {}
    for r in releases:
        ids, got = _script_data(site / "cr" / r["s"] / "texts.js")
        assert isinstance(ids, list) and isinstance(got, list) and len(ids) == len(got)
        files[r["s"]] = dict(zip(ids, got, strict=True))
    lifelink = set()
    with Archive.open(archive) as arc:
        for r in releases:
            slug, nodes = _script_data(site / "cr" / r["s"] / "nodes.js")
            assert slug == r["s"]
            doc = arc.versions.document(r["l"])
            assert nodes["n"] == [str(x.number) if x.number else "" for x in doc.rules]
            texts: dict[int, str] = {}  # what the release reads: its keyframe's file and those since
            for k in r["t"]:
                texts.update(files[releases[k]["s"]])
            assert [texts[t] for t in nodes["t"]] == [
                "\n".join([x.text, *(e.text for e in x.examples)]) for x in doc.rules
            ]
            where = {n: k for k, n in enumerate(nodes["n"])}
            for n in ("502.68", "702.13", "702.15"):
                if n in where and doc.get(n).text == "Lifelink":
                    lifelink.add(nodes["l"][where[n]])
    assert len(lifelink) == 1


def _release(folder: Path, date: tuple[str, str], edits: list[tuple[str, str]]) -> Path:
    text = BASE.read_text("utf-8").replace("July 18, 2014", date[0], 1)
    for old, new in edits:
        assert old in text
        text = text.replace(old, new, 1)
    path = folder / f"cr-{date[1]}.txt"
    path.write_text(text, "utf-8")
    return path


def test_rule_text_is_escaped_and_a_number_printed_twice_has_both_anchors(tmp_path: Path) -> None:
    hostile = '100.5. There is no <script>alert("x")</script> maximum & deck size.'
    twice = "100.6a Tournaments usually consist of a series of matches."
    f = _release(
        tmp_path,
        ("July 18, 2014", "20140718"),
        [("100.5. There is no maximum deck size.", hostile), ("100.6b Players", twice + "\n\n100.6a Players")],
    )
    with Archive.open(tmp_path / "a.sqlite") as arc:
        arc.add_file(f)
        build_site(arc, tmp_path / "site")
    page = (tmp_path / "site" / "cr" / "2014-07-18" / "1.html").read_text("utf-8")
    assert "<script>" not in page and "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; maximum &amp; deck" in page
    ids = release_ids(tmp_path / "site", "2014-07-18")
    assert ids["R1006a"] == ids["R1006a-2"] == ids["r100.6a"] == ids["r100.6a-2"] == 1
    links = (tmp_path / "site" / "cr" / "2014-07-18" / "history.html").read_text("utf-8")
    assert 'id="R1006a-2"' in links


def _tree(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def test_a_site_that_gains_a_release_equals_one_built_at_once(tmp_path: Path) -> None:
    """Adding the newest release, then one before it: the cr/ pages of the releases that did not change are not
    written again, and the site equals a fresh build each time, byte for byte."""
    with Archive.open(tmp_path / "a.sqlite") as arc:
        for f in (MANA_BURN[0], MANA_BURN[1], MANA_BURN[3]):
            arc.add_file(f)
        build_site(arc, tmp_path / "kept")
        page = tmp_path / "kept" / "cr" / "2009-05-01" / "5.html"
        before = page.stat().st_mtime_ns
        for f in (MANA_BURN[4], MANA_BURN[2]):
            arc.add_file(f)
            build_site(arc, tmp_path / "kept")
            assert page.stat().st_mtime_ns == before
            fresh = tmp_path / f"fresh-{f.stem}"
            arc.db.execute("DELETE FROM site_parts")
            build_site(arc, fresh)
            assert _tree(tmp_path / "kept") == _tree(fresh)


def test_every_release_of_the_official_corpus_prints_every_rule_once(official_site: OfficialSite) -> None:
    """All 136 official releases: each one's pages hold each of its rules once under both anchors; the whole-rules
    pages (sections, index, glossary: not the history lists or the scripts' data) stay within 250 MB."""
    assert check_every_rule_once(official_site.archive, official_site.site) > 280_000
    cr = official_site.site / "cr"
    pages = sum(p.stat().st_size for p in cr.glob("*/*.html") if p.name != "history.html")
    everything = sum(p.stat().st_size for p in cr.rglob("*") if p.is_file())
    print(f"whole-rules pages {pages / 1e6:.1f} MB; cr/ {everything / 1e6:.1f} MB")
    assert pages <= 250e6
