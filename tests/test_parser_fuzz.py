"""Parsers never crash: mutated seed and fixture text fed to every parser and to detection gives a Document
or a ParseError that names the source (and a line), never another exception."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rulediff.errors import ParseError
from rulediff.model import Document
from rulediff.parsers import FORMATS, parse_bytes

from .conftest import CORPUS, FIXTURES

SAMPLES = [p.read_bytes() for p in sorted(CORPUS.glob("0*.txt"))] + [
    p.read_bytes() for p in sorted((FIXTURES / "parsers").glob("*/*/input.*"))
]
# Keep each example small: a window of a sample is plenty to reach every branch.
WINDOW = 6000


@st.composite
def mutated(draw: st.DrawFn) -> bytes:
    base = draw(st.sampled_from(SAMPLES))
    start = draw(st.integers(0, max(0, len(base) - 1)))
    data = bytearray(base[start : start + draw(st.integers(0, WINDOW))] if draw(st.booleans()) else base[:WINDOW])
    for _ in range(draw(st.integers(0, 8))):
        op = draw(st.sampled_from(["flip", "insert", "delete", "dup-line", "junk"]))
        pos = draw(st.integers(0, len(data)))
        if op == "flip" and data:
            data[min(pos, len(data) - 1)] = draw(st.integers(0, 255))
        elif op == "insert":
            data[pos:pos] = draw(
                st.sampled_from([b"\n", b"\r", b"702.15. ", b"a. ", b"**", b"Example: ", b"\xff\xfe", b"|T|", b"\x00"])
            )
        elif op == "delete":
            del data[pos : pos + draw(st.integers(1, 200))]
        elif op == "dup-line":
            end = data.find(b"\n", pos)
            if end > pos:
                data[end:end] = data[pos:end] + b"\n"
        else:
            data[pos:pos] = draw(st.binary(max_size=32))
    return bytes(data)


def _check(data: bytes, fmt: str | None) -> None:
    try:
        doc = parse_bytes(data, "fuzz.txt", fmt)
    except ParseError as e:
        assert e.source == "fuzz.txt"
        assert "\n" not in str(e)
        return
    assert isinstance(doc, Document)
    for r in doc.rules:
        assert r.number is not None or r.title


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(mutated(), st.sampled_from([None, *FORMATS]))
def test_any_parser_on_mutated_text(data: bytes, fmt: str | None) -> None:
    _check(data, fmt)


@settings(max_examples=100, deadline=None)
@given(st.binary(max_size=2000), st.sampled_from([None, *FORMATS]))
def test_any_parser_on_random_bytes(data: bytes, fmt: str | None) -> None:
    _check(data, fmt)


def test_every_sample_window_parses_in_its_own_format() -> None:
    for path in sorted((FIXTURES / "parsers").glob("*/*/input.*")):
        assert isinstance(parse_bytes(path.read_bytes(), str(path), path.parent.parent.name), Document)
