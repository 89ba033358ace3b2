"""Lineage: a permanent id per rule carried through the alignments of consecutive versions (looking past
partial dumps that do not cover a rule), splits and merges as edges; and the bridges between such dumps."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .changes import Kind
from .match import covers
from .numbering import RuleNumber

if TYPE_CHECKING:
    from .archive import Archive, VersionRow

# How far back a version looks for the last appearance of rules its neighbour did not cover.
LINEAGE_LOOKBACK = 8


def assign_lineages(arc: Archive, vs: list[VersionRow], start: int) -> None:
    """Carry a permanent id per rule through consecutive alignments, from version ``start`` on (the
    ones before keep theirs); a rule its predecessor did not cover looks further back (partial
    dumps). Splits and merges are recorded as edges."""
    db = arc.db
    later = [v.id for v in vs[start:]]
    marks = ",".join("?" * len(later))
    if later:
        db.execute(f"DELETE FROM lineages WHERE first_version IN ({marks})", later)
        db.execute(f"DELETE FROM lineage_edges WHERE version_id IN ({marks})", later)
    next_id = (db.execute("SELECT coalesce(max(id), 0) FROM lineages").fetchone()[0] or 0) + 1
    assigned: dict[int, list[int]] = {}
    for v in vs[max(0, start - LINEAGE_LOOKBACK) : start]:
        assigned[v.id] = [
            x for (x,) in db.execute("SELECT lineage FROM rules WHERE version_id = ? ORDER BY pos", (v.id,))
        ]
    for k in range(start, len(vs)):
        v = vs[k]
        _, rules = arc.light(v.id)
        lin: list[int | None] = [None] * len(rules)
        pending = set(range(len(rules)))
        for back in range(1, min(k, LINEAGE_LOOKBACK) + 1):
            if not pending:
                break
            u = vs[k - back]
            cov, _ = arc.light(u.id)
            looks = [j for j in pending if covers(cov, *rules[j])]
            if not looks:
                continue
            taken = {x for x in lin if x is not None}
            for kind, old, new in arc.pairs(u.id, v.id):
                primary = assigned[u.id][old[0]]
                for j in new:
                    if j not in pending:
                        continue
                    if primary not in taken:
                        lin[j] = primary
                        taken.add(primary)
                    else:
                        lin[j] = next_id
                        db.execute(
                            "INSERT INTO lineages VALUES (?,?,?,?)", (next_id, v.id, _s(rules[j][0]), rules[j][1])
                        )
                        db.execute("INSERT INTO lineage_edges VALUES (?,?,?,?)", (primary, next_id, v.id, kind))
                        next_id += 1
                    pending.discard(j)
                if kind == Kind.MERGED.value:
                    for i in old[1:]:
                        db.execute(
                            "INSERT INTO lineage_edges VALUES (?,?,?,?)", (assigned[u.id][i], primary, v.id, kind)
                        )
            # What this predecessor covered but did not pair is new here; stop looking for it.
            pending -= set(looks)
        for j in range(len(rules)):
            if lin[j] is None:
                lin[j] = next_id
                db.execute("INSERT INTO lineages VALUES (?,?,?,?)", (next_id, v.id, _s(rules[j][0]), rules[j][1]))
                next_id += 1
        assigned[v.id] = arc.lineage_cache[v.id] = [x for x in lin if x is not None]
        db.executemany(
            "UPDATE rules SET lineage = ? WHERE version_id = ? AND pos = ?",
            [(x, v.id, j) for j, x in enumerate(lin)],
        )


# -- queries --------------------------------------------------------------------------------


def find_bridges(arc: Archive) -> list[tuple[int, int]]:
    """Partial dumps: for each version whose predecessor does not cover some of its numbered rules,
    the nearest earlier numbered version that does (2011's section-7 paste bridges to the 2022 dump of
    rule 702 over a keyword page in between)."""
    vs = arc.versions()
    out: list[tuple[int, int]] = []
    for k in range(2, len(vs)):
        if arc.coverage(vs[k - 1].id).complete:
            continue  # a whole release covers everything its successor has
        _, rules = arc.light(vs[k].id)
        prev_cov, _ = arc.light(vs[k - 1].id)
        missing = [r for r in rules if r[0] is not None and not covers(prev_cov, *r)]
        if not missing:
            continue
        for u in reversed(vs[: k - 1]):
            cov, urules = arc.light(u.id)
            if any(r[0] is not None for r in urules) and any(covers(cov, *r) for r in missing):
                out.append((u.id, vs[k].id))
                break
    return out


def _s(n: RuleNumber | None) -> str | None:
    return str(n) if n is not None else None
