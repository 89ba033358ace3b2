"""The document model: frozen, slotted dataclasses for versions, rules, examples, the glossary and warnings."""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from datetime import date
from enum import StrEnum
from typing import Any

from .coverage import Coverage, covers
from .numbering import Level, RuleNumber
from .references import Reference, find_references
from .support.constructors import slot_filler
from .text import normalize

DOCUMENT_SCHEMA = "rulediff.document/1"
_SENSE = re.compile(r"^\d{1,2}\.\s+\S")


class NodeKind(StrEnum):
    SECTION = "section"
    HEADING = "heading"
    RULE = "rule"
    SUBRULE = "subrule"
    UNNUMBERED = "unnumbered"


_KIND_BY_LEVEL = {
    Level.SECTION: NodeKind.SECTION,
    Level.HEADING: NodeKind.HEADING,
    Level.RULE: NodeKind.RULE,
    Level.SUBRULE: NodeKind.SUBRULE,
}


def _hash_parts(*parts: str) -> str:
    # One encode and one update of the NUL-terminated parts: the same bytes, hence the same digest, as
    # feeding them part by part.
    joined = "\x00".join(parts) + "\x00"
    return hashlib.blake2b(joined.encode("utf-8", "surrogatepass"), digest_size=12).hexdigest()


# Comparison forms and digests are derived from the raw text and computed on first use, then kept
# (object.__setattr__ on a cache field, which equality and hashing ignore): parsing a release does
# not pay for normalising thousands of texts that a diff may never compare -- most texts of a pair
# are equal as raw text, which needs no comparison form at all.


@dataclass(frozen=True, slots=True)
class Example:
    """One "Example:" paragraph, attached to the rule it illustrates. ``text`` is raw; ``norm`` is its
    comparison form (given, or computed on first use)."""

    text: str
    line: int
    norm_cache: str | None = field(default=None, compare=False, repr=False)

    @classmethod
    def make(cls, text: str, line: int) -> Example:
        return new_example(text, line, None)

    @property
    def norm(self) -> str:
        n = self.norm_cache
        if n is None:
            n = normalize(self.text)
            object.__setattr__(self, "norm_cache", n)
        return n


@dataclass(frozen=True, slots=True)
class Rule:
    """A node of the rule tree: a section, heading, rule or subrule (or an unnumbered keyword entry).

    ``text`` is the raw text after the number (for "702.15. Lifelink" it is "Lifelink", which is
    also the ``title``); ``norm`` is its comparison form; ``digest`` hashes norm, examples and notes,
    so two nodes with equal digests need no further diffing. Both are computed on first use unless
    given (the archive stores them).
    """

    number: RuleNumber | None
    text: str
    line: int
    title: str | None = None
    examples: tuple[Example, ...] = ()
    norm_cache: str | None = field(default=None, compare=False, repr=False)
    digest_cache: str | None = field(default=None, compare=False, repr=False)
    category: str | None = None
    notes: tuple[str, ...] = ()
    anchor: str | None = None

    @classmethod
    def make(
        cls,
        number: RuleNumber | None,
        text: str,
        line: int,
        title: str | None = None,
        examples: Iterable[Example] = (),
        category: str | None = None,
        notes: Iterable[str] = (),
        anchor: str | None = None,
    ) -> Rule:
        # Thousands per release: made without the frozen __init__'s cost (support/constructors.py). Same object,
        # same fields.
        return new_rule(number, text, line, title, tuple(examples), None, None, category, tuple(notes), anchor)

    @property
    def norm(self) -> str:
        n = self.norm_cache
        if n is None:
            n = normalize(self.text)
            object.__setattr__(self, "norm_cache", n)
        return n

    @property
    def digest(self) -> str:
        d = self.digest_cache
        if d is None:
            if self.examples or self.notes:
                d = _hash_parts(self.norm, *(e.norm for e in self.examples), *(normalize(n) for n in self.notes))
            else:
                d = _hash_parts(self.norm)
            object.__setattr__(self, "digest_cache", d)
        return d

    @property
    def named(self) -> str:
        """How a message names the node: "rule 702.15", or "the entry 'Lifelink'" when it has no number."""
        return f"rule {self.number}" if self.number is not None else f"the entry {self.title or '(untitled)'!r}"

    def same_text(self, other: Rule) -> bool:
        """Equal raw text, examples and notes: then norm and digest are equal too, without computing
        either (the cheap first test of every comparison; most rules of a pair pass it)."""
        return (
            self.text == other.text
            and self.notes == other.notes
            and len(self.examples) == len(other.examples)
            and all(a.text == b.text for a, b in zip(self.examples, other.examples, strict=True))
        )

    @property
    def kind(self) -> NodeKind:
        if self.number is None:
            return NodeKind.UNNUMBERED
        return _KIND_BY_LEVEL[self.number.level]

    @property
    def key(self) -> str:
        """Stable identity inside one document: the number, or the title for unnumbered nodes."""
        if self.number is not None:
            return str(self.number)
        return "title:" + (self.title or self.text[:60])

    @property
    def parent(self) -> RuleNumber | None:
        return self.number.parent if self.number is not None else None

    @property
    def references(self) -> list[Reference]:
        return find_references(self.text)


# Thousands per release: made without the frozen __init__'s cost (support/constructors.py). ``new_rule`` and
# ``new_example`` take every field in the order named here (norm and digest None, examples and notes tuples), for the
# parsers' builder.
new_example = slot_filler(Example, "text line norm_cache")
new_rule = slot_filler(Rule, "number text line title examples norm_cache digest_cache category notes anchor")


@dataclass(frozen=True, slots=True)
class GlossaryEntry:
    """A glossary term, its raw text, and its numbered senses when it has them; ``norm`` (the text's
    comparison form) is given or computed on first use."""

    term: str
    text: str
    line: int
    senses: tuple[str, ...] = ()
    norm_cache: str | None = field(default=None, compare=False, repr=False)

    @classmethod
    def make(cls, term: str, text: str, line: int) -> GlossaryEntry:
        """An entry; its numbered senses ("1. A zone. ...", "2. All the cards ...") are the text's
        paragraphs that start with a sense number."""
        if "." not in text:
            senses: tuple[str, ...] = ()
        elif "\n" not in text:
            # One paragraph (most entries): a sense only if it starts with a digit, tested before the regex.
            senses = (text,) if text[:1].isdigit() and _SENSE.match(text) else ()
        else:
            senses = tuple([p for p in text.split("\n") if _SENSE.match(p)])
        return _entry(term, text, line, senses, None)

    @property
    def norm(self) -> str:
        n = self.norm_cache
        if n is None:
            n = normalize(self.text)
            object.__setattr__(self, "norm_cache", n)
        return n


_entry = slot_filler(GlossaryEntry, "term text line senses norm_cache")


# The code of a warning that says a numbered rule was lost in the reading (its number not read as one): a file
# with such a warning is archived only when asked (archive add --accept-warnings).
LOST_RULE = "lost-rule"


class Severity(StrEnum):
    INFO = "info"
    WARNING = "warning"


@dataclass(frozen=True, slots=True)
class ParseWarning:
    """Something odd in the source that was read anyway (a published typo, a lint finding)."""

    line: int
    message: str
    code: str = "quirk"
    severity: Severity = Severity.WARNING
    # The registered quirk (rulediff.parsers.quirks) that read through it, if one did. Not serialised:
    # it says which entry of the quirk list fired, so that list can be checked against the releases.
    quirk: str | None = field(default=None, compare=False)

    def as_dict(self) -> dict[str, Any]:
        return {"line": self.line, "message": self.message, "code": self.code, "severity": str(self.severity)}


@dataclass(frozen=True, slots=True)
class VersionInfo:
    """Where a document came from: label, effective date (or era), format and the raw bytes' sha256."""

    label: str
    effective_date: date | None
    source: str
    format: str
    sha256: str
    era: str | None = None

    def as_dict(self) -> dict[str, Any]:
        return {
            "label": self.label,
            "effective_date": self.effective_date.isoformat() if self.effective_date else None,
            "era": self.era,
            "format": self.format,
            "sha256": self.sha256,
            "source": self.source,
        }


@dataclass(frozen=True, slots=True, eq=False)
class Document:
    """One version of the Comprehensive Rules as a rule-number tree plus glossary and back matter.

    ``rules`` is every node (sections, headings, rules, subrules) flat, in document order; the tree
    is given by each number's parent. Unnumbered nodes keep their document position too.
    """

    version: VersionInfo
    rules: tuple[Rule, ...]
    glossary: tuple[GlossaryEntry, ...] = ()
    coverage: Coverage = field(default_factory=lambda: Coverage(complete=True, glossary=True))
    warnings: tuple[ParseWarning, ...] = ()
    introduction: str = ""
    credits: str = ""
    back_matter: tuple[tuple[str, str], ...] = ()
    _index: dict[str, int] = field(default_factory=dict, init=False, repr=False)
    _children: dict[str, list[int]] = field(default_factory=dict, init=False, repr=False)

    def _indexed(self) -> tuple[dict[str, int], dict[str, list[int]]]:
        """The key -> position and parent -> children maps, built on first lookup (a parse or a diff
        that never looks a number up does not pay for them)."""
        if self._index or not self.rules:
            return self._index, self._children
        index: dict[str, int] = {}
        children: dict[str, list[int]] = {}
        for i, r in enumerate(self.rules):
            n = r.number
            if n is None:
                index.setdefault(r.key, i)
                parent = ""
            else:
                # The key and the parent's key from the number's parts: no RuleNumber built per node.
                key = str(n)
                if key not in index:
                    index[key] = i
                if n.letters:
                    parent = f"{n.heading}.{n.rule}"
                elif n.rule is not None:
                    parent = str(n.heading)
                elif n.heading is not None:
                    parent = str(n.section)
                else:
                    parent = ""
            kids = children.get(parent)
            if kids is None:
                children[parent] = [i]
            else:
                kids.append(i)
        # Built whole, then set: a thread that looks up meanwhile builds its own copy, never half of one.
        object.__setattr__(self, "_children", children)
        object.__setattr__(self, "_index", index)
        return index, children

    def get(self, number: RuleNumber | str) -> Rule | None:
        i = self._indexed()[0].get(str(number))
        return None if i is None else self.rules[i]

    def __contains__(self, number: object) -> bool:
        return str(number) in self._indexed()[0]

    def __iter__(self) -> Iterator[Rule]:
        return iter(self.rules)

    def __len__(self) -> int:
        return len(self.rules)

    def child_positions(self, number: RuleNumber | str | None) -> tuple[int, ...]:
        """Positions (into ``rules``) of the nodes whose parent is ``number``, in order (None: the top)."""
        return tuple(self._indexed()[1].get("" if number is None else str(number), ()))

    def children(self, number: RuleNumber | str | None) -> list[Rule]:
        key = "" if number is None else str(number)
        return [self.rules[i] for i in self._indexed()[1].get(key, [])]

    def counts(self) -> dict[str, int]:
        c = {k.value: 0 for k in NodeKind}
        examples = 0
        for r in self.rules:
            c[r.kind.value] += 1
            examples += len(r.examples)
        c["examples"] = examples
        c["glossary"] = len(self.glossary)
        return c

    def as_dict(self) -> dict[str, Any]:
        """The JSON form, schema ``rulediff.document/1`` (see README)."""
        return {
            "schema": DOCUMENT_SCHEMA,
            "version": self.version.as_dict(),
            "coverage": self.coverage.as_dict(),
            "counts": self.counts(),
            "rules": [
                {
                    "number": str(r.number) if r.number is not None else None,
                    "key": r.key,
                    "kind": r.kind.value,
                    "parent": str(r.parent) if r.parent is not None else None,
                    "title": r.title,
                    "text": r.text,
                    "line": r.line,
                    "examples": [e.text for e in r.examples],
                    "references": sorted({str(t) for ref in r.references for t in ref.targets}),
                    **({"category": r.category} if r.category else {}),
                    **({"notes": list(r.notes)} if r.notes else {}),
                }
                for r in self.rules
            ],
            "glossary": [
                {"term": g.term, "text": g.text, "senses": list(g.senses), "line": g.line} for g in self.glossary
            ],
            "introduction": self.introduction,
            "credits": self.credits,
            "warnings": [w.as_dict() for w in self.warnings],
        }


def covered(doc: Document, r: Rule) -> bool:
    """Could ``doc`` contain ``r`` at all (by its coverage)? Unnumbered nodes are judged by title."""
    return covers(doc.coverage, r.number, r.title, r.category)
