"""Shared fixtures: where the seed corpus and the official release corpus live, and skips when absent."""

from __future__ import annotations

import csv
import os
from pathlib import Path

import pytest
from hypothesis import settings

# CI explores the same examples every run (a red build is reproducible); local runs explore new ones.
settings.register_profile("ci", derandomize=True, print_blob=True)
if os.environ.get("CI"):
    settings.load_profile("ci")

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT / "corpus"
FIXTURES = Path(__file__).resolve().parent / "fixtures"
CR_CORPUS = ROOT.parent / "shared" / "cr-corpus"
CR_TXT = CR_CORPUS / "txt"

needs_cr_corpus = pytest.mark.skipif(
    not CR_TXT.is_dir(), reason=f"official release corpus not found at {CR_TXT} (it lives beside the project)"
)


def cr_manifest() -> dict[str, dict[str, str]]:
    """MANIFEST.tsv of ../shared/cr-corpus keyed by path ("txt/cr-20260116.txt")."""
    if not (CR_CORPUS / "MANIFEST.tsv").is_file():
        return {}
    with open(CR_CORPUS / "MANIFEST.tsv", encoding="utf-8", newline="") as fh:
        return {row["path"]: row for row in csv.DictReader(fh, delimiter="\t")}


def cr_txt_files() -> list[Path]:
    return sorted(CR_TXT.glob("*.txt")) if CR_TXT.is_dir() else []


def cr_file(date: str) -> Path:
    return CR_TXT / f"cr-{date.replace('-', '')}.txt"
