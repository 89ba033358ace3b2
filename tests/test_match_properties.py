"""Properties of the matcher under random known edits: no exception, a document aligned with itself is
all unchanged, A->B and B->A are inverse maps, and the recovered pairs match the truth."""

from __future__ import annotations

import dataclasses

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from benchmarks.mutate import mutate, score
from rulediff import Kind, align, parse
from rulediff.matcher.records import is_substantive
from rulediff.model import Document

from .conftest import CORPUS, cr_file, needs_cr_corpus

MD = parse(str(CORPUS / "000_67b17b6c7d536d12.txt"))
PASTE = parse(str(CORPUS / "003_8b50984e948ebee1.txt"))


def _relabel(doc: Document, label: str) -> Document:
    return dataclasses.replace(doc, version=dataclasses.replace(doc.version, label=label, sha256=label))


def _pairs(al) -> set[tuple[int, int]]:  # type: ignore[no-untyped-def]
    return {(i, j) for ch in al.changes if ch.old and ch.new for i in ch.old for j in ch.new}


@pytest.mark.parametrize("doc", [MD, PASTE], ids=["markdown-2022", "paste-2011"])
def test_a_document_aligned_with_itself_is_unchanged(doc: Document) -> None:
    al = align(doc, doc)
    assert {ch.kind for ch in al.changes} == {Kind.UNCHANGED}
    assert all(al.number_map[str(r.number)] == str(r.number) for r in doc.rules if r.number is not None)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(["markdown-2022", "paste-2011"]), st.integers(0, 10_000), st.integers(1, 25))
def test_random_edits_align_both_ways_as_inverses(which: str, seed: int, edits: int) -> None:
    doc = MD if which == "markdown-2022" else PASTE
    m = mutate(doc, seed, edits)
    new = _relabel(m.doc, f"mutant-{seed}-{edits}")
    forward = align(doc, new)
    backward = align(new, doc)
    assert _pairs(backward) == {(j, i) for i, j in _pairs(forward)}
    # Kinds mirror too: what is added one way is removed the other, splits are merges.
    mirror = {Kind.ADDED: Kind.REMOVED, Kind.REMOVED: Kind.ADDED, Kind.SPLIT: Kind.MERGED, Kind.MERGED: Kind.SPLIT}
    fk = sorted((ch.old, ch.new, mirror.get(ch.kind, ch.kind)) for ch in forward.changes if ch.kind in mirror)
    bk = sorted((ch.new, ch.old, ch.kind) for ch in backward.changes if ch.kind in mirror)
    assert fk == bk
    p, r = score(_pairs(forward), m.truth)
    assert p >= 0.98 and r >= 0.98, (p, r, m.log)


@needs_cr_corpus
@pytest.mark.parametrize(("date", "seed"), [("2026-01-16", 1), ("2011-02-04", 2), ("2019-01-25", 3)])
def test_mutated_full_release_recovers_the_truth(date: str, seed: int) -> None:
    doc = parse(str(cr_file(date)))
    m = mutate(doc, seed, 40)
    al = align(doc, m.doc)
    p, r = score(_pairs(al), m.truth)
    assert p >= 0.9995 and r >= 0.999, (p, r)
    noise = [ch for ch in al.changes if is_substantive(ch) and ch.old and ch.new and set(ch.old) <= m.untouched]
    assert [ch for ch in noise if ch.kind != Kind.MOVED] == [], "no untouched rule is reported as a real edit"
