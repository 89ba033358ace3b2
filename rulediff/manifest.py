"""The shipped seed corpus and corpus folders in general: which files to archive, with what label, date or
era and provenance (from a MANIFEST when the folder has one)."""

from __future__ import annotations

import csv
import os
from dataclasses import dataclass
from pathlib import Path

from .errors import ArchiveError
from .templating import shipped

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


def shipped_corpus() -> Path:
    """corpus/ of this installation (source checkout or wheel)."""
    return shipped("corpus", MANIFEST)


def read_manifest(folder: Path) -> dict[str, Entry]:
    """``file, label, effective (a date, or era:...), format, sha256, provenance`` rows, tab-separated."""
    path = folder / MANIFEST
    if not path.is_file():
        return {}
    out: dict[str, Entry] = {}
    with open(path, encoding="utf-8", newline="") as fh:
        for k, row in enumerate(csv.DictReader(fh, delimiter="\t"), start=2):
            name = (row.get("file") or "").strip()
            if not name or os.sep in name or "/" in name or name.startswith("."):
                raise ArchiveError("each row needs a plain file name in column 'file'", source=str(path), line=k)
            when = (row.get("effective") or "").strip()
            era = when[4:] if when.startswith("era:") else None
            out[name] = Entry(
                folder / name,
                (row.get("label") or "").strip() or None,
                when if when and not era else None,
                era,
                (row.get("format") or "").strip() or None,
                (row.get("provenance") or "").strip() or None,
            )
    return out


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
