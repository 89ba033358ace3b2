"""The site's Atom feed: valid per RFC 4287's RELAX NG schema, byte-stable, the same built afresh or brought up to
date, its ids stable and its dates the releases'."""

from __future__ import annotations

from pathlib import Path

import pytest
from lxml import etree

from rulediff.archive import Archive
from rulediff.archive.manifest import entries
from rulediff.site.build import build_site

from .conftest import CORPUS, FIXTURES, cr_file, needs_cr_corpus

ATOM = "{http://www.w3.org/2005/Atom}"
# RFC 4287 Appendix B, in RELAX NG's XML syntax (see the file's first comment for how it was made from atom.rnc).
SCHEMA = etree.RelaxNG(etree.parse(str(FIXTURES / "feed" / "atom.rng")))
# Left out of the first build of the seed corpus, added before the second: a release in the middle of the timeline,
# so both its neighbours' entries change.
LATER = "2017-judge"


def _build(where: Path, skip: str | None = None) -> Path:
    where.mkdir(exist_ok=True)
    with Archive.open(where / "a.sqlite") as arc:
        arc.add_many([e for e in entries([str(CORPUS)]) if e.label != skip])
        build_site(arc, where / "site")
    return where / "site" / "feed.xml"


@pytest.fixture(scope="module")
def fresh(tmp_path_factory: pytest.TempPathFactory) -> bytes:
    return _build(tmp_path_factory.mktemp("fresh")).read_bytes()


def _entries(feed: bytes) -> dict[str, dict[str, str]]:
    root = etree.fromstring(feed)
    return {
        e.findtext(f"{ATOM}title"): {
            "id": e.findtext(f"{ATOM}id"),
            "updated": e.findtext(f"{ATOM}updated"),
            "href": e.find(f"{ATOM}link").get("href"),
            "summary": e.findtext(f"{ATOM}summary"),
        }
        for e in root.iter(f"{ATOM}entry")
    }


def test_the_feed_is_valid_atom_per_the_rfc_schema_which_rejects_a_broken_one(fresh: bytes) -> None:
    doc = etree.fromstring(fresh)
    assert SCHEMA.validate(doc), SCHEMA.error_log
    broken = etree.fromstring(fresh)
    broken.find(f"{ATOM}entry").remove(broken.find(f"{ATOM}entry/{ATOM}id"))  # an entry's id is required
    assert not SCHEMA.validate(broken)


def test_one_entry_per_release_newest_first_with_its_counts_and_diff_page(fresh: bytes, tmp_path: Path) -> None:
    got = _entries(fresh)
    with Archive.open(tmp_path / "a.sqlite") as arc:
        arc.add_many(entries([str(CORPUS)]))
        timeline = [v for v in arc.versions.all() if v.id not in arc.versions.beside(arc.versions.all())]
    assert list(got) == [f"Comprehensive Rules {v.label}" for v in reversed(timeline)]
    md = got["Comprehensive Rules 2022-markdown"]
    assert md["href"] == "diff/2017-judge--2022-markdown.html"
    assert md["summary"].startswith("Since 2017-judge: 48 changes to read (48 edited); 604 rules.")
    assert got["Comprehensive Rules 2011-2014-rst"]["summary"].startswith("The first release in the archive")


def test_the_feed_is_byte_stable_and_an_update_builds_the_feed_a_fresh_build_does(fresh: bytes, tmp_path: Path) -> None:
    assert _build(tmp_path / "again").read_bytes() == fresh  # a second archive and site from the same files
    feed = _build(tmp_path / "grown", skip=LATER)
    before = feed.read_bytes()
    assert before != fresh and LATER not in before.decode()
    with Archive.open(tmp_path / "grown" / "a.sqlite") as arc:
        arc.add_many([e for e in entries([str(CORPUS)]) if e.label == LATER])
        build_site(arc, tmp_path / "grown" / "site")  # brought up to date: only what the release touches
    assert feed.read_bytes() == fresh
    with Archive.open(tmp_path / "grown" / "a.sqlite") as arc:
        build_site(arc, tmp_path / "grown" / "site")  # nothing new: the same bytes again
    assert feed.read_bytes() == fresh


def test_ids_are_stable_urns_and_updated_is_the_release_date_never_the_build_day(fresh: bytes, tmp_path: Path) -> None:
    got = _entries(fresh)
    fewer = _entries(_build(tmp_path, skip=LATER).read_bytes())
    assert {t: e["id"] for t, e in fewer.items()} == {t: got[t]["id"] for t in fewer}
    ids = [e["id"] for e in got.values()] + [etree.fromstring(fresh).findtext(f"{ATOM}id")]
    assert len(set(ids)) == len(ids) and all(i.startswith("urn:uuid:") for i in ids)
    assert got["Comprehensive Rules 2017-judge"]["updated"] == "2017-08-02T00:00:00Z"
    assert got["Comprehensive Rules 2011-blog"]["updated"] == "2011-03-30T00:00:00Z"
    assert etree.fromstring(fresh).findtext(f"{ATOM}updated") == max(e["updated"] for e in got.values())


def test_an_entry_id_is_the_releases_not_its_labels(tmp_path: Path) -> None:
    data = (CORPUS / "003_8b50984e948ebee1.txt").read_bytes()  # 2011-blog
    ids = []
    for label in ("2011-blog", "early 2011"):
        with Archive.open(tmp_path / f"{label}.sqlite") as arc:
            arc.add(data, "blog.txt", label=label, era="2011-03-30", fmt="pdf-paste")
            build_site(arc, tmp_path / label)
        (entry,) = _entries((tmp_path / label / "feed.xml").read_bytes()).values()
        ids.append(entry["id"])
    assert ids[0] == ids[1]


@needs_cr_corpus
def test_a_release_entry_names_its_new_keywords(tmp_path: Path) -> None:
    with Archive.open(tmp_path / "a.sqlite") as arc:
        for day in ("2024-06-07", "2024-07-30"):  # Bloomburrow's release
            arc.add(cr_file(day).read_bytes(), cr_file(day).name)
        build_site(arc, tmp_path / "site")
    feed = (tmp_path / "site" / "feed.xml").read_bytes()
    assert SCHEMA.validate(etree.fromstring(feed)), SCHEMA.error_log
    entry = etree.fromstring(feed).find(f"{ATOM}entry")
    assert entry.findtext(f"{ATOM}title") == "Comprehensive Rules 2024-07-30"
    assert entry.findtext(f"{ATOM}updated") == "2024-07-30T00:00:00Z"
    assert entry.find(f"{ATOM}link").get("href") == "diff/2024-06-07--2024-07-30.html"
    new = [c.get("term") for c in entry.iter(f"{ATOM}category")]
    assert {"Offspring", "Gift", "Forage"} <= set(new)
    assert f"New keywords: {', '.join(new)}." in entry.findtext(f"{ATOM}summary")


def test_an_entry_says_the_set_and_links_the_bulletin_where_they_are_known(tmp_path: Path) -> None:
    with Archive.open(tmp_path / "a.sqlite") as arc:
        arc.add_many([e for e in entries([str(CORPUS)]) if e.label in ("2011-blog", "2017-judge")])
        arc.names.describe("2017-judge", code="AKH", set_name="Amonkhet", bulletin="https://example.org/akh-bulletin")
        build_site(arc, tmp_path / "site")
    feed = (tmp_path / "site" / "feed.xml").read_bytes()
    assert SCHEMA.validate(etree.fromstring(feed)), SCHEMA.error_log
    titles = [e.findtext(f"{ATOM}title") for e in etree.fromstring(feed).iter(f"{ATOM}entry")]
    assert "Comprehensive Rules 2017-judge (AKH: Amonkhet)" in titles
    assert "Comprehensive Rules 2011-blog" in titles  # no name known: the label alone, never a guess
    (named,) = [e for e in etree.fromstring(feed).iter(f"{ATOM}entry") if "AKH" in e.findtext(f"{ATOM}title")]
    related = [a.get("href") for a in named.iter(f"{ATOM}link") if a.get("rel") == "related"]
    assert related == ["https://example.org/akh-bulletin"]
    assert "Update bulletin: https://example.org/akh-bulletin" in named.findtext(f"{ATOM}summary")
