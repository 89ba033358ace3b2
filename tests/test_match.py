"""The matcher on real releases and seeds: renumbering followed, moves, folds, typography and
reference noise kept apart from real edits, coverage, inferred numbers for the unnumbered page."""

from __future__ import annotations

from collections import Counter

import pytest

from rulediff import Kind, Nature, align, parse
from rulediff.matcher.records import is_substantive
from rulediff.numbering import Level

from .conftest import CORPUS, cr_file, cr_txt_files, needs_cr_corpus


def _num(doc, i):  # type: ignore[no-untyped-def]
    return str(doc.rules[i].number)


def _change_for(al, old_number):  # type: ignore[no-untyped-def]
    return next(ch for ch in al.changes if any(_num(al.old, i) == old_number for i in ch.old))


@needs_cr_corpus
def test_lifelink_followed_through_two_renumberings() -> None:
    a, b = parse(str(cr_file("2011-02-04"))), parse(str(cr_file("2026-01-16")))
    al = align(a, b)
    assert al.number_map["702.13"] == "702.15"  # Lifelink
    assert al.number_map["702.15"] == "702.17"  # Reach
    ch = _change_for(al, "702.13a")
    assert ch.kind == Kind.RENUMBERED and ch.nature is None
    assert "same text" in ch.reason


@needs_cr_corpus
def test_consecutive_renumbering_is_not_an_edit() -> None:
    al = align(parse(str(cr_file("2011-05-01"))), parse(str(cr_file("2011-06-17"))))
    s = al.summary()
    assert s["renumbered"] + s["renumbered_edited"] > 250
    assert s["edited_substantive"] < 15
    assert al.number_map["702.13"] == "702.14"


@needs_cr_corpus
@pytest.mark.parametrize(
    ("old", "new", "most"),
    [("2018-10-05", "2019-01-25", 12), ("2014-02-01", "2014-05-01", 10)],
)
def test_typography_release_reports_only_the_real_edits(old: str, new: str, most: int) -> None:
    al = align(parse(str(cr_file(old))), parse(str(cr_file(new))))
    s = al.summary()
    assert s["edited_typography_only"] > 600
    assert 0 < s["edited_substantive"] <= most
    edited = [ch for ch in al.substantive() if ch.kind in (Kind.EDITED, Kind.RENUMBERED_EDITED)]
    assert all(ch.similarity > 0.5 for ch in edited)


@needs_cr_corpus
def test_move_across_sections_and_a_folded_sublayer_2020_04() -> None:
    a, b = parse(str(cr_file("2020-01-24"))), parse(str(cr_file("2020-04-17")))
    al = align(a, b)
    moved = _change_for(al, "706.7a")
    assert moved.kind in (Kind.MOVED, Kind.MOVED_EDITED)
    assert _num(b, moved.new[0]).startswith("607.")
    folded = _change_for(al, "613.3d")
    assert folded.kind == Kind.MERGED and _num(b, folded.new[0]) == "613.4c"
    assert al.number_map["613.3e"] == "613.4d"


@needs_cr_corpus
def test_reference_only_rewrites_are_not_substantive() -> None:
    al = align(parse(str(cr_file("2011-05-01"))), parse(str(cr_file("2011-06-17"))))
    refs = [ch for ch in al.changes if ch.nature == Nature.REFERENCES_ONLY]
    assert refs, "renumbering rewrites cross-references somewhere"
    assert not any(is_substantive(ch) for ch in refs)


@needs_cr_corpus
def test_repeated_texts_pair_by_parent_and_position() -> None:
    a, b = parse(str(cr_file("2025-11-14"))), parse(str(cr_file("2026-01-16")))
    texts = Counter(r.norm for r in a.rules)
    repeated = {t for t, n in texts.items() if n > 1 and len(t) > 30}
    assert len(repeated) > 10
    al = align(a, b)
    for ch in al.changes:
        if ch.old and ch.new and a.rules[ch.old[0]].norm in repeated:
            ra, rb = a.rules[ch.old[0]], b.rules[ch.new[0]]
            # The repeated sentence stays under the counterpart of its own parent.
            assert al.number_map.get(str(ra.number.parent)) == str(rb.number.parent)  # type: ignore[union-attr]


def _titled(doc):  # type: ignore[no-untyped-def]
    """Position of every section, three-digit rule and keyword (701/702) by its unique title."""
    seen: Counter[tuple[int, str]] = Counter()
    where = {}
    for i, r in enumerate(doc.rules):
        n = r.number
        if (
            r.title
            and n is not None
            and (n.level <= Level.HEADING or str(n).startswith(("701.", "702.")))
            and (n.level <= Level.RULE)
        ):
            k = (int(n.level), r.title.casefold())
            seen[k] += 1
            where[k] = i
    return {k: v for k, v in where.items() if seen[k] == 1}


def _pairs_after(files):  # type: ignore[no-untyped-def]
    return [(a, b) for a, b in zip(files, files[1:], strict=False)]


MODERN = [p for p in cr_txt_files() if p.name >= "cr-20090904" and "rerelease" not in p.name]


@needs_cr_corpus
def test_every_keyword_and_heading_keeps_its_title_mapped_number() -> None:
    docs = {p: parse(str(p)) for p in MODERN}
    pairs = _pairs_after(MODERN) + [(MODERN[0], MODERN[-1]), (cr_file("2011-02-04"), cr_file("2026-01-16"))]
    failures = []
    for pa, pb in pairs:
        a = docs.get(pa) or parse(str(pa))
        b = docs.get(pb) or parse(str(pb))
        al = align(a, b)
        # (a merge's old nodes each to its new node: 2023-04's 712 Double-Faced Cards keeps its title, 713 Meld Cards
        # folded into it)
        a2b = {
            i: j for ch in al.changes if len(ch.old) == 1 or ch.kind == Kind.MERGED for i in ch.old for j in ch.new[:1]
        }
        ta, tb = _titled(a), _titled(b)
        for k, i in ta.items():
            if k in tb and a2b.get(i) != tb[k]:
                failures.append((pa.name, pb.name, k[1]))
    assert not failures


def test_seed_dumps_keep_not_covered_apart_from_removed() -> None:
    paste = parse(str(CORPUS / "003_8b50984e948ebee1.txt"))
    md = parse(str(CORPUS / "000_67b17b6c7d536d12.txt"))
    al = align(paste, md)
    assert al.number_map["702.13"] == "702.15"
    assert _change_for(al, "702.13").kind in (Kind.RENUMBERED, Kind.RENUMBERED_EDITED)
    assert _change_for(al, "700.1").kind == Kind.NOT_COVERED
    assert _change_for(al, "714.1").kind == Kind.NOT_COVERED
    assert not [
        ch
        for ch in al.changes
        if ch.kind == Kind.REMOVED
        and _num(paste, ch.old[0]).startswith("70")
        and not _num(paste, ch.old[0]).startswith("702")
    ]
    back = align(md, paste)
    assert all(ch.kind != Kind.ADDED or _num(paste, ch.new[0]).startswith("702") for ch in back.changes)


def test_dataset_slice_coverage_is_string_order() -> None:
    paste = parse(str(CORPUS / "003_8b50984e948ebee1.txt"))
    rows = parse(str(CORPUS / "002_a6604bb320e98856.txt"))
    al = align(paste, rows)
    # 702.2 (Deathtouch in 2011) lies outside the string interval 701.42b..702.10: not covered.
    assert _change_for(al, "702.2").kind == Kind.NOT_COVERED
    assert _change_for(al, "700.1").kind == Kind.NOT_COVERED


def test_keyword_page_gets_inferred_numbers() -> None:
    page = parse(str(CORPUS / "004_009a5df1986052e3.txt"))
    md = parse(str(CORPUS / "000_67b17b6c7d536d12.txt"))
    al = align(page, md)
    by_title = {t: n for t, (n, _) in al.inferred.items()}
    titles = {r.title for r in md.rules if r.title}
    assert by_title["Flashback"] == str(next(r.number for r in md.rules if r.title == "Flashback"))
    assert by_title["Menace"] == str(next(r.number for r in md.rules if r.title == "Menace"))
    # The heading says Impulse but the text defines Surge: content wins.
    assert by_title["Impulse"] == str(next(r.number for r in md.rules if r.title == "Surge"))
    abilities = [r for r in page.rules if r.category == "keyword ability" and r.title in titles]
    assert all(r.title in by_title for r in abilities)
    assert all(0.0 < conf <= 1.0 for _, conf in al.inferred.values())


def test_public_diff_takes_paths_or_documents() -> None:
    import rulediff

    paste, md = str(CORPUS / "003_8b50984e948ebee1.txt"), str(CORPUS / "000_67b17b6c7d536d12.txt")
    by_path = rulediff.diff(paste, md)
    by_doc = rulediff.diff(parse(paste), parse(md))
    assert by_path.number_map == by_doc.number_map
    assert by_path.number_map["702.13"] == "702.15"
