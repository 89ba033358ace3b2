"""Rule-number grammar: table-driven parse/format/order cases, cross-references, and property tests."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rulediff.numbering import LETTERS, Level, RuleNumber, letter_index, letters_at
from rulediff.references import find_references

N = RuleNumber.parse


@pytest.mark.parametrize(
    ("text", "level", "parent"),
    [
        ("7", Level.SECTION, None),
        ("702", Level.HEADING, "7"),
        ("702.", Level.HEADING, "7"),
        ("702.15", Level.RULE, "702"),
        ("702.15.", Level.RULE, "702"),
        ("702.15b", Level.SUBRULE, "702.15"),
        ("704.5aa", Level.SUBRULE, "704.5"),
        ("100.1", Level.RULE, "100"),
    ],
)
def test_parse_level_parent(text: str, level: Level, parent: str | None) -> None:
    n = N(text)
    assert n.level == level
    assert (str(n.parent) if n.parent else None) == parent
    assert str(n) == text.rstrip(".")


@pytest.mark.parametrize("bad", ["", "0", "70", "7022", "702.15B", "702.15abc", "702..1", "a702", "702.1 5", "1000.1"])
def test_parse_rejects(bad: str) -> None:
    assert RuleNumber.try_parse(bad) is None
    with pytest.raises(ValueError):
        N(bad)


@pytest.mark.parametrize(
    ("lo", "hi"),
    [
        ("702.9", "702.10"),
        ("702.10", "702.10a"),
        ("701.4a", "701.49a"),
        ("7", "700"),
        ("700", "700.1"),
        ("704.5z", "704.5aa"),
        ("699.9z", "7"),
        ("100.1a", "100.2"),
    ],
)
def test_natural_order(lo: str, hi: str) -> None:
    assert N(lo) < N(hi)
    assert not N(hi) < N(lo)


def test_letters_skip_l_and_o() -> None:
    assert "l" not in LETTERS and "o" not in LETTERS
    assert letters_at(letter_index("k")) == "k"
    assert letters_at(letter_index("k") + 1) == "m"
    assert letters_at(letter_index("z") + 1) == "aa"
    assert not N("702.15l").letters_valid
    assert N("702.15m").letters_valid


@pytest.mark.parametrize(
    ("text", "targets"),
    [
        ("see rule 702.15, \u201cLifelink.\u201d", ["702.15"]),
        ("rules 601.2b\u2013h", ["601.2b", "601.2c", "601.2d", "601.2e", "601.2f", "601.2g", "601.2h"]),
        ("steps 601.2f-h", ["601.2f", "601.2g", "601.2h"]),
        ("rules 119.9\u201310", ["119.9", "119.10"]),
        ("rules 702.15 and 702.16", ["702.15", "702.16"]),
        ("see rules 510.1c-d, 702.19, and 702.22", ["510.1c", "510.1d", "702.19", "702.22"]),
        ("See rule 611, \u201cContinuous Effects.\u201d", ["611"]),
        ("see section 7", ["7"]),
        ("It has 2 counters and 702.15 isn't there", ["702.15"]),
        ("Example: A 3/3 creature deals 100 damage.", []),
        ("rules 601.2k-l", ["601.2k"]),
    ],
)
def test_find_references(text: str, targets: list[str]) -> None:
    got = [str(t) for r in find_references(text) for t in r.targets]
    assert got == targets


def test_reference_spans_point_into_text() -> None:
    text = "as described in rules 601.2b\u2013h and rule 702.15."
    for r in find_references(text):
        assert text[r.start : r.end] == r.text


numbers = st.one_of(
    st.integers(1, 9).map(lambda s: RuleNumber(s)),
    st.integers(100, 999).map(lambda h: RuleNumber(h // 100, h)),
    st.tuples(st.integers(100, 999), st.integers(1, 300)).map(lambda t: RuleNumber(t[0] // 100, t[0], t[1])),
    st.tuples(st.integers(100, 999), st.integers(1, 300), st.integers(0, 24 * 25 - 1)).map(
        lambda t: RuleNumber(t[0] // 100, t[0], t[1], letters_at(t[2]))
    ),
)


@given(numbers)
def test_format_parse_round_trip(n: RuleNumber) -> None:
    assert N(str(n)) == n
    assert N(str(n) + ".") == n


@given(numbers)
def test_parent_is_smaller_and_ancestor(n: RuleNumber) -> None:
    for a in n.ancestors():
        assert a < n
        assert a.is_ancestor_of(n)


@given(st.lists(numbers, min_size=2, max_size=30))
def test_sort_is_total_and_consistent_with_strings_of_equal_shape(ns: list[RuleNumber]) -> None:
    ordered = sorted(ns)
    for a, b in zip(ordered, ordered[1:], strict=False):
        assert a <= b
    assert sorted(ordered, key=lambda n: n.sort_key) == ordered


@given(st.integers(0, 24 * 25 - 1))
def test_letter_index_round_trip(i: int) -> None:
    assert letter_index(letters_at(i)) == i


@given(st.text(alphabet=st.sampled_from(list("0123456789.-\u2013abhlo ,rulesRuleandothrough")), max_size=80))
def test_find_references_never_fails_and_spans_are_exact(text: str) -> None:
    for r in find_references(text):
        assert text[r.start : r.end] == r.text
        assert r.targets
        for t in r.targets:
            assert RuleNumber.parse(str(t)) == t


# Words and marks a reference is made of, and the spaces and digits that make a start of one doubtful.
_REFERENCE_PIECES = [
    *["rule", "rules", "Rules", "section", "Sections", "sections", "ru", "s", "e", "x", "and", "a", "b"],
    *["rule ", "Rules ", "section ", "sections\u00a0", "rules  ", "xrule ", "see ", "123", "702.15", "7", "10"],
    *[" ", "  ", "\u00a0", "\n", "\t", "1", "2", "0", "9", "-", "\u2013", ".", ","],
]


def _same_search(text: str, pos: int) -> None:
    from rulediff.references import _REF_RE, _search_reference

    want, got = _REF_RE.search(text, pos), _search_reference(text, pos)
    assert (got is None) == (want is None)
    if want is not None and got is not None:
        assert got.span() == want.span()
        assert got.groupdict() == want.groupdict()
        assert [got.span(g) for g in ("lead", "first", "tail")] == [want.span(g) for g in ("lead", "first", "tail")]


@pytest.mark.parametrize(
    ("text", "pos"),
    [
        ("rule 123", 0),  # the shortest lead-in, a bare number
        ("see rules 702.15 and", 0),
        ("Sections\u00a0 \t123", 0),  # the longest, before several kinds of space
        ("xrule 123", 0),  # no word boundary: no lead-in, and a bare number alone is none
        ("rule 1234 or 702.1", 0),  # too many digits, then a dotted number
        ("rule 123", 1),  # the lead-in starts before the search does
        ("rules 702.15", 6),  # the search starts at the number
        ("1702.15", 0),  # the number starts inside a run of digits
        ("", 0),
    ],
)
def test_reference_search_cases(text: str, pos: int) -> None:
    _same_search(text, pos)


@settings(max_examples=1000)
@given(st.lists(st.sampled_from(_REFERENCE_PIECES), max_size=12).map("".join), st.integers(0, 20))
def test_reference_search_is_the_grammars_search(text: str, pos: int) -> None:
    """The search that tries the grammar only where a match can start finds what the regex's own search
    finds, from any position: the same match, spans and groups."""
    _same_search(text, pos)


@pytest.mark.parametrize(
    ("text", "most"),
    [
        ("1" * 20000, 1),  # a run of digits holds one place a number can start
        ("123 " * 5000, 5000 * 6),  # each number, and the five places a lead-in before it can start
        (" " * 20000 + "123", 6),
        ("rules 1234 " * 2000, 2000),  # "234" after a digit: tried there alone
        ("see rule 702.15 " * 2000, 2000 * 5),  # each reference found from its lead-in
    ],
)
def test_reference_search_tries_the_grammar_a_bounded_number_of_times(
    monkeypatch: pytest.MonkeyPatch, text: str, most: int
) -> None:
    """The grammar is tried at few places per number, never at every position of a hostile text."""
    from rulediff import references as numbering

    tried = []
    grammar = numbering._REF_RE

    class Counted:
        def match(self, t: str, at: int) -> object:
            tried.append(at)
            return grammar.match(t, at)

    monkeypatch.setattr(numbering, "_REF_RE", Counted())
    numbering._references.__wrapped__(text)
    assert len(tried) <= most


def _parse_by_grammar(text: str) -> RuleNumber | None:
    """The number grammar alone (the regex), which parse's fast path for plain spellings must equal."""
    from rulediff.numbering import _NUMBER_RE

    s = text.strip()
    if s.endswith(".") and len(s) > 1:
        s = s[:-1]
    m = _NUMBER_RE.match(s)
    if not m:
        return None
    if m.group("section"):
        return RuleNumber(int(m.group("section")))
    rule = m.group("rule")
    heading = int(m.group("heading"))
    return RuleNumber(heading // 100, heading, int(rule) if rule is not None else None, m.group("letters") or "")


@given(st.text(alphabet="0123456789.abzA \u0663-", max_size=10))
def test_parse_equals_the_grammar(text: str) -> None:
    got = RuleNumber.try_parse(text)
    want = _parse_by_grammar(text)
    assert got == want
    if got is not None and want is not None:
        parts = (got.section, got.heading, got.rule, got.letters)
        assert parts == (want.section, want.heading, want.rule, want.letters)
