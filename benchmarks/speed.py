"""The speed table of issue 15, each row as min / median of several runs, beside Academy Ruins' figures as
the issue quotes them (the peer cannot be fetched here), mightstone measured in the same run, the floor
(read + decode + split) and the target.

In-process rows: each sample is a fresh interpreter with rulediff already imported, and the modules the
operation loads on first use (the parsers, the matcher): imports excluded, caches cold, as a user's first
call. The whole-process rows pay every import. Whole-process rows time the command itself, as /usr/bin/time -v
does, and peak memory is the largest sum of resident memory over the command's process tree (workers
included). Wall time and CPU time (user + sys) are both shown: on a machine shared with other work the
CPU time is the steadier figure, and the ratios use it (the quoted peer figures are from a quiet run).

    python benchmarks/speed.py [--runs 5] [--corpus-runs 2] [--skip-corpus]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from common import CR_TXT, PEER_PRELUDE, ROOT, corpus_files, peer_python, release, table

# Academy Ruins' own figures as the issue quotes them (its parser and matcher, one run, same machine).
ACADEMY_RUINS: dict[str, tuple[float, float]] = {
    "parse": (0.060, 0.063),
    "2025-11-14": (0.12, 0.12),
    "2020-01-24": (0.23, 0.23),
    "chain": (37.1, 37.1),
    "2011-02-04": (45.0, 45.0),
}

# Runs in a fresh interpreter: import first (not timed), then one operation; prints [wall, cpu, extra].
OURS = r"""
import json, sys, time
from rulediff import align, parse
# What parse() and align() import on first use (the parsers, the matcher): imports excluded, as the peer's are.
import rulediff.matcher.classify, rulediff.parsers
from rulediff.parsers import read_input
from rulediff.parsers.base import Source
op, args = sys.argv[1], sys.argv[2:]
t, c = time.perf_counter(), time.process_time()
steps = []
if op == "floor":
    Source(read_input(args[0]), args[0]).lines
elif op == "parse":
    parse(args[0])
elif op == "pair":
    align(parse(args[0]), parse(args[1]))
elif op == "chain":
    # Consecutive pairs as a reader walks them: each release parsed once, aligned with the one before. Each
    # step is [its release's parse, the alignment] in CPU seconds; the first is the first release's parse.
    s = time.process_time()
    prev = parse(args[0])
    steps.append([time.process_time() - s, 0.0])
    for p in args[1:]:
        s = time.process_time()
        cur = parse(p)
        m = time.process_time()
        align(prev, cur)
        steps.append([m - s, time.process_time() - m])
        prev = cur
print(json.dumps([time.perf_counter() - t, time.process_time() - c, steps]))
"""

# The same under mightstone's Python; it is handed decoded text (it cannot read the older encodings).
PEER = (
    PEER_PRELUDE
    + r"""
op, args = sys.argv[1], sys.argv[2:]
texts = [text(p) for p in args]
t, c = time.perf_counter(), time.process_time()
ok = 0
try:
    if op == "parse":
        CR.parse(io.StringIO(texts[0]))
    elif op == "pair":
        CR.parse(io.StringIO(texts[0])).diff(CR.parse(io.StringIO(texts[1])))
    elif op == "chain":
        prev = None
        for tx in texts:
            try:
                cur = CR.parse(io.StringIO(tx))
                if prev is not None:
                    prev.diff(cur)
                    ok += 1
            except Exception:
                cur = None
            prev = cur
    print(json.dumps([time.perf_counter() - t, time.process_time() - c, ok]))
except Exception:
    print(json.dumps(None))
"""
)


def samples(op: str, *paths: Path, runs: int, peer: bool = False) -> list[Any]:
    """``runs`` results of ``op`` (None where the tool crashed); [] when the peer is unavailable."""
    py = peer_python() if peer else Path(sys.executable)
    if py is None:
        return []
    out = []
    for _ in range(runs):
        done = subprocess.run(
            [str(py), "-c", PEER if peer else OURS, op, *map(str, paths)], capture_output=True, text=True, cwd=ROOT
        )
        if done.returncode != 0:
            raise RuntimeError(f"{op} failed: {done.stderr.strip().splitlines()[-1:]}")
        out.append(json.loads(done.stdout))
    return out


def tree_rss_mib(root: int) -> float:
    """Resident memory of ``root`` and all its descendants together, from /proc (Linux)."""
    kids: dict[int, list[int]] = {}
    rss: dict[int, int] = {}
    for d in os.listdir("/proc"):
        if not d.isdigit():
            continue
        try:
            with open(f"/proc/{d}/stat") as fh:
                fields = fh.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        kids.setdefault(int(fields[1]), []).append(int(d))
        rss[int(d)] = int(fields[21])
    total, todo = 0, [root]
    while todo:
        pid = todo.pop()
        total += rss.get(pid, 0)
        todo.extend(kids.get(pid, []))
    return total * os.sysconf("SC_PAGE_SIZE") / 2**20


def whole_process(cmd: list[str], expect: int = 0) -> tuple[float, float, float]:
    """Run ``cmd``: (wall s, CPU s of it and the children it waited for, peak MiB of its process tree). Any
    exit code but ``expect`` is a failure of the benchmark."""
    t = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, cwd=ROOT)
    peak = 0.0
    while True:
        pid, status, usage = os.wait4(proc.pid, os.WNOHANG)
        if pid:
            break
        peak = max(peak, tree_rss_mib(proc.pid))
        time.sleep(0.02)
    wall = time.perf_counter() - t
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode != expect:
        err = proc.stderr.read().decode()[-300:] if proc.stderr else ""
        raise RuntimeError(f"{' '.join(cmd)} exited {proc.returncode}: {err}")
    return wall, usage.ru_utime + usage.ru_stime, max(peak, usage.ru_maxrss / 1024)


def _rulediff(*args: str) -> list[str]:
    return [sys.executable, "-m", "rulediff", *args]


def fmt(xs: list[float], unit: str = "s") -> str:
    if not xs:
        return "n/a"
    lo, med = min(xs), statistics.median(xs)
    digits = 3 if med < 1 else 2 if med < 10 else 1
    return f"{lo:.{digits}f} / {med:.{digits}f} {unit}"


class Table:
    HEADER = (
        "measure",
        "rulediff wall",
        "rulediff CPU",
        "Academy Ruins (quoted)",
        "AR / ours",
        "mightstone wall",
        "mightstone CPU",
        "ms / ours",
        "target",
    )

    def __init__(self) -> None:
        self.rows: list[tuple[str, ...]] = []

    def add(
        self,
        label: str,
        ours: list[Any],
        *,
        target: str = "",
        ar: tuple[float, float] | None = None,
        peer: list[Any] | None = None,
        note: str = "",
    ) -> None:
        wall, cpu = [float(x[0]) for x in ours], [float(x[1]) for x in ours]
        ar_cell = "" if ar is None else f"{ar[0]:g}-{ar[1]:g} s" if ar[0] != ar[1] else f"{ar[0]:g} s"
        ar_ratio = f"{ar[0] / min(cpu):.1f}x" if ar and cpu else ""
        if peer is None:
            pw = pc = pr = ""
        else:
            ok = [x for x in peer if x is not None]
            pw = fmt([x[0] for x in ok]) if ok else "crashes" if peer else "n/a"
            pc = fmt([x[1] for x in ok]) if ok else ""
            pr = f"{min(x[1] for x in ok) / min(cpu):.1f}x" if ok and cpu else ""
            pw += note
        self.rows.append((label, fmt(wall), fmt(cpu), ar_cell, ar_ratio, pw, pc, pr, target))

    def render(self) -> str:
        return table(self.rows, self.HEADER)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--runs", type=int, default=5, help="samples per row (default 5)")
    ap.add_argument("--corpus-runs", type=int, default=2, help="samples of the whole-corpus rows (default 2)")
    ap.add_argument("--skip-corpus", action="store_true", help="leave out the whole-corpus report rows")
    args = ap.parse_args()
    n = args.runs
    # Measure the program as installed: pip compiles an installed package's bytecode, but a checkout run
    # with PYTHONDONTWRITEBYTECODE set (as on some machines) would compile every module of rulediff
    # again in each process (about 0.04 s of every whole-process row). Compiled once, here, up front.
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(ROOT / "rulediff")], check=True, cwd=ROOT)
    t = Table()
    new = release("2026-01-16")

    t.add("floor: read + decode + split 2026-01-16", samples("floor", new, runs=n))
    t.add(
        "parse 2026-01-16",
        samples("parse", new, runs=n),
        target="<= 0.03 s",
        ar=ACADEMY_RUINS["parse"],
        peer=samples("parse", new, runs=n, peer=True),
    )
    for a, b, target in (("2025-11-14", "2026-01-16", "0.06"), ("2020-01-24", "2020-04-17", "0.06")):
        pa, pb = release(a), release(b)
        t.add(
            f"{a} -> {b}, parse both + align",
            samples("pair", pa, pb, runs=n),
            target=f"<= {target} s",
            ar=ACADEMY_RUINS[a],
            peer=samples("pair", pa, pb, runs=1, peer=True),
        )
    since_2013 = [f for f in corpus_files() if f.name >= "cr-2013"]
    pairs = len(since_2013) - 1
    chain = samples("chain", *since_2013, runs=max(2, n // 2))
    peer_chain = samples("chain", *since_2013, runs=1, peer=True)
    succeeded = f" ({peer_chain[0][2]} of {pairs} succeed)" if peer_chain and peer_chain[0] else ""
    t.add(
        f"{pairs} consecutive pairs 2013 -> 2026, each release parsed once",
        chain,
        target="<= 6 s",
        ar=ACADEMY_RUINS["chain"],
        peer=peer_chain,
        note=succeeded,
    )
    # Per-pair times are CPU only (each pair is timed inside the walk): the wall column stays empty. A step of
    # the walk parses one release and aligns it; a pair on its own parses both (the target's measure).
    walked = [[p + a for p, a in s[1:]] for _, _, s in chain]
    alone = [[s[k - 1][0] + p + a for k, (p, a) in enumerate(s) if k] for _, _, s in chain]
    for label, per in (("walked: parse the newer + align", walked), ("each on its own: parse both + align", alone)):
        slowest, median = fmt([max(x) for x in per]), fmt([statistics.median(x) for x in per])
        t.rows.append((f"  {label}, slowest pair", "", slowest, *[""] * 5, "<= 0.06 s"))
        t.rows.append(("    median pair", "", median, *[""] * 6))
        within = [sum(1 for v in x if v <= 0.06) for x in per]
        t.rows.append((f"    pairs within 0.06 s of {pairs} (each run)", ", ".join(map(str, within)), *[""] * 7))
    old = release("2011-02-04")
    t.add(
        "2011-02-04 -> 2026-01-16, parse both + align",
        samples("pair", old, new, runs=n),
        target="<= 0.3 s",
        ar=ACADEMY_RUINS["2011-02-04"],
        peer=samples("pair", old, new, runs=1, peer=True),
    )
    t.add("whole process: python -c 'import rulediff.cli'", [whole_process(_py_import()) for _ in range(n)])
    runs = [whole_process(_rulediff("diff", str(old), str(new), "--format", "json")) for _ in range(n)]
    t.add("whole process: rulediff diff 2011 -> 2026 --format json", runs, target="<= 0.6 s")
    t.rows.append(("  its peak memory", fmt([r[2] for r in runs], "MiB"), "", "", "", "", "", "", ""))
    hostile_rows(t, n)
    if not args.skip_corpus:
        corpus_rows(t, args.corpus_runs)
    print(t.render())


def hostile_rows(t: Table, runs: int) -> None:
    """Issue 34's hostile inputs, read to their refusal (exit 2): a rule continued over 100,000 paragraphs,
    and files of 31 MB forced through the official-text, pdf-paste and markdown readers."""
    head = "Magic: The Gathering Comprehensive Rules\n\nThese rules are effective as of January 16, 2026.\n\n"
    head += "1. Game Concepts\n\n100. General\n\n100.1. These Magic rules apply to any Magic game.\n\n"
    n = 31_000_000
    inputs = {
        "continued 100,000 times (5.4 MB)": head
        + "".join(f"continued line {i} of the rule.\n\n" for i in range(100_000)),
        "31 MB of paragraphs": head + ("continued line of the same rule, never ending.\n\n" * (n // 49))[:n],
        "31 MB of one repeated subrule": head + ("100.1a. x\n" * (n // 10))[:n],
    }
    with tempfile.TemporaryDirectory() as tmp:
        for name, text in inputs.items():
            path = Path(tmp) / "hostile.txt"
            path.write_text(text)
            formats = ["official-text"] if name.startswith("continued") else ["official-text", "pdf-paste", "markdown"]
            for fmt in formats:
                cmd = _rulediff("lint", str(path), "--format", fmt)
                target = "<= 2 s" if name.startswith("continued") else "<= 10 s"
                t.add(
                    f"whole process: lint, {name}, {fmt} (refused)",
                    [whole_process(cmd, 2) for _ in range(runs)],
                    target=target,
                )


def _py_import() -> list[str]:
    return [sys.executable, "-c", "import rulediff.cli"]


def corpus_rows(t: Table, runs: int) -> None:
    """``report`` of every official release into an empty archive; then adding one release to an archive
    and site of the others, three ways: the newest release (2026-08-07, onto an archive ending 2026-06-19:
    release day), then its re-release (2026-08-19), and the 2026-08-07 release inserted before a re-release
    already archived (every later page's neighbours and labels move)."""
    every = [str(f) for f in corpus_files()]
    original, again = str(release("2026-08-07")), str(CR_TXT / "cr-20260807-rerelease-20260819.txt")
    if original not in every or again not in every:
        sys.exit("the add-one rows need the 2026-08-07 release and its 2026-08-19 re-release")
    full: list[Any] = []
    adds: dict[str, list[Any]] = {"newest": [], "again": [], "insert": []}
    for _ in range(runs):
        work = Path(tempfile.mkdtemp(prefix="rulediff-speed-"))
        try:
            full.append(
                whole_process(_rulediff("report", str(CR_TXT), "-o", str(work / "s"), "--archive", str(work / "a")))
            )
            before = [f for f in every if f not in (original, again)]
            whole_process(_rulediff("report", *before, "-o", str(work / "s2"), "--archive", str(work / "b")))
            for name, f in (("newest", original), ("again", again)):
                adds[name].append(
                    whole_process(_rulediff("report", f, "-o", str(work / "s2"), "--archive", str(work / "b")))
                )
            others = [f for f in every if f != original]
            whole_process(_rulediff("report", *others, "-o", str(work / "s3"), "--archive", str(work / "c")))
            adds["insert"].append(
                whole_process(_rulediff("report", original, "-o", str(work / "s3"), "--archive", str(work / "c")))
            )
        finally:
            shutil.rmtree(work, ignore_errors=True)
    t.add(f"whole process: report, {len(every)} releases, empty archive", full, target="<= 40 s (2 cores)")
    t.rows.append(
        (
            "  peak memory, all its processes together",
            fmt([r[2] for r in full], "MiB"),
            "",
            "",
            "",
            "",
            "",
            "",
            "<= 600 MB",
        )
    )
    t.add("whole process: add the newest release (2026-08-07) + rebuild", adds["newest"], target="<= 3 s")
    t.add("  then its re-release (2026-08-19) + rebuild", adds["again"], target="<= 3 s")
    t.add("  2026-08-07 inserted before its re-release + rebuild", adds["insert"], target="<= 3 s")


if __name__ == "__main__":
    main()
