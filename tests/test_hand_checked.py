"""The matcher against links judged by hand (tests/fixtures/align/hand-checked/, README there): precision of its
links and of its removed list, and what its uncertain flag means on the held-out half."""

from __future__ import annotations

import csv
from dataclasses import dataclass, field

import pytest

from rulediff import parse
from rulediff.matcher.classify import align
from rulediff.matcher.records import Kind

from .conftest import FIXTURES, cr_file, needs_cr_corpus

CHECKED = FIXTURES / "align" / "hand-checked" / "links.tsv"


@dataclass
class Tally:
    """Verdicts of the links as the matcher makes them now: a link that moved since it was judged is right only
    when it moved to the counterpart the reader named."""

    right: int = 0
    total: int = 0
    wrong: list[str] = field(default_factory=list)

    def add(self, ok: bool, what: str) -> None:
        self.total += 1
        self.right += ok
        if not ok:
            self.wrong.append(what)

    @property
    def rate(self) -> float:
        return self.right / self.total if self.total else 1.0


def _rows() -> list[dict[str, str]]:
    with open(CHECKED, encoding="utf-8", newline="") as fh:
        return list(csv.DictReader(fh, delimiter="\t"))


def _now(old_release: str, new_release: str) -> dict[str, tuple[str, Kind, bool]]:
    """Each old number of the pair: (its new numbers joined, the kind, uncertain) as the matcher links it now."""
    old, new = parse(str(cr_file(old_release))), parse(str(cr_file(new_release)))
    out: dict[str, tuple[str, Kind, bool]] = {}
    for ch in align(old, new).changes:
        targets = ",".join(sorted(str(new.rules[j].number) for j in ch.new))
        for i in ch.old:
            out.setdefault(str(old.rules[i].number), (targets, ch.kind, ch.uncertain))
    return out


def _judged(row: dict[str, str], targets: str) -> bool:
    """Right as judged: the judged link (or removal) itself when the reader called it right, else the counterpart
    the reader named ("-": the text really left)."""
    judged = ",".join(sorted(row["new"].split(","))) if row["new"] else ""
    if targets == judged:
        return row["verdict"] == "right"
    want = row["counterpart"]
    return bool(want) and (targets == "" if want == "-" else targets == want)


def _tallies() -> dict[str, Tally]:
    rows = _rows()
    now: dict[tuple[str, str], dict[str, tuple[str, Kind, bool]]] = {}
    tallies = {k: Tally() for k in ("links", "removed", "held uncertain", "held sure", "cal uncertain", "cal sure")}
    for row in rows:
        pair = (row["old_release"], row["new_release"])
        if pair not in now:
            now[pair] = _now(*pair)
        targets, kind, uncertain = now[pair][row["old"].split(",")[0]]
        ok = _judged(row, targets)
        what = f"{pair[0]} -> {pair[1]}: {row['old']} -> {targets or 'removed'}"
        if kind == Kind.REMOVED:
            tallies["removed"].add(ok, what)
            continue
        tallies["links"].add(ok, what)
        half = "held" if row["half"] == "held-out" else "cal"
        tallies[f"{half} {'uncertain' if uncertain else 'sure'}"].add(ok, what)
    return tallies


@pytest.fixture(scope="module")
def tallies() -> dict[str, Tally]:
    return _tallies()


def test_the_set_is_whole_and_split_in_halves() -> None:
    rows = _rows()
    assert len(rows) >= 200
    assert {r["verdict"] for r in rows} <= {"right", "wrong", "partial"}
    assert all(r["counterpart"] for r in rows if r["verdict"] != "right")
    held = [r for r in rows if r["half"] == "held-out"]
    # (halved alternately within each group of each batch, README: three groups, then seven batches, each at most
    # one over on the calibration side)
    assert abs(len(held) * 2 - len(rows)) <= 6
    assert sum(r["uncertain"] == "1" for r in held) >= 40


@needs_cr_corpus
def test_links_and_removed_list_hold_their_measured_precision(tallies: dict[str, Tally]) -> None:
    links, removed = tallies["links"], tallies["removed"]
    # Measured over the 348 verdicts (the first 211, then every other uncertain link of all consecutive pairs, then
    # the 21 merges and splits and the 6 texts held whole none of those named, then the 3 links sentences.py made
    # that none named, then the 8 rules rewritten at their own numbers the rescue links, then the 17 links
    # folded.py makes, then the 6 slots.py makes): links 251 of 280 right, removed 30 of 68 really gone (held.py
    # links what went into a longer text, more often partly than wholly: links 0.88 -> 0.87, removed 0.38 ->
    # 0.385; sentences.py the sentences that went elsewhere: links 0.87 -> 0.89, removed 0.385 -> 0.405; the rules
    # rewritten in place, 7 of 8 right: links 0.889 -> 0.888; the headings folded into another and their copies,
    # 16 of 17 right and five rules judged wrongly removed now linked where the reader said: links 0.888 -> 0.894,
    # removed 0.405 -> 0.435; 2009's 205.4b, held whole in 204.4c as it stands: removed 0.441; the rules rewritten
    # in their slots, 6 of 6 right: links 0.894 -> 0.896). The removed list holds the weak links given up
    # (refusals.unkept): read by hand, right, partial and wrong in about equal parts and seldom really gone, so
    # their old rules, removed now with their closest text and why, mostly count as wrongly removed here.
    assert links.rate >= 0.89, links.wrong
    assert removed.rate >= 0.43, removed.wrong


@needs_cr_corpus
def test_uncertain_flag_on_the_calibration_half(tallies: dict[str, Tally]) -> None:
    uncertain, sure = tallies["cal uncertain"], tallies["cal sure"]
    # What the thresholds were set on (KEPT_MEANING, PLACED_MEANING for weak links, ABSORBED): kept uncertain
    # 87 of 101 right, unflagged 42 of 42 (73 of 86 before folded.py's links were judged, 84 of 98 before slots.py's).
    assert uncertain.rate >= 0.8, uncertain.wrong
    assert sure.rate >= 0.99, sure.wrong


@needs_cr_corpus
def test_uncertain_flag_on_the_held_out_half(tallies: dict[str, Tally]) -> None:
    uncertain, sure = tallies["held uncertain"], tallies["held sure"]
    # Measured: kept uncertain 81 of 96 right (0.84; 2002-10's 214.7b the last flagged, a link in its slot on less
    # than half of the meaning, slots.py; 11 of the 15 wrong are partial, a text gone to several places and linked
    # to one or some; 56 of 73 before the sentences said again joined their splits and absorbed.py's parts went
    # where they are most alike, 63 of 77 before the rules rewritten in place were linked, 67 of 81 before the
    # headings folded into another were, 78 of 92 before the rules rewritten in their slots), unflagged 41 of 41
    # (41 of 42 before 214.7b was flagged; 41 links cannot show 99 in 100: the mutation benchmark does).
    assert uncertain.total >= 40
    assert uncertain.rate >= 0.8, uncertain.wrong
    assert sure.rate >= 0.99, sure.wrong


TERMS = FIXTURES / "align" / "hand-checked" / "terms.tsv"


def _term_tallies() -> dict[str, Tally]:
    """The glossary's term links judged by hand (terms.tsv), as the term matcher makes them now: flagged and
    unflagged."""
    with open(TERMS, encoding="utf-8", newline="") as fh:
        rows = list(csv.DictReader(fh, delimiter="\t"))
    tallies = {"uncertain": Tally(), "sure": Tally()}
    now: dict[tuple[str, str], dict[str, tuple[str, bool]]] = {}
    for row in rows:
        pair = (row["old_release"], row["new_release"])
        if pair not in now:
            al = align(parse(str(cr_file(pair[0]))), parse(str(cr_file(pair[1]))))
            now[pair] = {g.old.term: (g.new.term if g.new else "", g.uncertain) for g in al.glossary if g.old}
        target, uncertain = now[pair][row["old"]]
        if target == row["new"]:
            ok = row["verdict"] == "right"
        else:
            want = row["counterpart"]
            ok = bool(want) and (not target if want == "-" else target == want)
        tallies["uncertain" if uncertain else "sure"].add(ok, f"{pair[0]} -> {pair[1]}: {row['old']!r} -> {target!r}")
    return tallies


@needs_cr_corpus
def test_the_glossary_term_links_on_the_same_standard() -> None:
    # Every glossary link made on other evidence than the same name (a name kept, a rename, text alone, a term
    # marked obsolete) over all 135 consecutive pairs, 70, judged by their names and definitions: flagged uncertain
    # 11 of 13 right (two partial: "Copy Card" and "Enchant Artifact Creature" each stand for several entries that
    # gave way to one), unflagged 57 of 57. The rules' standard: 4 in 5, and 99 in 100.
    tallies = _term_tallies()
    uncertain, sure = tallies["uncertain"], tallies["sure"]
    assert uncertain.total >= 13 and sure.total >= 57
    assert uncertain.rate >= 0.8, uncertain.wrong
    assert sure.rate >= 0.99, sure.wrong
