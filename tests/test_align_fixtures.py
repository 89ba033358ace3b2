"""Golden alignment cases cut from real releases (tests/fixtures/align/<quirk>/, PROVENANCE in each), the
shipped seed keyword page, and the corpus-wide title-to-title check."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from rulediff import parse
from rulediff.matcher.classify import align
from rulediff.matcher.records import Kind
from rulediff.matcher.sides import title_key as _title_key
from rulediff.model import Document
from rulediff.render.diff_json import to_dict
from rulediff.words.records import Nature

from .conftest import CORPUS, FIXTURES, cr_txt_files, needs_cr_corpus

ALIGN = FIXTURES / "align"


def _case(name: str) -> tuple[Document, Document]:
    return parse(str(ALIGN / name / "old.txt")), parse(str(ALIGN / name / "new.txt"))


def _links(old: Document, new: Document) -> dict[str, tuple[str, Kind]]:
    out: dict[str, tuple[str, Kind]] = {}
    for ch in align(old, new).changes:
        for i in ch.old:
            for j in ch.new:
                out[str(old.rules[i].number)] = (str(new.rules[j].number), ch.kind)
    return out


def test_card_parts_2007_10_loyalty_is_new_not_legal_text() -> None:
    old, new = _case("card-parts-merge-2007-10")
    al = align(old, new)
    by_new = {str(new.rules[j].number): ch.kind for ch in al.changes for j in ch.new}
    assert by_new["209"] == Kind.ADDED  # 209 Loyalty (planeswalkers) did not exist before
    assert by_new["209.1"] == Kind.ADDED
    links = _links(old, new)
    # None of the old card parts is claimed to have become Loyalty.
    assert all(target not in ("209", "209.1") for target, _ in links.values())
    assert links["208"] == ("208", Kind.UNCHANGED)
    # The three card parts were merged into 210 Information Below the Text Box, and their rules
    # became its subrules (each one is told by the heading it names).
    merged = next(ch for ch in al.changes if ch.kind == Kind.MERGED)
    assert [str(old.rules[i].number) for i in merged.old] == ["209", "210", "211"]
    assert [str(new.rules[j].number) for j in merged.new] == ["210"]
    assert links["209.1"][0] == "210.1a" and links["210.1"][0] == "210.1b" and links["211.1"][0] == "210.1c"
    assert by_new["210.1"] == Kind.ADDED  # the new general rule
    # Read backwards, the same change is a split.
    back = align(new, old)
    split = next(ch for ch in back.changes if ch.kind == Kind.SPLIT)
    assert (split.old, split.new) == (merged.new, merged.old)


def test_level_changes_2009_titled_rule_becomes_heading_and_children_follow() -> None:
    old, new = _case("level-changes-2009")
    links = _links(old, new)
    assert links["212.2"][0] == "301"  # 212.2 Artifacts became 301 Artifacts
    assert links["212.2a"][0] == "301.1"
    assert links["212.2g"][0] == "301.7"
    assert links["212.2m"][0] == "301.8"


def test_layer_fold_2020_04_sublayer_7d_folded_into_7c() -> None:
    # 2020-04-17 added layer 1's sublayers (613.2a-c), so 613.2-613.10 moved up by one, and folded
    # sublayer 7d (counters) into 7c: 613.3c + 613.3d -> 613.4c, 613.3e -> 613.4d.
    old, new = _case("layer-fold-2020-04")
    al = align(old, new)
    merged = next(ch for ch in al.changes if ch.kind == Kind.MERGED)
    assert [str(old.rules[i].number) for i in merged.old] == ["613.3c", "613.3d"]
    assert [str(new.rules[j].number) for j in merged.new] == ["613.4c"]
    links = _links(old, new)
    assert links["613.3e"][0] == "613.4d"
    assert {links[f"613.{k}"][0] for k in range(2, 11)} == {f"613.{k + 1}" for k in range(2, 11)}
    assert links["613.6j"][0] == "613.7k"  # 613.7c was inserted among the timestamp rules
    added = sorted(str(new.rules[j].number) for ch in al.changes if ch.kind == Kind.ADDED for j in ch.new)
    assert added == ["613.2", "613.2a", "613.2b", "613.2c", "613.7c"]
    assert not [ch for ch in al.changes if ch.kind == Kind.REMOVED]
    # Renumbered rules whose only edit is a followed cross-reference are not substantive.
    nature = {str(old.rules[ch.old[0]].number): ch.nature for ch in al.changes if ch.old}
    assert nature["613.9"] == nature["613.10"] == Nature.REFERENCES_ONLY


def test_duplicate_702_175_2024_09_both_rules_mapped() -> None:
    # 2024-09-20 printed 702.175 twice (Offspring, then Impending); 2024-11-08 made Impending 702.176.
    old, new = _case("duplicate-number-702.175-2024-09")
    al = align(old, new)
    assert [r.title for r in old.rules if str(r.number) == "702.175"] == ["Offspring", "Impending"]
    nmap = al.number_map
    assert nmap["702.175"] == "702.175" and nmap["702.175a"] == "702.175a"
    assert nmap["702.175#2"] == "702.176" and nmap["702.175a#2"] == "702.176a"
    changes = {(tuple(c["old"]), tuple(c["new"])): c["kind"] for c in to_dict(al)["changes"]}
    # The JSON names the second printing as the map does, never a bare "702.175" -> "702.176".
    assert changes == {(("702.175#2",), ("702.176",)): "renumbered", (("702.175a#2",), ("702.176a",)): "renumbered"}


def test_seed_keyword_page_has_no_false_keyword_links() -> None:
    # The 2011 blog paste of section 7 against the 2017 keyword page: keywords born after 2011
    # (Afflict, Ingest, Menace, Prowess, Skulk, ...) are new, never an unrelated 2011 keyword.
    a = parse(str(next(CORPUS.glob("003_*.txt"))))
    b = parse(str(next(CORPUS.glob("004_*.txt"))))
    al = align(a, b)
    wrong = [
        (a.rules[i].title, b.rules[j].title)
        for ch in al.changes
        for i in ch.old
        for j in ch.new
        if b.rules[j].number is None and _title_key(a.rules[i].title) != _title_key(b.rules[j].title)
    ]
    assert wrong == []
    linked = {b.rules[j].title for ch in al.changes if ch.old for j in ch.new}
    assert {"Afflict", "Awaken", "Escalate", "Ingest", "Menace", "Prowess", "Skulk"}.isdisjoint(linked)
    assert {"Afflict", "Awaken", "Escalate", "Ingest", "Menace", "Prowess", "Skulk"} <= {r.title for r in b.rules}
    assert "Flashback" in linked


@needs_cr_corpus
def test_unique_titles_map_title_to_title_across_every_consecutive_pair() -> None:
    docs = [parse(str(p)) for p in cr_txt_files()]
    misses = []
    for old, new in zip(docs, docs[1:], strict=False):
        ca = Counter(_title_key(r.title) for r in old.rules if r.title and r.number is not None)
        cb = Counter(_title_key(r.title) for r in new.rules if r.title and r.number is not None)
        where = {_title_key(r.title): j for j, r in enumerate(new.rules) if r.title and r.number is not None}
        a2b: dict[int, tuple[int, ...]] = {}
        for ch in align(old, new).changes:
            for i in ch.old:
                a2b[i] = ch.new
        for i, r in enumerate(old.rules):
            t = _title_key(r.title)
            if r.number is None or not t or ca[t] != 1 or cb[t] != 1:
                continue
            if where[t] not in a2b.get(i, ()):
                misses.append(f"{old.version.label} -> {new.version.label}: {r.number} {r.title}")
    assert misses == []


def test_fixtures_say_where_they_come_from() -> None:
    for folder in (p for p in ALIGN.iterdir() if p.is_dir()):
        assert "../shared/cr-corpus/txt/cr-" in (folder / "PROVENANCE").read_text(encoding="utf-8")


def test_every_json_change_says_whether_its_link_is_uncertain() -> None:
    from rulediff.render.diff_json import to_dict

    old, new = _case("level-changes-2009")
    changes = to_dict(align(old, new))["changes"]
    assert changes and all(isinstance(c["uncertain"], bool) for c in changes)


@needs_cr_corpus
def test_weak_link_is_kept_but_marked_uncertain_in_json_and_html() -> None:
    from rulediff.render.diff_json import to_dict
    from rulediff.render.html import to_html

    from .conftest import cr_file

    # 2013-07-13 made indestructible a keyword: 700.4 became 702.12 Indestructible and its 702.12b, reworded;
    # 700.4a ("being indestructible is neither an ability nor a characteristic") left.
    al = align(parse(str(cr_file("2013-05-01"))), parse(str(cr_file("2013-07-13"))))
    item = next(c for c in to_dict(al)["changes"] if c["old"] == ["700.4"])
    assert item["new"] == ["702.12", "702.12b"] and item["uncertain"] is True
    assert "uncertain match" in to_html(al)


@needs_cr_corpus
def test_a_number_printed_twice_keeps_both_rules_in_the_number_map() -> None:
    from .conftest import cr_file

    # 2024-09-20 prints 702.175 twice (Offspring, then Impending); 2024-11-08 renumbered Impending 702.176.
    old, new = parse(str(cr_file("2024-09-20"))), parse(str(cr_file("2024-11-08")))
    nmap = align(old, new).number_map
    assert nmap["702.175"] == "702.175"
    assert nmap["702.175#2"] == "702.176"


def test_history_tells_the_card_parts_merge_and_the_500_5_split(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from rulediff.cli import main

    def history(case: Path, *queries: str) -> list[str]:
        src = tmp_path / case.name
        src.mkdir()
        for side in ("old", "new"):
            (src / f"{side}.txt").write_bytes((case / f"{side}.txt").read_bytes())
        arc = str(tmp_path / f"{case.name}.sqlite")
        assert CliRunner().invoke(main, ["archive", "add", str(src), "--archive", arc]).exit_code == 0
        outs = []
        for q in queries:
            r = CliRunner().invoke(main, ["history", q, "--archive", arc])
            assert r.exit_code == 0, r.output
            outs.append(r.stdout)
        return outs

    loyalty, merged, legal = history(ALIGN / "card-parts-merge-2007-10", "209", "210", "Legal Text")
    assert loyalty.startswith("Loyalty\n") and "2007-10-01: 209 first seen" in loyalty  # never "from 1999"
    assert "[merged with 210 Legal Text, 211 Collector Number]" in merged
    assert "gone from 2007-10-01 [merged into 210 Information Below the Text Box]" in legal
    whole, part = history(FIXTURES / "notes" / "split-500.5-2025-11", "500.4", "500.5a")
    assert "renumbered and edited from 500.5 [split: also went to 500.5a, 500.5b]" in whole
    assert "500.5a first seen [split off from 500.5]" in part
