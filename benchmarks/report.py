"""Report rendering after alignment: HTML, JSON and Markdown for a consecutive pair and for the
2011 -> 2026 jump (target: HTML in <= 1 s each)."""

from __future__ import annotations

from common import best_of, release, table

from rulediff import align, parse
from rulediff.render.diff_json import to_json
from rulediff.render.html import to_html
from rulediff.render.markdown import to_markdown

PAIRS = (("2025-11-14", "2026-01-16"), ("2020-01-24", "2020-04-17"), ("2011-02-04", "2026-01-16"))


def main() -> list[tuple[str, ...]]:
    rows: list[tuple[str, ...]] = []
    for a, b in PAIRS:
        al = align(parse(str(release(a))), parse(str(release(b))))
        n = len(al.substantive())
        h = best_of(lambda al=al: to_html(al), repeat=3)
        j = best_of(lambda al=al: to_json(al), repeat=3)
        m = best_of(lambda al=al: to_markdown(al), repeat=3)
        rows.append((f"{a} -> {b}", str(n), f"{h:.3f} s", f"{j:.3f} s", f"{m:.3f} s"))
    print(table(rows, ("pair", "changes to read", "html", "json", "markdown")))
    print("target: HTML <= 1 s per pair after alignment")
    return rows


if __name__ == "__main__":
    main()
