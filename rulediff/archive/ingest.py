"""Reading files for the archive: parsed, aligned and made into rows, in a worker process."""

# Reading files for the archive: each one parsed, aligned with the one before and turned into the rows the archive
# stores (``Prepared``), in a worker process, so that this work overlaps the archive's own storing on a two-core
# machine.

from __future__ import annotations

import contextlib
import hashlib
from dataclasses import dataclass

from ..coverage import Coverage
from ..errors import RulediffError
from ..matcher.classify import align
from ..model import LOST_RULE, Document
from ..parsers import parse_bytes, read_input
from .codec import Body, Encoded, body_row, document_extra, encode_alignment, senses_json

# What makes a body, as the parser gave it: (title, text, examples as (text, line), category, notes)
_RawKey = tuple[str | None, str, tuple[tuple[str, int], ...], str | None, tuple[str, ...]]


@dataclass(slots=True)
class Prepared:
    """A parsed file as the archive stores it. ``bodies`` holds the bodies that the file prepared before
    it (by the same ``Preparer``) did not have; the archive finds the others among the bodies it stored
    for that file, or in the database."""

    sha256: str
    size: int
    label: str
    effective: str | None
    era: str | None
    format: str
    extra: str
    coverage: Coverage
    # Per rule, in document order: columns, as fewer objects to pass between processes than rows.
    numbers: list[str | None]
    lines: list[int]
    anchors: list[str | None]
    hashes: list[str]  # of the rule's body
    titles: list[str | None]
    categories: list[str | None]
    bodies: dict[str, Body]
    glossary: list[tuple[str, str, int, str, str]]  # (term, text, line, senses, norm)


class Preparer:
    """Makes ``Prepared`` rows, remembering the bodies of the previous file: most rules of a release are the
    previous release's, and need neither their stored form worked out again nor sent between processes."""

    def __init__(self) -> None:
        self._hashes: dict[_RawKey, str] = {}

    def prepare(self, doc: Document, data: bytes, sha256: str) -> Prepared:
        before, now = self._hashes, dict[_RawKey, str]()
        bodies: dict[str, Body] = {}
        hashes: list[str] = []
        for r in doc.rules:
            key = (r.title, r.text, tuple((e.text, e.line) for e in r.examples), r.category, r.notes)
            h = before.get(key) or now.get(key)
            if h is None:
                h, body = body_row(r)
                bodies[h] = body
            now[key] = h
            hashes.append(h)
        self._hashes = now
        rules = doc.rules
        v = doc.version
        return Prepared(
            sha256,
            len(data),
            v.label,
            v.effective_date.isoformat() if v.effective_date else None,
            v.era,
            v.format,
            document_extra(doc),
            doc.coverage,
            [str(r.number) if r.number is not None else None for r in rules],
            [r.line for r in rules],
            [r.anchor for r in rules],
            hashes,
            [r.title for r in rules],
            [r.category for r in rules],
            bodies,
            [(g.term, g.text, g.line, senses_json(g.senses), g.norm) for g in doc.glossary],
        )


# The worker keeps the document it parsed last, to align the next one with it while the main process
# stores the previous file (files given in date order are then aligned before they are even added), and
# the bodies it prepared last.
_WORKER_PREV: list[Document] = []
_WORKER_PREPARER = Preparer()


# (the file's bytes, its rows, (sha256 of the file before it, their alignment)) as the worker hands them over
Parsed = tuple[bytes, Prepared | None, tuple[str, Encoded] | None]


def read_and_parse(path: str, fmt: str | None, known: set[str]) -> Parsed:
    """Worker: the file's bytes, its rows unless the archive already has those bytes, and its alignment
    with the file before it. Parse errors are left for the main process, which reports them with the file's
    name and line."""
    data = read_input(path)
    sha = hashlib.sha256(data).hexdigest()
    if sha in known:
        return data, None, None
    try:
        doc = parse_bytes(data, path, fmt)
    except RulediffError:
        return data, None, None
    if any(w.code == LOST_RULE for w in doc.warnings):
        return data, None, None  # (the main process reads it again, and refuses it unless asked to keep it)
    ahead = None
    if _WORKER_PREV:
        prev = _WORKER_PREV[0]
        with contextlib.suppress(RulediffError):  # (as parse errors: the main process aligns it and says so)
            ahead = (prev.version.sha256, encode_alignment(align(prev, doc)))
    _WORKER_PREV[:] = [doc]
    return data, _WORKER_PREPARER.prepare(doc, data, sha), ahead
