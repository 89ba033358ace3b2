"""The removed lists of 2009-05-01 -> 2009-07-11 and of every consecutive pair from 2013 on, each rule read whole
(tests/fixtures/align/hand-checked/removed-*.tsv, README there): how many of the rules left removed really left,
and that none read as gone is linked, nor one read as moved linked elsewhere."""

from __future__ import annotations

import csv
from collections import Counter

import pytest

from .conftest import FIXTURES, needs_cr_corpus
from .test_hand_checked import _now

READ = FIXTURES / "align" / "hand-checked"
ERAS = {"2009": READ / "removed-2009.tsv", "2013-2026": READ / "removed-2013-2026.tsv"}


def _read(era: str) -> list[dict[str, str]]:
    with open(ERAS[era], encoding="utf-8", newline="") as fh:
        return list(csv.DictReader(fh, delimiter="\t"))


def test_every_row_says_what_it_read() -> None:
    for era in ERAS:
        for row in _read(era):
            assert row["verdict"] in ("gone", "moved", "partial"), row
            assert (row["counterpart"] == "-") == (row["verdict"] == "gone"), row
            assert row["note"], row


@needs_cr_corpus
@pytest.mark.parametrize("era", sorted(ERAS))
def test_the_removed_list_against_its_reading(era: str) -> None:
    rows = _read(era)
    now: dict[tuple[str, str], dict[str, tuple[str, object, bool]]] = {}
    still: Counter[str] = Counter()
    for row in rows:
        pair = (row["old_release"], row["new_release"])
        if pair not in now:
            now[pair] = _now(*pair)
        targets, _, _ = now[pair][row["old"]]
        if not targets:
            still[row["verdict"]] += 1
        elif row["verdict"] == "gone":
            pytest.fail(f"{pair}: {row['old']} was read as gone, and is linked to {targets}")
        else:
            # (a rule read as moved or partly moved, linked now: to what the reader found, or a part of it)
            assert set(targets.split(",")) <= set(row["counterpart"].split(",")), (pair, row["old"], targets)
    # Read at commit 4fd01f3 (README): 2009, 24 of the 102 removed really gone (31 moved, 47 partly);
    # 2013-2026, 48 of 74 (11 of them copies of a rule that stays, deleted; 13 moved, 13 partly).
    # (every rule read as gone is still removed: a recall gain moves only the others, linked where the reader found
    # them, above)
    assert still["gone"] == {"2009": 24, "2013-2026": 48}[era]
