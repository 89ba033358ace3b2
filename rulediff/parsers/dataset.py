"""Parsers for the rules as a dataset of rows: the viewer paste, JSONL, CSV and Parquet."""

# Parsers for the rules as a dataset of rows (number, text, examples): the dataset-viewer paste, JSONL, CSV and
# (with pyarrow) Parquet. A slice covers the interval of its own string sort order.

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from ..coverage import Coverage
from ..errors import ParseError
from ..model import Document, Example, ParseWarning, Rule
from ..numbering import RuleNumber
from .base import Format, Source
from .build import TreeBuilder, document, looks_like_title

_TYPES = {"string", "stringlengths", "listlengths", "list", "int64", "int32", "float64", "bool", "sequence", "null"}


@dataclass(frozen=True, slots=True)
class Row:
    line: int
    number: str
    text: str
    examples: tuple[str, ...]
    index: int | None


def _examples(cell: Any, source: str, line: int) -> tuple[str, ...]:
    if cell is None or cell == "":
        return ()
    if isinstance(cell, str):
        try:
            cell = json.loads(cell)
        except (ValueError, RecursionError):  # (ValueError: malformed, or a number past Python's digit limit)
            raise ParseError(f"examples cell is not a JSON list: {cell[:40]!r}", source=source, line=line) from None
    if not isinstance(cell, list) or not all(isinstance(x, str) for x in cell):
        raise ParseError("examples cell must be a list of strings", source=source, line=line)
    return tuple(cell)


def _index(cell: Any) -> int | None:
    if cell is None or cell == "":
        return None
    try:
        return int(str(cell).replace(",", "").replace("_", "").strip())
    except ValueError:
        return None


def build_document(rows: Iterable[Row], src: Source, fmt: str) -> Document:
    """Rows in rule order (a dataset sorted as strings puts 701.4a after 701.49a), as a Document whose
    coverage is the interval of the rows' own string order."""
    source = src.name
    warnings: list[ParseWarning] = []
    parsed: list[tuple[RuleNumber, Row]] = []
    repeats: dict[RuleNumber, int] = {}
    for row in rows:
        num = RuleNumber.try_parse(row.number)
        if num is None:
            raise ParseError(f"{row.number!r} is not a rule number", source=source, line=row.line)
        repeats[num] = repeats.get(num, 0) + 1
        if repeats[num] > TreeBuilder.MAX_REPEATS:
            raise ParseError(
                f"rule {num} appears more than {TreeBuilder.MAX_REPEATS} times: not a Comprehensive Rules dataset",
                source=source,
                line=row.line,
            )
        parsed.append((num, row))
    if not parsed:
        raise ParseError("no rows found; expected columns number, text, examples", source=source, line=1)
    in_file = [n for n, _ in parsed]
    parsed.sort(key=lambda t: (t[0].sort_key, t[1].index if t[1].index is not None else t[1].line))
    if [n for n, _ in parsed] != in_file:
        moved = next(n for (n, _), f in zip(parsed, in_file, strict=True) if n != f)
        warnings.append(
            ParseWarning(
                parsed[0][1].line,
                f"rows are sorted as strings, not as rules; rule order restored ({moved} moved up)",
                "order-restored",
            )
        )
    rules = []
    for num, row in parsed:
        text = row.text.strip()
        title = text if num.level.value <= 1 or (num.level.value == 2 and looks_like_title(text)) else None
        rules.append(
            Rule.make(num, text, row.line, title=title, examples=(Example.make(e, row.line) for e in row.examples))
        )
    as_strings = sorted(str(n) for n, _ in parsed)
    interval = (as_strings[0], as_strings[-1])
    return document(
        src,
        fmt,
        tuple(rules),
        coverage=Coverage(
            interval=interval, description=f"dataset slice {interval[0]}\u2026{interval[1]} (string order)"
        ),
        warnings=warnings,
    )


# --- the dataset-viewer paste ------------------------------------------------------------------


def _viewer_header(lines: list[str]) -> list[str] | None:
    """Column names from a header of name / type / min / max groups; None when it is not one."""
    cols: list[str] = []
    i = 0
    while i + 1 < len(lines) and lines[i + 1].strip() in _TYPES:
        cols.append(lines[i].strip())
        i += 4
    return cols if "number" in cols and "text" in cols else None


def sniff_viewer(src: Source) -> float:
    text = src.text_or_none
    if text is None:
        return 0.0
    return 0.95 if _viewer_header(src.head_lines(2000)) else 0.0


def parse_viewer(src: Source) -> Document:
    source = src.name
    lines = list(src.lines)
    while lines and not lines[-1].strip():
        lines.pop()
    cols = _viewer_header(lines)
    if cols is None:
        raise ParseError("no dataset-viewer header (column name, type, min, max)", source=source, line=1)
    start = 4 * len(cols)
    width = len(cols)
    body = len(lines) - start
    if body % width:
        raise ParseError(
            f"{body} lines after the header is not a whole number of {width}-line rows (truncated paste?)",
            source=source,
            line=len(lines),
        )
    rows = []
    for r in range(start, len(lines), width):
        cells = dict(zip(cols, lines[r : r + width], strict=True))
        rows.append(
            Row(
                r + 1,
                cells["number"].strip(),
                cells["text"],
                _examples(
                    cells.get("examples"), source, r + 1 + cols.index("examples") if "examples" in cols else r + 1
                ),
                _index(cells.get("__index_level_0__")),
            )
        )
    return build_document(rows, src, VIEWER.name)


# --- JSON lines, CSV, Parquet ------------------------------------------------------------------


def sniff_jsonl(src: Source) -> float:
    text = src.text_or_none
    if text is None:
        return 0.0
    first = text.lstrip()[:2000].split("\n", 1)[0]
    if not first.startswith("{"):
        return 0.0
    try:
        obj = json.loads(first)
    except (ValueError, RecursionError):
        return 0.0
    return 0.95 if isinstance(obj, dict) and "number" in obj and "text" in obj else 0.0


def parse_jsonl(src: Source) -> Document:
    source = src.name
    rows = []
    for i, ln in enumerate(src.lines, 1):
        if not ln.strip():
            continue
        try:
            obj = json.loads(ln)
        except json.JSONDecodeError as e:
            raise ParseError(f"not a JSON object: {e.msg}", source=source, line=i) from None
        except ValueError:  # a number with more digits than Python converts (thousands; no rule has four)
            raise ParseError("a number of thousands of digits: no rule number is one", source=source, line=i) from None
        except RecursionError:  # arrays or objects nested past the decoder's depth: no rule looks like that
            raise ParseError("not a JSON object: nested too deeply", source=source, line=i) from None
        if not isinstance(obj, dict) or "number" not in obj or "text" not in obj:
            raise ParseError("expected an object with 'number' and 'text'", source=source, line=i)
        rows.append(
            Row(
                i,
                str(obj["number"]),
                str(obj["text"]),
                _examples(obj.get("examples"), source, i),
                _index(obj.get("__index_level_0__")),
            )
        )
    return build_document(rows, src, JSONL.name)


def sniff_csv(src: Source) -> float:
    text = src.text_or_none
    if text is None:
        return 0.0
    first = text.lstrip("\ufeff")[:500].split("\n", 1)[0].lower()
    cols = [c.strip().strip('"') for c in first.split(",")]
    return 0.95 if "number" in cols and "text" in cols else 0.0


def parse_csv(src: Source) -> Document:
    source = src.name
    text = src.decoded.lstrip("\ufeff")
    reader = csv.DictReader(io.StringIO(text, newline=""))
    if not reader.fieldnames or "number" not in reader.fieldnames or "text" not in reader.fieldnames:
        raise ParseError("CSV header must name the columns number and text", source=source, line=1)
    rows = []
    try:
        for rec in reader:
            line = reader.line_num
            rows.append(
                Row(
                    line,
                    (rec["number"] or "").strip(),
                    rec["text"] or "",
                    _examples(rec.get("examples"), source, line),
                    _index(rec.get("__index_level_0__")),
                )
            )
    except csv.Error as e:
        raise ParseError(f"malformed CSV: {e}", source=source, line=reader.line_num) from None
    return build_document(rows, src, CSV.name)


def sniff_parquet(src: Source) -> float:
    data = src.data
    return 0.95 if data[:4] == b"PAR1" and data[-4:] == b"PAR1" else 0.0


def parse_parquet(src: Source) -> Document:
    data, source = src.data, src.name
    try:
        import pyarrow.parquet as pq  # type: ignore[import-not-found, import-untyped, unused-ignore]
    except ImportError:
        raise ParseError("reading Parquet needs pyarrow: pip install 'rulediff[parquet]'", source=source) from None
    try:
        # One thread: a pyarrow thread pool can abort the interpreter at exit (seen with pyarrow 26).
        table = pq.read_table(io.BytesIO(data), use_threads=False)
    except Exception as e:  # pyarrow raises many types for corrupt files
        raise ParseError(f"unreadable Parquet file: {e}", source=source) from None
    recs = table.to_pylist()
    rows = [
        Row(
            i,
            str(r.get("number", "")),
            str(r.get("text", "")),
            _examples(r.get("examples"), source, i),
            _index(r.get("__index_level_0__")),
        )
        for i, r in enumerate(recs, 1)
    ]
    return build_document(rows, src, PARQUET.name)


VIEWER = Format(
    "dataset-viewer",
    "dataset-viewer paste: a header of column names and types, then one line per cell (e.g. the 2024 seed)",
    sniff_viewer,
    parse_viewer,
)
JSONL = Format("dataset-jsonl", "dataset as JSON lines with number, text, examples", sniff_jsonl, parse_jsonl)
CSV = Format("dataset-csv", "dataset as CSV with columns number, text, examples (JSON list)", sniff_csv, parse_csv)
PARQUET = Format("dataset-parquet", "dataset as Parquet (needs the optional pyarrow)", sniff_parquet, parse_parquet)

__all__ = ["CSV", "JSONL", "PARQUET", "VIEWER", "Row", "build_document"]
