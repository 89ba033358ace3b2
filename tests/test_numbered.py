"""read_body's fast paths read what the number grammar reads: a rule number made from the regex's parts is
RuleNumber.parse of its spelling, and repeats are counted per number whatever its spelling."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rulediff.errors import ParseError
from rulediff.model import LOST_RULE
from rulediff.numbering import RuleNumber
from rulediff.parsers.build import TreeBuilder
from rulediff.parsers.numbered import RULE_RE, Paragraph, read_body

# Digits as the regex's \d reads them: ASCII and others (int() reads both).
_DIGIT = st.sampled_from("0123456789")
_SPELLING = st.builds(
    lambda h, d2, r, letters: f"{h}{d2}.{r}{letters}",
    st.sampled_from("123456789"),
    st.text(_DIGIT, min_size=2, max_size=2),
    st.text(_DIGIT, min_size=1, max_size=3),
    st.text(st.sampled_from("abklmoz"), max_size=2),
)


_BLANK_RUNS = st.sampled_from(["", " ", "\u00a0", "  ", " \t", "\t ", " \u00a0 "])
_RESTS = st.sampled_from(["", "Text.", "702.1 Text.", " x", "702.1a Twice."])


@given(_SPELLING, st.sampled_from(["", "."]), _BLANK_RUNS, _RESTS, st.booleans())
def test_a_rule_paragraph_reads_the_number_parse_reads(
    spelling: str, dot: str, space: str, rest: str, twice: bool
) -> None:
    text = spelling + dot + space + (f"{spelling} {rest}" if twice else rest)
    m = RULE_RE.match(text)
    assert m is not None
    b = TreeBuilder("x.txt")
    read_body([Paragraph(1, text, False)], b, wrapped=False)
    rules, warnings = b.build()
    # Read again: now from the token the first reading remembered, with the same result.
    again = TreeBuilder("x.txt")
    read_body([Paragraph(1, text, False)], again, wrapped=False)
    assert again.build() == (rules, warnings)
    # A rule only when the number stands apart (read off the match: "100.0" twice with nothing between
    # reads as the number 100.010 run into its text, which is no rule).
    if m["space"] or m["dot"] or not m["rest"]:
        want = RuleNumber.parse(m["num"])
        assert len(rules) == 1 and rules[0].number == want
        got = rules[0].number
        assert got is not None
        assert (got.section, got.heading, got.rule, got.letters) == (
            want.section,
            want.heading,
            want.rule,
            want.letters,
        )
        assert hash(got) == hash(want) and str(got) == str(want)


def test_make_is_the_constructor() -> None:
    for parts in [(7,), (7, 702), (7, 702, 15), (7, 704, 5, "aa")]:
        made, built = RuleNumber.make(*parts), RuleNumber(*parts)  # type: ignore[arg-type]
        assert made == built and hash(made) == hash(built) and repr(made) == repr(built)


def test_repeats_are_counted_per_number_whatever_the_spelling() -> None:
    half = TreeBuilder.MAX_REPEATS // 2 + 1
    paras = [
        Paragraph(i, f"{spelling}. Text.", False) for i, spelling in enumerate(["100.1"] * half + ["100.01"] * half)
    ]
    with pytest.raises(ParseError, match="rule 100.1 appears more than"):
        read_body(paras, TreeBuilder("x.txt"), wrapped=False)


# Digits no rule number is printed in (another script, fullwidth forms: the first of each run of ten), and
# characters a copy can slip into a number (invisible joiners and spaces, combining marks, a keycap).
_SCRIPTS = st.sampled_from(["\u0660", "\u0966", "\uff10"])
_SLIPPED = st.sampled_from(["\u200d", "\u200b", "\u0301", "\ufe0f\u20e3", "\u2060", "\ufeff"])


@given(
    _SPELLING, st.one_of(_SCRIPTS.map(lambda z: ("digit", z)), _SLIPPED.map(lambda c: ("slip", c))), st.integers(0, 5)
)
def test_a_number_the_grammar_does_not_read_is_text_and_says_a_rule_is_lost(
    spelling: str, odd: tuple[str, str], at: int
) -> None:
    """A rule number is one only as the grammar reads it (ASCII digits): a paragraph whose number holds any
    other character is read as text of the rule before, with a lost-rule warning at its line."""
    how, c = odd
    digits = [k for k, ch in enumerate(spelling) if ch.isdigit()]
    if how == "digit":  # the same digit, written in another script
        k = digits[at % len(digits)]
        number = spelling[:k] + chr(ord(c) + int(spelling[k])) + spelling[k + 1 :]
    else:
        k = min(at, len(spelling))
        number = spelling[:k] + c + spelling[k:]
    text = number + ". Lifelink"
    b = TreeBuilder("x.txt")
    read_body([Paragraph(1, "100.1. First rule.", False), Paragraph(3, text, False)], b, wrapped=False)
    rules, warnings = b.build()
    assert [str(r.number) for r in rules] == ["100.1"]
    assert text in rules[0].text
    lost = [w for w in warnings if w.code == LOST_RULE]
    assert [w.line for w in lost] == [3] and f"looks like rule {spelling}" in lost[0].message
