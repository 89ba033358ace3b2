"""Comparing a dump with one release inside the dump's coverage, and the differences shown."""

# Compare a dump with one release inside the dump's coverage: what it counts as identical, typography only,
# substantive, missing or extra, and the differences shown for the best candidate.

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from rapidfuzz import fuzz

from ..coverage import Coverage
from ..matcher.classify import align
from ..matcher.passes import match
from ..matcher.records import Kind
from ..model import Document, Rule
from ..numbering import Level
from ..text import normalize, sentences
from ..words.diff import Op, Piece, as_pairs, word_diff
from ..words.nature import nature_of
from ..words.records import Nature

if TYPE_CHECKING:
    from ..archive import VersionRow

# A keyword summary's sentence must be this like (0-100) a sentence of the rule to be read against it.
SENTENCE_CUTOFF = 60.0
# How a keyword summary names the rule it summarises: under 702 (abilities) or 701 (actions).
_HOMES = {"keyword ability": 702, "keyword action": 701}


@dataclass(frozen=True, slots=True)
class Candidate:
    """How well one archived release explains the dump, inside the dump's coverage.

    ``compared`` nodes of the dump have a counterpart in the release: ``identical`` ones read the same,
    ``typography_only`` ones differ only in quotes, dashes or spacing, and ``substantive`` ones differ
    in words, numbering or place. ``missing``: the release has it, the dump (which covers it) does not;
    ``extra``: the dump has it, the release does not. ``score`` is the share of all of these that read
    the same (identical or typography only)."""

    version: VersionRow
    compared: int
    identical: int
    typography_only: int
    substantive: int
    missing: int
    extra: int

    @property
    def score(self) -> float:
        total = self.compared + self.missing + self.extra
        return round((self.identical + self.typography_only) / total, 4) if total else 0.0

    @property
    def same(self) -> int:
        return self.identical + self.typography_only

    @property
    def differing(self) -> int:
        return self.substantive + self.missing + self.extra

    def key(self) -> tuple[float, int, int, int, int, int]:
        """What ranks candidates; equal keys are a tie."""
        return (-self.score, -self.same, self.differing, -self.identical, self.missing, self.extra)

    def as_dict(self) -> dict[str, Any]:
        return {
            "label": self.version.label,
            "effective_date": self.version.effective_date,
            "score": self.score,
            "compared": self.compared,
            "identical": self.identical,
            "typography_only": self.typography_only,
            "substantive": self.substantive,
            "missing": self.missing,
            "extra": self.extra,
        }


@dataclass(frozen=True, slots=True)
class Difference:
    """One place where the dump does not read as the release. ``kind``: substantive or references_only
    (an edited rule, by the nature classifier), edited (a keyword summary that reads otherwise than its
    rule), heading (a keyword summary that reads as its rule, under another heading), renumbered,
    renumbered_edited, moved, moved_edited, split, merged, missing or extra; ``diff`` goes from the release
    to the dump."""

    kind: str
    release_number: str | None
    dump_number: str | None
    title: str | None  # the release's heading where it has the rule, else the dump's
    line: int | None
    diff: tuple[Piece, ...]
    # The dump's heading for the rule where it reads otherwise than the release's (the 2017 keyword page
    # heads Surge's summary "Impulse"); None where they agree, or either has none.
    dump_title: str | None = None

    def as_dict(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "release_number": self.release_number,
            "dump_number": self.dump_number,
            "title": self.title,
            "dump_title": self.dump_title,
            "line": self.line,
            "diff": as_pairs(list(self.diff)),
        }


# --- scope: which archived rules the dump could hold -----------------------------------------------


def _homes(doc: Document) -> list[int]:
    """Headings that hold the dump's unnumbered keyword summaries (701 actions, 702 abilities)."""
    return sorted({_HOMES.get(r.category or "", 702) for r in doc.rules if r.number is None})


def scope_ranges(doc: Document) -> list[tuple[str, str]] | None:
    """The dump's coverage as inclusive string ranges of rule numbers (None: everything). Rule numbers
    sort as strings inside a section or heading ("7" <= "702.15b" <= "7~")."""
    c = doc.coverage
    if c.complete:
        return None
    ranges = [(str(s), f"{s}~") for s in c.sections]
    ranges += [(str(h), f"{h}.~") for h in (*c.headings, *_homes(doc))]
    if c.interval is not None:
        ranges.append(c.interval)
    return ranges


def _in_scope(number: str | None, ranges: list[tuple[str, str]] | None) -> bool:
    if ranges is None:
        return True
    return number is not None and any(lo <= number <= hi for lo, hi in ranges)


def levels_carried(doc: Document) -> set[Level] | None:
    """The levels of numbered nodes the dump carries (None: it has no numbers). A dataset of rules and
    subrules has no headings, so a release's headings are not missing from it."""
    levels = {r.number.level for r in doc.rules if r.number is not None}
    return levels or None


def part_of(doc: Document, ranges: list[tuple[str, str]] | None, levels: set[Level] | None) -> Document:
    """The part of a release the dump could hold, as a document that covers everything it has: what
    the dump lacks there is missing, what the dump has beyond it is extra."""
    rules = tuple(
        r
        for r in doc.rules
        if _in_scope(str(r.number) if r.number else None, ranges)
        and (levels is None or r.number is None or r.number.level in levels)
    )
    cov = Coverage(complete=True, description=f"{doc.version.label} inside the dump's coverage")
    return Document(version=doc.version, rules=rules, coverage=cov)


def sentence_key(s: str) -> str:
    return normalize(s).casefold()


# --- the full comparison ---------------------------------------------------------------------------


def _full(r: Rule) -> str:
    return "\n".join([r.text, *(e.text for e in r.examples)])


def _number(r: Rule) -> str | None:
    return str(r.number) if r.number is not None else None


@lru_cache(maxsize=1 << 14)
def _split(text: str) -> tuple[tuple[str, str], ...]:
    """(raw, comparison form) of each sentence of a text; texts repeat from release to release."""
    return tuple((raw, normalize(raw)) for raw in sentences(text))


def _keyword_reading(entry: Rule, release: Document, partner: Rule) -> tuple[str, Nature | None]:
    """What the release says for a keyword summary: for each of the summary's sentences, the release's
    most alike sentence under the rule it names. Returns that text and how the summary differs."""
    kids = release.children(partner.number) if partner.number is not None else []
    pool = [s for k in (kids or [partner]) for s in _split(k.text)]
    chosen: list[str] = []
    for _, key in _split(entry.text):
        best = max(((fuzz.ratio(key, norm), raw) for raw, norm in pool), default=(0.0, ""))
        if best[0] >= SENTENCE_CUTOFF and best[1] not in chosen:
            chosen.append(best[1])
    said = " ".join(chosen)
    text = " ".join(entry.text.split())
    return said, nature_of(said, text, normalize(said), normalize(text), {})


@dataclass(frozen=True, slots=True)
class Pending:
    """A difference found while counting; its word diff is computed only if it is shown. ``old`` is the
    release's node, ``new`` the dump's; ``detail`` says what kind of difference it is."""

    release: Document
    old: Rule | None
    new: Rule | None
    detail: str
    number_map: dict[str, str | list[str]]


def compare(doc: Document, release: Document, version: VersionRow) -> tuple[Candidate, list[Pending]]:
    """Align the dump with one release inside the dump's coverage and count how it reads there."""
    part = part_of(release, scope_ranges(doc), levels_carried(doc))
    counts: Counter[str] = Counter()
    pending: list[Pending] = []

    def count(kind: str, old: Rule | None, new: Rule | None, detail: str, nmap: dict[str, str | list[str]]) -> None:
        counts[kind] += 1
        if kind not in ("identical", "typography_only"):
            pending.append(Pending(part, old, new, detail, nmap))

    if any(r.number is None for r in doc.rules):
        # Keyword summaries: the matcher says which rule each one names; how it reads is judged sentence
        # by sentence against that rule's subrules. Rules it does not name are outside its coverage.
        pairs = {p.new: p.old for p in match(part, doc)}
        for j, entry in enumerate(doc.rules):
            i = pairs.get(j)
            if i is None:
                count("extra", None, entry, "extra", {})
                continue
            said = _count_of(_keyword_reading(entry, part, part.rules[i])[1])
            if said != "substantive" and not _same_heading(entry.title or "", part.rules[i].title or ""):
                # The summary reads as the rule, under another keyword's name: the dump says something else.
                count("substantive", part.rules[i], entry, "heading", {})
            else:
                count(said, part.rules[i], entry, "edited", {})
    else:
        al = align(part, doc)
        for ch in al.changes:
            old = al.old.rules[ch.old[0]] if ch.old else None
            new = al.new.rules[ch.new[0]] if ch.new else None
            if ch.kind == Kind.NOT_COVERED:
                continue
            if ch.kind == Kind.ADDED:
                count("extra", None, new, "extra", al.number_map)
            elif ch.kind == Kind.REMOVED:
                count("missing", old, None, "missing", al.number_map)
            elif ch.kind == Kind.UNCHANGED:
                count("identical", old, new, "", al.number_map)
            elif ch.kind == Kind.EDITED:
                count(_count_of(ch.nature), old, new, str(ch.nature), al.number_map)
            else:
                # Renumbered, moved, split or merged: the dump's numbers or order are another release's.
                count("substantive", old, new, ch.kind.value, al.number_map)
    compared = counts["identical"] + counts["typography_only"] + counts["substantive"]
    cand = Candidate(
        version,
        compared,
        counts["identical"],
        counts["typography_only"],
        counts["substantive"],
        counts["missing"],
        counts["extra"],
    )
    return cand, pending


def _count_of(nature: Nature | None) -> str:
    if nature is None:
        return "identical"
    return "typography_only" if nature == Nature.TYPOGRAPHY_ONLY else "substantive"


def differences(pending: list[Pending]) -> list[Difference]:
    """The shown form of differences: what each is, where, and its word diff release -> dump."""
    out: list[Difference] = []
    for p in pending:
        old, new = p.old, p.new
        # The release is the authority on what a number is called; a dump's own heading is said beside it.
        title = (old.title if old is not None else None) or (new.title if new is not None else None)
        dump_title = new.title if new is not None and old is not None and old.title else None
        if dump_title is not None and _same_heading(dump_title, title or ""):
            dump_title = None
        if old is None and new is not None:
            diff = [Piece(Op.INSERT, _full(new))]
        elif new is None and old is not None:
            diff = [Piece(Op.DELETE, _full(old))]
        elif old is not None and new is not None and new.number is None:
            said = _keyword_reading(new, p.release, old)[0]
            diff = word_diff(said, " ".join(new.text.split()))
        elif old is not None and new is not None:
            diff = word_diff(_full(old), _full(new), p.number_map)
        out.append(
            Difference(
                p.detail,
                _number(old) if old is not None else None,
                _number(new) if new is not None else None,
                title,
                new.line if new is not None else None,
                tuple(diff),
                dump_title,
            )
        )
    return out


def _same_heading(a: str, b: str) -> bool:
    """Headings that read the same but for typography and case ("Living weapon", "Living Weapon"); a missing
    heading disagrees with none."""
    if not a or not b:
        return True
    return normalize(a).casefold().strip(" .") == normalize(b).casefold().strip(" .")
