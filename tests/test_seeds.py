"""The five shipped seed dumps: each parses cleanly in its own format, with the facts users rely on pinned."""

from __future__ import annotations

import hashlib

import pytest

from rulediff import parse
from rulediff.numbering import RuleNumber
from rulediff.parsers import detect

from .conftest import CORPUS

SEEDS = {
    "003_8b50984e948ebee1.txt": ("pdf-paste", 614, "7", "715.2"),
    "004_009a5df1986052e3.txt": ("keyword-page", 52, None, None),
    "000_67b17b6c7d536d12.txt": ("markdown", 604, "702", "702.153b"),
    "002_a6604bb320e98856.txt": ("dataset-viewer", 100, "701.4a", "702.10"),
    "001_6371d5d2d2027b19.txt": ("sphinx-rst", 247, "6", "616.2"),
}


def _seed(name: str):  # type: ignore[no-untyped-def]
    return parse(str(CORPUS / name), lint=True)


def test_manifest_lists_every_seed_with_its_sha256() -> None:
    rows = [ln.split("\t") for ln in (CORPUS / "MANIFEST").read_text(encoding="utf-8").splitlines()[1:]]
    assert {r[0] for r in rows} == set(SEEDS)
    for r in rows:
        assert hashlib.sha256((CORPUS / r[0]).read_bytes()).hexdigest() == r[4]
        assert r[3] == SEEDS[r[0]][0]


@pytest.mark.parametrize("name", sorted(SEEDS))
def test_seed_parses_in_its_format(name: str) -> None:
    fmt, count, first, last = SEEDS[name]
    data = (CORPUS / name).read_bytes()
    assert detect(data, name).name == fmt
    doc = _seed(name)
    assert doc.version.format == fmt
    assert len(doc.rules) == count
    if first is not None:
        assert str(doc.rules[0].number) == first
        assert str(doc.rules[-1].number) == last
    assert not [w for w in doc.warnings if w.code in ("orphan", "stray")]


def test_2011_paste_lifelink_is_702_13_with_subrules() -> None:
    doc = _seed("003_8b50984e948ebee1.txt")
    assert doc.get("702.13").title == "Lifelink"  # type: ignore[union-attr]
    assert [str(r.number) for r in doc.children("702.13")] == [f"702.13{c}" for c in "abcde"]
    assert doc.get("702.15").title == "Reach"  # type: ignore[union-attr]
    # Wrapped lines that begin with a number stay inside their paragraph.
    assert doc.get("702.4a").text.endswith("(See rule 510, \u201cCombat Damage Step.\u201d)")  # type: ignore[union-attr]
    assert doc.get("702.77a").text.endswith("See rule 119.3.")  # type: ignore[union-attr]
    assert doc.coverage.sections == (7,)
    assert "Wednesday" not in "".join(r.text for r in doc.rules)
    assert "Post a Comment" not in "".join(r.text for r in doc.rules)
    assert len(doc.get("700.1").examples) == 1  # type: ignore[union-attr]


def test_2022_markdown_lifelink_is_702_15_with_a_to_f() -> None:
    doc = _seed("000_67b17b6c7d536d12.txt")
    assert doc.get("702.15").title == "Lifelink"  # type: ignore[union-attr]
    assert [str(r.number) for r in doc.children("702.15")] == [f"702.15{c}" for c in "abcdef"]
    assert doc.get("702.10a").text == "Haste is a static ability."  # type: ignore[union-attr]
    assert doc.get("702.153a") is not None
    assert len(doc.get("702.14d").examples) == 1  # type: ignore[union-attr]


def test_2024_rows_come_out_in_rule_order() -> None:
    doc = _seed("002_a6604bb320e98856.txt")
    order = [str(r.number) for r in doc.rules]
    assert order.index("701.4a") < order.index("701.5") < order.index("701.42b")
    assert [r.number for r in doc.rules] == sorted(r.number for r in doc.rules if r.number is not None)
    assert doc.get("701.43").title == "Adapt"  # type: ignore[union-attr]
    cov = doc.coverage
    assert cov.covers(RuleNumber.parse("702.1")) and cov.covers(RuleNumber.parse("702.10"))
    assert not cov.covers(RuleNumber.parse("702.2"))
    assert not cov.covers(RuleNumber.parse("701.42a"))


def test_rst_601_2h_exists_and_mana_symbols_render() -> None:
    doc = _seed("001_6371d5d2d2027b19.txt")
    assert doc.get("601.2h") is not None
    assert doc.get("601").title == "Casting Spells"  # type: ignore[union-attr]
    # "General" stands over "Casting Spells" with no rules of its own: the official 600 General.
    assert doc.get("600").title == "General"  # type: ignore[union-attr]
    g = doc.get("601.2g")
    assert g is not None and "{3}{B}" in g.examples[0].text and "|" not in g.examples[0].text
    assert "referred" in doc.get("601.1").text and ":ref:" not in doc.get("601.1").text  # type: ignore[union-attr]
    assert doc.get("603.2d") is not None and doc.get("603.2e") is not None
    assert doc.get("608.2d").examples  # type: ignore[union-attr]


def test_2017_page_yields_every_keyword_heading() -> None:
    doc = _seed("004_009a5df1986052e3.txt")
    titles = [r.title for r in doc.rules]
    assert titles[:3] == ["Affinity", "Afflict", "Aftermath"]
    assert titles[-1] == "Unearth"
    assert "Impulse" in titles and "Living weapon" in titles and "Totem Armor" in titles
    assert all(r.number is None and r.key.startswith("title:") for r in doc.rules)
    kinds = {r.title: r.category for r in doc.rules}
    assert kinds["Exert"] == kinds["Meld"] == kinds["Transform"] == kinds["Support"] == "keyword action"
    assert kinds["Flashback"] == "keyword ability"
    madness = next(r for r in doc.rules if r.title == "Madness")
    assert len(madness.notes) == 2


def test_seed_defects_are_all_reported() -> None:
    found = {name: {(w.code, w.line) for w in _seed(name).warnings} for name in SEEDS}
    assert ("heading", 117) in found["004_009a5df1986052e3.txt"]  # "Impulse" defines Surge
    assert ("language", 232) in found["004_009a5df1986052e3.txt"]  # a Spanish sentence
    assert ("markup", 66) in found["000_67b17b6c7d536d12.txt"]  # **702.10**a
    assert {("typo", 675), ("typo", 676)} <= found["000_67b17b6c7d536d12.txt"]  # 702.124h.
    assert ("mangling", 20) in found["001_6371d5d2d2027b19.txt"]  # :ref:erred
    assert ("structure", 11) in found["001_6371d5d2d2027b19.txt"]  # title with no rules
    assert ("order-restored", 133) in found["002_a6604bb320e98856.txt"]
    assert {("joined-words", 816), ("joined-words", 1294)} <= found["003_8b50984e948ebee1.txt"]
    assert ("hyphenation", 822) in found["003_8b50984e948ebee1.txt"]
