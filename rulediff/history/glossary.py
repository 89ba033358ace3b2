"""A glossary term's history through every archived version and its renames, and glossary search."""

# The glossary as a first-class citizen: find a term, follow it through every archived version and through its
# renames ("Mana Burn" -> "Mana Burn (Obsolete)"), and search the glossary's text.

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from ..archive import Archive, VersionRow
from ..text import normalize
from .timeline import Stretch, stretches

_OBSOLETE = re.compile(r"\s*\((?:obsolete|deprecated)\)\s*$", re.IGNORECASE)


def term_key(term: str) -> str:
    """One term across versions: case, apostrophes, spacing and an "(Obsolete)" marker set aside, since
    the rules mark a retired term by renaming its entry ("Interrupt" -> "Interrupt (Obsolete)")."""
    return " ".join(_OBSOLETE.sub("", normalize(term)).casefold().split())


@dataclass(slots=True)
class TermHistory:
    """A glossary term over time: ``stretches`` carry its name (``name``) and definition (``text``)."""

    key: str
    stretches: list[Stretch]
    gone_after: VersionRow | None

    @property
    def title(self) -> str:
        return self.stretches[-1].name or self.key

    def numbers(self) -> list[tuple[str, str, str]]:
        """(term, first version label, last version label) for each stretch under one name."""
        out: list[tuple[str, str, str]] = []
        for s in self.stretches:
            if out and out[-1][0] == s.name:
                out[-1] = (out[-1][0], out[-1][1], s.last.label)
            else:
                out.append((s.name or "", s.first.label, s.last.label))
        return out

    def as_dict(self) -> dict[str, Any]:
        return {
            "schema": "rulediff.term-history/1",
            "term": self.title,
            "terms": [{"term": n, "from": a, "to": b} for n, a, b in self.numbers()],
            "stretches": [s.as_dict() for s in self.stretches],
            "gone_after": self.gone_after.label if self.gone_after else None,
        }


def term_history(arc: Archive, query: str) -> TermHistory | None:
    """The history of the glossary term ``query`` names (None: no version has such a term)."""
    key = term_key(query)
    versions = arc.versions.all()
    order = {v.id: k for k, v in enumerate(versions)}
    first: dict[int, tuple[str, str]] = {}
    for vid, _pos, term, text in arc.texts.glossary_in_order(v.id for v in versions):
        if term_key(term) == key:
            first.setdefault(order[vid], (term, text))  # a term listed twice: its first entry speaks
    if not first:
        return None
    ks = sorted(first)
    entries = [(versions[k], None, first[k][0], first[k][1], k - 1 in first) for k in ks]
    later = [v for v in versions[ks[-1] + 1 :] if arc.versions.coverage(v.id).glossary]
    return TermHistory(key, stretches(entries), later[0] if later else None)


def search_glossary(arc: Archive, phrase: str) -> list[dict[str, Any]]:
    """Glossary entries whose term or text holds ``phrase`` (words in order, typography ignored), one hit
    per term: its names, first and last version seen, and its latest such text."""
    wanted = _words(phrase)
    if not wanted:
        return []
    pattern = re.compile(r"\b" + r"\W+".join(map(re.escape, wanted)) + r"\b")
    versions = arc.versions.all()
    order = {v.id: k for k, v in enumerate(versions)}
    hits: dict[str, dict[str, Any]] = {}
    for vid, _, term, text in arc.texts.glossary_rows():
        if not pattern.search(" ".join(_words(term)) + " \n " + " ".join(_words(text))):
            continue
        k = order[vid]
        key = term_key(term)
        h = hits.get(key)
        if h is None:
            hits[key] = h = {"terms": [], "first": k, "last": k, "text": text, "term": term}
        if term not in h["terms"]:
            h["terms"].append(term)
        h["first"] = min(h["first"], k)
        if k >= h["last"]:
            h["last"], h["text"], h["term"] = k, text, term
    out = [
        {
            "term": h["term"],
            "terms": h["terms"],
            "text": h["text"],
            "first_seen": versions[h["first"]].label,
            "last_seen": versions[h["last"]].label,
        }
        for h in hits.values()
    ]
    out.sort(key=lambda h: h["term"].casefold())
    return out


def _words(text: str) -> list[str]:
    return re.findall(r"\w+", normalize(text).casefold())
