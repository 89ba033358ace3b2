"""The whole corpus: archive all official releases and build the full site (target <= 60 s), peak memory,
and an incremental rebuild after adding one release (target <= 5 s)."""

from __future__ import annotations

import resource
import shutil
import tempfile
import time
from pathlib import Path

from common import corpus_files, table

from rulediff.archive import Archive
from rulediff.archive.manifest import entries
from rulediff.site.build import build_site


def _peak_mib() -> tuple[float, float]:
    me = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    kids = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    return me, kids


def main() -> list[tuple[str, ...]]:
    files = [str(f) for f in corpus_files()]
    work = Path(tempfile.mkdtemp(prefix="rulediff-bench-"))
    try:
        db, site = work / "a.sqlite", work / "site"
        t0 = time.perf_counter()
        with Archive.open(db) as arc:
            arc.add_many(entries(files))
        t1 = time.perf_counter()
        with Archive.open(db) as arc:
            stats = build_site(arc, site)
        t2 = time.perf_counter()
        me, kids = _peak_mib()
        size = db.stat().st_size / 2**20
        # Incremental: the same corpus without its newest release, then that release added.
        db2, site2 = work / "b.sqlite", work / "site2"
        with Archive.open(db2) as arc:
            arc.add_many(entries(files[:-1]))
            build_site(arc, site2)
        t3 = time.perf_counter()
        with Archive.open(db2) as arc:
            arc.add_many(entries(files[-1:]))
            inc = build_site(arc, site2)
        t4 = time.perf_counter()
    finally:
        shutil.rmtree(work, ignore_errors=True)
    rows = [
        (f"archive {len(files)} releases", f"{t1 - t0:.1f} s", f"archive file {size:.0f} MiB"),
        (
            f"build the site ({stats['diff_pages']} diff pages, {stats['history_pages']} histories)",
            f"{t2 - t1:.1f} s",
            "",
        ),
        ("archive + site", f"{t2 - t0:.1f} s", "target <= 60 s"),
        ("peak memory (main process / largest worker)", f"{me:.0f} / {kids:.0f} MiB", ""),
        ("add one release + rebuild the site", f"{t4 - t3:.1f} s", f"target <= 5 s; {inc['written']} files rewritten"),
    ]
    print(table(rows, ("whole corpus", "time", "")))
    return rows


if __name__ == "__main__":
    main()
