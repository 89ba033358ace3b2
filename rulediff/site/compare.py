"""The compare page: any two releases compared in the browser from the whole-rules data, pairs by lineage."""

# The compare page (compare.html): any two releases compared in the reader's browser, from the data the whole-rules
# pages read (cr/releases.js, each release's nodes.js and texts.js), with diff-match-patch's JavaScript port vendored
# beside it. It pairs rules by lineage, as the history pages follow them, and says so: `rulediff diff OLD NEW`
# aligns two releases directly and stays the reference.

from __future__ import annotations

from typing import Any

from ..archive import VersionRow
from ..render.templating import asset
from .reader_data import write_keyed
from .writer import SiteWriter


def write_compare(versions: list[VersionRow], names: dict[int, str], w: SiteWriter, env: Any) -> None:
    """compare.html, and the vendored diff-match-patch with its licence under cr/."""
    releases = [{"slug": names[v.id], "label": v.label} for v in versions]
    old = releases[-2]["slug"] if len(releases) > 1 else (releases[0]["slug"] if releases else "")
    new = releases[-1]["slug"] if releases else ""
    page = env.get_template("compare.html.j2").render(releases=releases[::-1], old=old, new=new)
    write_keyed(w, "compare.html", page)
    write_keyed(w, "cr/diff_match_patch.js", asset("diff_match_patch.js"))
    write_keyed(w, "cr/diff_match_patch.LICENSE.txt", asset("diff_match_patch.LICENSE.txt"))
