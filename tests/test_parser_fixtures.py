"""Golden fixtures, one folder per format quirk (tests/fixtures/parsers/<format>/<quirk>/): the format is
detected from content, and the parsed document equals expected.json. RULEDIFF_UPDATE_GOLDEN=1 rewrites."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from rulediff.parsers import detect, parse_bytes

from .conftest import FIXTURES, ROOT

CASES = sorted(p.parent for p in (FIXTURES / "parsers").glob("*/*/input.*"))


def _render(case: Path) -> str:
    src = next(case.glob("input.*"))
    doc = parse_bytes(src.read_bytes(), str(src.relative_to(ROOT)), lint=True)
    return json.dumps(doc.as_dict(), ensure_ascii=False, indent=1, sort_keys=True) + "\n"


def test_every_format_has_fixtures() -> None:
    from rulediff.parsers import FORMATS

    have = {c.parent.name for c in CASES}
    # docx fixtures are built in test_parsers_docx.py.
    missing = set(FORMATS) - have - {"docx"}
    assert not missing, f"formats without a golden fixture folder: {sorted(missing)}"


@pytest.mark.parametrize("case", CASES, ids=lambda c: f"{c.parent.name}/{c.name}")
def test_golden(case: Path) -> None:
    src = next(case.glob("input.*"))
    assert detect(src.read_bytes(), str(src)).name == case.parent.name
    got = _render(case)
    want_file = case / "expected.json"
    if os.environ.get("RULEDIFF_UPDATE_GOLDEN"):
        want_file.write_text(got, encoding="utf-8")
    assert want_file.exists(), f"{want_file} missing: run with RULEDIFF_UPDATE_GOLDEN=1 and review it"
    assert got == want_file.read_text(encoding="utf-8")


def test_parquet_without_pyarrow_says_how_to_get_it() -> None:
    import importlib.util

    import pytest

    from rulediff.errors import ParseError

    data = b"PAR1" + bytes(64) + b"PAR1"
    if importlib.util.find_spec("pyarrow") is not None:
        with pytest.raises(ParseError, match="unreadable Parquet"):
            parse_bytes(data, "rows.parquet")
    else:
        assert detect(data, "rows.parquet").name == "dataset-parquet"
        with pytest.raises(ParseError, match="pip install 'rulediff\\[parquet\\]'"):
            parse_bytes(data, "rows.parquet")


def test_parquet_from_the_command_line_exits_cleanly() -> None:
    # pyarrow's thread pool once aborted the interpreter at exit; the exit status is the proof.
    import subprocess
    import sys

    src = FIXTURES / "parsers" / "dataset-parquet" / "string-order-rows" / "input.parquet"
    run = subprocess.run([sys.executable, "-m", "rulediff", "parse", str(src)], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    assert "dataset-parquet" in run.stdout and "2 examples" in run.stdout
