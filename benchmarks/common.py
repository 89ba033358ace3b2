"""Shared plumbing for the benchmarks: where the corpus is, best-of-n timing, peak memory, a table."""

from __future__ import annotations

import gc
import json
import subprocess
import sys
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
CR_TXT = ROOT.parent / "shared" / "cr-corpus" / "txt"
CR_PDF = ROOT.parent / "shared" / "cr-corpus" / "pdf"
sys.path.insert(0, str(ROOT))


def corpus_files() -> list[Path]:
    if not CR_TXT.is_dir():
        sys.exit(f"benchmark needs the official corpus at {CR_TXT}")
    return sorted(CR_TXT.glob("cr-*.txt"))


def release(date: str) -> Path:
    return CR_TXT / f"cr-{date.replace('-', '')}.txt"


def best_of(fn: Callable[[], Any], repeat: int = 5, before: Callable[[], Any] | None = None) -> float:
    """Fastest of ``repeat`` runs, in seconds (the least disturbed by the rest of the machine)."""
    times = []
    for _ in range(repeat):
        if before is not None:
            before()
        gc.collect()
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return min(times)


def peak_mib(fn: Callable[[], Any]) -> float:
    tracemalloc.start()
    fn()
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return peak / 2**20


def table(rows: list[tuple[Any, ...]], header: tuple[str, ...]) -> str:
    cells = [tuple(str(c) for c in header), *(tuple(str(c) for c in r) for r in rows)]
    widths = [max(len(r[k]) for r in cells) for k in range(len(header))]
    lines = ["  ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)).rstrip() for r in cells]
    lines.insert(1, "  ".join("-" * w for w in widths))
    return "\n".join(lines)


PEER_VENV = ROOT / ".venv-peers"


def peer_python() -> Path | None:
    """A Python with mightstone installed, in its own virtual environment (mightstone pins an old ruff
    and a large stack we do not want beside rulediff). Created on first use; None if that fails."""
    py = PEER_VENV / "bin" / "python"
    if not py.exists():
        try:
            subprocess.run([sys.executable, "-m", "venv", str(PEER_VENV)], check=True)
            subprocess.run(
                [str(py), "-m", "pip", "install", "-q", "mightstone"],
                check=True,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            )
        except (subprocess.CalledProcessError, OSError) as e:
            print(f"(mightstone unavailable: {e})", file=sys.stderr)
            return None
    return py


def run_peer(script: str, *args: str) -> Any:
    """Run ``script`` (Python source printing one JSON value) with the peer's Python."""
    py = peer_python()
    if py is None:
        return None
    out = subprocess.run([str(py), "-c", script, *args], capture_output=True, text=True, timeout=1800)
    if out.returncode != 0:
        print(f"(mightstone run failed: {out.stderr.strip().splitlines()[-1:]})", file=sys.stderr)
        return None
    return json.loads(out.stdout)


# Runs under the peer's Python: mightstone cannot read the older encodings, so it is handed decoded text
# and its timings are of parsing alone.
PEER_PRELUDE = r"""
import io, json, sys, time, gc, codecs
from mightstone.services.wotc.models import ComprehensiveRules as CR
def text(p):
    b = open(p, 'rb').read()
    for bom, enc in ((codecs.BOM_UTF8, 'utf-8-sig'), (codecs.BOM_UTF16_LE, 'utf-16'), (codecs.BOM_UTF16_BE, 'utf-16')):
        if b.startswith(bom):
            return b.decode(enc)
    try:
        return b.decode('utf-8')
    except UnicodeDecodeError:
        return b.decode('cp1252', 'replace')
"""
