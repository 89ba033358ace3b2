"""Lineage: a permanent id per rule carried through consecutive alignments, and bridges."""

# Lineage: a permanent id per rule carried through the alignments of consecutive versions (looking past partial
# dumps that do not cover a rule), splits and merges as edges; and the bridges between such dumps. Pure: it reads
# rule keys, coverage and aligned pairs through ``RuleKeys`` and returns what to store.

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Protocol

from ..coverage import Coverage, covers
from ..numbering import RuleNumber
from .corrections import LINK, Fix
from .records import Kind

# How far back a version looks for the last appearance of rules its neighbour did not cover.
LINEAGE_LOOKBACK = 8

RuleKey = tuple[RuleNumber | None, str | None, str | None]  # (number, title, category)
Pair = tuple[str, list[int], list[int], bool]  # (kind, old positions, new positions, uncertain)

# The kinds of link_marks: how a lineage went from one version to the next when a reader should know.
HAND = "linked by hand"  # also the kind of a pair a hand correction made
UNLINKED = "unlinked by hand"  # a rule that is new because a correction cut its link
ENDED = "ended by hand"  # a rule with no successor because a correction cut its link
UNCERTAIN = "uncertain match"
# The kinds of pair whose several old rules continue in their first one's lineage (the others end there).
_GATHERED = (Kind.MERGED.value, HAND)


class RuleKeys(Protocol):
    """What lineage reads of each version: its coverage and rule keys, and the paired changes of two versions."""

    def coverage(self, vid: int) -> Coverage: ...

    def light(self, vid: int) -> tuple[Coverage, list[RuleKey]]: ...

    def pairs(self, a: int, b: int) -> list[Pair]: ...

    def corrections(self, a: int, b: int) -> list[Fix]: ...


@dataclass(slots=True)
class Lineages:
    """Lineage ids per rule position of each (re)assigned version, the lineages born there
    (id, first version, first number, title), split/merge edges (from, to, version, kind), and the marks
    (version, lineage, kind, reason) of links made by hand, cut by hand, or kept on weak evidence."""

    ids: dict[int, list[int]] = field(default_factory=dict)
    born: list[tuple[int, int, str | None, str | None]] = field(default_factory=list)
    edges: list[tuple[int, int, int, str]] = field(default_factory=list)
    marks: list[tuple[int, int, str, str]] = field(default_factory=list)


@dataclass(slots=True)
class Corrected:
    """The pairs of two versions with hand corrections applied, and what the corrections did to which rules:
    ``new`` (position -> (HAND or UNLINKED, reason)) and ``ended`` (old position -> reason)."""

    pairs: list[Pair]
    new: dict[int, tuple[str, str]] = field(default_factory=dict)
    ended: dict[int, str] = field(default_factory=dict)


def corrected(pairs: list[Pair], fixes: Sequence[Fix]) -> Corrected:
    """Apply hand corrections to the matcher's pairs. An unlink cuts old -> new (or every link of old);
    a link replaces the matcher's links of both its ends, and hand links sharing an end go together (one
    old linked to two new rules is a split, two into one a merge)."""
    if not fixes:
        return Corrected(pairs)
    work = [(k, list(o), list(n), u) for k, o, n, u in pairs]
    out = Corrected([])
    for f in fixes:
        if f.action == LINK:
            continue
        for _, old, new, _ in work:
            if f.old not in old or (f.new is not None and f.new not in new):
                continue
            if f.new is None or len(old) > 1:
                old.remove(f.old)
            else:
                new.remove(f.new)
            out.ended[f.old] = f.reason
            out.new.update((j, (UNLINKED, f.reason)) for j in ([f.new] if f.new is not None else new))
    links = [(f.old, f.new, f.reason) for f in fixes if f.action == LINK and f.new is not None]
    groups: list[tuple[set[int], set[int]]] = []
    for o, n, reason in links:
        for _, old, new, _ in work:
            if o in old:
                old.remove(o)
            if n in new:
                new.remove(n)
        hit = [g for g in groups if o in g[0] or n in g[1]]
        groups = [g for g in groups if not any(g is h for h in hit)]
        groups.append(({o}.union(*(g[0] for g in hit)), {n}.union(*(g[1] for g in hit))))
        out.new[n] = (HAND, reason)
    kept = [p for p in work if p[1] and p[2]]
    out.pairs = kept + [(HAND, sorted(o), sorted(n), False) for o, n in groups]
    # Only what ends up unpaired was cut.
    paired_old = {i for _, old, _, _ in out.pairs for i in old}
    paired_new = {j for _, _, new, _ in out.pairs for j in new}
    out.ended = {i: r for i, r in out.ended.items() if i not in paired_old}
    out.new = {j: m for j, m in out.new.items() if m[0] == HAND or j not in paired_new}
    return out


def assign_lineages(
    keys: RuleKeys, order: Sequence[int], start: int, known: Mapping[int, list[int]], next_id: int
) -> Lineages:
    """Carry a permanent id per rule through consecutive alignments of the versions ``order``, from
    position ``start`` on; ``known`` holds the ids of the (up to LINEAGE_LOOKBACK) versions before it and
    ``next_id`` is the first free id. A rule its predecessor did not cover looks further back (partial
    dumps). Splits and merges become edges."""
    out = Lineages()
    for k in range(start, len(order)):
        vid = order[k]
        _, rules = keys.light(vid)
        lin: list[int | None] = [None] * len(rules)
        pending = set(range(len(rules)))
        cut: dict[int, str] = {}  # new here because a hand correction cut its link: the reason
        for back in range(1, min(k, LINEAGE_LOOKBACK) + 1):
            if not pending:
                break
            uid = order[k - back]
            cov, _ = keys.light(uid)
            # A whole release covers every rule (as covers() says): no call per rule to learn it.
            looks = list(pending) if cov.complete else [j for j in pending if covers(cov, *rules[j])]
            if not looks:
                continue
            # ``known`` is looked into, never copied: it may read a version's ids only when asked for them.
            ids = out.ids[uid] if uid in out.ids else known[uid]
            taken = {x for x in lin if x is not None}
            fixed = corrected(keys.pairs(uid, vid), keys.corrections(uid, vid))
            for kind, old, new, uncertain in fixed.pairs:
                primary = ids[old[0]]
                for j in new:
                    if j not in pending:
                        continue
                    if primary not in taken:
                        got = primary
                        taken.add(primary)
                    else:
                        got = next_id
                        out.born.append((next_id, vid, _s(rules[j][0]), rules[j][1]))
                        out.edges.append((primary, next_id, vid, kind))
                        next_id += 1
                    lin[j] = got
                    pending.discard(j)
                    if kind == HAND:
                        out.marks.append((vid, got, HAND, fixed.new[j][1]))
                    elif uncertain:
                        out.marks.append((vid, got, UNCERTAIN, ""))
                if kind in _GATHERED:
                    out.edges.extend((ids[i], primary, vid, kind) for i in old[1:])
            out.marks.extend((vid, ids[i], ENDED, reason) for i, reason in sorted(fixed.ended.items()))
            cut.update((j, reason) for j, (how, reason) in fixed.new.items() if how == UNLINKED and j in pending)
            # What this predecessor covered but did not pair is new here; stop looking for it.
            pending -= set(looks)
        for j in range(len(rules)):
            if lin[j] is None:
                lin[j] = next_id
                out.born.append((next_id, vid, _s(rules[j][0]), rules[j][1]))
                if j in cut:
                    out.marks.append((vid, next_id, UNLINKED, cut[j]))
                next_id += 1
        out.ids[vid] = [x for x in lin if x is not None]
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


def link_texts(marks: list[tuple[int, str, str]]) -> tuple[dict[int, str], str | None]:
    """What a reader is told of a lineage's marks: per version id, how it came there ("uncertain match",
    "linked by hand: <reason>", "unlinked by hand: <reason>"), and why it ends, if a correction ended it."""
    links: dict[int, str] = {}
    ended = None
    for vid, kind, reason in marks:
        if kind == ENDED:
            ended = f"unlinked by hand: {reason}"
        else:
            links[vid] = f"{kind}: {reason}" if reason else kind
    return links, ended
