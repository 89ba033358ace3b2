"""Lineage: a permanent id per rule carried through the alignments of consecutive versions (looking past
partial dumps that do not cover a rule), splits and merges as edges; and the bridges between such dumps.
Pure: it reads rule keys, coverage and aligned pairs through ``RuleKeys`` and returns what to store."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Protocol

from .changes import Kind
from .match import covers
from .model import Coverage
from .numbering import RuleNumber

# How far back a version looks for the last appearance of rules its neighbour did not cover.
LINEAGE_LOOKBACK = 8

RuleKey = tuple[RuleNumber | None, str | None, str | None]  # (number, title, category)
Pair = tuple[str, list[int], list[int]]  # (kind, old positions, new positions)


class RuleKeys(Protocol):
    """What lineage reads of each version: its coverage and rule keys, and the paired changes of two versions."""

    def coverage(self, vid: int) -> Coverage: ...

    def light(self, vid: int) -> tuple[Coverage, list[RuleKey]]: ...

    def pairs(self, a: int, b: int) -> list[Pair]: ...


@dataclass(slots=True)
class Lineages:
    """Lineage ids per rule position of each (re)assigned version, the lineages born there
    (id, first version, first number, title), and split/merge edges (from, to, version, kind)."""

    ids: dict[int, list[int]] = field(default_factory=dict)
    born: list[tuple[int, int, str | None, str | None]] = field(default_factory=list)
    edges: list[tuple[int, int, int, str]] = field(default_factory=list)


def assign_lineages(
    keys: RuleKeys, order: Sequence[int], start: int, known: Mapping[int, list[int]], next_id: int
) -> Lineages:
    """Carry a permanent id per rule through consecutive alignments of the versions ``order``, from
    position ``start`` on; ``known`` holds the ids of the (up to LINEAGE_LOOKBACK) versions before it and
    ``next_id`` is the first free id. A rule its predecessor did not cover looks further back (partial
    dumps). Splits and merges become edges."""
    out = Lineages()
    assigned: dict[int, list[int]] = dict(known)
    for k in range(start, len(order)):
        vid = order[k]
        _, rules = keys.light(vid)
        lin: list[int | None] = [None] * len(rules)
        pending = set(range(len(rules)))
        for back in range(1, min(k, LINEAGE_LOOKBACK) + 1):
            if not pending:
                break
            uid = order[k - back]
            cov, _ = keys.light(uid)
            looks = [j for j in pending if covers(cov, *rules[j])]
            if not looks:
                continue
            taken = {x for x in lin if x is not None}
            for kind, old, new in keys.pairs(uid, vid):
                primary = assigned[uid][old[0]]
                for j in new:
                    if j not in pending:
                        continue
                    if primary not in taken:
                        lin[j] = primary
                        taken.add(primary)
                    else:
                        lin[j] = next_id
                        out.born.append((next_id, vid, _s(rules[j][0]), rules[j][1]))
                        out.edges.append((primary, next_id, vid, kind))
                        next_id += 1
                    pending.discard(j)
                if kind == Kind.MERGED.value:
                    out.edges.extend((assigned[uid][i], primary, vid, kind) for i in old[1:])
            # What this predecessor covered but did not pair is new here; stop looking for it.
            pending -= set(looks)
        for j in range(len(rules)):
            if lin[j] is None:
                lin[j] = next_id
                out.born.append((next_id, vid, _s(rules[j][0]), rules[j][1]))
                next_id += 1
        assigned[vid] = out.ids[vid] = [x for x in lin if x is not None]
    return out


def find_bridges(keys: RuleKeys, order: Sequence[int]) -> list[tuple[int, int]]:
    """Partial dumps: for each version whose predecessor does not cover some of its numbered rules,
    the nearest earlier numbered version that does (2011's section-7 paste bridges to the 2022 dump of
    rule 702 over a keyword page in between)."""
    out: list[tuple[int, int]] = []
    for k in range(2, len(order)):
        if keys.coverage(order[k - 1]).complete:
            continue  # a whole release covers everything its successor has
        _, rules = keys.light(order[k])
        prev_cov, _ = keys.light(order[k - 1])
        missing = [r for r in rules if r[0] is not None and not covers(prev_cov, *r)]
        if not missing:
            continue
        for uid in reversed(order[: k - 1]):
            cov, urules = keys.light(uid)
            if any(r[0] is not None for r in urules) and any(covers(cov, *r) for r in missing):
                out.append((uid, order[k]))
                break
    return out


def _s(n: RuleNumber | None) -> str | None:
    return str(n) if n is not None else None
