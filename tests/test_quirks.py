"""The quirk list is the one place to look: each registered quirk fires in exactly the releases it lists,
and the prepared source decodes, splits and hashes each input once."""

from __future__ import annotations

import re
import sys
from collections import defaultdict
from pathlib import Path

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from rulediff import text as text_module
from rulediff.model import Example, Rule
from rulediff.numbering import RuleNumber
from rulediff.parsers import base, official, parse_bytes
from rulediff.parsers.base import Source, lf_text, split_lines
from rulediff.parsers.numbered import UNDERLINE_RE, is_wrapped
from rulediff.parsers.quirks import QUIRKS, Kind
from rulediff.text import kept_letters, normalize

from .conftest import FIXTURES, cr_manifest, cr_txt_files, needs_cr_corpus


def test_every_quirk_says_what_and_where() -> None:
    for q in QUIRKS.values():
        assert q.doc and q.seen_in, q.name
        for span in q.seen_in:
            assert re.fullmatch(r"\d{4}-\d\d-\d\d(?:\.\.\d{4}-\d\d-\d\d)?", span), (q.name, span)
            first, _, last = span.partition("..")
            assert not last or first < last, (q.name, span)
        if q.kind is Kind.LINE:
            assert q.marker and q.fix is not None, q.name


def _fired_on_corpus() -> tuple[set[str], dict[str, set[str]]]:
    """The effective dates of the official releases, and quirk name -> those where it fired (or, for
    layout and byte quirks, where the condition it handles holds)."""
    dates: set[str] = set()
    fired: dict[str, set[str]] = defaultdict(set)
    manifest = cr_manifest()
    for path in cr_txt_files():
        src = Source(path.read_bytes(), str(path))
        doc = official.parse(src)
        date = doc.version.label
        dates.add(date)
        for w in doc.warnings:
            if w.quirk is not None:
                fired[w.quirk].add(date)
        lines = src.lines
        layout = official.locate(lines, src.name)
        if is_wrapped(lines, layout.body_start, layout.body_end):
            fired["hard_wrapped"].add(date)
        if b"\r\r\n" in src.data:
            fired["cr_cr_lf_line_breaks"].add(date)
        if manifest.get(f"txt/{path.name}", {}).get("encoding") == "mac-roman":
            fired["mac_roman_encoding"].add(date)
        if "\u2028" in src.text:
            fired["line_separator_in_entries"].add(date)
        if official._effective_line_date(lines) is None and official._title_line_date(lines) is not None:
            fired["date_in_title_line"].add(date)
        if layout.intro is not None and lines[layout.intro[1]].strip().lower() != "contents":
            fired["introduction_without_contents"].add(date)
        if layout.others:
            fired["back_matter_sections"].add(date)
        if any(UNDERLINE_RE.match(ln) for ln in lines):
            fired["underlined_titles"].add(date)
    return dates, fired


@needs_cr_corpus
def test_each_quirk_fires_in_exactly_the_releases_it_lists() -> None:
    dates, fired = _fired_on_corpus()
    assert set(fired) <= set(QUIRKS), f"warnings name unregistered quirks: {set(fired) - set(QUIRKS)}"
    for q in QUIRKS.values():
        listed = {d for d in dates if q.applies_to(d)}
        assert fired.get(q.name, set()) == listed, (
            f"{q.name}: fires in {sorted(fired.get(q.name, set()) - listed)} it does not list; "
            f"lists {sorted(listed - fired.get(q.name, set()))} where it does not fire"
        )


def test_a_line_fix_reports_itself_by_name() -> None:
    q = QUIRKS["rule_505_5_printed_as_505_54"]
    assert q.marker is not None
    text = f"Comprehensive Rules\n\n505. Main Phase\n\n505.4. Before.\n\n{q.marker}\n\nGlossary\n\nCredits\n"
    text = "100.1. These rules.\n\n" + text
    doc = parse_bytes(text.encode(), "x.txt", "official-text")
    assert doc.get("505.5") is not None and doc.get("505.54") is None
    assert [w.quirk for w in doc.warnings if w.quirk] == [q.name]


def test_the_source_is_decoded_once(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[str] = []
    real = base.decode

    def counting(data: bytes, source: str) -> str:
        calls.append(source)
        return real(data, source)

    monkeypatch.setattr(base, "decode", counting)
    fixture = Path(__file__).parent / "fixtures" / "report" / "old.txt"
    parse_bytes(fixture.read_bytes(), str(fixture))
    assert calls == [str(fixture)]


def test_an_official_release_is_read_without_its_lf_copy() -> None:
    """A release with CR or CR LF line breaks (most of them) is sniffed and read from its decoded text and its
    lines: the LF text, a copy of the whole release, is never made."""
    from rulediff.parsers import official

    fixture = Path(__file__).parent / "fixtures" / "report" / "old.txt"
    data = fixture.read_bytes().replace(b"\r\n", b"\n").replace(b"\n", b"\r\n")
    src = Source(data, "old.txt")
    assert official.sniff(src) >= 0.95
    doc = official.parse(src)
    assert src._text is None
    assert doc.rules == parse_bytes(data.replace(b"\r\n", b"\n"), "old.txt").rules


def test_undecodable_bytes_raise_the_same_error_each_time_asked() -> None:
    src = Source(b"\x89PNG\r\n\x1a\n" + bytes(50), "x.png")
    assert src.text_or_none is None
    with pytest.raises(Exception, match="PNG image"):
        _ = src.text


_BREAK = re.compile(r"\r\r\n|\r\n|\r")


@given(st.text(alphabet="\r\na\u2028", max_size=40))
@example("a\r\nb\r\n")  # every break a CR LF: split_lines's one split
@example("a\r\r\nb\n")  # as many CRs as LFs, not all in CR LF
@example("a\rb\n")
@example("a\n\rb")
def test_line_breaks_read_as_the_left_to_right_scan(text: str) -> None:
    assert lf_text(text) == _BREAK.sub("\n", text)
    assert split_lines(text) == _BREAK.sub("\n", text).split("\n")
    src = Source(text.encode(), "x.txt")
    if src.text_or_none is not None:  # (an empty text is refused)
        assert src.lines == src.text.split("\n") == split_lines(src.decoded)


@given(st.text(alphabet="\r\nab", max_size=40), st.integers(0, 45))
def test_a_sniffers_head_lines_are_the_split_head(text: str, size: int) -> None:
    src = Source(text.encode(), "x.txt")
    if src.text_or_none is not None:  # (an empty text is refused)
        assert src.head_lines(size) == src.text[:size].split("\n")


@settings(max_examples=400, deadline=None)
@given(
    st.lists(
        st.sampled_from(["100.1", "100.1. ", " 100.1 x", "Glossary", "--- Glossary  ", "Glossary x", " ", "\u2028"]),
        max_size=8,
    ),
    st.lists(st.sampled_from(["\n", "\r", "\r\n", "\r\r\n", "\n\n", "\r\r"]), min_size=8, max_size=8),
)
def test_the_sniffers_line_search_on_the_decoded_text_is_the_search_of_its_lines(
    pieces: list[str], breaks: list[str]
) -> None:
    """official.sniff looks for its lines in the text as decoded (CR, LF, CR LF or CR CR LF between lines),
    not in its LF form, a copy it no longer makes: the answer is a multiline search of the LF form's."""
    from rulediff.parsers import official

    text = "".join(p + b for p, b in zip(pieces, breaks, strict=False))
    lf = lf_text(text)
    for word, line_re in (("100.1", official._FIRST_RULE_LINE), ("Glossary", official._GLOSSARY_LINE)):
        multiline = re.compile(f"^(?:{line_re.pattern})", re.M)  # the search of the LF text it stands for
        assert official._line_matching(text, word, line_re) == bool(multiline.search(lf))


class _Counted:
    """A line pattern that records the stretches it is asked to match."""

    def __init__(self, pattern: re.Pattern[str]) -> None:
        self.pattern = pattern
        self.asked: list[tuple[int, int]] = []

    def match(self, text: str, pos: int, endpos: int) -> re.Match[str] | None:
        self.asked.append((pos, endpos))
        return self.pattern.match(text, pos, endpos)


@pytest.mark.parametrize("brk", ["", "\n", "\r", "\r\n", "\u2028"])
def test_the_sniffers_line_search_looks_at_each_line_once(brk: str) -> None:
    """However often a line holds the word, it is matched once, and the lines asked about follow each other
    without overlapping (one line of 0.3 MB holding "100.1" 20,000 times took 16 s when each occurrence looked
    back to the start of the text and copied its line)."""
    from rulediff.parsers import official

    text = brk.join(["see rule 100.1x " * 50] * 40)
    counted = _Counted(official._FIRST_RULE_LINE)
    assert not official._line_matching(text, "100.1", counted)  # type: ignore[arg-type]
    lines = 1 if brk in ("", "\u2028") else 40
    assert len(counted.asked) == lines
    assert all(a[1] < b[0] for a, b in zip(counted.asked, counted.asked[1:], strict=False))


def test_every_space_but_the_space_is_unprintable() -> None:
    # normalize() collapses spaces with str.split() only when the text is not printable or has
    # doubled or outer spaces; that is exact only if this holds for every code point.
    odd = [hex(c) for c in range(sys.maxunicode + 1) if chr(c).isspace() and chr(c).isprintable() and c != 0x20]
    assert odd == []


@given(st.text(alphabet=" a\u00a0\t\n\u2028.\u2014-", max_size=30))
def test_normalize_collapses_every_space(text: str) -> None:
    out = normalize(text)
    assert out == out.strip() and "  " not in out and out.isprintable()


@given(
    st.lists(
        st.sampled_from(
            [
                "n",
                "o",
                "s",
                "(tm)",
                "(TM)",
                "(R)",
                "(r)",
                "AE",
                "Ae",
                "\u00c6",
                "\u00e6",
                "t",
                "m",
                "_",
                "*",
                "<",
                ">",
                ".com",
                "?",
                "-",
                " ",
                "  ",
                "\u2014",
                "\u2026",
                "e",
                "\u00a0",
                "\u2019",
                "Son",
                "nos",
            ]
        ),
        max_size=25,
    ).map("".join)
)
def test_normalising_keeps_the_letters_renamed_compares_by(text: str) -> None:
    # renames.renamed normalises only the texts of a release whose counts match: exact only if this holds.
    assert kept_letters(normalize(text)) == kept_letters(text)


@given(st.text())
def test_normalising_any_text_keeps_those_letters(text: str) -> None:
    assert kept_letters(normalize(text)) == kept_letters(text)


def test_no_rewrite_of_normalising_adds_or_removes_those_letters() -> None:
    # The tables themselves: a new replacement or mark with an "n", "o" or "s" (say "\u2116" -> "No") fails here
    # even when no random text happens to hold it.
    for a, b in text_module._REPLACE:
        assert kept_letters(a) == kept_letters(b), (a, b)
    for mark in re.findall(r"\w+", text_module._MARKS.pattern):
        assert kept_letters(mark) == (0, 0, 0), mark


def test_comparison_forms_are_derived_on_first_use_and_ignored_by_equality() -> None:
    ex = Example.make("Example: A \u201cnamed\u201d card.", 2)
    r = Rule.make(RuleNumber.parse("702.15a"), "It\u2019s  here.", 1, examples=[ex], notes=["A\u2014note"])
    twin = Rule.make(RuleNumber.parse("702.15a"), "It\u2019s  here.", 1, examples=[ex], notes=["A\u2014note"])
    assert r.norm == "It's here." and ex.norm == 'Example: A "named" card.'
    assert r == twin and hash(r) == hash(twin)  # one has its forms computed, the other not yet
    assert r.digest == twin.digest and r.same_text(twin)
    other = Rule.make(RuleNumber.parse("702.15a"), "It's here.", 1, examples=[ex], notes=["A-note"])
    assert not r.same_text(other) and other.digest == r.digest  # typography alone: equal digests


_DIGITS_MISSING = FIXTURES / "parsers" / "official-text"


@pytest.mark.parametrize(
    ("case", "before", "read"),
    [
        ("rule-digits-missing-408.f-1999", "408.2e", {"408.2f": "Card text", "408.2g": "Game actions"}),
        ("rule-digits-missing-306.b-2008", "306.3a", {"306.3b": "If an effect would put a creature into play att"}),
    ],
)
def test_a_subrule_printed_without_its_rule_digits_is_read_as_that_subrule(
    case: str, before: str, read: dict[str, str]
) -> None:
    """1999-11-01 prints 408.2f and 408.2g as "408.f" and "408.g", 2008-10-01 prints 306.3b as "306.b": each is
    the subrule its letter continues, not text swallowed into the subrule before it."""
    src = _DIGITS_MISSING / case / "input.txt"
    doc = parse_bytes(src.read_bytes(), str(src), lint=True)
    prev = doc.get(before)
    assert prev is not None and not re.search(r"\b\d{3}\.[a-z]\b", prev.text), prev.text
    for number, start in read.items():
        rule = doc.get(number)
        assert rule is not None and rule.text.startswith(start), (number, rule)
    fired = [w for w in doc.warnings if w.quirk == "rule_digits_missing"]
    assert len(fired) == len(read) and all(w.code == "typo" for w in fired)
    assert not [w for w in doc.warnings if w.code == "lost-rule"]


def _release(body: str) -> bytes:
    head = "Comprehensive Rules\n\nThese rules are effective as of November 1, 1999.\n\n1. The Game\n\n100. General\n\n"
    head += "100.1. These rules apply.\n\n"
    return (head + body + "\n\nGlossary\n\nAbility\nA thing.\n\nCredits\n\nSomeone.\n").encode()


@pytest.mark.parametrize(
    "body",
    [
        # One paragraph a line: "408.k" continues no subrule of 408.2 (408.2c is the last), so no rule is read.
        "408. Timing\n\n408.1. Timing.\n\n408.2. Actions.\n\n408.2a One.\n\n408.2b Two.\n\n408.2c Three.\n\n"
        "408.k Lost words here.\n\n409. Next\n\n409.1. Next rule.",
        # Hard-wrapped paragraphs: the malformed number starts a line after a finished sentence.
        "408. Timing\n\n408.1. Timing of everything that\nhappens in the game.\n\n408.2. Actions that\ndo not use the"
        "\nstack at all.\n408.2a One of the actions\nis this one.\n408.x Lost words\nthat wrap too.\n\n409. Next\n\n"
        "409.1. Next rule\nwraps as well.",
    ],
    ids=["one-paragraph-a-line", "hard-wrapped"],
)
def test_lint_reports_a_rule_number_with_a_letter_right_after_the_period(body: str, tmp_path: Path) -> None:
    """A paragraph starting "NNN.x" (a letter right after the heading's period) that no quirk can read is a
    rule lost in the text before it: lint says so, on its line."""
    from click.testing import CliRunner

    from rulediff.cli import main

    src = tmp_path / "cr-cut.txt"
    src.write_bytes(_release(body))
    r = CliRunner().invoke(main, ["lint", str(src), "--format", "official-text"])
    lost = [ln for ln in r.output.splitlines() if ": lost-rule: " in ln]
    assert len(lost) == 1, r.output
    line = int(lost[0].split(":")[1])
    assert re.match(r"^408\.[kx] ", src.read_text().splitlines()[line - 1]), lost
    assert "rule's digits missing" in lost[0]
