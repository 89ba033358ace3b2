"""Render release notes: Markdown in the form of an official bulletin, and ``rulediff.notes/1.1`` JSON; both
read the one view-model of notes.py. ``--link-base`` links rule numbers into a site from ``rulediff report``."""

from __future__ import annotations

import re
from typing import Any

from ..matcher.records import Alignment
from ..numbering import RuleNumber
from ..support import jsontext
from .notes import NOTES_SCHEMA, Brief, Entry, GlossaryNote, Notes, build_notes
from .passages import Passage, Run
from .templating import environment, md_escape


def _slug(label: str) -> str:
    # The site's file name for a version label (site.slug; repeated so the library needs no site import).
    s = re.sub(r"[^A-Za-z0-9_-]+", "-", label).strip("-._")
    return (s or "version")[:60]


class Links:
    """Where a rule number points in a site written by ``rulediff report`` under ``base``: the rule's
    card on this release's diff page (``diff/OLD--NEW.html#r605.1a``) when it changed in this release,
    otherwise the rule's history page, which the site keeps at the rule's current number
    (``rules/704.html``)."""

    def __init__(self, base: str, notes: Notes) -> None:
        self.base = base.rstrip("/")
        self.page = f"{self.base}/diff/{_slug(notes.old['label'])}--{_slug(notes.new['label'])}.html"
        self.anchored = {n for e in _all_entries(notes) for n in e.new_numbers}
        self.anchored |= {b for r in notes.renumbering for _, b, _ in r.items}
        self.anchored |= {b.number for b in (*notes.references_only, *notes.typography_only) if b.number}

    def rule(self, number: str) -> str:
        if number in self.anchored:
            return f"{self.page}#r{number}"
        return f"{self.base}/rules/{number}.html"


def _all_entries(notes: Notes) -> list[Entry]:
    return [e for g in notes.new_rules for e in g.entries] + notes.changes


def _md_runs(runs: list[Run], mark: str, links: Links | None) -> str:
    """Runs as Markdown: changed stretches wrapped in ``mark`` (whole words, so the markers always sit
    next to a space or a line end), references as links."""
    out: list[str] = []
    k = 0
    while k < len(runs):
        r = runs[k]
        if r.changed:
            group = []
            while k < len(runs) and runs[k].changed:
                group.append(_md_run(runs[k], links))
                k += 1
            text = "".join(group)
            lead = text[: len(text) - len(text.lstrip())]
            tail = text[len(text.rstrip()) :]
            out.append(f"{lead}{mark}{text.strip()}{mark}{tail}" if text.strip() else text)
            continue
        out.append(_md_run(r, links))
        k += 1
    return "".join(out).replace("\n", "  \n")


def _md_run(r: Run, links: Links | None) -> str:
    if r.ref is not None and links is not None:
        return f"[{md_escape(r.text)}]({links.rule(r.ref)})"
    return md_escape(r.text)


def _number(number: str, links: Links | None) -> str:
    if links is None or RuleNumber.try_parse(number) is None:
        return md_escape(number)
    return f"[{md_escape(number)}]({links.rule(number)})"


def to_markdown(al: Alignment, link_base: str | None = None) -> str:
    """The notes as a bulletin a rules manager can publish (and fill in the ``Why:`` lines of)."""
    notes = build_notes(al, link=link_base is not None)
    links = Links(link_base, notes) if link_base else None
    env = environment(markdown=True)

    def old(p: Passage) -> str:
        return _md_runs(p.runs, "~~", None)

    def new(p: Passage) -> str:
        return _md_runs(p.runs, "**", links)

    def number(n: str) -> str:
        return _number(n, links)

    return env.get_template("diff.md.j2").render(n=notes, old=old, new=new, number=number)


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
        "why": None,
    }


def _brief(b: Brief) -> dict[str, str | None]:
    if b.term:
        return {"term": b.term}
    return {"number": b.number, "old_number": b.old_number}


def notes_dict(al: Alignment) -> dict[str, Any]:
    """The ``rulediff.notes/1.1`` document: the notes in bulletin order, each side as runs (``changed``
    marks whole words the other side lacks, ``ref`` a rule number to link), full texts alongside, and
    ``why`` left null for the writer."""
    n = build_notes(al)
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
        "renames": [r.as_dict() for r in n.renames],
        "renamed_only": [_brief(b) for b in n.renamed_only],
        "not_covered": n.not_covered,
        "inferred_numbers": [{"entry": t, "number": num, "confidence": round(c, 4)} for t, num, c in n.inferred],
    }


def to_notes_json(al: Alignment) -> str:
    return jsontext.dumps(notes_dict(al)) + "\n"
