"""The archive's stored formats: Documents and Alignments into rows and compressed blobs and back."""

# The archive's stored formats: Documents and Alignments into rows and compressed blobs and back, so the archive
# rebuilds them without re-parsing or re-matching. Pure functions over plain values; the archive owns the SQL.

from __future__ import annotations

import functools
import hashlib
import json
import zlib
from collections.abc import Callable, Iterable
from datetime import date
from typing import Any, TypeVar

from ..coverage import Coverage
from ..errors import DamagedArchiveError
from ..matcher.records import Alignment, Change, Closest, ExampleChange, GlossaryChange, Kind
from ..model import Document, Example, GlossaryEntry, ParseWarning, Rule, Severity, VersionInfo
from ..numbering import RuleNumber
from ..support.code_digest import sources_digest
from ..text import searchable
from ..words.records import Nature, Rename

# What reading back a stored value raises when the value is not what rulediff wrote (garbage JSON, a blob that
# does not decompress, a record of the wrong shape or missing a field, a date that is no date).
_NOT_AS_WRITTEN = (ValueError, KeyError, TypeError, IndexError, AttributeError, zlib.error, RecursionError)

_F = TypeVar("_F", bound=Callable[..., Any])


def stored(what: str) -> Callable[[_F], _F]:
    """Read back ``what`` from the archive: a stored value that is not as written raises DamagedArchiveError
    naming it (the command line adds the archive's path), not an internal error. The error it met is kept as
    the cause: ``--debug`` shows where it was raised."""

    def wrap(fn: _F) -> _F:
        @functools.wraps(fn)
        def read(*args: Any, **kwargs: Any) -> Any:
            try:
                return fn(*args, **kwargs)
            except _NOT_AS_WRITTEN as e:
                raise damaged(what, e) from e

        return read  # type: ignore[return-value]

    return wrap


def damaged(what: str, e: BaseException) -> DamagedArchiveError:
    return DamagedArchiveError(
        f"the archive is damaged: {what} stored in it does not read back ({type(e).__name__}: {e}); "
        "restore a copy, or build it again from the release files"
    )


def orphan_rule(vid: int) -> DamagedArchiveError:
    """Rows that contradict one another: a rule of a version the archive does not have (deleted with the
    database's own checks off)."""
    return DamagedArchiveError(
        f"the archive is damaged: it holds rules of version #{vid}, which it does not have; "
        "restore a copy, or build it again from the release files"
    )


def missing_rules(label: str, found: int, expected: int) -> DamagedArchiveError:
    """Rows that contradict one another: a version whose rule rows are not the number it was stored with
    (deleted or added with the database's own checks off)."""
    return DamagedArchiveError(
        f"the archive is damaged: version {label} was stored with {expected} rules and holds {found}; "
        "restore a copy, or build it again from the release files"
    )


def unzip(blob: bytes, what: str) -> bytes:
    """``blob`` decompressed; DamagedArchiveError naming ``what`` when it does not decompress."""
    try:
        return zlib.decompress(blob)
    except _NOT_AS_WRITTEN as e:
        raise damaged(what, e) from e


def read_json(text: str | bytes, what: str) -> Any:
    """``text`` read as JSON; DamagedArchiveError naming ``what`` when it does not read."""
    try:
        return json.loads(text)
    except _NOT_AS_WRITTEN as e:
        raise damaged(what, e) from e


# (title, text, norm, examples, category, notes, digest, search): a row of the bodies table, less its hash
Body = tuple[str | None, str, str, str | None, str | None, str | None, str, str]


def search_text(text: str, examples: Iterable[str], notes: Iterable[str]) -> str:
    """A body's text as search looks through it: its text's, examples' and notes' searchable forms, a line
    each."""
    return "\n".join([searchable(text), *map(searchable, examples), *notes])


def body_row(r: Rule) -> tuple[str, Body]:
    """A rule's body as stored (what a rule row leaves to its version: number, line, anchor), and its hash,
    the key that deduplicates bodies across versions."""
    examples = json.dumps([[e.text, e.line, e.norm] for e in r.examples], ensure_ascii=False) if r.examples else None
    notes = json.dumps(list(r.notes), ensure_ascii=False) if r.notes else None
    key = "\x1f".join(str(x) for x in (r.title, r.text, examples, r.category, notes))
    search = search_text(r.text, [e.text for e in r.examples], r.notes)
    body = (r.title, r.text, r.norm, examples, r.category, notes, r.digest, search)
    return hashlib.sha1(key.encode("utf-8")).hexdigest(), body


def rule_from_row(row: tuple[Any, ...]) -> Rule:
    number, title, text, norm, examples, line, category, notes, anchor, digest = row
    ex = tuple(Example(t, ln, n) for t, ln, n in json.loads(examples)) if examples else ()
    return Rule(
        RuleNumber.parse(number) if number is not None else None,
        text,
        line,
        title,
        ex,
        norm,
        digest,
        category,
        tuple(json.loads(notes)) if notes else (),
        anchor,
    )


def coverage_json(c: Coverage) -> str:
    return json.dumps(c.as_dict(), sort_keys=True)


@stored("a version's coverage")
def coverage_from_json(s: str) -> Coverage:
    d = json.loads(s)
    return Coverage(
        complete=d["complete"],
        sections=tuple(d["sections"]),
        headings=tuple(d["headings"]),
        interval=(d["interval"][0], d["interval"][1]) if d["interval"] else None,
        titles=tuple(d["titles"]),
        glossary=d["glossary"],
        description=d["description"],
    )


@stored("a version's coverage")
def coverage_of(extra: str) -> Coverage:
    """The coverage in a version's stored extras."""
    return coverage_from_json(json.loads(extra)["coverage"])


@stored("a version")
def document_from_parts(
    version: dict[str, Any],
    rules: list[tuple[Any, ...]],
    glossary: list[tuple[str, str, int, str, str]],
    extra: dict[str, Any],
) -> Document:
    eff = version["effective_date"]
    return Document(
        version=VersionInfo(
            version["label"],
            date.fromisoformat(eff) if eff else None,
            version["source"],
            version["format"],
            version["sha256"],
            version["era"],
        ),
        rules=tuple(rule_from_row(r) for r in rules),
        glossary=tuple(GlossaryEntry(t, x, ln, tuple(json.loads(sn)), nm) for t, x, ln, sn, nm in glossary),
        coverage=coverage_from_json(extra["coverage"]),
        warnings=tuple(
            ParseWarning(w["line"], w["message"], w["code"], Severity(w["severity"])) for w in extra["warnings"]
        ),
        introduction=extra.get("introduction", ""),
        credits=extra.get("credits", ""),
    )


def document_extra(doc: Document) -> str:
    return json.dumps(
        {
            "coverage": coverage_json(doc.coverage),
            "warnings": [w.as_dict() for w in doc.warnings],
            "introduction": doc.introduction,
            "credits": doc.credits,
        },
        ensure_ascii=False,
        sort_keys=True,
    )


def examples_from_row(examples: str | None) -> list[str]:
    """The example texts of a stored rule body."""
    if not examples:
        return []
    try:  # (read for every body with examples: a try costs nothing, a wrapper's call would)
        return [e[0] for e in json.loads(examples)]
    except _NOT_AS_WRITTEN as e:
        raise damaged("a rule's examples", e) from e


def senses_json(senses: tuple[str, ...]) -> str:
    return json.dumps(list(senses), ensure_ascii=False)


# --- alignments -----------------------------------------------------------------------------------


def alignment_json(al: Alignment) -> str:
    """Everything needed to rebuild the Alignment on top of its two Documents."""

    old_pos = {id(g): k for k, g in enumerate(al.old.glossary)}
    new_pos = {id(g): k for k, g in enumerate(al.new.glossary)}

    def gl_pos(where: dict[int, int], g: GlossaryEntry | None) -> int | None:
        return None if g is None else where[id(g)]

    # Kinds and natures are StrEnums and positions tuples: json writes them as their values and as lists,
    # the same bytes as .value and list() without a call per field of some three thousand changes a pair.
    return json.dumps(
        {
            "changes": [
                [
                    ch.kind,
                    ch.old,
                    ch.new,
                    ch.nature,
                    ch.score,
                    ch.similarity,
                    ch.reason,
                    [[e.kind, e.old, e.new, e.nature] for e in ch.examples],
                    ch.uncertain,
                    _closest(ch.closest),
                ]
                for ch in al.changes
            ],
            "number_map": al.number_map,
            "glossary": [
                [g.kind, gl_pos(old_pos, g.old), gl_pos(new_pos, g.new), g.nature, g.reason, g.uncertain]
                for g in al.glossary
            ],
            "inferred": al.inferred,
            "renames": [[r.old, r.new, r.spellings, r.rules, r.quoted] for r in al.renames],
        },
        ensure_ascii=False,
        separators=(",", ":"),
    )


def _closest(c: Closest | None) -> list[object] | None:
    return None if c is None else [c.number, c.text, c.meaning, c.why]


@stored("an alignment")
def alignment_from_json(old: Document, new: Document, s: str) -> Alignment:
    d = json.loads(s)
    changes = [
        Change(
            Kind(kind),
            tuple(o),
            tuple(n),
            Nature(nat) if nat else None,
            score,
            sim,
            reason,
            tuple(ExampleChange(ek, eo, en, Nature(enat) if enat else None) for ek, eo, en, enat in ex),
            uncertain,
            Closest(*closest[0]) if closest and closest[0] else None,
        )
        for kind, o, n, nat, score, sim, reason, ex, uncertain, *closest in d["changes"]
    ]
    glossary = [
        GlossaryChange(
            Kind(kind),
            old.glossary[o] if o is not None else None,
            new.glossary[n] if n is not None else None,
            Nature(nat) if nat else None,
            reason,
            bool(rest and rest[0]),  # (made before glossary links had a confidence: none uncertain)
        )
        for kind, o, n, nat, reason, *rest in d["glossary"]
    ]
    inferred = {k: (v[0], v[1]) for k, v in d["inferred"].items()}
    renames = tuple(
        Rename(a, b, tuple((x, y) for x, y in sp), n, bool(q and q[0])) for a, b, sp, n, *q in d.get("renames", [])
    )
    return Alignment(old, new, changes, d["number_map"], glossary, inferred, renames)


Pair = tuple[str, list[int], list[int], bool]  # (kind, old positions, new positions, uncertain) of a paired change
Encoded = tuple[bytes, str, list[Pair]]  # (compressed alignment, summary JSON, pairs)


def encode_alignment(al: Alignment) -> Encoded:
    """What the archive stores for an alignment, plus the pairs lineage needs (kept so they are not decoded)."""
    pairs = [(c.kind.value, list(c.old), list(c.new), c.uncertain) for c in al.changes if c.old and c.new]
    blob = zlib.compress(alignment_json(al).encode("utf-8"), 1)
    return blob, json.dumps(al.summary(), sort_keys=True), pairs


def decode_alignment(old: Document, new: Document, blob: bytes) -> Alignment:
    return alignment_from_json(old, new, unzip(blob, "an alignment").decode("utf-8"))


@stored("an alignment")
def changes_from_blob(blob: bytes) -> list[tuple[str, list[int], list[int], str | None, bool]]:
    """(kind, old positions, new positions, nature, uncertain) of every change in a stored alignment."""
    # An alignment an older engine stored (read until refresh_alignments replaces it) has no uncertain flag.
    return [(c[0], c[1], c[2], c[3], len(c) > 8 and c[8]) for c in json.loads(zlib.decompress(blob))["changes"]]


def pairs_from_blob(blob: bytes) -> list[Pair]:
    return [(k, o, n, u) for k, o, n, _, u in changes_from_blob(blob) if o and n]


# The modules whose code decides an alignment, and this stored format: a change to any of them is a new engine.
# Named by import name; test_imports holds the list to every module the matcher's classify imports.
ENGINE_MODULES = (
    "rulediff.coverage",
    "rulediff.model",
    "rulediff.numbering",
    "rulediff.references",
    "rulediff.text",
    "rulediff.words.agreement",
    "rulediff.words.nature",
    "rulediff.words.records",
    "rulediff.words.renames",
    "rulediff.matcher.absorbed",
    "rulediff.matcher.classify",
    "rulediff.matcher.corrections",
    "rulediff.matcher.evidence",
    "rulediff.matcher.folded",
    "rulediff.matcher.inflections",
    "rulediff.matcher.glossary",
    "rulediff.matcher.held",
    "rulediff.matcher.leftovers",
    "rulediff.matcher.likeness",
    "rulediff.matcher.meaning",
    "rulediff.matcher.passes",
    "rulediff.matcher.phrases",
    "rulediff.matcher.reclaimed",
    "rulediff.matcher.records",
    "rulediff.matcher.refusals",
    "rulediff.matcher.renames",
    "rulediff.matcher.sentences",
    "rulediff.matcher.sides",
    "rulediff.matcher.similar",
    "rulediff.matcher.slots",
    "rulediff.matcher.splits",
    "rulediff.matcher.terms",
    "rulediff.matcher.thresholds",
    "rulediff.archive.codec",
)


@functools.cache
def engine_version() -> str:
    """Names the code that makes alignments: the release plus a digest of the engine's sources, so a stored
    alignment made by other code is known as stale (and re-aligned) even between releases."""
    from .._version import __version__

    return f"{__version__}+{sources_digest(ENGINE_MODULES)[:12]}"
