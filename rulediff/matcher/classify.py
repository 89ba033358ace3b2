"""align(): the matcher's pairs classified into changes, each edit with its nature."""

# Classify aligned pairs: unchanged, renumbered, edited, moved, split, merged, added, removed, not covered; the
# nature of an edit (substantive, references only, typography only); examples and glossary too.

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import replace
from operator import itemgetter

from rapidfuzz import fuzz

from ..model import Document, Example, Rule, covered
from ..support import gc_pause as collector
from ..support.constructors import slot_filler
from ..words.nature import nature_of
from ..words.records import Nature, Rename
from .absorbed import one_group_each, regroup_absorbed
from .corrections import Fix, hand_corrected, said_cut
from .folded import regroup_folded
from .glossary import glossary_changes
from .held import regroup_held
from .likeness import Likeness
from .passes import match
from .reclaimed import reclaim
from .records import Alignment, Change, ExampleChange, Grouping, Kind, Pair, positions
from .refusals import heading_refusals, refusals, unkept
from .renames import counted, through_renames
from .sentences import regroup_sentences
from .sides import number_labels, prepared
from .splits import regroup, splits_and_merges
from .terms import edited as was_edited
from .thresholds import STRUCTURAL_CUTOFF

# --- natures --------------------------------------------------------------------------------------


_NATURE_ORDER = {
    None: 0,
    Nature.TYPOGRAPHY_ONLY: 1,
    Nature.REFERENCES_ONLY: 2,
    Nature.RENAMED: 3,
    Nature.SUBSTANTIVE: 4,
}


def _worst(*ns: Nature | None) -> Nature | None:
    return max(ns, key=lambda n: _NATURE_ORDER[n])


def _examples(
    a: tuple[Example, ...],
    b: tuple[Example, ...],
    nmap: dict[str, str | list[str]],
    renames: tuple[Rename, ...] = (),
) -> tuple[ExampleChange, ...]:
    """Pair a rule's examples old -> new: equal comparison text first, then the most similar (>= 0.6)."""
    used: set[int] = set()
    pairs: dict[int, int] = {}
    for x, ea in enumerate(a):
        # Equal raw text is equal comparison text, and needs no normalising.
        y = next((y for y, eb in enumerate(b) if y not in used and (eb.text == ea.text or eb.norm == ea.norm)), None)
        if y is not None:
            pairs[x] = y
            used.add(y)
    for x, ea in enumerate(a):
        if x in pairs:
            continue
        best = max(((fuzz.ratio(ea.norm, eb.norm), y) for y, eb in enumerate(b) if y not in used), default=(0.0, -1))
        if best[0] >= 60:
            pairs[x] = best[1]
            used.add(best[1])
    out: list[ExampleChange] = []
    inverse = {y: x for x, y in pairs.items()}
    for y, eb in enumerate(b):
        if y not in inverse:
            out.append(ExampleChange("added", None, eb.text))
            continue
        ea = a[inverse[y]]
        n = None if ea.text == eb.text else nature_of(ea.text, eb.text, ea.norm, eb.norm, nmap, renames)
        out.append(ExampleChange("unchanged" if n is None else "edited", ea.text, eb.text, n))
    for x, ea in enumerate(a):
        if x not in pairs:
            out.append(ExampleChange("removed", ea.text, None))
    return tuple(out)


# --- the alignment ---------------------------------------------------------------------------------


def align(old: Document, new: Document, fixes: Sequence[Fix] = ()) -> Alignment:
    """Align ``old`` with ``new`` and classify every node; see the README for the JSON form. ``fixes`` are
    hand corrections of this pair of versions (corrections.py), applied to the matcher's pairs. Raises
    AlignmentError when the two hold far more unlike text than any two real releases (likeness.BUDGET)."""
    with collector.paused():  # thousands of lasting, acyclic objects: see support/gc_pause.py
        return _align(old, new, fixes)


def _align(old: Document, new: Document, fixes: Sequence[Fix]) -> Alignment:
    likeness = Likeness(STRUCTURAL_CUTOFF)
    given_up: set[tuple[int, int]] = set()
    closer: set[tuple[int, int]] = set()
    pairs = match(old, new, likeness, refused=given_up, closer=closer)
    pairs, renames = through_renames(old, new, pairs, likeness, given_up, closer)
    cut_old: dict[int, str] = {}
    cut_new: dict[int, str] = {}
    if fixes:
        pairs, cut_old, cut_new = hand_corrected(pairs, fixes)
    g = _grouped(old, new, pairs, closer, given_up, (set(cut_old), set(cut_new)))
    la, lb = number_labels(old), number_labels(new)
    number_map = _number_map(g, la, lb)
    inferred: dict[str, tuple[str, float]] = {}
    changes = _changes(old, new, g, la, number_map, inferred, renames)
    a, b = prepared(old), prepared(new)
    refused = {**refusals(a, b, changes, dict(sorted(given_up))), **heading_refusals(a, b, changes)}
    if refused:
        changes = [
            replace(ch, closest=refused[ch.old[0]]) if ch.kind == Kind.REMOVED and ch.old[0] in refused else ch
            for ch in changes
        ]
    glossary = glossary_changes(old, new, number_map, renames)
    al = Alignment(old, new, changes, number_map, glossary, inferred, counted(renames, old, new, g.pairs))
    return said_cut(al, cut_old, cut_new) if fixes else al


def _grouped(
    old: Document,
    new: Document,
    pairs: list[Pair],
    closer: set[tuple[int, int]],
    given_up: set[tuple[int, int]],
    cut: tuple[set[int], set[int]] = (set(), set()),
) -> Grouping:
    """The pairs with their splits and merges; ``given_up`` (the links the matcher gave up) gets the weak links
    given up here. ``cut``: the old and new nodes a hand correction left unpaired, not paired again here."""
    orules, nrules = old.rules, new.rules
    a2b = {p.old: p.new for p in pairs}
    b2a = {p.new: p.old for p in pairs}
    # Pairs made on equal raw content (most of them) are not compared again.
    edited = [(p.old, p.new) for p in pairs if not p.same and was_edited(orules[p.old], nrules[p.new])]
    splits, merges = splits_and_merges(old, new, a2b, b2a, edited)
    one_group_each(prepared(old), prepared(new), splits, merges)
    # Unpaired nodes split or merged as wholes (2007-10's card parts); their children pair inside them.
    g = Grouping(pairs, a2b, b2a, splits, merges)
    whole = regroup(old, new, a2b, b2a, g.grouped())
    if whole.children:
        pairs = sorted(
            [*pairs, *(Pair(i, j, s, why) for i, (j, s, why) in whole.children.items())], key=lambda p: p.old
        )
        a2b.update((i, j) for i, (j, _, _) in whole.children.items())
        b2a.update((j, i) for i, (j, _, _) in whole.children.items())
    splits.update(whole.splits)
    merges.update(whole.merges)
    g.pairs = pairs
    a, b = prepared(old), prepared(new)
    # Weak links given up (refusals.unkept): removed and added, the removed rule's closest the text it was linked to.
    weak = unkept(a, b, pairs, g.grouped(), closer)
    if weak:
        for i in weak:
            j = a2b.pop(i)
            del b2a[j]
            given_up.add((i, j))
        g.pairs = [p for p in pairs if p.old not in weak]
    reclaim(a, b, g, given_up, cut)
    regroup_absorbed(a, b, g)
    regroup_held(a, b, g, cut)
    regroup_sentences(a, b, g, cut)
    regroup_folded(a, b, g, cut)
    return g


def _number_map(g: Grouping, la: list[str | None], lb: list[str | None]) -> dict[str, str | list[str]]:
    """Every old number with a counterpart: a pair's, a split's (a list), a merge's."""
    number_map: dict[str, str | list[str]] = {}
    for p in g.pairs:
        a, b = la[p.old], lb[p.new]
        if a is not None and b is not None and a not in number_map:
            number_map[a] = b
    for i, js in g.splits.items():
        a = la[i]
        if a is not None:
            number_map[a] = [x for x in (lb[j] for j in js) if x is not None]
    for j, olds in g.merges.items():
        for i in olds:
            a, b = la[i], lb[j]
            if a is not None and b is not None:
                number_map.setdefault(a, b)
    return number_map


def _changes(
    old: Document,
    new: Document,
    g: Grouping,
    la: list[str | None],
    number_map: dict[str, str | list[str]],
    inferred: dict[str, tuple[str, float]],
    renames: tuple[Rename, ...],
) -> list[Change]:
    """Every node's change, in new-document order (removed nodes after the paired node before them)."""
    orules, nrules = old.rules, new.rules
    pairs, splits, merges = g.pairs, g.splits, g.merges
    # (Splits and merges are told as such, not as moves: their pairs do not decide what moved.)
    numbered = [p for p in pairs if la[p.old] is not None and p.old not in splits and p.new not in merges]
    in_order = {numbered[k].old for k in longest_increasing([p.new for p in numbered])}
    # Each change with its place in new-document order (see _order_key), sorted once at the end.
    keyed: list[tuple[tuple[int, int, int], Change]] = []
    add = keyed.append
    make = _change
    unchanged = Kind.UNCHANGED
    for p in pairs:
        i, j = p.old, p.new
        if i in splits or j in merges:
            continue
        ra, rb = orules[i], nrules[j]
        na, nb = ra.number, rb.number
        if p.same and not ra.examples and ra.notes == rb.notes and na is not None and nb is not None:
            # Most pairs: numbered, the same raw text and no examples -- what _paired decides for them,
            # without its calls (numbers are parsed once per spelling, so equal ones are mostly the same);
            # most of those in order and under the same number, unchanged.
            same_number = na is nb or na == nb
            kind = unchanged if same_number and i in in_order else _numbered_kind(i in in_order, same_number, False)
            add(((j, 0, i), make(kind, (i,), (j,), None, p.score, 1.0, p.reason, (), p.uncertain, None)))
            continue
        add(((j, 0, i), _paired(ra, rb, p, i in in_order, number_map, inferred, renames)))
    keyed.extend(_grouped_changes(g))
    keyed.extend(_unpaired_changes(old, new, g))
    keyed.sort(key=_first)
    return [ch for _, ch in keyed]


def _grouped_changes(g: Grouping) -> list[tuple[tuple[int, int, int], Change]]:
    # (the pairs by old node, asked of the groups' first old nodes: made only when there are groups)
    by_old: dict[int, Pair] = {p.old: p for p in g.pairs} if g.splits or g.merges else {}
    out: list[tuple[tuple[int, int, int], Change]] = []
    for i, js in g.splits.items():
        p = by_old.get(i) or Pair(i, js[0], 1.0, f"its words went to {len(js)} new nodes")
        ch = Change(
            Kind.SPLIT, (i,), tuple(js), Nature.SUBSTANTIVE, p.score, 0.0, f"split; {p.reason}", uncertain=p.uncertain
        )
        out.append(((min(js), 0, i), ch))
    for j, olds in g.merges.items():
        first = by_old.get(olds[0]) or Pair(olds[0], j, 1.0, f"the words of {len(olds)} old nodes went there")
        why = f"merged; {first.reason}"
        ch = Change(
            Kind.MERGED, tuple(olds), (j,), Nature.SUBSTANTIVE, first.score, 0.0, why, uncertain=first.uncertain
        )
        out.append(((j, 0, min(olds)), ch))
    return out


def _unpaired_changes(old: Document, new: Document, g: Grouping) -> list[tuple[tuple[int, int, int], Change]]:
    """The added and removed nodes (or not covered), by set differences at C speed: they are few, the
    positions thousands."""
    orules, nrules = old.rules, new.rules
    merged_old, split_new = g.grouped()
    out: list[tuple[tuple[int, int, int], Change]] = []
    for j in sorted(positions(len(nrules)).difference(g.b2a, split_new, g.merges)):
        out.append(((j, 0, -1), _unpaired(nrules[j], (), (j,), old, Kind.ADDED, "new in this version", "old")))
    removed = sorted(positions(len(orules)).difference(g.a2b, merged_old, g.splits))
    if removed:
        anchor = _paired_before(g.a2b)
        for i in removed:
            ch = _unpaired(orules[i], (i,), (), new, Kind.REMOVED, "no counterpart in the new version", "new")
            out.append(((anchor(i), 1, i), ch))
    return out


# The place a change is sorted by, in the (place, change) items both lists are made of.
_first = itemgetter(0)


def _unpaired(
    r: Rule, old: tuple[int, ...], new: tuple[int, ...], other: Document, kind: Kind, why: str, side: str
) -> Change:
    """An added or removed node -- or, when the other source could not have had it, not covered."""
    if covered(other, r):
        ex_kind = "added" if new else "removed"
        examples = tuple(ExampleChange(ex_kind, None if new else e.text, e.text if new else None) for e in r.examples)
        return Change(kind, old, new, None, 1.0, 0.0, why, examples)
    note = f"outside what the {side} source covers ({other.coverage.description})"
    return Change(Kind.NOT_COVERED, old, new, None, 1.0, 0.0, note)


def _paired(
    ra: Rule,
    rb: Rule,
    p: Pair,
    in_order: bool,
    number_map: dict[str, str | list[str]],
    inferred: dict[str, tuple[str, float]],
    renames: tuple[Rename, ...] = (),
) -> Change:
    if ra.same_text(rb):
        # Most pairs: equal raw text and examples, which _examples pairs in order, all unchanged.
        ex = tuple(ExampleChange("unchanged", e.text, e.text) for e in rb.examples) if rb.examples else ()
        text_nature = nature = None
    else:
        ex = _examples(ra.examples, rb.examples, number_map, renames)
        text_nature = None if ra.text == rb.text else nature_of(ra.text, rb.text, ra.norm, rb.norm, number_map, renames)
        nature = _worst(
            text_nature,
            *(e.nature for e in ex),
            *(Nature.SUBSTANTIVE for e in ex if e.kind in ("added", "removed")),
        )
    sim = fuzz.ratio(ra.norm, rb.norm) / 100 if text_nature is not None else 1.0
    if ra.number is None:
        # An unnumbered keyword summary gets the number of what it aligned with.
        inferred[ra.title or ra.key] = (str(rb.number), p.score)
        kind = Kind.RENUMBERED_EDITED if nature is not None else Kind.RENUMBERED
        reason = f"number inferred from {p.reason}"
    elif rb.number is None:
        kind = Kind.RENUMBERED_EDITED if nature is not None else Kind.RENUMBERED
        reason = f"the new source gives no number; {p.reason}"
    else:
        kind = _numbered_kind(in_order, ra.number == rb.number, nature is not None)
        reason = p.reason
    return _change(kind, (p.old,), (p.new,), nature, p.score, round(sim, 4), reason, ex, p.uncertain, None)


def _numbered_kind(in_order: bool, same_number: bool, edited: bool) -> Kind:
    """The kind of a pair of numbered nodes: moved (out of order), renumbered, or in place; each edited or not."""
    if not in_order:
        return Kind.MOVED_EDITED if edited else Kind.MOVED
    if not same_number:
        return Kind.RENUMBERED_EDITED if edited else Kind.RENUMBERED
    return Kind.EDITED if edited else Kind.UNCHANGED


# One per paired node: made without the frozen __init__'s cost (support/constructors.py).
_change = slot_filler(Change, "kind old new nature score similarity reason examples uncertain closest")


def _paired_before(a2b: dict[int, int]) -> Callable[[int], int]:
    """Where a removed old node goes in new-document order: right after the new counterpart of the nearest
    paired node before it (-1: before everything)."""
    paired_before: list[int] = []
    last = -1
    top = max(a2b, default=-1)
    for i in range(top + 1):
        if i in a2b:
            last = a2b[i]
        paired_before.append(last)

    def anchor(i: int) -> int:
        return paired_before[min(i, top)] if top >= 0 else -1

    return anchor


def longest_increasing(values: Iterable[int]) -> set[int]:
    """Indices (into ``values``) of one longest strictly increasing subsequence, O(n log n)."""
    import bisect

    vals = list(values)
    tails: list[int] = []
    tails_at: list[int] = []
    prev = [-1] * len(vals)
    for k, v in enumerate(vals):
        if not tails or v > tails[-1]:
            # Most of a real sequence runs upwards: past the last tail, the search would answer its length.
            prev[k] = tails_at[-1] if tails_at else -1
            tails.append(v)
            tails_at.append(k)
            continue
        p = bisect.bisect_left(tails, v)
        tails[p] = v
        tails_at[p] = k
        prev[k] = tails_at[p - 1] if p else -1
    out: set[int] = set()
    k = tails_at[-1] if tails_at else -1
    while k >= 0:
        out.add(k)
        k = prev[k]
    return out
