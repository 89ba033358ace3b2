"""Parse speed: the 2026-01-16 release and the whole official corpus, beside mightstone's
ComprehensiveRules.parse on the same files in the same run (mightstone runs in its own venv)."""

from __future__ import annotations

import time

from common import PEER_PRELUDE, best_of, corpus_files, release, run_peer, table

from rulediff import parse

# Runs under the peer's Python: decoding is done for mightstone (it cannot read the older encodings),
# so its timings are of parsing alone.
PEER = (
    PEER_PRELUDE
    + r"""
one, rest = sys.argv[1], sys.argv[2:]
t1 = text(one)
best = 1e9
for _ in range(5):
    gc.collect(); t = time.perf_counter(); CR.parse(io.StringIO(t1)); best = min(best, time.perf_counter() - t)
texts = [text(p) for p in rest]
failed = 0
t = time.perf_counter()
for tx in texts:
    try:
        CR.parse(io.StringIO(tx))
    except Exception:
        failed += 1
print(json.dumps({"one": best, "all": time.perf_counter() - t, "failed": failed}))
"""
)


def main() -> list[tuple[str, ...]]:
    one = release("2026-01-16")
    files = corpus_files()
    ours = best_of(lambda: parse(str(one)))
    t = time.perf_counter()
    for f in files:
        parse(str(f))
    ours_all = time.perf_counter() - t
    peer = run_peer(PEER, str(one), *map(str, files)) or {}
    rows: list[tuple[str, ...]] = []
    for label, mine, key in (("parse 2026-01-16", ours, "one"), (f"parse all {len(files)} releases", ours_all, "all")):
        theirs = peer.get(key)
        rows.append(
            (
                label,
                f"{mine:.3f} s",
                f"{theirs:.3f} s" if theirs else "n/a",
                f"{theirs / mine:.2f}x" if theirs else "",
            )
        )
    print(table(rows, ("benchmark", "rulediff", "mightstone", "mightstone / rulediff")))
    if peer:
        print(f"mightstone failed on {peer['failed']} of {len(files)} releases; it is given decoded text.")
    return rows


if __name__ == "__main__":
    main()
