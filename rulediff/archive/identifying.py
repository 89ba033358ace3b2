"""The archive's reads for identifying a dump: rule rows by number range across every version, stored bodies
by text or digest, and parts of a release rebuilt without loading the rest of it."""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence

from ..errors import ArchiveError
from ..model import Document
from .codec import document_from_parts
from .queries import QueryingArchive

# Inclusive (low, high) bounds on rule numbers, compared as strings: ("7", "7~") is all of section 7.
Ranges = Sequence[tuple[str, str]]
_CHUNK = 500


def _where(ranges: Ranges | None) -> tuple[str, list[str]]:
    if ranges is None:
        return "", []
    if not ranges:
        return " AND 0", []
    return " AND (" + " OR ".join("r.number BETWEEN ? AND ?" for _ in ranges) + ")", [b for r in ranges for b in r]


class IdentifyingArchive(QueryingArchive):
    """Reads for ``rulediff.identify``; see ``Archive``."""

    def rule_rows(self, ranges: Ranges | None = None) -> list[tuple[int, str | None, int]]:
        """(version id, number, body id) of every archived rule whose number lies in one of ``ranges``
        (None: every rule), in no particular order. Equal body ids are equal text, examples and notes,
        so these rows compare versions without rebuilding any."""
        where, args = _where(ranges)
        return self.db.execute(f"SELECT r.version_id, r.number, r.body_id FROM rules r WHERE 1{where}", args).fetchall()

    def bodies_with(self, norms: Iterable[str], digests: Iterable[str]) -> dict[int, str]:
        """Body id -> comparison text of the stored bodies whose comparison text is one of ``norms`` or
        whose content digest (``Rule.digest``) is one of ``digests`` (one pass over the bodies)."""
        out: dict[int, str] = {}
        ns, ds = sorted(set(norms)), sorted(set(digests))
        step = _CHUNK * 10
        for k in range(0, max(len(ns), len(ds)), step):
            a, b = ns[k : k + step], ds[k : k + step]
            marks_a, marks_b = ",".join("?" * len(a)), ",".join("?" * len(b))
            q = f"SELECT id, norm FROM bodies WHERE norm IN ({marks_a}) OR digest IN ({marks_b})"
            out.update(self.db.execute(q, [*a, *b]).fetchall())
        return out

    def body_norms(self, ids: Iterable[int]) -> dict[int, str]:
        """Body id -> comparison text of the given stored bodies."""
        out: dict[int, str] = {}
        values = sorted(set(ids))
        for k in range(0, len(values), _CHUNK):
            chunk = values[k : k + _CHUNK]
            q = f"SELECT id, norm FROM bodies WHERE id IN ({','.join('?' * len(chunk))})"
            out.update(self.db.execute(q, chunk).fetchall())
        return out

    def document_part(self, vid: int, ranges: Ranges | None) -> Document:
        """Version ``vid`` with only the rules whose numbers lie in ``ranges`` (None: all of it) and no
        glossary: a slice of a release costs a slice of the rebuilding."""
        if ranges is None:
            return self.document(vid)
        row = self.db.execute(
            "SELECT label, effective_date, era, format, sha256, source, extra FROM versions WHERE id = ?", (vid,)
        ).fetchone()
        if row is None:
            raise ArchiveError(f"no archived version #{vid}", source=str(self.path))
        label, eff, era, fmt, sha, source, extra = row
        where, args = _where(ranges)
        rules = self.db.execute(
            "SELECT r.number, b.title, b.text, b.norm, b.examples, r.line, b.category, b.notes, r.anchor, b.digest"
            f" FROM rules r JOIN bodies b ON b.id = r.body_id WHERE r.version_id = ?{where} ORDER BY r.pos",
            (vid, *args),
        ).fetchall()
        return document_from_parts(
            {"label": label, "effective_date": eff, "era": era, "format": fmt, "sha256": sha, "source": source},
            rules,
            [],
            json.loads(extra),
        )
