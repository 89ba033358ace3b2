"""What the whole-rules pages' scripts read: the releases, each one's rules by lineage, and their texts."""

# What the scripts of the whole-rules pages and the compare page read, as script files (they load from file://, as
# the search index does): cr/releases.js (every release, oldest first), cr/<slug>/nodes.js (each rule of a release
# in order: its number, its lineage and its text's id) and cr/<slug>/texts.js (texts by id: see KEYFRAME).

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from operator import itemgetter
from typing import Any

from ..archive import VersionRow
from .rule_index import Row
from .writer import SiteWriter


def write_keyed(w: SiteWriter, rel: str, text: str) -> None:
    """Write a small file stamped with its digest: a build that makes it alike neither reads nor writes it."""
    key = hashlib.sha1(text.encode()).hexdigest()
    if not w.fresh_if(rel, key.__eq__):
        w.write(rel, text, key)


def js(data: Any) -> str:
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"))


# Every KEYFRAME-th release's texts.js holds every text it prints; each other release's, the texts it prints that
# the release before did not. A release reads its keyframe's file and those after it up to itself: a seventh of
# the texts of all releases at most, where files by the release that first printed each text had a page read
# them nearly all (texts stay for decades).
KEYFRAME = 8


@dataclass(slots=True)
class TextPlan:
    """The id of each text (a body; bodies that read alike are one: ids in the order releases first print
    them), and what each release's texts.js holds."""

    ids: dict[int, int]  # body -> text id
    files: list[list[int]]  # per release (by position): the bodies its texts.js holds, in id order

    @classmethod
    def of(cls, versions: list[VersionRow], rows: dict[int, list[Row]]) -> TextPlan:
        ids: dict[int, int] = {}
        files: list[list[int]] = []
        before: dict[int, None] = {}
        for k, v in enumerate(versions):
            bodies = dict.fromkeys(map(itemgetter(4), rows[v.id]))  # in order, once each
            fresh = bodies.keys() - ids.keys()
            new = [b for b in bodies if b in fresh]
            ids.update(zip(new, range(len(ids), len(ids) + len(new)), strict=True))
            held = bodies.keys() if k % KEYFRAME == 0 else bodies.keys() - before.keys()
            files.append(sorted(held, key=ids.__getitem__))
            before = bodies
        return cls(ids, files)


def texts_needed(k: int) -> list[int]:
    """The releases (positions) whose texts.js the release at ``k`` reads: its keyframe's and those after."""
    return list(range(k - k % KEYFRAME, k + 1))


def nodes_script(slug: str, rows: list[Row], ids: dict[int, int]) -> str:
    """cr/<slug>/nodes.js: each rule's number ("" for none), lineage (0 for none) and text id, in order."""
    data = {
        "n": [n or "" for _, _, n, _, _ in rows],
        "l": [lin or 0 for lin, *_ in rows],
        "t": [ids[r[4]] for r in rows],
    }
    return f"RULEDIFF_CR.nodes({js(slug)},{js(data)});\n"


def texts_script(ids: list[int], texts: list[str]) -> str:
    """cr/<slug>/texts.js: texts by id (see KEYFRAME); a rule's examples follow its text, a line each."""
    return f"RULEDIFF_CR.texts({js(ids)},{js(texts)});\n"


def releases_script(
    versions: list[VersionRow],
    names: dict[int, str],
    pages: dict[int, str],
    complete: set[int],
    edges: list[tuple[int, int, str]],
) -> str:
    """cr/releases.js: every release, oldest first: its folder, label, first day in force, the section pages
    it has, whether it is the whole rules, and the releases whose texts.js it reads (positions); then the splits
    and merges between lineages (from, to, kind)."""
    out = [
        {
            "s": names[v.id],
            "l": v.label,
            "d": v.in_force_from,
            "p": pages[v.id],
            "c": v.id in complete,
            "t": texts_needed(k),
        }
        for k, v in enumerate(versions)
    ]
    return f"RULEDIFF_CR.releases({js(out)},{js(edges)});\n"
