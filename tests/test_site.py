"""The site built from the shipped corpus: the 2011 -> 2022 page shows Lifelink renumbered 702.13 -> 702.15,
the 2017 page's keywords appear in history with inferred numbers, and every link in the site resolves."""

from __future__ import annotations

from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlparse

import lxml.html
import pytest

from rulediff.archive import Archive
from rulediff.archive.manifest import entries
from rulediff.render.links import slug
from rulediff.site.build import build_site

from .conftest import CORPUS


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("site")
    with Archive.open(root / "a.sqlite") as arc:
        arc.add_many(entries([str(CORPUS)]))
        build_site(arc, root / "out")
    return root / "out"


def test_2011_to_2022_page_shows_lifelink_renumbered(site: Path) -> None:
    page = site / "diff" / "2011-blog--2022-markdown.html"
    tree = lxml.html.parse(str(page)).getroot()
    item = tree.get_element_by_id("r702.15")
    assert "702.13 \u2192 702.15" in item.text_content()
    shift = item.xpath("ancestor::details/summary")[0].text_content()
    assert "702.13" in shift and "shifted by +2" in shift


def test_2017_keywords_appear_in_history_with_inferred_numbers(site: Path) -> None:
    index = lxml.html.parse(str(site / "rules" / "index.html")).getroot()
    flashback = [
        a
        for a in index.iter("a")
        if "Flashback 2011-blog \u2013 2022-markdown; was 702.31" in a.getparent().text_content()
    ]
    assert flashback, "Flashback's lineage spans 2011 to 2022"
    page = lxml.html.parse(str(site / "rules" / flashback[0].get("href"))).getroot().text_content()
    assert flashback[0].get("href") == "../rules/702.34.html", "the page is at the rule's number now"
    assert "2017-judge" in page and "(unnumbered)" in page and "702.31" in page and "702.34" in page
    judge = lxml.html.parse(str(site / "diff" / "2011-blog--2017-judge.html")).getroot()
    assert "Impulse" in judge.text_content()
    md = lxml.html.parse(str(site / "diff" / "2017-judge--2022-markdown.html")).getroot()
    inferred = md.get_element_by_id("inferred").text_content()
    assert "Impulse" in inferred and "702.117" in inferred  # its text defines Surge


def test_every_link_in_the_site_resolves(site: Path) -> None:
    pages = sorted(site.rglob("*.html"))
    assert len(pages) > 100
    ids: dict[Path, set[str]] = {}
    for p in pages:
        tree = lxml.html.parse(str(p)).getroot()
        ids[p.resolve()] = {e.get("id") for e in tree.iter() if e.get("id")}
    for p in pages:
        tree = lxml.html.parse(str(p)).getroot()
        for el in tree.iter("a", "script", "link"):
            ref = el.get("href") or el.get("src")
            if not ref:
                continue
            u = urlparse(ref)
            assert not u.scheme and not u.netloc, f"{p.name}: no network ({ref})"
            target = (p.parent / unquote(u.path)).resolve() if u.path else p.resolve()
            if u.path.endswith("/"):
                target = target / "index.html"
            assert target.exists(), f"{p.relative_to(site)} links to missing {ref}"
            if u.fragment and target.suffix == ".html":
                assert u.fragment in ids[target], f"{p.relative_to(site)} links to missing #{u.fragment}"


@pytest.mark.parametrize("label", ["../../etc/passwd", "a/b\\c", ".hidden", "", "2026-08-07 (re-release 2)"])
def test_labels_never_escape_the_site_folder(label: str) -> None:
    s = slug(label)
    assert "/" not in s and "\\" not in s and not s.startswith(".") and s


def test_history_addresses_survive_rebuilding_the_archive(site: Path, tmp_path: Path) -> None:
    """Another archive of the same releases, added one by one newest first (other lineage ids): the same
    page addresses, at the rules' current numbers."""
    with Archive.open(tmp_path / "b.sqlite") as arc:
        for item in reversed(entries([str(CORPUS)])):
            arc.add_many([item])
        build_site(arc, tmp_path / "out")
    names = sorted(p.name for p in (site / "rules").glob("*.html"))
    assert names == sorted(p.name for p in (tmp_path / "out" / "rules").glob("*.html"))
    assert {"702.15.html", "702.34.html", "601.2.html"} <= set(names)
    assert "lineage" not in (site / "rules" / "702.15.html").read_text("utf-8").split('<details class="why">')[0]


def test_index_is_newest_first_with_one_date_column(site: Path) -> None:
    index = lxml.html.parse(str(site / "index.html")).getroot()
    head = [th.text_content() for th in index.xpath("//table[@class='versions-table']//th")]
    assert head[0] == "Release" and "Date" not in head and "Version" not in head
    first = [tr.xpath("td")[0].text_content() for tr in index.xpath("//table[@class='versions-table']/tbody/tr")]
    assert first[0].startswith("2024-dataset") and first[-1].startswith("2011-2014-rst")


def test_diff_pages_link_previous_next_and_histories(site: Path) -> None:
    page = lxml.html.parse(str(site / "diff" / "2017-judge--2022-markdown.html")).getroot()
    assert page.xpath("//a[@rel='prev']/@href") == ["../diff/2011-blog--2017-judge.html"]
    assert page.xpath("//a[@rel='next']/@href") == ["../diff/2022-markdown--2024-dataset.html"]
    histories = page.xpath("//article//a[@class='history']/@href")
    assert "../rules/702.15.html" in histories or any(h.startswith("../rules/702.") for h in histories)


def test_adding_a_release_rebuilds_what_it_touches(tmp_path: Path) -> None:
    """The newest diff page gains a 'next' link; an older diff page whose releases and links did not move
    is not rendered again."""
    from .conftest import FIXTURES

    releases = sorted((FIXTURES / "history" / "mana-burn-obsolete-2009").glob("cr-*.txt"))
    out = tmp_path / "out"
    with Archive.open(tmp_path / "a.sqlite") as arc:
        for f in releases[:4]:
            arc.add_file(f)
        build_site(arc, out)
        newest = out / "diff" / "2011-02-04--2014-02-01.html"
        oldest = out / "diff" / "2009-05-01--2009-07-11.html"
        assert 'rel="next"' not in newest.read_text("utf-8")
        before = oldest.stat().st_mtime_ns
        arc.add_file(releases[4])
        stats = build_site(arc, out)
    assert 'rel="next" class="next" href="../diff/2014-02-01--2014-05-01.html"' in newest.read_text("utf-8")
    assert oldest.stat().st_mtime_ns == before
    assert stats["written"] < 40


def _search_index_as_worked_out(out: Path, archive: Path) -> None:
    """Every distinct searchable text of every lineage is one entry, with the first and last release it is in
    and the number it has in that last one, as a plain pass over the archived rules works it out."""
    import json

    from rulediff.site.rule_index import RuleIndex

    script = (out / "search-index.js").read_text("utf-8")
    data = json.loads(script[script.index("=") + 1 :].rstrip().rstrip(";"))
    got = sorted((e[0], e[1], e[2], e[3], e[4]) for e in data["entries"] if e[5] == "r")
    with Archive.open(archive, create=False) as arc:
        versions = arc.versions.all()
        assert data["versions"] == [v.label for v in versions]
        paths = RuleIndex.build(arc, versions).paths
        order = {v.id: k for k, v in enumerate(versions)}
        rows = arc.db.execute(
            "SELECT r.version_id, r.lineage, r.number, b.search, b.text, b.examples, b.notes FROM rules r"
            " JOIN bodies b ON b.id = r.body_id ORDER BY r.rowid"
        ).fetchall()
    seen: dict[tuple[str, int], list[Any]] = {}
    for vid, lineage, number, search, text, examples, notes in rows:
        k = order[vid]
        # the searchable text collapses typography; the latest printing is shown, examples and notes a line each
        lines = [text, *(x[0] for x in json.loads(examples or "[]")), *json.loads(notes or "[]")]
        printed = "\n".join(lines)
        e = seen.setdefault((search, lineage), [k, k, number, printed])
        if k < e[0]:
            e[0] = k
        if k > e[1]:
            e[1], e[2], e[3] = k, number, printed
    want = sorted((shown, number, paths[lin], first, last) for (_, lin), (first, last, number, shown) in seen.items())
    assert got == want


def test_the_search_index_has_each_text_of_each_lineage_once(site: Path) -> None:
    _search_index_as_worked_out(site, site.parent / "a.sqlite")


def test_the_search_index_follows_a_rule_through_typography_and_a_new_number(tmp_path: Path) -> None:
    """100.4b loses its curly apostrophe (a new text, the same searchable one), then becomes 100.4e: one
    entry, from the first release to the last, under 100.4e."""
    from .test_site_history import _release

    curly = "100.4b In limited play involving individual players, all cards in a player\u2019s card pool"
    straight = curly.replace("\u2019", "'")
    releases = [
        _release(tmp_path, ("July 18, 2014", "20140718"), []),
        _release(tmp_path, ("September 26, 2014", "20140926"), [(curly, straight)]),
        _release(tmp_path, ("January 23, 2015", "20150123"), [(curly, straight.replace("100.4b", "100.4e"))]),
    ]
    with Archive.open(tmp_path / "a.sqlite") as arc:
        for f in releases:
            arc.add_file(f)
        build_site(arc, tmp_path / "out")
    _search_index_as_worked_out(tmp_path / "out", tmp_path / "a.sqlite")
    script = (tmp_path / "out" / "search-index.js").read_text("utf-8")
    assert script.count("in a player's card pool") == 1
    assert '"100.4e","rules/100.4e.html",0,2,"r"' in script
