"""The parsers, one module per source shape in one FORMATS table, and lint; they import only records and support."""

from __future__ import annotations

import dataclasses
import os

from ..errors import FormatError
from ..model import Document
from ..support import gc_pause as collector
from ..support.bounded_read import MAX_BYTES, read_input
from . import dataset, docx, html, keywords, markdown, official, pdf, pdf_paste, rst
from .base import Format, Source

# The one ordered table of parsers. On equal sniff scores the earlier row wins.
FORMATS: dict[str, Format] = {
    f.name: f
    for f in (
        official.FORMAT,
        docx.FORMAT,
        pdf.FORMAT,
        pdf_paste.FORMAT,
        markdown.FORMAT,
        rst.FORMAT,
        keywords.FORMAT,
        html.FORMAT,
        dataset.VIEWER,
        dataset.JSONL,
        dataset.CSV,
        dataset.PARQUET,
    )
}

CERTAIN = 0.95


def detect(data: bytes, source: str = "<input>") -> Format:
    """The format whose sniffer is most confident about ``data``; FormatError lists those tried."""
    return detect_source(Source(data, source))


def detect_source(src: Source) -> Format:
    """:func:`detect` on a prepared source (whose decoded text and lines the chosen parser then reuses)."""
    best, best_score = next(iter(FORMATS.values())), -1.0
    for f in FORMATS.values():
        score = f.sniff(src)
        if score > best_score:
            best, best_score = f, score
        if score >= CERTAIN:
            break  # the table is ordered: a certain sniffer needs no runner-up
    if best_score < 0.5:
        # Let the decoder explain what is wrong with the bytes (binary, truncated, empty).
        _ = src.decoded
        tried = ", ".join(FORMATS)
        raise FormatError(f"unknown format: not recognised by any parser (tried {tried})", source=src.name, line=1)
    return best


def parse_bytes(data: bytes, source: str = "<input>", format: str | None = None, *, lint: bool = False) -> Document:
    """Parse ``data``; the format is detected from content unless named. With ``lint`` the document's
    warnings also hold rulediff.parsers.lint's findings (slower: a few tenths of a second on a full release)."""
    src = Source(data, source)
    if format is None:
        fmt = detect_source(src)
    else:
        try:
            fmt = FORMATS[format]
        except KeyError:
            raise FormatError(
                f"no such format {format!r}; known formats: {', '.join(FORMATS)}", source=source
            ) from None
    with collector.paused():  # a release is tens of thousands of lasting, acyclic objects: see support/gc_pause.py
        doc = fmt.parse(src)
    return with_lint(doc) if lint else doc


def with_lint(doc: Document) -> Document:
    """The document with rulediff.parsers.lint's findings merged into its parser warnings, ordered by line."""
    from .lint import lint as run_lint  # here: a parse without lint (every diff) does not load it

    found = run_lint(doc)
    seen = {(w.line, w.code) for w in doc.warnings}
    merged = sorted([*doc.warnings, *(w for w in found if (w.line, w.code) not in seen)], key=lambda w: w.line)
    return dataclasses.replace(doc, warnings=tuple(merged))


def parse_file(path: str | os.PathLike[str], format: str | None = None, *, lint: bool = False) -> Document:
    """Read and parse one file; the format is detected from content unless given."""
    return parse_bytes(read_input(path), str(path), format, lint=lint)


__all__ = [
    "FORMATS",
    "MAX_BYTES",
    "Format",
    "Source",
    "detect",
    "detect_source",
    "parse_bytes",
    "parse_file",
    "read_input",
]
