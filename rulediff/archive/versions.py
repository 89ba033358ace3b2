"""The archive's versions: finding one, its raw bytes, its Document, its coverage and rule keys."""

# The archive's versions: finding one (by id, label, sha256, date or era, or the one in force on a day), its raw
# bytes, its Document rebuilt from the stored rows, its coverage and rule keys, a rule's position.

from __future__ import annotations

from collections.abc import Callable

from ..coverage import Coverage
from ..dates import check_day
from ..errors import ArchiveError, NotFoundError
from ..model import Document
from ..numbering import RuleNumber
from .codec import coverage_of, document_from_parts, missing_rules, read_json, unzip
from .rows import VERSION_COLS, VERSION_ORDER, Lru, VersionRow
from .store import Store

# Rebuilt documents kept in memory (a full release is a few MB of objects).
DOCUMENT_CACHE = 12

RuleKey = tuple[RuleNumber | None, str | None, str | None]  # (number, title, category)


class Versions:
    """The versions of an open archive and their documents."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.path = store.path
        self.docs: Lru[int, Document] = Lru(DOCUMENT_CACHE)
        # Per version, derived and rebuilt from the database whenever missing.
        self.light_cache: dict[int, tuple[Coverage, list[RuleKey]]] = {}

    def forget(self) -> None:
        """Drop what is kept in memory (after a removal or a rolled-back change)."""
        self.docs.clear()
        self.light_cache.clear()

    def trim(self, keep: int) -> None:
        """Forget all but the ``keep`` newest rule keys: adding files in order reads only the last few
        versions again, and a corpus's worth would pile up."""
        for vid in list(self.light_cache)[: max(0, len(self.light_cache) - keep)]:
            del self.light_cache[vid]

    def all(self) -> list[VersionRow]:
        rows = self.store.db.execute(f"SELECT {VERSION_COLS} FROM versions ORDER BY {VERSION_ORDER}").fetchall()
        return [VersionRow(*r) for r in rows]

    def get(self, vid: int) -> VersionRow:
        row = self.store.db.execute(f"SELECT {VERSION_COLS} FROM versions WHERE id = ?", (vid,)).fetchone()
        if row is None:
            raise ArchiveError(f"no archived version #{vid}", source=str(self.path))
        return VersionRow(*row)

    def by_sha(self, sha: str) -> VersionRow | None:
        row = self.store.db.execute(f"SELECT {VERSION_COLS} FROM versions WHERE sha256 = ?", (sha,)).fetchone()
        return VersionRow(*row) if row is not None else None

    def resolve(self, ref: str) -> VersionRow:
        """A version by id ("#3"), label, sha256 prefix, effective date or era. A date or era shared by
        several versions (a re-release) names the one whose label it is, or else is an error listing them."""
        vs = self.all()
        ref = ref.strip()
        tests: list[Callable[[VersionRow], bool]] = [
            lambda v: ref.startswith("#") and ref[1:].isdigit() and v.id == int(ref[1:]),
            lambda v: v.label == ref,
            lambda v: len(ref) >= 8 and v.sha256.startswith(ref.lower()),
            lambda v: v.effective_date == ref,
            lambda v: v.era == ref,
        ]
        for test in tests:
            hits = [v for v in vs if test(v)]
            if len(hits) == 1:
                return hits[0]
            if hits:
                names = "; ".join(f"{v.label!r} (#{v.id}, {v.source})" for v in hits)
                raise ArchiveError(
                    f"{ref!r} names {len(hits)} archived versions: {names}; name one by its label or #id",
                    source=str(self.path),
                )
        near = ", ".join(v.label for v in vs[-5:]) or "none yet"
        raise NotFoundError(f"no archived version {ref!r} (latest: {near})", source=str(self.path))

    def in_force(self, as_of: str, what: str = "--as-of") -> VersionRow:
        """The version in force on a day (YYYY-MM-DD): the last one in force from that day or before, never a
        partial dump beside a complete release (``beside``). ``what`` names the day in an error (the option
        or argument the user gave it as)."""
        day = check_day(as_of, what=what)  # a date the user wrote wrong is not the archive's fault: no source
        every = self.all()
        aside = self.beside(every)
        vs = [v for v in every if v.in_force_from <= day and v.id not in aside]
        if not vs:
            raise ArchiveError(f"no archived version in force on {day}", source=str(self.path))
        return max(vs, key=lambda v: (v.in_force_from, v.sort_date, v.seq))

    def timeline(self) -> list[VersionRow]:
        """The versions in order without those ``beside`` a release: the chain the consecutive alignments,
        lineages, rule histories and diff pages follow."""
        every = self.all()
        aside = self.beside(every)
        return [v for v in every if v.id not in aside]

    def release_of(self, vid: int, vs: list[VersionRow]) -> VersionRow | None:
        """The complete release a version beside one stands by: the last complete version of its date."""
        day = next(v.sort_date for v in vs if v.id == vid)
        releases = [v for v in vs if v.sort_date == day and v.id != vid and self.coverage(v.id).complete]
        return releases[-1] if releases else None

    def beside(self, vs: list[VersionRow]) -> set[int]:
        """The partial dumps among ``vs`` that stand beside a complete release of their date (a page that
        copies part of it, or an undated dump identify placed by the release it matches): they are in the
        timeline, but never the version in force, nor a step of a rule's history. Where no complete release of
        a dump's date is archived, the dump stands for its date (and is not in this set)."""
        complete = {v.id for v in vs if self.coverage(v.id).complete}
        dates = {v.sort_date for v in vs if v.id in complete}
        return {v.id for v in vs if v.id not in complete and v.sort_date in dates}

    def raw(self, ref: str) -> bytes:
        v = self.resolve(ref)
        (blob,) = self.store.db.execute("SELECT raw FROM raws WHERE version_id = ?", (v.id,)).fetchone()
        return unzip(blob, "a release file")

    def document(self, ref: str | int) -> Document:
        vid = ref if isinstance(ref, int) else self.resolve(ref).id
        if vid in self.docs:
            return self.docs[vid]
        doc = self.load(vid)
        self.docs[vid] = doc
        return doc

    def load(self, vid: int, where: str = "", args: tuple[object, ...] = (), glossary: bool = True) -> Document:
        """Rebuild version ``vid`` from its rows; ``where`` narrows the rules (an SQL condition on ``r``)."""
        self.store.write_rules(vid)
        row = self.store.db.execute(
            "SELECT label, effective_date, era, format, sha256, source, extra, rule_count FROM versions WHERE id = ?",
            (vid,),
        ).fetchone()
        if row is None:
            raise ArchiveError(f"no archived version #{vid}", source=str(self.path))
        label, eff, era, fmt, sha, source, extra, count = row
        rules = self.store.db.execute(
            "SELECT r.number, b.title, b.text, b.norm, b.examples, r.line, b.category, b.notes, r.anchor, b.digest"
            f" FROM rules r JOIN bodies b ON b.id = r.body_id WHERE r.version_id = ?{where} ORDER BY r.pos",
            (vid, *args),
        ).fetchall()
        if not where and len(rules) != count:
            # Alignments stored with it name its rules by position: read short, they would name others.
            raise missing_rules(label, len(rules), count)
        terms = (
            self.store.db.execute(
                "SELECT term, text, line, senses, norm FROM glossary WHERE version_id = ? ORDER BY pos", (vid,)
            ).fetchall()
            if glossary
            else []
        )
        return document_from_parts(
            {"label": label, "effective_date": eff, "era": era, "format": fmt, "sha256": sha, "source": source},
            rules,
            terms,
            read_json(extra, "a version"),
        )

    def check_rule_counts(self) -> None:
        """Every version holds the rule rows it was stored with, or DamagedArchiveError: for the readers of rule
        rows by lineage or text (history, search), which load no whole version (``load`` checks
        those). A scan of the rules' key."""
        if self.store.unwritten:
            return  # inside an add, rows of its versions wait to be written
        short = self.store.db.execute(
            "SELECT label, rule_count, n FROM (SELECT v.label, v.rule_count,"
            " (SELECT count(*) FROM rules r WHERE r.version_id = v.id) AS n FROM versions v) WHERE n != rule_count"
            " LIMIT 1"
        ).fetchone()
        if short is not None:
            raise missing_rules(short[0], short[2], short[1])

    def coverage(self, vid: int) -> Coverage:
        """A version's coverage, without loading its rules."""
        if vid in self.light_cache:
            return self.light_cache[vid][0]
        (extra,) = self.store.db.execute("SELECT extra FROM versions WHERE id = ?", (vid,)).fetchone()
        return coverage_of(extra)

    def light(self, vid: int) -> tuple[Coverage, list[RuleKey]]:
        """A version's coverage and (number, title, category) per rule: enough to decide coverage."""
        if vid in self.light_cache:
            return self.light_cache[vid]
        if vid in self.docs:
            doc = self.docs[vid]
            self.light_cache[vid] = (doc.coverage, [(r.number, r.title, r.category) for r in doc.rules])
            return self.light_cache[vid]
        self.store.write_rules(vid)
        rows = self.store.db.execute(
            "SELECT r.number, b.title, b.category FROM rules r JOIN bodies b ON b.id = r.body_id"
            " WHERE r.version_id = ? ORDER BY r.pos",
            (vid,),
        ).fetchall()
        self.light_cache[vid] = (self.coverage(vid), [(RuleNumber.parse(n) if n else None, t, c) for n, t, c in rows])
        return self.light_cache[vid]

    def keep_documents(self, n: int) -> None:
        """Keep at most ``n`` rebuilt documents in memory (a reader walking releases in order needs two)."""
        self.docs = Lru(n)

    def position(self, vid: int, number: str) -> int | None:
        """The position of rule ``number`` in version ``vid`` ("702.175#2": the second rule printed so)."""
        base, _, nth = number.partition("#")
        self.store.write_rules(vid)
        rows = self.store.db.execute(
            "SELECT pos FROM rules WHERE version_id = ? AND number = ? ORDER BY pos", (vid, base)
        ).fetchall()
        k = int(nth) - 1 if nth else 0
        return int(rows[k][0]) if 0 <= k < len(rows) else None
