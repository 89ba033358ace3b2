"""A heading folded into another that goes on, and its copies of rules there (matcher/folded.py): on the official
releases, and on small ones where each guard is met alone."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from rulediff.matcher.classify import align
from rulediff.matcher.folded import _moved, folds
from rulediff.matcher.records import Kind
from rulediff.matcher.sides import prepared
from rulediff.model import Document

from .aligned import change_of, numbers, official_pair
from .conftest import needs_cr_corpus
from .test_held import _SAME, W, _release

# One rule said of two kinds of card: a copy of the other but for that word (9 of its 10 content words are there).
COPY = "If an effect allows a player to cast a {} card face down, that card has only the characteristics the effect "
COPY += "gives it."
DOUBLE = [("101", "Double Cards"), ("101.1", W[0]), ("101.2", W[1]), ("101.3", COPY.format("double"))]
MELD = [("102", "Meld Cards"), ("102.1", W[2]), ("102.2", W[3]), ("102.3", COPY.format("meld"))]
# The double-faced rules with the meld rules' two texts after them: 102 folded into 101.
FOLDED = [*DOUBLE, ("101.4", W[2]), ("101.5", W[3])]


def _releases(tmp: Path, olds: list[tuple[str, str]], news: list[tuple[str, str]]) -> tuple[Document, Document]:
    """Old and new rules under section 1 after 100.1, which stays."""
    old = _release(tmp / "old.txt", [("1. Game Concepts", "100. General", [_SAME, *olds])])
    new = _release(tmp / "new.txt", [("1. Game Concepts", "100. General", [_SAME, *news])])
    return old, new


def _groups(old: Document, new: Document) -> list[tuple[Kind, list[str], list[str], bool]]:
    """The changes but those unchanged or renumbered (the texts that went under the other heading)."""
    return [
        (ch.kind, numbers(old, ch.old), numbers(new, ch.new), ch.uncertain)
        for ch in align(old, new).changes
        if ch.kind not in (Kind.UNCHANGED, Kind.RENUMBERED)
    ]


@needs_cr_corpus
def test_2023_meld_cards_folded_into_double_faced_cards() -> None:
    old, new, al = official_pair("2023-02-03", "2023-04-14")
    heading = change_of(old, al, "713")
    assert heading.kind == Kind.MERGED and numbers(old, heading.old) == ["712", "713"] and heading.uncertain
    assert numbers(new, heading.new) == ["712"]
    assert heading.reason.endswith("713 folded into it (5 of the 5 rules under it with a counterpart went there)")
    # 713.10 is 712.15 but for "meld card", and 712.15 continues the old 712.11 word for word.
    copy = change_of(old, al, "713.10")
    assert copy.kind == Kind.MERGED and numbers(old, copy.old) == ["712.11", "713.10"]
    assert numbers(new, copy.new) == ["712.15"]
    assert "713.10 went there too, a copy under the heading folded into it (92% of its words are there)" in copy.reason
    for number, into in (("713.11", "712.16"), ("713.12", "712.19"), ("713.4a", "712.8a")):
        assert numbers(new, change_of(old, al, number).new) == [into]
    # 713.6 says less than most of its words anywhere (712.6, 45%): still removed, its closest text named.
    gone = change_of(old, al, "713.6")
    assert gone.kind == Kind.REMOVED and gone.closest is not None and gone.closest.number == "712.6"
    # Read the other way, 713 and its copies came out of 712 and the rules they copy.
    _, _, back = official_pair("2023-04-14", "2023-02-03")
    split = change_of(new, back, "712")
    assert split.kind == Kind.SPLIT and numbers(old, split.new) == ["712", "713"]
    assert numbers(old, change_of(new, back, "712.15").new) == ["712.11", "713.10"]


@needs_cr_corpus
def test_2019_tokens_came_out_of_permanents() -> None:
    # 2019-07-12's 111 Tokens is the old 110.5-110.5g, subrules become rules: 111 came out of 110.
    old, new, al = official_pair("2019-06-14", "2019-07-12")
    ch = change_of(old, al, "110")
    assert ch.kind == Kind.SPLIT and numbers(new, ch.new) == ["110", "111"] and ch.uncertain
    assert numbers(new, change_of(old, al, "110.5a").new) == ["111.2"]


@needs_cr_corpus
def test_2009_infinite_loops_moved_under_taking_shortcuts() -> None:
    # 421's rules with a counterpart all went under the new 713, and 713's all came from under 421: most of each is
    # new or gone (421.2, 421.3 and 421.5 were read as gone, tests/fixtures/align/hand-checked/removed-2009.tsv).
    old, new, al = official_pair("2009-05-01", "2009-07-11")
    ch = change_of(old, al, "421")
    assert numbers(new, ch.new) == ["713"] and ch.uncertain
    assert ch.reason.endswith(
        "3 of the 3 rules under 421 with a counterpart went under 713, and 2 of the 2 under 713 came from under 421"
    )
    _, _, back = official_pair("2009-07-11", "2009-05-01")
    assert numbers(old, change_of(new, back, "713").new) == ["421"]


def test_a_heading_folded_whole_joins_the_link_either_way_round(tmp_path: Path) -> None:
    old, new = _releases(tmp_path, [*DOUBLE, *MELD], FOLDED)
    assert _groups(old, new) == [
        (Kind.MERGED, ["101", "102"], ["101"], True),
        (Kind.MERGED, ["101.3", "102.3"], ["101.3"], True),
    ]
    assert _groups(new, old) == [
        (Kind.SPLIT, ["101"], ["101", "102"], True),
        (Kind.SPLIT, ["101.3"], ["101.3", "102.3"], True),
    ]


def test_one_rule_gone_there_is_no_fold(tmp_path: Path) -> None:
    # Only 102.1 has a counterpart (102.2 says something new): one rule is not a heading's rules (FOLDED_RULES).
    meld = [*MELD[:2], ("102.3", COPY.format("meld"))]
    old, new = _releases(tmp_path, [*DOUBLE, *meld], [*DOUBLE, ("101.4", W[2])])
    assert (Kind.REMOVED, ["102"], [], False) in _groups(old, new)
    assert (Kind.REMOVED, ["102.3"], [], False) in _groups(old, new)


def test_half_its_rules_gone_there_is_no_fold(tmp_path: Path) -> None:
    # 102.1 and 102.2 went under 101, 102.4 and 102.5 under 103: not more than half.
    meld = [*MELD, ("102.4", W[4]), ("102.5", _SAME[1].replace("Jasper", "Quartz"))]
    stays = ("103.1", _SAME[1].replace("Jasper", "Rubble"))
    other = [("103", "Other Cards"), ("103.2", W[4]), ("103.3", meld[-1][1]), stays]
    old, new = _releases(tmp_path, [*DOUBLE, *meld, ("103", "Other Cards"), stays], [*FOLDED, *other])
    assert (Kind.REMOVED, ["102"], [], False) in _groups(old, new)


def test_a_copy_under_a_heading_that_goes_on_stays_removed(tmp_path: Path) -> None:
    # 102 goes on (a copy of a template whose heading stays is removed, not folded: 2015's 702.72b).
    old, new = _releases(tmp_path, [*DOUBLE, *MELD], [*DOUBLE, *MELD[:3]])
    assert _groups(old, new) == [(Kind.REMOVED, ["102.3"], [], False)]


def test_a_heading_whose_rules_went_under_a_text_is_no_fold(tmp_path: Path) -> None:
    # The old heading 100.3's rules are the new 100.2a-b, under the text 100.2: no heading folds into a text.
    olds = [("100.2", W[4]), ("100.3", "Details"), ("100.3a", W[0]), ("100.3b", W[1])]
    news = [("100.2", W[4]), ("100.2a", W[0]), ("100.2b", W[1])]
    old, new = _releases(tmp_path, olds, news)
    assert _groups(old, new) == [(Kind.REMOVED, ["100.3"], [], False)]


def test_a_copy_that_says_too_little_there_stays_removed(tmp_path: Path) -> None:
    # 102.3 has half its words in 101.3 (CONTAINED); 102.6 has all its words there, but too few to tell it from
    # another (CONTAINED_WORDS).
    meld = [
        *MELD[:3],
        ("102.3", "If an effect allows a player to cast a meld card, it gains flying and haste."),
        ("102.6", "A double card has the characteristics."),
    ]
    old, new = _releases(tmp_path, [*DOUBLE, *meld], FOLDED)
    groups = _groups(old, new)
    assert (Kind.MERGED, ["101", "102"], ["101"], True) in groups
    assert (Kind.REMOVED, ["102.3"], [], False) in groups and (Kind.REMOVED, ["102.6"], [], False) in groups


def test_a_copy_as_like_two_rules_there_joins_neither(tmp_path: Path) -> None:
    # 101.3 and 101.6 say the same for double and triple cards; the meld copy is as like both.
    double = [*DOUBLE, ("101.6", COPY.format("triple"))]
    old, new = _releases(tmp_path, [*double, *MELD], [*double, ("101.7", W[2]), ("101.8", W[3])])
    groups = _groups(old, new)
    assert (Kind.MERGED, ["101", "102"], ["101"], True) in groups
    assert (Kind.REMOVED, ["102.3"], [], False) in groups


def test_a_fold_and_a_split_on_one_link_make_neither(tmp_path: Path) -> None:
    # 102's rules went under 101, while the new 103 is made of 101's: both touch the link 101 -> 101. 102's copy of
    # 101.6, which stays, does not join it either (a copy joins with its heading or not at all).
    double = [("101", "Double Cards"), ("101.1", W[0]), ("101.2", W[1]), ("101.3", W[4])]
    double.append(("101.6", COPY.format("double")))
    olds = [*double, *MELD]
    news = [double[0], *double[3:], ("101.4", W[2]), ("101.5", W[3])]
    news += [("103", "Other Cards"), ("103.1", W[0]), ("103.2", W[1])]
    old, new = _releases(tmp_path, olds, news)
    groups = _groups(old, new)
    assert (Kind.REMOVED, ["102"], [], False) in groups and (Kind.ADDED, [], ["103"], False) in groups
    assert (Kind.REMOVED, ["102.3"], [], False) in groups


def test_a_text_whose_subrules_went_under_a_heading_is_no_fold(tmp_path: Path) -> None:
    # The old 100.3 is a text (gone) whose subrules are the new 100.2b-c, under the heading 100.2: the text is
    # removed, not folded.
    gone = ("100.3", _SAME[1].replace("Jasper", "Quartz"))
    olds = [("100.2", "Details"), ("100.2a", W[0]), gone, ("100.3a", W[1]), ("100.3b", W[2])]
    news = [("100.2", "Details"), ("100.2a", W[0]), ("100.2b", W[1]), ("100.2c", W[2])]
    old, new = _releases(tmp_path, olds, news)
    assert (Kind.REMOVED, ["100.3"], [], False) in _groups(old, new)


def _folds(
    old: Document,
    new: Document,
    links: dict[str, str],
    dest: dict[str, list[str]],
    free: list[str],
    taken: tuple[set[str], set[str]] = (set(), set()),
) -> list[dict[str, str]]:
    """folds() old -> new by numbers: ``links`` the one-to-one links (new continues old), ``dest`` where the rules
    with a counterpart went, ``free`` the nodes left unpaired, ``taken`` those in a split or merge already."""
    a, b = prepared(old), prepared(new)
    at_a = {str(r.number): k for k, r in enumerate(old.rules)}
    at_b = {str(r.number): k for k, r in enumerate(new.rules)}
    b2a = {at_b[y]: at_a[x] for x, y in links.items()}
    to = {at_a[x]: [at_b[y] for y in ys] for x, ys in dest.items()}
    held = ({at_a[x] for x in taken[0]}, {at_b[y] for y in taken[1]})
    out = folds(a, b, lambda i: to.get(i, []), b2a, held, {at_a[x] for x in free}, ("{}", "{}"))
    return [{a.labels[i] or "": b.labels[x] or "" for i, (x, _) in fold.items()} for fold in out]


# The links of FOLDED's releases but 102's, and where 102's two rules went.
_LINKS = {"100.1": "100.1", "101": "101", "101.1": "101.1", "101.2": "101.2", "101.3": "101.3"}
_WENT = {"102.1": ["101.4"], "102.2": ["101.5"]}


def test_only_a_heading_folds(tmp_path: Path) -> None:
    # The old 100.3 is a text whose subrules went under the heading 100.2, which goes on: 100.3 is no heading.
    gone = ("100.3", _SAME[1].replace("Jasper", "Quartz"))
    olds = [("100.2", "Details"), ("100.2a", W[0]), gone, ("100.3a", W[1]), ("100.3b", W[2])]
    news = [("100.2", "Details"), ("100.2a", W[0]), ("100.2b", W[1]), ("100.2c", W[2])]
    old, new = _releases(tmp_path, olds, news)
    went = {"100.3a": ["100.2b"], "100.3b": ["100.2c"]}
    assert _folds(old, new, {"100.2": "100.2", "100.2a": "100.2a"}, went, ["100.3"]) == []


def test_a_link_already_in_a_group_is_joined_by_nothing(tmp_path: Path) -> None:
    old, new = _releases(tmp_path, [*DOUBLE, *MELD], FOLDED)
    free = ["102", "102.3"]
    links = _LINKS | {"102.1": "101.4", "102.2": "101.5"}

    def found(taken_a: set[str], taken_b: set[str]) -> list[dict[str, str]]:
        return _folds(old, new, links, {**{x: [y] for x, y in links.items()}}, free, (taken_a, taken_b))

    assert found(set(), set()) == [{"102": "101", "102.3": "101.3"}]
    # The heading's home, or its partner, in a split or a merge: nothing folds there.
    assert found(set(), {"101"}) == [] and found({"101"}, set()) == []
    # The copy's rule, or that rule's partner, in one: the heading folds, the copy stays.
    assert found(set(), {"101.3"}) == [{"102": "101"}] and found({"101.3"}, set()) == [{"102": "101"}]


def test_two_rules_to_two_places_both_count(tmp_path: Path) -> None:
    old, new = _releases(tmp_path, [*DOUBLE, *MELD], FOLDED)
    free = ["102", "102.3"]
    # Two rules, both to one place (a rule split in two, read the other way: 2009's 111.1 and the old 401.1-2).
    assert _folds(old, new, _LINKS, {"102.1": ["101.4"], "102.2": ["101.4"]}, free) == []
    # Two places, from one rule.
    assert _folds(old, new, _LINKS, {"102.1": ["101.4", "101.5"]}, free) == []


def test_a_heading_as_much_under_two_homes_folds_into_neither(tmp_path: Path) -> None:
    other = [("103", "Other Cards"), ("103.1", W[4]), ("103.2", W[2]), ("103.3", W[3])]
    old, new = _releases(tmp_path, [*DOUBLE, *MELD, *other[:2]], [*FOLDED, *other])
    links = _LINKS | {"103": "103", "103.1": "103.1"}
    went = {"102.1": ["101.4", "103.2"], "102.2": ["101.5", "103.3"]}
    assert _folds(old, new, links, went, ["102", "102.3"]) == []


def test_a_heading_whose_rules_are_mostly_new_is_no_fold(tmp_path: Path) -> None:
    # Two of 102's seven rules went under 101, the rest with no counterpart: less than a third (FOLDED_SHARE).
    more = [
        (f"102.{k}", f"{W[4].rstrip('.')} {word}.")
        for k, word in zip(range(4, 8), ("one", "two", "three", "four"), strict=True)
    ]
    old, new = _releases(tmp_path, [*DOUBLE, *MELD, *more], FOLDED)
    assert _folds(old, new, _LINKS, _WENT, ["102", "102.3", *(n for n, _ in more)]) == []
    # Of six, two is a third.
    old, new = _releases(tmp_path, [*DOUBLE, *MELD, *more[:3]], FOLDED)
    assert _folds(old, new, _LINKS, _WENT, ["102", "102.3", *(n for n, _ in more[:3])]) != []


def test_the_home_and_its_partner_are_headings_each(tmp_path: Path) -> None:
    # 100.3's rules went under the new 100.2; a heading folds there only when 100.2 is a heading and continues one.
    olds = [("100.2", W[4]), ("100.3", "Details"), ("100.3a", W[0]), ("100.3b", W[1]), ("100.4", "Others")]
    went = {"100.3a": ["100.2a"], "100.3b": ["100.2b"]}
    titled = [("100.2", "Details"), ("100.2a", W[0]), ("100.2b", W[1])]
    old, new = _releases(tmp_path, olds, titled)
    assert _folds(old, new, {"100.4": "100.2"}, went, ["100.3"]) == [{"100.3": "100.2"}]
    assert _folds(old, new, {"100.2": "100.2"}, went, ["100.3"]) == []  # (its partner, the old 100.2, a text)
    untitled = [("100.2", W[4]), ("100.2a", W[0]), ("100.2b", W[1])]
    old, new = _releases(tmp_path, olds, untitled)
    assert _folds(old, new, {"100.4": "100.2"}, went, ["100.3"]) == []  # (the new 100.2 a text)


def test_a_heading_folds_only_into_one_at_its_own_level(tmp_path: Path) -> None:
    # 100.3's rules went to 101.1a and 101.1b, printed without a 101.1: under 101, a heading one level up.
    olds = [("100.3", "Details"), ("100.3a", W[0]), ("100.3b", W[1]), ("101", "Double Cards"), ("101.1", W[2])]
    news = [("101", "Double Cards"), ("101.1", W[2]), ("101.1a", W[0]), ("101.1b", W[1])]
    old, new = _releases(tmp_path, olds, news)
    went = {"100.3a": ["101.1a"], "100.3b": ["101.1b"]}
    assert _folds(old, new, {"101": "101", "101.1": "101.1"}, went, ["100.3"]) == []
    orphans = replace(new, rules=tuple(r for r in new.rules if str(r.number) != "101.1"))
    assert _folds(old, orphans, {"101": "101"}, went, ["100.3"]) == []


def test_half_its_rules_or_fewer_gone_there_is_no_fold(tmp_path: Path) -> None:
    # Of 102's four rules with a counterpart, two went under 101, one under 100, one under 103: not more than half.
    other = [("103", "Other Cards"), ("103.1", W[4])]
    old, new = _releases(tmp_path, [*DOUBLE, *MELD, ("102.4", W[4])], [*FOLDED, *other])
    went = {**_WENT, "102.3": ["100.1"], "102.4": ["103.1"]}
    assert _folds(old, new, _LINKS | {"102.4": "103.1"}, went, ["102"]) == []
    assert _folds(old, new, _LINKS | {"102.4": "103.1"}, {**_WENT, "102.4": ["103.1"]}, ["102"]) != []


def test_a_copy_under_two_folding_headings_joins_once(tmp_path: Path) -> None:
    # 102.4c is under 102.4 "Meld Copies", itself under 102: both fold, and the copy joins 101.6c with the outer one.
    said = "When a {} card is turned face up, its controller reveals it and every player sees both its faces."
    copies = [("101.6", "Copies"), ("101.6c", said.format("double"))]
    inner = [("102.4", "Meld Copies"), ("102.4a", W[4]), ("102.4b", _SAME[1].replace("Jasper", "Quartz"))]
    olds = [*DOUBLE, *copies, *MELD[:3], *inner, ("102.4c", said.format("meld"))]
    news = [*FOLDED, copies[0], ("101.6a", inner[1][1]), ("101.6b", inner[2][1]), copies[1]]
    old, new = _releases(tmp_path, olds, news)
    links = _LINKS | {"101.6": "101.6", "101.6c": "101.6c"}
    went = {**_WENT, "102.4a": ["101.6a"], "102.4b": ["101.6b"]}
    folded = _folds(old, new, links, went, ["102", "102.4", "102.4c"])
    assert folded == [{"102": "101", "102.4c": "101.6c"}, {"102.4": "101.6"}]


# A heading left unpaired whose rules went under a heading left unpaired on the other side, from which they all came
# (2009-07-11's 421 "Handling 'Infinite' Loops" and the new 713 "Taking Shortcuts"): most of each is new or gone.
GONE = [f"{W[4].rstrip('.')} {word}." for word in ("one", "two", "three")]
NEW = [f"{W[3].rstrip('.')} {word}." for word in ("four", "five", "six")]
LOOPS = [("102", "Loops"), ("102.1", W[0]), ("102.2", W[1]), *((f"102.{k}", t) for k, t in enumerate(GONE, 3))]
SHORTCUTS = [("103", "Shortcuts"), ("103.1", NEW[0]), ("103.2", W[0]), ("103.3", W[1]), ("103.4", NEW[1])]
STAYS = [("101", "Double Cards"), ("101.1", W[2])]


def test_a_heading_moved_under_another_name_is_linked_either_way_round(tmp_path: Path) -> None:
    old, new = _releases(tmp_path, [*STAYS, *LOOPS], [*STAYS, *SHORTCUTS, ("103.5", NEW[2])])
    moved = [g for g in _groups(old, new) if g[1] == ["102"]]
    assert [g[1:] for g in moved] == [(["102"], ["103"], True)]
    ch = change_of(old, align(old, new), "102")
    assert ch.reason.endswith(
        "its rules went there: 2 of the 2 rules under 102 with a counterpart went under 103, and 2 of the 2 under 103"
        " came from under 102"
    )
    back = [g for g in _groups(new, old) if g[1] == ["103"]]
    assert [g[1:] for g in back] == [(["103"], ["102"], True)]


def test_a_heading_is_linked_only_to_where_its_rules_went_from_there_alone(tmp_path: Path) -> None:
    # Two rules of 104, which goes on, went under 103 too: 103 came from 102 and 104 alike, and is no one's move.
    other = [("104", "Other Cards"), ("104.1", W[3]), ("104.2", GONE[0].replace("one", "seven"))]
    more = [("104.3", NEW[2].replace("six", "eight")), ("104.4", NEW[2].replace("six", "nine"))]
    olds = [*STAYS, *LOOPS, *other, *more]
    news = [*STAYS, *SHORTCUTS, ("103.5", more[0][1]), ("103.6", more[1][1]), *other]
    old, new = _releases(tmp_path, olds, news)
    assert (Kind.REMOVED, ["102"], [], False) in _groups(old, new)
    assert (Kind.REMOVED, ["103"], [], False) in _groups(new, old)


def test_a_heading_is_moved_only_to_a_heading_left_unpaired(tmp_path: Path) -> None:
    # 102's rules all went under the new 101, and 101's all came from under 102: a move when the new 101 is left
    # unpaired too, none when it continues the old 101 (then it is a fold, made by folds()).
    olds = [("101", "Double Cards"), ("101.1", GONE[0]), ("102", "Meld Cards"), ("102.1", W[0]), ("102.2", W[1])]
    news = [("101", "Double Cards"), ("101.1", W[0]), ("101.2", W[1])]
    old, new = _releases(tmp_path, olds, news)
    a, b = prepared(old), prepared(new)
    at_a = {str(r.number): k for k, r in enumerate(old.rules)}
    at_b = {str(r.number): k for k, r in enumerate(new.rules)}
    to_b = {at_a["102.1"]: [at_b["101.1"]], at_a["102.2"]: [at_b["101.2"]]}
    to_a = {y[0]: [x] for x, y in to_b.items()}
    dest = (lambda i: to_b.get(i, []), lambda j: to_a.get(j, []))
    free_a = [at_a["101"], at_a["101.1"], at_a["102"]]
    moved = _moved(a, b, dest, (free_a, [at_b["101"]]))
    assert [(p.old, p.new, p.uncertain) for p in moved] == [(at_a["102"], at_b["101"], True)]
    assert _moved(a, b, dest, (free_a, [])) == []
