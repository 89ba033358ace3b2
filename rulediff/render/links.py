"""Where a rule number points in a site written by 'rulediff report'."""

# Where a rule number points in a site written by 'rulediff report': its card on a release's diff page, else its
# history page.

from __future__ import annotations

import re

from .view import Entry, Notes


def slug(label: str) -> str:
    """A file-name-safe form of a label, as the site names its pages: no separators, no dots at the start,
    nothing to traverse with."""
    s = re.sub(r"[^A-Za-z0-9_-]+", "-", label).strip("-._")
    return (s or "version")[:60]


class Links:
    """Where a rule number points in a site written by ``rulediff report`` under ``base``: the rule's
    card on this release's diff page (``diff/OLD--NEW.html#r605.1a``) when it changed in this release,
    otherwise the rule's history page, which the site keeps at the rule's current number
    (``rules/704.html``)."""

    def __init__(self, base: str, notes: Notes) -> None:
        self.base = base.rstrip("/")
        self.page = f"{self.base}/diff/{slug(notes.old['label'])}--{slug(notes.new['label'])}.html"
        self.anchored = {n for e in _all_entries(notes) for n in e.new_numbers}
        self.anchored |= {b for r in notes.renumbering for _, b, _ in r.items}
        self.anchored |= {b.number for b in (*notes.references_only, *notes.typography_only) if b.number}

    def rule(self, number: str) -> str:
        if number in self.anchored:
            return f"{self.page}#r{number}"
        return f"{self.base}/rules/{number}.html"


def _all_entries(notes: Notes) -> list[Entry]:
    return [e for g in notes.new_rules for e in g.entries] + notes.changes
