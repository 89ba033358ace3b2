"""identify: one dump against every archived official release (target <= 3 s for the whole process), as the
minimum and median wall time of several runs of `python -m rulediff identify`, with the CPU time they used.

    python benchmarks/identify.py                       (builds an archive of ../shared/cr-corpus/txt first)
    python benchmarks/identify.py --archive cr.sqlite   (reuses one; builds it there if it is missing)
"""

from __future__ import annotations

import argparse
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from common import ROOT, corpus_files, release, table

from rulediff.archive import Archive
from rulediff.archive.manifest import entries
from rulediff.identify import official_releases

DUMPS = [
    *sorted((ROOT / "corpus").glob("0*.txt")),
    release("2022-06-10"),  # a complete release: the largest dump there is
]


def _archive(path: Path) -> int:
    with Archive.open(path) as arc:
        if len(official_releases(arc)) < len(corpus_files()):
            t = time.perf_counter()
            arc.add_many(entries([str(f) for f in corpus_files()]))
            print(f"archived {len(corpus_files())} releases into {path} in {time.perf_counter() - t:.0f} s")
        return len(official_releases(arc))


def _run(args: list[str]) -> tuple[float, float, str]:
    """Wall and CPU seconds of one whole process, and its first line of output."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.perf_counter()
    out = subprocess.run(args, capture_output=True, text=True, check=True).stdout
    wall = time.perf_counter() - t
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, (out.splitlines() or [""])[0]


def main() -> list[tuple[str, ...]]:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0] if __doc__ else None)
    ap.add_argument("--archive", type=Path, help="archive of the official releases (built when missing)")
    ap.add_argument("--runs", type=int, default=5, help="runs per dump (default 5)")
    opts, _ = ap.parse_known_args()
    work = None if opts.archive else tempfile.TemporaryDirectory(prefix="rulediff-identify-")
    db = opts.archive or Path(work.name if work else ".") / "official.sqlite"
    try:
        n = _archive(db)
        base = [sys.executable, "-m", "rulediff"]
        startup = min(_run([*base, "--version"])[0] for _ in range(opts.runs))
        rows: list[tuple[str, ...]] = []
        for dump in DUMPS:
            runs = [_run([*base, "identify", str(dump), "--archive", str(db)]) for _ in range(opts.runs)]
            walls = [w for w, _, _ in runs]
            head = runs[0][2].removeprefix("verdict:  ").split(";")[0]
            rows.append(
                (
                    dump.name,
                    f"{min(walls):.2f}",
                    f"{statistics.median(walls):.2f}",
                    f"{min(c for _, c, _ in runs):.2f}",
                    head[:70] + ("\u2026" if len(head) > 70 else ""),
                )
            )
        print(f"identify against {n} archived official releases, {opts.runs} runs each (seconds, whole process;")
        print(f"python -m rulediff --version alone: {startup:.2f} s)")
        print(table(rows, ("dump", "min", "median", "cpu min", "verdict")))
        return rows
    finally:
        if work is not None:
            work.cleanup()


if __name__ == "__main__":
    main()
