"""Alignment quality and speed.

1. Mutation benchmark: known edits (inserts and deletes with renumbering and reference rewriting, moves
   across sections, splits, merges, light and heavy edits) on real releases; precision and recall of the
   recovered rule pairs, and untouched rules reported as substantive edits.
2. Speed: every consecutive pair of the corpus (parse included), long jumps, and mightstone's diff
   beside ours on the same pairs where it does not crash.
"""

from __future__ import annotations

import argparse
import time

from common import PEER_PRELUDE, best_of, corpus_files, release, run_peer, table

from benchmarks.mutate import mutate
from rulediff import align, parse
from rulediff.matcher.records import is_substantive

MUTATION_RELEASES = ("2009-10-01", "2011-02-04", "2014-05-01", "2018-10-05", "2022-02-18", "2026-01-16")
LONG_JUMPS = (("2011-02-04", "2026-01-16"), ("2009-09-04", "2026-08-07"), ("1999-04-23", "2026-08-07"))

PEER_DIFF = (
    PEER_PRELUDE
    + r"""
out = []
for a, b in zip(sys.argv[1::2], sys.argv[2::2]):
    t = time.perf_counter()
    try:
        x, y = CR.parse(io.StringIO(text(a))), CR.parse(io.StringIO(text(b)))
        x.diff(y)
        out.append(time.perf_counter() - t)
    except Exception as e:
        out.append(None)
print(json.dumps(out))
"""
)


def mutations(seeds: int, edits: int) -> tuple[float, float, int, float]:
    hits = preds = truths = untouched_fp = 0
    t_total = 0.0
    runs = 0
    for date in MUTATION_RELEASES:
        doc = parse(str(release(date)))
        for seed in range(seeds):
            m = mutate(doc, seed, edits)
            t = time.perf_counter()
            al = align(doc, m.doc)
            t_total += time.perf_counter() - t
            runs += 1
            pred = {(i, j) for ch in al.changes if ch.old and ch.new for i in ch.old for j in ch.new}
            hits += len(pred & m.truth)
            preds += len(pred)
            truths += len(m.truth)
            untouched_fp += sum(
                1
                for ch in al.changes
                if is_substantive(ch) and ch.old and ch.new and set(ch.old) <= m.untouched and ch.kind.value != "moved"
            )
    return hits / preds, hits / truths, untouched_fp, t_total / runs


def quality(seeds: int, edits: int) -> str:
    """The mutation benchmark's table and its targets."""
    p, r, fp, per = mutations(seeds, edits)
    runs = len(MUTATION_RELEASES) * seeds
    return (
        table(
            [(f"{runs} mutated releases x {edits} edits", f"{p:.5f}", f"{r:.5f}", fp, f"{per:.3f} s")],
            ("mutation benchmark", "precision", "recall", "untouched reported substantive", "align time/pair"),
        )
        + "\ntargets: precision >= 0.9997, recall >= 0.999 (best public matcher: ~0.9997 / 0.9985 at 7-10 s a pair)\n"
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--seeds", type=int, default=5)
    ap.add_argument("--edits", type=int, default=40)
    args = ap.parse_args()

    print(quality(args.seeds, args.edits))

    files = [f for f in corpus_files() if "rerelease" not in f.name]
    t = time.perf_counter()
    prev = parse(str(files[0]))
    worst = (0.0, "")
    for f in files[1:]:
        t1 = time.perf_counter()
        cur = parse(str(f))
        align(prev, cur)
        dt = time.perf_counter() - t1
        if dt > worst[0]:
            worst = (dt, f"{prev.version.label} -> {cur.version.label}")
        prev = cur
    total = time.perf_counter() - t
    rows = [(f"all {len(files) - 1} consecutive pairs (parse included)", f"{total:.2f} s", "target <= 30 s")]
    rows.append((f"slowest consecutive pair: {worst[1]}", f"{worst[0]:.2f} s", "target <= 1 s"))
    jumps: list[tuple[str, str]] = []
    for a, b in LONG_JUMPS:
        pa, pb = release(a), release(b)
        dt = best_of(lambda pa=pa, pb=pb: align(parse(str(pa)), parse(str(pb))), repeat=3)
        rows.append((f"long jump {a} -> {b} (parse included)", f"{dt:.2f} s", "target <= 1 s"))
        jumps.append((str(pa), str(pb)))
    print(table(rows, ("speed", "rulediff", "")))

    sample = list(zip(files[::10], files[1::10], strict=False))[:8]
    pairs = [*((str(a), str(b)) for a, b in sample), *jumps]
    peer = run_peer(PEER_DIFF, *[p for ab in pairs for p in ab])
    if peer is not None:
        out = []
        for (a, b), theirs in zip(pairs, peer, strict=True):
            mine = best_of(lambda a=a, b=b: align(parse(a), parse(b)), repeat=3)
            label = f"{a.rsplit('-', 1)[-1][:8]} -> {b.rsplit('-', 1)[-1][:8]}"
            out.append(
                (
                    label,
                    f"{mine:.2f} s",
                    f"{theirs:.2f} s" if theirs else "crashed",
                    f"{theirs / mine:.1f}x" if theirs else "",
                )
            )
        print()
        print(table(out, ("pair (parse + diff)", "rulediff", "mightstone", "mightstone / rulediff")))


if __name__ == "__main__":
    main()
