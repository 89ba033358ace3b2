"""Corpus folders and the shipped seed corpus: which files to archive, with what label and date."""

# The shipped seed corpus and corpus folders in general: which files to archive, with what label, date or era and
# provenance (from a MANIFEST when the folder has one).

from __future__ import annotations

import csv
import io
import os
import re
from dataclasses import dataclass
from pathlib import Path

from ..dates import check_day, looks_like_day
from ..errors import ArchiveError, ParseError, RulediffError
from ..parsers.base import decode, lf_text
from ..support.bounded_read import read_input
from ..support.shipped import shipped

MANIFEST = "MANIFEST"
_SKIP = {MANIFEST, "README.md", "MANIFEST.tsv"}
_SUFFIXES = {".txt", ".docx", ".html", ".htm", ".md", ".rst", ".jsonl", ".csv", ".parquet"}


@dataclass(frozen=True, slots=True)
class Entry:
    path: Path
    label: str | None = None
    effective: str | None = None
    era: str | None = None
    format: str | None = None
    provenance: str | None = None
    published: str | None = None  # a re-release's publication day
    sha256: str | None = None  # what the MANIFEST says the bytes are
    row: str | None = None  # "MANIFEST:LINE" the entry came from


def shipped_corpus() -> Path:
    """corpus/ of this installation (source checkout or wheel)."""
    return shipped("corpus", MANIFEST)


def read_manifest(folder: Path) -> dict[str, Entry]:
    """``file, label, effective (a date, or era:...), format, sha256, provenance[, published]`` rows,
    tab-separated; decoded like any text input (BOM, UTF-16, cp1252), every date and digest checked."""
    path = folder / MANIFEST
    if not path.is_file():
        if path.exists() or path.is_symlink():  # a folder, a FIFO, a device, a link to nothing or in a loop
            raise ArchiveError(
                "is not a regular file; a folder's MANIFEST must be a tab-separated file", source=str(path)
            )
        return {}
    src = str(path)
    data = read_input(path)
    if not data.strip():
        return {}
    try:
        text = decode(data, src)
    except ParseError as e:
        raise ArchiveError(e.message, source=src, line=e.line) from None
    out: dict[str, Entry] = {}
    rows = csv.DictReader(io.StringIO(lf_text(text)), delimiter="\t")
    k = 1
    try:
        if "file" not in [(f or "").strip() for f in rows.fieldnames or []]:
            raise ArchiveError(
                "the first line names no 'file' column; it is the header, e.g. "
                "'file<TAB>label<TAB>effective<TAB>format<TAB>sha256<TAB>provenance'",
                source=src,
                line=1,
            )
        for k, row in enumerate(rows, start=2):
            _read_row(folder, src, k, row, out)
    except csv.Error as e:
        raise ArchiveError(f"malformed MANIFEST: {e}", source=src, line=k + 1) from None
    return out


def _read_row(folder: Path, src: str, k: int, row: dict[str, str], out: dict[str, Entry]) -> None:
    """One MANIFEST row into ``out``, every value checked; a file listed twice is refused."""
    name = (row.get("file") or "").strip()
    if not name or os.sep in name or "/" in name or name.startswith("."):
        raise ArchiveError("each row needs a plain file name in column 'file'", source=src, line=k)
    when = (row.get("effective") or "").strip()
    era = when[4:].strip() if when.startswith("era:") else None
    if era == "":
        raise ArchiveError("'era:' needs a period after it, e.g. era:2011-2014", source=src, line=k)
    if era is not None and any(c.isdigit() and not c.isascii() for c in era):
        raise ArchiveError(f"era {era!r}: its digits are 0-9, e.g. era:2011-2014", source=src, line=k)
    label = (row.get("label") or "").strip() or None
    sha = (row.get("sha256") or "").strip().lower() or None
    if sha is not None and not re.fullmatch(r"[0-9a-f]{64}", sha):
        raise ArchiveError(f"sha256 {sha!r} is not 64 hexadecimal digits", source=src, line=k)
    published = (row.get("published") or "").strip() or None
    try:
        effective = check_day(when, what="effective date") if when and not era else None
        if label is not None and looks_like_day(label):
            check_day(label, what="label")
        if published is not None:
            published = check_day(published, what="publication date")
    except RulediffError as e:
        raise ArchiveError(e.message, source=src, line=k) from None
    if name in out:
        first = out[name].row or src
        raise ArchiveError(f"{name} is listed twice (first at {first}); list each file once", source=src, line=k)
    out[name] = Entry(
        folder / name,
        label,
        effective,
        era,
        (row.get("format") or "").strip() or None,
        (row.get("provenance") or "").strip() or None,
        published,
        sha,
        f"{src}:{k}",
    )


def entries(paths: list[str | os.PathLike[str]]) -> list[Entry]:
    """Files to archive from files and folders (a folder's MANIFEST names and dates its files)."""
    out: list[Entry] = []
    for p in map(Path, paths):
        if p.is_dir():
            known = read_manifest(p)
            for f in sorted(p.iterdir()):
                if (
                    f.is_file()
                    and f.name not in _SKIP
                    and not f.name.startswith(".")
                    and (f.name in known or f.suffix.lower() in _SUFFIXES)
                ):
                    out.append(known.get(f.name, Entry(f)))
        else:
            out.append(Entry(p))
    return out
