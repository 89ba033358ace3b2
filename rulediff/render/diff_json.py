"""The full rulediff.diff/1.1 JSON of an alignment: every change with its word diff."""

# The full rulediff.diff/1.1 JSON of an alignment: every change with its word diff, written on two cores when it is
# long.

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from ..matcher.records import Alignment, Change, Kind
from ..matcher.sides import number_labels
from ..model import Document
from ..numbering import RuleNumber
from ..support import fork_helper, jsontext, processes
from ..words.diff import as_pairs, budget_left, one_output, spend, word_diff
from .notes import rename_info, version_info

# 1.1 added "renames" (terms renamed throughout, each once) and the nature "renamed"; later, compatibly, a rename's
# "quoted", "spellings" and "forms", and a change's "closest".
DIFF_SCHEMA = "rulediff.diff/1.1"


@one_output()
def to_dict(al: Alignment) -> dict[str, Any]:
    """The ``rulediff.diff/1.1`` document: versions, summary, every change but the unchanged, the number map
    (every old number with a counterpart, unchanged ones included), glossary and inferred numbers."""
    item = _items(al)
    changes = [item(ch) for ch in al.changes if ch.kind != Kind.UNCHANGED]
    return _document(al, changes, _glossary(al))


def _items(al: Alignment) -> Callable[[Change], dict[str, Any]]:
    """The JSON item of a change of ``al`` (not an unchanged one), word diffs made in :func:`_diffed`'s order."""
    # A number printed twice is written as the number map writes it ("702.175#2"): unambiguous.
    labels = {id(al.old): number_labels(al.old), id(al.new): number_labels(al.new)}

    def numbers(doc: Document, idx: tuple[int, ...]) -> list[str]:
        return [labels[id(doc)][i] or doc.rules[i].key for i in idx]

    def item(ch: Change) -> dict[str, Any]:
        ra = al.old.rules[ch.old[0]] if ch.old else None
        rb = al.new.rules[ch.new[0]] if ch.new else None
        out: dict[str, Any] = {
            "kind": ch.kind.value,
            "nature": ch.nature.value if ch.nature else None,
            "old": numbers(al.old, ch.old),
            "new": numbers(al.new, ch.new),
            "title": (rb.title if rb else None) or (ra.title if ra else None),
            "reason": ch.reason,
            "score": ch.score,
            "similarity": ch.similarity,
            "uncertain": ch.uncertain,
            "closest": ch.closest.as_dict() if ch.closest else None,
        }
        diffed = _diffed(al, ch)
        if diffed:
            (old_text, new_text), *shown = diffed
            out["old_text"] = old_text if ch.old else None
            out["new_text"] = new_text if ch.new else None
            out["diff"] = as_pairs(word_diff(old_text, new_text, al.number_map))
            out["examples"] = [
                {
                    "kind": e.kind,
                    "nature": e.nature.value if e.nature else None,
                    "old": e.old,
                    "new": e.new,
                    "diff": as_pairs(word_diff(texts[0], texts[1], al.number_map)),
                }
                for e, texts in zip(_shown_examples(ch), shown, strict=True)
            ]
        return out

    return item


def _shown_examples(ch: Change) -> list[Any]:
    return [e for e in ch.examples if e.kind != "unchanged"]


def _diffed(al: Alignment, ch: Change) -> list[tuple[str, str]]:
    """The texts a change's JSON item word-diffs, in order: its own texts, then its shown examples' (none for
    a change outside what both releases cover)."""
    if ch.kind == Kind.NOT_COVERED:
        return []
    old_text = "\n".join(al.old.rules[i].text for i in ch.old)
    new_text = "\n".join(al.new.rules[j].text for j in ch.new)
    return [(old_text, new_text), *((e.old or "", e.new or "") for e in _shown_examples(ch))]


def _glossary(al: Alignment) -> list[dict[str, Any]]:
    return [
        {
            "kind": g.kind.value,
            "nature": g.nature.value if g.nature else None,
            "term": g.new.term if g.new else g.old.term if g.old else None,
            "old_term": g.old.term if g.old else None,
            "reason": g.reason,
            "uncertain": g.uncertain,
            "diff": as_pairs(word_diff(*texts, al.number_map)),
        }
        for g, texts in _glossary_diffed(al)
    ]


def _glossary_diffed(al: Alignment) -> list[tuple[Any, tuple[str, str]]]:
    """The glossary changes the JSON writes and the texts each word-diffs."""
    return [
        (g, (g.old.text if g.old else "", g.new.text if g.new else "")) for g in al.glossary if g.kind != Kind.UNCHANGED
    ]


def _document(al: Alignment, changes: list[Any], glossary: list[dict[str, Any]]) -> dict[str, Any]:
    return {
        "schema": DIFF_SCHEMA,
        "old": version_info(al.old),
        "new": version_info(al.new),
        "summary": al.summary(),
        "changes": changes,
        "number_map": dict(sorted(al.number_map.items(), key=lambda kv: _sort_key(kv[0]))),
        "glossary": glossary,
        "renames": [rename_info(r) for r in al.renames],
        "inferred_numbers": {t: {"number": n, "confidence": round(c, 4)} for t, (n, c) in sorted(al.inferred.items())},
    }


def _sort_key(number: str) -> tuple[Any, ...]:
    # "702.175#2" (a number printed twice, see changes.number_labels) sorts after "702.175".
    n = RuleNumber.try_parse(number.split("#")[0])
    return (0, n.sort_key, number) if n is not None else (1, number)


def to_json(al: Alignment) -> str:
    return jsontext.dumps(to_dict(al)) + "\n"


def iter_json(al: Alignment, *, helper: bool = False) -> Iterator[str]:
    """:func:`to_json` in pieces of about a megabyte, to be written as they are made: the text is not held
    whole, nor encoded whole, beside the document it writes (three times a hostile diff's hundred megabytes).
    ``helper``: a long one's later changes are written meanwhile in a copy of this process (support/fork_helper.py), the
    same text in less time on two cores; for the command line, a process with no other thread at work."""
    pieces = _helped_json(al) if helper else None
    block: list[str] = []
    size = 0
    for piece in jsontext.chunks(to_dict(al)) if pieces is None else pieces:
        block.append(piece)
        size += len(piece)
        if size >= _BLOCK:
            yield "".join(block)
            block, size = [], 0
    block.append("\n")
    yield "".join(block)


# What writing a change's JSON item costs, in characters of its texts (_work): each text is written, a text
# diffed against another is tokenised and diffed besides, and an item has a cost of its own. Calibrated on the
# 2011-02-04 -> 2026-01-16 jump (2,155 changes, 0.33 s on one core).
_PER_ITEM = 300


_PER_DIFFED = 2


_PER_NUMBER = 20  # a number of the number map, sorted and written


# From how much work (some 50 ms of it) a helper process writes the later changes: under it, making the copy
# and reading back its text cost more than they save.
HELPER_FROM = 1_500_000


# ... and up to how much (about a byte of JSON each): what the helper sends is held here until it has all come
# (to be checked whole), so a longer output (hostile input: 112 MB of JSON) is written by this process alone,
# as it is made. The most of any real pair found, 2009-05-01 -> 2026-08-07, is 4.0 million (4.1 MB of JSON).
HELPER_UP_TO = 40_000_000


def _work(texts: list[tuple[str, str]]) -> int:
    n = _PER_ITEM
    for a, b in texts:
        n += len(a) + len(b)
        if a and b and a != b:
            n += _PER_DIFFED * (len(a) + len(b))
    return n


def _helped_json(al: Alignment) -> Iterator[str] | None:
    """:func:`to_json`'s pieces, the later changes written by a helper process while this one writes the earlier
    ones as they are made, as much work each (by _work). The word diffs' budget (one_output) is worked out up
    front for where the helper's changes begin and where the glossary does, so each diff is made as it would
    be in one process. None when the output is too small (or too long) to be worth it; the helper's changes are
    made here if it cannot be made or fails."""
    todo = [ch for ch in al.changes if ch.kind != Kind.UNCHANGED]
    diffed = [_diffed(al, ch) for ch in todo]
    work = [_work(d) for d in diffed]
    rest = sum(_work([texts]) for _, texts in _glossary_diffed(al)) + _PER_NUMBER * len(al.number_map)
    total = sum(work) + rest
    if processes.CORES < 2 or len(todo) < 2 or not HELPER_FROM <= total <= HELPER_UP_TO:
        return None
    # Here the first k changes and the rest, the helper the others: k where here reaches half the work.
    k, mine = 0, rest
    while k < len(todo) - 1 and mine + work[k] <= total / 2:
        mine += work[k]
        k += 1
    with one_output():  # the budget as the changes would spend it: where the helper's begin, and the glossary
        for a, b in (t for d in diffed[:k] for t in d):
            spend(a, b)
        at_k = budget_left()
        for a, b in (t for d in diffed[k:] for t in d):
            spend(a, b)
        after = budget_left()
    doc = _document(al, [], [])  # its glossary made while the helper works (_helped_changes)
    return jsontext.chunks(doc, {"changes": _helped_changes(al, doc, todo, k, at_k, after)})


def _written(
    item: Callable[[Change], dict[str, Any]], todo: list[Change], start: int, end: int, left: float | None
) -> Iterator[str]:
    """The JSON pieces of the changes ``todo[start:end]``, each made within the budget left by those before it
    (``left``: None for a whole budget), between its pieces no budget set (it is a generator)."""
    for m in range(start, end):
        with one_output(left):
            (piece,) = jsontext.list_items("changes", [item(todo[m])], m)
            left = budget_left()
        yield piece


def _helped_changes(
    al: Alignment,
    doc: dict[str, Any],
    todo: list[Change],
    k: int,
    at_k: float | None,
    after: float | None,
) -> Iterator[str]:
    """The changes' pieces: the helper is made as they begin to be written (never, if they are not), the first
    k made here meanwhile and then ``doc``'s glossary (written after the changes, with the budget they leave:
    ``after``), then the helper's text, or the rest made here when there is no helper or it failed."""
    item = _items(al)
    helper = None
    try:
        helper = fork_helper.start(lambda: _written(item, todo, k, len(todo), at_k))
        yield from _written(item, todo, 0, k, None)
        with one_output(after):
            doc["glossary"] = _glossary(al)
        theirs = None if helper is None else helper.text()
        yield from _written(item, todo, k, len(todo), at_k) if theirs is None else theirs
    finally:
        if helper is not None:
            helper.stop()  # (when left early: Ctrl-C, an error writing; else it has ended already)


_BLOCK = 1 << 20
