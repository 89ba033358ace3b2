"""Sentences of a text that an unpaired text on the other side says again (matcher/sentences.py): parts of its split
or members of its merge, on the official releases and on small ones; and the search for them missing none."""

from __future__ import annotations

from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from rulediff.matcher.classify import align
from rulediff.matcher.records import Grouping, Kind, Pair
from rulediff.matcher.sentences import near, regroup_sentences
from rulediff.matcher.sides import prepared
from rulediff.model import Document

from .aligned import change_of, numbers, official_pair
from .conftest import needs_cr_corpus
from .test_held import WORDS, W, _mini, _moved, unlinked_stays_removed


def _reworded(sentence: str, word: str = "zinc") -> str:
    """``sentence`` with its last word changed: too few of its words left for held.py, nearly as it stands."""
    return f"{sentence.rsplit(' ', 1)[0]} {word}."


@needs_cr_corpus
def test_a_rules_second_sentence_is_a_part_of_its_split() -> None:
    # 2009-07-11's 400.3 is the old 217.1a's first sentence, held whole; 400.4 its second, "come into play" now
    # "enter the battlefield".
    old, new, al = official_pair("2009-05-01", "2009-07-11")
    ch = change_of(old, al, "217.1a")
    assert ch.kind == Kind.SPLIT and ch.uncertain and numbers(new, ch.new) == ["400.3", "400.4"]
    assert "400.4 is 217.1a's sentence 2 nearly as it stands (text 0.86)" in ch.reason
    ch = change_of(old, al, "419.6h")
    assert ch.kind == Kind.SPLIT and numbers(new, ch.new) == ["613.11", "613.11a", "613.11b"]
    assert "613.11 is 419.6h's sentences 1-2 nearly as they stand (text 1.00)" in ch.reason


@needs_cr_corpus
def test_an_old_text_saying_a_sentence_of_a_new_one_merges_into_it() -> None:
    # 415.7a's "The target ... can change only to another legal target ..." is 113.6's second and third sentences;
    # 113.6 goes on 415.7 (linked uncertainly).
    old, new, al = official_pair("2009-05-01", "2009-07-11")
    ch = change_of(old, al, "415.7a")
    assert ch.kind == Kind.MERGED and ch.uncertain
    assert numbers(old, ch.old) == ["415.7", "415.7a"] and numbers(new, ch.new) == ["113.6"]


@needs_cr_corpus
def test_a_run_the_counterpart_says_too_is_no_part() -> None:
    # 409.1d's last two sentences are 113.3 word for word, and 601.2c, which 409.1d goes on as, says them too: 113.3
    # is a new rule saying again what goes on there, not a part of 409.1d.
    old, new, al = official_pair("2009-05-01", "2009-07-11")
    assert numbers(new, change_of(old, al, "409.1d").new) == ["601.2c"]
    assert change_of(new, al, "113.3", "new").kind == Kind.ADDED


@needs_cr_corpus
def test_an_old_rule_said_again_only_in_small_part_stays_removed() -> None:
    # 2003-07-01's 308.2c is one of the six sentences of 308.2, which became the steps of declaring attackers.
    old, _, al = official_pair("2003-05-26", "2003-07-01")
    assert change_of(old, al, "308.2").kind == Kind.REMOVED


@needs_cr_corpus
def test_an_old_text_opening_a_new_one_is_linked_to_it() -> None:
    # 2001-07-23's 214.9a opens with the old 214.9a nearly as it stands (text 0.71) and goes on. At its own number,
    # with most of its meaning, the rescue links it before this pass would (leftovers.rescue): the same link.
    old, new, al = official_pair("1999-11-01", "2001-07-23")
    ch = change_of(old, al, "214.9a")
    assert ch.uncertain and numbers(new, ch.new) == ["214.9a"]
    assert ch.reason.endswith("; the same rule rewritten at its own number, under parents paired with each other")


def test_the_sentences_said_again_are_parts_of_the_split_and_read_backwards_members_of_the_merge(
    tmp_path: Path,
) -> None:
    # (each part too short a share of the whole for the passes to pair it, too reworded for held.py)
    old, new = _mini(
        tmp_path,
        [("100.2", " ".join(W))],
        [("700.1", _reworded(W[0])), ("700.2", " ".join((_reworded(W[1], "tin"), _reworded(W[2], "iron"))))],
    )
    al = align(old, new)
    assert _moved(old, new, al) == [(Kind.SPLIT, ["100.2"], ["700.1", "700.2"], True)]
    assert "700.1 is 100.2's sentence 1 nearly as it stands" in change_of(old, al, "100.2").reason
    assert "700.2 is 100.2's sentences 2-3 nearly as they stand" in change_of(old, al, "100.2").reason
    assert _moved(new, old, align(new, old)) == [(Kind.MERGED, ["700.1", "700.2"], ["100.2"], True)]


def test_an_old_text_whose_sentences_said_again_are_less_than_half_of_it_is_removed(tmp_path: Path) -> None:
    # ... while, read backwards, the old text that says a run of the new one (all of it) is linked to it: a rule is
    # removed only when no new text carries most of its words.
    old, new = _mini(tmp_path, [("100.2", " ".join(W[:4]))], [("700.1", _reworded(W[0]))])
    assert _moved(old, new, align(old, new)) == [
        (Kind.REMOVED, ["100.2"], [], False),
        (Kind.ADDED, [], ["700.1"], False),
    ]
    assert [m[1:] for m in _moved(new, old, align(new, old))] == [(["700.1"], ["100.2"], True)]


def test_a_run_said_by_two_texts_is_given_to_neither(tmp_path: Path) -> None:
    # (boilerplate: every step's "Then the active player gets priority"; the new 700.1 holds them, and no share of
    # it is asked of a new text)
    twice = [("100.2", _reworded(W[0])), ("100.3", _reworded(W[0], "tin"))]
    old, new = _mini(tmp_path, twice, [("700.1", " ".join(W[:3]))])
    assert [m[0] for m in _moved(old, new, align(old, new))] == [Kind.REMOVED, Kind.REMOVED, Kind.ADDED]
    old, new = _mini(tmp_path, twice[:1], [("700.1", " ".join(W[:3]))])
    assert [m[1:] for m in _moved(old, new, align(old, new))] == [(["100.2"], ["700.1"], True)]


def _sentences_only(
    old: Document, new: Document, unsure: tuple[tuple[int, int], ...] = ()
) -> tuple[dict[int, int], dict[int, list[int]], dict[int, list[int]]]:
    """This pass alone on the nodes unpaired but for the rules the two releases share word for word (and the
    ``unsure`` links, flagged uncertain): the links, the splits and the merges it makes or leaves."""
    a, b = prepared(old), prepared(new)
    same = [
        (i, j)
        for i, r in enumerate(old.rules)
        for j, q in enumerate(new.rules)
        if (r.number, r.text) == (q.number, q.text)
    ]
    pairs = [Pair(i, j, 1.0, "same text", same=True) for i, j in same]
    pairs = sorted([*pairs, *(Pair(i, j, 0.5, "by hand", uncertain=True) for i, j in unsure)], key=lambda p: p.old)
    g = Grouping(pairs, {p.old: p.new for p in pairs}, {p.new: p.old for p in pairs})
    regroup_sentences(a, b, g)
    links = [(p.old, p.new) for p in g.pairs if (p.old, p.new) not in same]
    assert links == [(i, g.a2b[i]) for i in sorted(g.a2b) if (i, g.a2b[i]) not in same]
    return dict(links), g.splits, g.merges


def test_a_text_both_a_part_and_holding_parts_holds_none(tmp_path: Path) -> None:
    # The old 100.2 says the new 700.2's last two sentences, and the new 700.1 says 100.2's first: 100.2 went to
    # 700.2, whose text goes on it, and is not split as well (each node in one group).
    old, new = _mini(
        tmp_path,
        [("100.2", " ".join(W[:2]))],
        [("700.1", _reworded(W[0], "tin")), ("700.2", " ".join((W[2], _reworded(W[0]), _reworded(W[1], "iron"))))],
    )
    at = {str(r.number): k for k, r in enumerate(old.rules)} | {str(r.number): k for k, r in enumerate(new.rules)}
    assert _sentences_only(old, new) == ({at["100.2"]: at["700.2"]}, {}, {})
    assert _sentences_only(new, old) == ({at["700.2"]: at["100.2"]}, {}, {})


def test_a_pair_both_split_and_merged_into_is_neither(tmp_path: Path) -> None:
    # 100.2 -> 700.2, linked uncertainly: 700.1 says 100.2's first sentence and 100.3 700.2's first; which of the
    # two groups the pair is, is not told.
    old, new = _mini(
        tmp_path,
        [("100.2", " ".join(W[:2])), ("100.3", _reworded(W[2], "tin"))],
        [("700.1", _reworded(W[0])), ("700.2", " ".join(W[2:4]))],
    )
    at = {str(r.number): k for k, r in enumerate(old.rules)} | {str(r.number): k for k, r in enumerate(new.rules)}
    linked = ((at["100.2"], at["700.2"]),)
    assert _sentences_only(old, new, linked) == ({at["100.2"]: at["700.2"]}, {}, {})
    old, new = _mini(tmp_path, [("100.2", " ".join(W[:2]))], [("700.1", _reworded(W[0])), ("700.2", " ".join(W[2:4]))])
    assert _sentences_only(old, new, linked) == (
        {at["100.2"]: at["700.2"]},
        {at["100.2"]: [at["700.2"], at["700.1"]]},
        {},
    )


def _numbered(
    old: Document, new: Document, found: tuple[dict[int, int], dict[int, list[int]], dict[int, list[int]]]
) -> tuple[dict[str, str], dict[str, list[str]], dict[str, list[str]]]:
    """What _sentences_only found, by number."""
    links, splits, merges = found
    na = {k: str(r.number) for k, r in enumerate(old.rules)}
    nb = {k: str(r.number) for k, r in enumerate(new.rules)}
    return (
        {na[i]: nb[j] for i, j in links.items()},
        {na[i]: [nb[j] for j in js] for i, js in splits.items()},
        {nb[j]: [na[i] for i in olds] for j, olds in merges.items()},
    )


def test_a_text_saying_runs_of_several_texts_goes_to_none(tmp_path: Path) -> None:
    # 700.1 says the first sentence of 100.2 and of 100.3 alike: which of them it came from is not told.
    old, new = _mini(
        tmp_path, [("100.2", " ".join(W[:2])), ("100.3", " ".join((W[0], W[2])))], [("700.1", _reworded(W[0]))]
    )
    assert _numbered(old, new, _sentences_only(old, new)) == ({}, {}, {})
    old, new = _mini(tmp_path, [("100.2", " ".join(W[:2]))], [("700.1", _reworded(W[0]))])
    assert _numbered(old, new, _sentences_only(old, new)) == ({"100.2": "700.1"}, {}, {})


def test_a_sentence_two_texts_say_is_given_to_neither(tmp_path: Path) -> None:
    # 100.2 and 100.3 both say 700.1's first sentence; 100.3 also says 700.2's first (it is counted against 700.1's
    # all the same) ...
    first = "Alpha bravo charlie delta echo foxtrot golf hotel."
    news = [
        ("700.1", " ".join((first, W[1], W[2]))),
        ("700.2", " ".join(("Alpha bravo charlie delta india juliet kilo lima.", W[3], W[4]))),
    ]
    twice = [
        ("100.2", "Alpha bravo charlie delta echo foxtrot golf zinc."),
        ("100.3", "Alpha bravo charlie delta echo foxtrot kilo lima."),
    ]
    old, new = _mini(tmp_path, twice, news)
    assert _numbered(old, new, _sentences_only(old, new)) == ({}, {}, {})
    old, new = _mini(tmp_path, twice[:1], news)
    assert _numbered(old, new, _sentences_only(old, new)) == ({"100.2": "700.1"}, {}, {})
    # ... and so does a text saying it with the sentence after it.
    overlapping = [("100.2", _reworded(W[0])), ("100.3", " ".join((_reworded(W[0], "tin"), _reworded(W[1], "iron"))))]
    old, new = _mini(tmp_path, overlapping, [("700.1", " ".join(W[:4]))])
    assert _numbered(old, new, _sentences_only(old, new)) == ({}, {}, {})


def test_a_hand_unlink_is_not_made_again_here(tmp_path: Path) -> None:
    old, new = _mini(
        tmp_path, [("100.2", " ".join(W[:3]))], [("700.1", _reworded(W[0])), ("700.2", _reworded(W[1], "tin"))]
    )
    assert _moved(old, new, align(old, new))[0][0] == Kind.SPLIT
    unlinked_stays_removed(old, new, "100.2")


@settings(max_examples=200, deadline=None)
@given(st.dictionaries(st.integers(0, 30), WORDS, max_size=8), st.dictionaries(st.integers(0, 30), WORDS, max_size=8))
def test_the_search_misses_no_holder_with_half_the_words(
    bags: dict[int, frozenset[str]], have: dict[int, frozenset[str]]
) -> None:
    found = near(bags, have)
    for x, bag in bags.items():
        want = [k for k in sorted(have) if 2 * len(bag & have[k]) >= len(bag)]
        assert found.get(x, []) == want, (bag, have)
