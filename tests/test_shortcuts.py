"""The matcher's shortcuts answer what the plain definitions answer: the lazily prepared side's tree, the first
pass on equal raw content, remembered similarities, the containment search of splits and merges, and the fast
title key. Each is held to a brute-force reading of its definition."""

from __future__ import annotations

import re
from collections import Counter

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from rapidfuzz import fuzz, process

from rulediff import parse
from rulediff.matcher import likeness, meaning
from rulediff.matcher.leftovers import ContentIndex
from rulediff.matcher.likeness import PER_PAIR, Likeness, OverBudgetError
from rulediff.matcher.passes import Matcher
from rulediff.matcher.sides import UNNUMBERED, Side, title_key
from rulediff.matcher.splits import CONTAINMENT, _Pool
from rulediff.matcher.thresholds import STRUCTURAL_CUTOFF
from rulediff.model import Document
from rulediff.text import WORDS_KEPT_UP_TO, _kept_words, mask_references, normalize, word_tuple, words

from .conftest import CORPUS, cr_file, needs_cr_corpus

SEEDS = sorted(CORPUS.glob("*.txt"))


def _tree(doc: Document) -> tuple[list[int], list[int], list[str | None]]:
    """Levels, parents (the nearest printed ancestor, first printing) and number labels, read plainly."""
    level, parent, labels = [], [], []
    first: dict[str, int] = {}
    printed: Counter[str] = Counter()
    for i, r in enumerate(doc.rules):
        n = r.number
        if n is None:
            level.append(UNNUMBERED)
            parent.append(-1)
            labels.append(None)
            continue
        level.append(int(n.level))
        s = str(n)
        printed[s] += 1
        labels.append(s if printed[s] == 1 else f"{s}#{printed[s]}")
        parent.append(next((first[str(a)] for a in n.ancestors() if str(a) in first), -1))
        first.setdefault(s, i)
    return level, parent, labels


@pytest.mark.parametrize("path", SEEDS, ids=[p.stem for p in SEEDS])
def test_the_side_reads_the_tree_as_the_numbers_say(path) -> None:  # type: ignore[no-untyped-def]
    doc = parse(str(path))
    side = Side(doc)
    level, parent, labels = _tree(doc)
    assert side.level == level
    assert side.parent == parent
    assert side.labels == labels
    assert all(side.children[p].count(i) == 1 for i, p in enumerate(parent) if p >= 0)
    for i, r in enumerate(doc.rules):
        # Comparison forms worked out on demand are the plain ones.
        assert side.masked(i) == mask_references(normalize(r.text))
        siblings = [
            k
            for k, x in enumerate(doc.rules)
            if r.number is not None
            and r.number.parent is not None
            and x.number is not None
            and x.number.parent == r.number.parent
        ]
        assert side.siblings(i) == siblings


@needs_cr_corpus
@pytest.mark.parametrize(("old", "new"), [("2025-11-14", "2026-01-16"), ("2009-05-01", "2009-07-11")])
def test_the_first_pass_pairs_only_what_exact_anchors_would(old: str, new: str) -> None:
    """Every pair made on equal raw content has equal comparison keys, unique on both sides among all
    nodes (the exact pass's own condition), whenever no other node shares the key."""
    a, b = parse(cr_file(old)), parse(cr_file(new))
    m = Matcher(a, b, None)
    m.same_content()
    ka = Counter(m.a.key(i) for i in range(len(a.rules)))
    kb = Counter(m.b.key(j) for j in range(len(b.rules)))
    assert m.a2b
    for i, j in m.a2b.items():
        assert m.a.key(i) == m.b.key(j)
        assert a.rules[i].text == b.rules[j].text
    # And the exact pass alone would have made every one of them but where a key is shared.
    shared = {i for i, j in m.a2b.items() if ka[m.a.key(i)] > 1 or kb[m.b.key(j)] > 1}
    exact = Matcher(a, b, None)
    exact.exact_unique()
    assert {i: j for i, j in m.a2b.items() if i not in shared}.items() <= exact.a2b.items()


_TEXTS = st.lists(st.text(alphabet="abcde f", min_size=0, max_size=12), min_size=0, max_size=12)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(_TEXTS, _TEXTS), min_size=1, max_size=4))
def test_remembered_similarities_are_those_computed_afresh(questions) -> None:  # type: ignore[no-untyped-def]
    """However questions about the same texts follow one another (more columns, fewer, repeated texts),
    each answer is what one fresh scan gives."""
    like = Likeness(STRUCTURAL_CUTOFF)
    for rows, cols in questions:
        got = like.alike(rows, cols)
        for q, row in zip(rows, got, strict=True):
            assert set(row) == _extracted(q, cols)


def _extracted(q: str, cols: list[str]) -> set[tuple[int, float]]:
    """(position, score) of the texts of ``cols`` at least STRUCTURAL_CUTOFF like ``q``: one fresh scan."""
    found = process.extract(q, cols, scorer=fuzz.ratio, score_cutoff=STRUCTURAL_CUTOFF, limit=None)
    return {(y, s) for _, s, y in found}


_WIDER = st.lists(st.text(alphabet="abcde fAé\u2019ł😀", min_size=0, max_size=90), min_size=0, max_size=14)


@settings(max_examples=150, deadline=None)
@given(
    st.lists(st.tuples(_WIDER, _WIDER), min_size=1, max_size=4),
    st.sampled_from([1, 7, 40]),
    st.sampled_from([1, 300, 5e7]),
)
def test_a_block_compared_at_once_scores_as_each_row_alone(questions, block_from, block_chars) -> None:  # type: ignore[no-untyped-def]
    """Texts compared as one block on several threads (any block, under a small BLOCK_FROM, whole or in pieces)
    get the scores one scan per row gives, exactly: the same floats, nothing missed below or above the
    cut-off."""
    like = Likeness(STRUCTURAL_CUTOFF, block_from=block_from)
    kept = likeness.THREADS, likeness.BLOCK_CHARS
    likeness.THREADS, likeness.BLOCK_CHARS = 2, block_chars
    try:
        for rows, cols in questions:
            got = like.alike(rows, cols)
            for q, row in zip(rows, got, strict=True):
                assert sorted(row) == sorted(_extracted(q, cols))
    finally:
        likeness.THREADS, likeness.BLOCK_CHARS = kept


def test_blocks_are_compared_on_threads_here(monkeypatch: pytest.MonkeyPatch) -> None:
    """This rapidfuzz has the block scorer (a build without it would quietly compare row by row, twice as slow
    on the long jumps), and a block of new texts is compared by it, not row by row: more rows than columns,
    and fewer (the columns are then its queries)."""
    assert likeness._cdist is not None and likeness._FLOAT64 is not None
    monkeypatch.setattr(likeness, "THREADS", 2)
    texts = [f"the {w} rule of {x} cards" for w in ("first", "second", "third") for x in ("red", "blue", "green")]

    def row_by_row(self: Likeness, q: str, choices: list[str]) -> dict[str, float]:
        raise AssertionError("compared row by row")

    monkeypatch.setattr(Likeness, "_compare", row_by_row)
    for rows, cols in ((texts[:7], texts[5:]), (texts[:2], texts[1:])):
        got = Likeness(STRUCTURAL_CUTOFF, block_from=1).alike(rows, cols)
        for q, row in zip(rows, got, strict=True):
            assert sorted(row) == sorted(_extracted(q, cols)) and row


def test_a_block_of_many_short_texts_is_compared_in_bounded_pieces(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each cell of a piece counts PER_PAIR besides its characters, so a piece's matrix stays within
    BLOCK_CHARS / PER_PAIR cells however short the texts (16,000 one-character hostile rules a side made one
    2 GB matrix when only characters counted)."""
    monkeypatch.setattr(likeness, "THREADS", 2)
    monkeypatch.setattr(likeness, "BLOCK_CHARS", 200 * PER_PAIR)
    shapes: list[tuple[int, int]] = []
    real = likeness._cdist

    def spy(queries, choices, **kw):  # type: ignore[no-untyped-def]
        shapes.append((len(queries), len(choices)))
        return real(queries, choices, **kw)

    monkeypatch.setattr(likeness, "_cdist", spy)
    rows = [chr(0x4E00 + k) for k in range(60)]
    cols = [chr(0x4E00 + k) for k in range(30, 90)]
    got = Likeness(STRUCTURAL_CUTOFF, block_from=1).alike(rows, cols)
    assert len(shapes) > 1 and all(q * c <= 200 + c for q, c in shapes)
    assert sum(q for q, _ in shapes) == len(rows)
    assert [sorted(r) for r in got] == [[(k - 30, 100.0)] if k >= 30 else [] for k in range(60)]


def test_texts_compared_with_the_same_columns_share_the_columns_they_grow_to() -> None:
    """Texts asked again with more columns are compared with the new columns together and then share one
    set of the columns compared (one set per row made a hostile pair's memory grow by gigabytes)."""
    like = Likeness(STRUCTURAL_CUTOFF, block_from=1)
    rows = ["the first rule", "the second rule", "a third rule"]
    like.alike(rows, ["the first rules"])
    got = like.alike(rows, ["the first rules", "the second rules", "one more rule"])
    assert len({id(like._rows[q][0]) for q in rows}) == 1
    cols = ["the first rules", "the second rules", "one more rule"]
    for q, row in zip(rows, got, strict=True):
        assert set(row) == _extracted(q, cols)


def test_a_matrix_not_of_doubles_leaves_the_block_path(monkeypatch: pytest.MonkeyPatch) -> None:
    """A rapidfuzz whose private cdist hands back something else than the doubles asked for is not read as
    doubles: the block is compared row by row, with the same answers, and blocks are left for good."""
    monkeypatch.setattr(likeness, "THREADS", 2)
    monkeypatch.setattr(likeness, "_BLOCKS", True)
    real = likeness._cdist
    monkeypatch.setattr(likeness, "_cdist", lambda q, c, **kw: real(q, c, **{**kw, "dtype": None}))
    rows = [f"the {w} rule of red cards" for w in ("first", "second", "third")]
    cols = [f"the {w} rule of blue cards" for w in ("first", "fourth")]
    got = Likeness(STRUCTURAL_CUTOFF, block_from=1).alike(rows, cols)
    assert likeness._BLOCKS is False
    for q, row in zip(rows, got, strict=True):
        assert sorted(row) == sorted(_extracted(q, cols))


@settings(max_examples=500, deadline=None)
@given(
    st.lists(
        st.sampled_from(
            [
                "ab",
                "Z",
                "3",
                "_",
                "'",
                "\u2019",
                " ",
                ".",
                "-",
                "\u27e8ref\u27e9",
                "\u27e8",
                "\u27e9",
                "\u00e9",
                "\u00c6",
                "\u0130",
                "\x1f",
                "\u00b2",
            ]
        ),
        max_size=16,
    ).map("".join)
)
@example("a'\u27e8ref\u27e9b \u27e8ref\u27e9's x''y x'y'z 'til players'")
def test_words_split_at_c_speed_are_the_pattern_s(text: str) -> None:
    # words() splits an ASCII text (references masked) at its separators, and reads a run holding an apostrophe
    # alone with the pattern: the words are the pattern's over the whole text.
    assert words(text) == re.findall(r"\w+(?:'\w+)?", text.lower())


def test_long_texts_are_tokenised_but_not_kept() -> None:
    """word_tuple keeps the tokens of texts up to WORDS_KEPT_UP_TO characters, and only tokenises longer ones
    (their tokens would outweigh them ten times over); both are words() of the text."""
    short, long = "Alpha beta's gamma. " * 3, "ab cd " * (WORDS_KEPT_UP_TO // 6 + 1)
    before = _kept_words.cache_info().misses  # (not its size: the cache may be full)
    assert word_tuple(long) == tuple(words(long)) and len(long) > WORDS_KEPT_UP_TO
    assert _kept_words.cache_info().misses == before
    assert word_tuple(short) == tuple(words(short))
    assert word_tuple(short) is word_tuple(short)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(_TEXTS, _TEXTS), min_size=1, max_size=4))
def test_what_is_compared_is_counted_once_against_the_budget(questions) -> None:  # type: ignore[no-untyped-def]
    """The budget counts the character pairs (and a fixed cost) of the texts actually compared (a remembered
    pair costs nothing), and a question that would go over it is refused before anything of it is compared."""
    like = Likeness(STRUCTURAL_CUTOFF)
    compared: set[tuple[str, str]] = set()
    for rows, cols in questions:
        like.alike(rows, cols)
        compared |= {(q, c) for q in rows for c in cols}
    assert like.spent == sum(len(q) * len(c) + PER_PAIR for q, c in compared)
    tight = Likeness(STRUCTURAL_CUTOFF, budget=like.spent - 1)
    if like.spent:
        with pytest.raises(OverBudgetError):
            for rows, cols in questions:
                tight.alike(rows, cols)
        assert tight.spent < like.spent


@settings(max_examples=200, deadline=None)
@given(
    st.dictionaries(
        st.integers(0, 30),
        st.dictionaries(st.sampled_from("abcdefgh"), st.integers(1, 4), min_size=1, max_size=6),
        min_size=1,
        max_size=8,
    ),
    st.dictionaries(st.sampled_from("abcdefgh"), st.integers(1, 5), min_size=1, max_size=7),
)
def test_containment_finds_what_summing_every_bag_finds(bags, part) -> None:  # type: ignore[no-untyped-def]
    pool = _Pool({k: Counter(b) for k, b in bags.items()}, dict.fromkeys(bags, 3))
    total = sum(part.values())
    hits = {k: sum(min(n, b.get(w, 0)) for w, n in part.items()) for k, b in bags.items()}
    # The bag holding most of the part; of those holding as much, the one the part is most of; then the first.
    size = {k: sum(b.values()) for k, b in bags.items()}
    k, got = max(hits.items(), key=lambda t: (t[1], t[1] / size[t[0]], -t[0]))
    want = k if got / total >= CONTAINMENT else None
    assert pool.containing(Counter(part), 3) == want


@given(st.text(alphabet=st.sampled_from("abcXYZ019 '-_()*?\u00c6\u2019tmTMR"), max_size=20))
def test_the_fast_title_key_is_the_normalised_one(title: str) -> None:
    slow = re.sub(r"[\W_]+", " ", normalize(title).casefold()).strip() if title else ""
    assert title_key.__wrapped__(title) == slow


_WORDS = st.sampled_from(["EDH", "general", "generals", "his or her", "his", "their", "x", "General's", "in play"])


@settings(max_examples=150, deadline=None)
@given(
    st.lists(st.lists(_WORDS, max_size=6).map(" ".join), max_size=8),
    st.lists(st.sampled_from(["EDH", "general", "his or her", "in play"]), min_size=1, max_size=2, unique=True),
)
def test_users_found_through_one_search_are_those_each_text_says(texts: list[str], spellings: list[str]) -> None:
    from itertools import accumulate

    from rulediff.words.renames import text_users, uses

    starts = list(accumulate((len(t) + 1 for t in texts[:-1]), initial=0)) if texts else [0]
    want = [x for x, t in enumerate(texts) if uses(t, tuple(spellings))]
    assert text_users(texts, "\n".join(texts), starts, tuple(spellings)) == want


def _looking_behind_first(spellings: tuple[str, ...]) -> re.Pattern[str]:
    """The whole-word pattern of a rename's spellings as first written: the look-behind before the word."""
    alts = "|".join(r"\s+".join(re.escape(w) for w in s.split()) for s in sorted(spellings, key=len, reverse=True))
    return re.compile(r"(?<![\w'\u2019])(?:" + alts + r")(?=(?:['\u2019]s|s)?(?!\w))")


@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.sampled_from(
            ["his", "this", "His", " ", "  ", "\n", "or", "her", "'", "\u2019", "s", "_", "x", "EDH", ".", "he", "she"]
        ),
        max_size=14,
    ).map("".join),
    st.lists(
        st.sampled_from(["his or her", "His or her", "EDH", "her", "he or she"]), min_size=1, max_size=3, unique=True
    ),
)
def test_the_rename_pattern_matches_where_the_first_one_did(text: str, spellings: list[str]) -> None:
    from rulediff.words.renames import _substitution, uses, whole_words

    ours, theirs = whole_words(tuple(spellings)), _looking_behind_first(tuple(spellings))
    assert [m.span() for m in ours.finditer(text)] == [m.span() for m in theirs.finditer(text)]
    assert uses(text, tuple(spellings)) == (theirs.search(text) is not None)
    article = re.compile(r"(?:(?<![\w'\u2019])(?P<art>[Aa]n?)(?P<gap>\s+))?" + theirs.pattern)
    assert [m.span() for m in _substitution(tuple(spellings)).finditer("an " + text)] == [
        m.span() for m in article.finditer("an " + text)
    ]


@settings(max_examples=500, deadline=None)
@given(
    st.lists(
        st.sampled_from(
            ["a", "A", "an", "An", " ", "  ", "\n", "his", "or", "her", "EDH", "x", "'", ".", "s", "an EDH"]
        ),
        max_size=14,
    ).map("".join),
    st.lists(
        st.sampled_from(["his or her", "His or her", "EDH", "her", "an EDH", "A x", "x"]),
        min_size=1,
        max_size=3,
        unique=True,
    ),
)
def test_a_rename_read_back_from_its_spellings_is_the_whole_pattern_s(text: str, spellings: list[str]) -> None:
    # A rename finds its spellings by their own pattern and reads the article before each back from there: the
    # text it makes is the one the whole pattern (the article optional, first) makes.
    from rulediff.words.renames import _replace, _sub, _substitution, whole_words

    to = {s: s.upper() + "!" for s in spellings}
    whole = _substitution(tuple(spellings)).sub(lambda m: _replace(m, to), text)
    assert _sub(whole_words(tuple(spellings)), to, text) == whole


@settings(max_examples=500, deadline=None)
@given(
    st.lists(
        st.sampled_from(
            [
                "rule ",
                "rules ",
                "section ",
                "Sections ",
                "702.15",
                "601.2b",
                "7",
                "119",
                "'",
                "''",
                '"',
                "-",
                " ",
                ",",
                "and ",
                "h",
                "a",
                ".",
                "x",
            ]
        ),
        max_size=16,
    ).map("".join)
)
def test_a_text_masked_in_one_quote_style_is_its_mask_in_that_style(text: str) -> None:
    # nature_of reads the references of a text's one-quote-style form from the mask of the text itself.
    from rulediff.text import mask_references
    from rulediff.words.nature import one_quote_style

    assert mask_references(one_quote_style(text)) == one_quote_style(mask_references(text))


@settings(max_examples=500, deadline=None)
@given(st.text(alphabet=st.sampled_from("ab3_1 .-,Zx9'\u2019\u00e9\n\u201c\u2014\u2018"), max_size=24))
def test_the_words_a_rename_reads_split_at_c_speed_are_the_pattern_s(text: str) -> None:
    from rulediff.matcher.phrases import plain
    from rulediff.matcher.terms import _WORD, _word_list

    assert _word_list.__wrapped__(text) == _WORD.findall(plain(text))


@given(st.text(alphabet=st.sampled_from("0123456789a .\u0661\u00b2\uff11"), max_size=8))
def test_a_digit_looked_for_at_c_speed_is_one_the_class_finds(text: str) -> None:
    from rulediff.references import _ANY_DIGIT, _has_digit

    assert _has_digit(text) == (_ANY_DIGIT.search(text) is not None)


@given(
    st.lists(st.sampled_from(["(", ")", "tm", "TM", "Tm", "R", "r", "x", " ", "\u2122", "\u00ae"]), max_size=12).map(
        "".join
    )
)
def test_a_mark_looked_for_at_c_speed_is_one_the_pattern_finds(text: str) -> None:
    from rulediff.words.nature import _MARK, _marked

    assert _marked(text) == (_MARK.search(text) is not None)


@settings(max_examples=500, deadline=None)
@given(st.text(alphabet=st.sampled_from("ab3_'\u2019 .-\u00e9\u0661\u00b2Zx\u0301"), max_size=24))
@example("3'Z'Z")  # the chain where the tokens and the words part ways
@example("3\u2019Z\u2019Z")
@example("_'x'ab 3'Z\u2019Z")
def test_a_text_said_to_hold_no_such_token_holds_none(text: str) -> None:
    # A rename's detection skips tokenising a text whose _words say it holds none of the candidate words (each
    # a letter first): what they say must be what the tokens say.
    from rulediff.matcher.phrases import tokens as _tokens
    from rulediff.matcher.terms import _no_word_token_in

    letter_first = re.compile(r"[^\W\d_]")
    for word in {w for w in re.findall(r"\w+", text) if letter_first.match(w)} | {"Z", "ab", "x", "Z'Z"}:
        assert _no_word_token_in({word}, text) <= (word not in _tokens.__wrapped__(text))


def _canonical(n) -> str:  # type: ignore[no-untyped-def]
    if n.heading is None:
        return str(n.section)
    if n.rule is None:
        return str(n.heading)
    return f"{n.heading}.{n.rule}{n.letters}"


@pytest.mark.parametrize("path", SEEDS, ids=[p.stem for p in SEEDS])
def test_a_number_read_keeps_its_canonical_spelling(path) -> None:  # type: ignore[no-untyped-def]
    # The parser hands a number the spelling it read when that is the canonical one: never another.
    for r in parse(str(path)).rules:
        if r.number is not None:
            assert str(r.number) == _canonical(r.number)


@needs_cr_corpus
@pytest.mark.parametrize("date", ["1999-04-23", "2008-02-01", "2026-01-16"])
def test_a_number_read_keeps_its_canonical_spelling_in_releases(date: str) -> None:
    for r in parse(str(cr_file(date))).rules:
        if r.number is not None:
            assert str(r.number) == _canonical(r.number)


@given(st.from_regex(r"[1-9][0-9]{2}\.[0-9]{1,3}[a-z]{0,2}\.?", fullmatch=True))
def test_a_token_read_keeps_the_spelling_of_the_number_it_means(token: str) -> None:
    from rulediff.parsers.numbered import _read_token

    reading = _read_token(token)
    assert reading is not None
    assert str(reading[0]) == _canonical(reading[0]) == reading[1]


_BAGS = st.dictionaries(st.sampled_from(["the", "a", "card", "x", "y", "mana"]), st.integers(1, 4)).map(Counter)


@given(_BAGS, _BAGS)
def test_shared_words_are_what_the_intersection_counts(p: Counter[str], q: Counter[str]) -> None:
    from rulediff.text import shared_words

    assert shared_words(p, q) == shared_words(q, p) == sum((p & q).values())


# Each pattern of normalize that looks behind a mark, as first written (looking behind first), and its text.
_LOOKING_BEHIND_FIRST = {
    "_ITALIC": (r"(?<![\w_])_{1,2}([^_\n]+?)_{1,2}(?![\w_])", r"\1"),
    "_STAR_ITALIC": (r"(?<![\w*])\*{1,2}([^*\n]+?)\*{1,2}(?![\w*])", r"\1"),
    "_WORD_HYPHEN": (r"(?<=[A-Za-z]{2})-(?=[A-Za-z]{2})", ""),
    "_LOSSY_APOS": (r"(?<=[A-Za-z])\?(?=(?:s|t|re|ve|ll|d|m)\b)", "'"),
    "_LOSSY_DASH": (r"(?<=[A-Za-z])\?(?=[A-Za-z])", "-"),
}


@pytest.mark.parametrize("name", sorted(_LOOKING_BEHIND_FIRST))
@settings(max_examples=400)
@given(
    text=st.lists(
        st.sampled_from(
            ["a", "bc", "Z", "\u00e9", "\u0130", "_", "__", "*", "**", "-", "?", "s", "t", "re", "ll", " ", "\n", "1"]
        ),
        max_size=14,
    ).map("".join)
)
def test_patterns_starting_with_their_mark_match_where_looking_behind_first_did(name: str, text: str) -> None:
    import rulediff.text

    plain, replacement = _LOOKING_BEHIND_FIRST[name]
    fast = getattr(rulediff.text, name)
    first = re.compile(plain)
    assert [m.span() for m in fast.finditer(text)] == [m.span() for m in first.finditer(text)]
    assert fast.sub(replacement, text) == first.sub(replacement, text)


@settings(max_examples=500)
@given(st.lists(st.sampled_from(["a", "b", "1", "_", "\u00e9", "'", "''", " ", "-"]), max_size=12).map("".join))
def test_the_chained_apostrophe_search_finds_what_its_first_spelling_did(text: str) -> None:
    from rulediff.matcher.terms import _CHAINED

    assert (_CHAINED.search(text) is None) == (re.search(r"\w'\w+'", text) is None)


@given(st.integers(min_value=0, max_value=10_000), st.integers(min_value=0, max_value=10_000))
def test_the_held_share_told_in_whole_numbers_is_the_fraction_s(shared: int, words: int) -> None:
    from math import ceil

    from rulediff.matcher.held import _HELD_ABOVE, _HELD_BELOW, HELD, ceil_held

    assert (shared * _HELD_BELOW < _HELD_ABOVE * words) == (shared < HELD * words)
    assert ceil_held(words) == ceil(HELD * words)


_SEED_SIDE = Side(parse(str(SEEDS[0])))


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.integers(min_value=0, max_value=len(_SEED_SIDE.rules) - 1), max_size=80),
    st.lists(st.integers(min_value=0, max_value=len(_SEED_SIDE.rules) - 1), min_size=1, max_size=12),
)
def test_an_index_of_the_words_asked_about_finds_what_the_whole_index_finds(nodes: list[int], asked: list[int]) -> None:
    from rulediff.matcher.leftovers import ContentIndex
    from rulediff.matcher.meaning import content

    s = _SEED_SIDE
    texts = [s.masked(k) for k in asked]
    whole = ContentIndex(s, {})
    some = ContentIndex(s, {}, frozenset().union(*(content(t) for t in texts)))
    assert whole.add(sorted(set(nodes))) == some.add(sorted(set(nodes)))
    assert whole.common == some.common
    assert [whole.near(t) for t in texts] == [some.near(t) for t in texts]


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.text(alphabet="abc de the player ⟨ref⟩.", max_size=40), min_size=1, max_size=4),
    st.lists(st.text(alphabet="abc de the player ⟨ref⟩.", max_size=40), min_size=1, max_size=4),
)
def test_a_remembered_likeness_is_the_one_computed_afresh(olds: list[str], news: list[str]) -> None:
    """The leftovers' and the grouping's likenesses, remembered per pair of texts, are those worked out each time;
    and a link that stands (texts at least so alike) stands as rapidfuzz says, asked once or twice."""
    for _ in range(2):
        for a in olds:
            for b in news:
                kept, plain = meaning.likeness(a, b), meaning.Likeness(a, b)
                assert [getattr(kept, f) for f in meaning.Likeness.__slots__] == [
                    getattr(plain, f) for f in meaning.Likeness.__slots__
                ]
                assert meaning.stands(a, b, 75.0) == bool(fuzz.ratio(a, b, score_cutoff=75.0))


_SIDE = Side(parse(str(SEEDS[0])))


@settings(max_examples=150, deadline=None)
@given(
    st.sets(st.integers(0, len(_SIDE.rules) - 1)),
    st.sets(st.integers(0, len(_SIDE.rules) - 1)),
    st.sets(st.integers(0, len(_SIDE.rules) - 1)),
)
def test_an_index_taken_from_an_earlier_one_is_the_one_made_afresh(
    before: set[int], now: set[int], later: set[int]
) -> None:
    """The leftovers' index of a side started from an earlier index of it (a rename's second matching) finds what
    one made afresh of the same nodes finds, before and after more nodes are indexed."""
    earlier = ContentIndex(_SIDE, {})
    earlier.add(sorted(before))
    taken, plain = ContentIndex(_SIDE, {}, earlier=earlier), ContentIndex(_SIDE, {})
    for nodes in (sorted(now), sorted(later)):
        assert taken.add(nodes) == plain.add(nodes)
        assert taken.size == plain.size and taken.common == plain.common
        assert {w: sorted(ks) for w, ks in taken.where.items() if ks} == {
            w: sorted(ks) for w, ks in plain.where.items()
        }
        for k in sorted(before | now | later)[:40]:
            assert taken.near(_SIDE.masked(k)) == plain.near(_SIDE.masked(k))
