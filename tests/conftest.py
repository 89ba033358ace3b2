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


class OfficialSite:
    """An archive of every official release of ../shared/cr-corpus/txt and the site built from it, made once
    per test session for every test that reads the whole official history."""

    def __init__(self, archive: Path, site: Path, seconds: float) -> None:
        self.archive, self.site, self.seconds = archive, site, seconds


@pytest.fixture(scope="session")
def official_site(tmp_path_factory: pytest.TempPathFactory) -> OfficialSite:
    """The whole official corpus archived and published (some 40 s, once a session); skipped without it."""
    import time

    from rulediff.archive import Archive, entries
    from rulediff.site.build import build_site

    if not CR_TXT.is_dir():
        pytest.skip(f"official release corpus not found at {CR_TXT} (it lives beside the project)")
    where = tmp_path_factory.mktemp("official")
    archive, site = where / "cr.sqlite", where / "site"
    start = time.perf_counter()
    with Archive.open(archive) as arc:
        arc.add_many(entries([CR_TXT]))
        build_site(arc, site)
    return OfficialSite(archive, site, time.perf_counter() - start)
