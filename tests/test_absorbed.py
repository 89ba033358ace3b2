"""Texts taken into a rule that continues another (merges into a rule that already existed), weak links by place
given up, and a second matching that does not make again what the first gave up: on the official releases."""

from __future__ import annotations

from rulediff import parse
from rulediff.matcher.classify import align
from rulediff.matcher.records import Alignment, Kind
from rulediff.model import Document

from .aligned import change_of, numbers, official_pair
from .conftest import cr_file, needs_cr_corpus


@needs_cr_corpus
def test_an_opening_sentence_taken_into_the_rule_that_continues_another_is_a_merge() -> None:
    # 2003-07-01's 406.4 continues 406.1e and opens with 406.1d's sentence; 406.1d was linked by place to 406.5.
    old, new, al = official_pair("2003-05-26", "2003-07-01")
    ch = change_of(old, al, "406.1d")
    assert ch.kind == Kind.MERGED and ch.uncertain
    assert numbers(old, ch.old) == ["406.1d", "406.1e"] and numbers(new, ch.new) == ["406.4"]
    assert "406.1d went there too" in ch.reason


@needs_cr_corpus
def test_the_2009_rewrite_merges_into_rules_that_already_existed() -> None:
    old, new, al = official_pair("2009-05-01", "2009-07-11")
    for gone, kept, into in (
        ("212.6b", "212.6a", "305.1"),
        ("502.9d", "502.9b", "702.17b"),
        ("502.10c", "502.10b", "702.19c"),
    ):
        ch = change_of(old, al, gone)
        assert ch.kind == Kind.MERGED, (gone, ch)
        assert numbers(old, ch.old) == sorted([gone, kept]) and numbers(new, ch.new) == [into]
    # Words a rewritten rule gained here and there are not a text taken whole: combat damage left the stack.
    assert change_of(old, al, "408.1g").kind == Kind.REMOVED


@needs_cr_corpus
def test_boilerplate_the_continued_rule_already_said_is_not_taken() -> None:
    # "Multiple instances of trample ... are redundant." went with trample's rule; 502.17c (horsemanship) says the
    # same of itself and gained no word of it.
    old, _, al = official_pair("2003-03-15", "2003-05-26")
    assert change_of(old, al, "502.9g").kind == Kind.REMOVED


@needs_cr_corpus
def test_a_weak_link_by_place_is_given_up_with_its_closest_text_named() -> None:
    # 2003-05-26 212.2d ("There are no subtypes for artifact cards, ...") was linked to 205.2a ("The types are
    # ...") on 46% of its meaning: read by hand, the text left.
    old, _, al = official_pair("2003-05-26", "2003-07-01")
    ch = change_of(old, al, "212.2d")
    assert ch.kind == Kind.REMOVED
    assert ch.closest is not None and ch.closest.number == "205.2a" and ch.closest.meaning < 0.5
    assert ch.closest.why.startswith("the link to it was given up: only 46% of its meaning is there")
    assert "an uncertain link needs 50% of the meaning" in ch.closest.why


@needs_cr_corpus
def test_a_closer_counterpart_keeps_its_link_on_less_meaning() -> None:
    # 2016-09-30's short priority steps: "Second, the active player gets priority" is the new 503.1's "First, ...".
    old, new, al = official_pair("2016-08-26", "2016-09-30")
    ch = change_of(old, al, "503.2")
    assert ch.uncertain and numbers(new, ch.new) == ["503.1"]


@needs_cr_corpus
def test_a_part_comes_out_of_the_rule_it_is_most_like() -> None:
    # 2022-06-10's 608.3a ("If the object that's resolving has no targets, it becomes a permanent and enters the
    # battlefield under the control of the spell's controller") is the old 608.3's second sentence; the copy rule
    # 608.3b, now 608.3f, has its words too but one ("no") and is less like it.
    old, new, al = official_pair("2022-04-29", "2022-06-10")
    ch = change_of(old, al, "608.3")
    assert ch.kind == Kind.SPLIT and ch.uncertain and numbers(new, ch.new) == ["608.3", "608.3a"]
    assert "608.3a came out of it" in ch.reason
    ch = change_of(old, al, "608.3b")
    assert ch.kind != Kind.SPLIT and numbers(new, ch.new) == ["608.3f"]


@needs_cr_corpus
def test_every_node_of_a_long_jump_is_told_once() -> None:
    # 2001-07-23 -> 2016-01-16: 601.4 and 602.5, parts of 409.1's split, were parts of 409's whole-node split too,
    # and 611.3 both a part of 418.1's split and the new node of a merge.
    old, new, al = official_pair("2001-07-23", "2016-01-16")
    for doc, side in ((old, "old"), (new, "new")):
        told = [k for ch in al.changes for k in getattr(ch, side)]
        assert len(told) == len(set(told)) == len(doc.rules), side


@needs_cr_corpus
def test_a_pair_both_split_and_merged_into_is_told_once() -> None:
    # 2009's 420.1 went to 704.1 and 704.1a (a split); 704.1 also took the six words of the heading 408.2 "Actions
    # That Don't Use the Stack", which was dissolved: 420.1 was told twice, as the split and as a merge with 408.2.
    old, new, al = official_pair("2009-05-01", "2009-07-11")
    told = [i for ch in al.changes for i in ch.old]
    assert len(told) == len(set(told)) == len(old.rules)
    ch = change_of(old, al, "420.1")
    assert ch.kind == Kind.SPLIT and numbers(new, ch.new) == ["704.1", "704.1a"]
    assert change_of(old, al, "408.2").kind == Kind.REMOVED


@needs_cr_corpus
def test_a_part_split_off_beside_the_rule_that_goes_on_is_its_split() -> None:
    # 2009-07-11 gave each step its own "Nth, the active player gets priority": the end of combat step's 511.2 came
    # out of the old 311.1 ("... Then the active player gets priority ..."), which goes on as 511.1.
    old, new, al = official_pair("2009-05-01", "2009-07-11")
    ch = change_of(old, al, "311.1")
    assert ch.kind == Kind.SPLIT and ch.uncertain
    assert numbers(new, ch.new) == ["511.1", "511.2"]
    assert "511.2 came out of it" in ch.reason
    # ... and not also the priority sentence of every other step, each its own step's (a part stays beside).
    assert all("511.2" not in numbers(new, c.new) for c in al.changes if c is not ch)


@needs_cr_corpus
def test_a_short_sentence_split_off_stays_beside() -> None:
    # 1999-11-01's 420.5a ("... with 0 life or less or who was required to draw more cards ...") became 420.5a and
    # 420.5g.
    old, new, al = official_pair("1999-11-01", "2001-07-23")
    ch = change_of(old, al, "420.5a")
    assert ch.kind == Kind.SPLIT and numbers(new, ch.new) == ["420.5a", "420.5g"]


@needs_cr_corpus
def test_merges_and_splits_read_backwards_are_splits_and_merges() -> None:
    # Aligning 2009-07-11 -> 2009-05-01 tells the same groups the other way round: a merge forward is a split
    # backward (the same place rule and the same share decide either way; folded.py's headings too).
    old, new = parse(str(cr_file("2009-05-01"))), parse(str(cr_file("2009-07-11")))

    def groups(al: Alignment, a: Document, b: Document) -> set[tuple[str, frozenset[str], frozenset[str]]]:
        return {
            (ch.kind.value, frozenset(numbers(a, ch.old)), frozenset(numbers(b, ch.new)))
            for ch in al.changes
            if ch.kind in (Kind.SPLIT, Kind.MERGED)
            and any(said in ch.reason for said in ("came out of it", "went there too", "folded into it"))
        }

    forward = groups(align(old, new), old, new)
    backward = {("split" if k == "merged" else "merged", n, o) for k, o, n in groups(align(new, old), new, old)}
    assert forward and forward == backward
