"""The release notes as rulediff.notes/1.1 JSON: the notes view-model in bulletin order, each side as runs."""

from __future__ import annotations

from typing import Any

from ..matcher.records import Alignment
from ..support import jsontext
from .notes import build_notes, rename_info
from .passages import Passage
from .view import NOTES_SCHEMA, Brief, Entry, GlossaryNote, Notes


def _passage(p: Passage | None) -> dict[str, Any] | None:
    if p is None:
        return None
    return {
        "label": p.label,
        "excerpt": p.excerpt,
        "runs": [
            {"text": r.text, **({"changed": True} if r.changed else {}), **({"ref": r.ref} if r.ref else {})}
            for r in p.runs
        ],
    }


def _entry(e: Entry) -> dict[str, Any]:
    return {
        "id": e.id,
        "shown": e.shown.value,
        "kind": e.kind.value,
        "number": e.number,
        "old_numbers": e.old_numbers,
        "new_numbers": e.new_numbers,
        "title": e.title or None,
        "context": e.context or None,
        "label": e.label,
        "old_text": e.old_text or None,
        "new_text": e.new_text or None,
        "old": [_passage(p) for p in e.old],
        "new": [_passage(p) for p in e.new],
        "list_added": e.list_added,
        "list_removed": e.list_removed,
        "examples": [{"label": x.label, "old": _passage(x.old), "new": _passage(x.new)} for x in e.examples],
        "rewritten": e.rewritten,
        "printed": e.printed or None,
        "closest": e.closest or None,
        "why": None,
    }


def _glossary(g: GlossaryNote) -> dict[str, Any]:
    return {
        "id": g.id,
        "label": g.label,
        "term": g.term,
        "old_term": g.old_term,
        "old": _passage(g.old),
        "new": _passage(g.new),
        "uncertain": g.uncertain,
        "why": None,
    }


def _brief(b: Brief) -> dict[str, str | None]:
    if b.term:
        return {"term": b.term}
    out: dict[str, str | None] = {"number": b.number, "old_number": b.old_number}
    if b.printed or b.old_printed:  # a number its release prints twice ("printed twice: second")
        out.update(printed=b.printed or None, old_printed=b.old_printed or None)
    return out


def notes_dict(al: Alignment, notes: Notes | None = None) -> dict[str, Any]:
    """The ``rulediff.notes/1.1`` document: the notes in bulletin order, each side as runs (``changed``
    marks whole words the other side lacks, ``ref`` a rule number to link), full texts alongside, and
    ``why`` left null for the writer. ``notes``: the notes of ``al`` already built (the site's pages')."""
    n = build_notes(al) if notes is None else notes
    return {
        "schema": NOTES_SCHEMA,
        "old": n.old,
        "new": n.new,
        "headline": n.headline,
        "counts": n.counts(),
        "new_rules": [{"id": g.id, "label": g.label, "rules": [_entry(e) for e in g.entries]} for g in n.new_rules],
        "changes": [_entry(e) for e in n.changes],
        "glossary": [_glossary(g) for g in n.glossary],
        "renumbering": [{"label": r.label, "rules": [[a, b] for a, b, _ in r.items]} for r in n.renumbering],
        "references_only": [_brief(b) for b in n.references_only],
        "typography_only": [_brief(b) for b in n.typography_only],
        "renames": [rename_info(r) for r in n.renames],
        "renamed_only": [_brief(b) for b in n.renamed_only],
        "not_covered": n.not_covered,
        "inferred_numbers": [{"entry": t, "number": num, "confidence": round(c, 4)} for t, num, c in n.inferred],
    }


def to_notes_json(al: Alignment) -> str:
    return jsontext.dumps(notes_dict(al)) + "\n"
