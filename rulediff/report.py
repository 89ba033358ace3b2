"""Build the view-model of an Alignment (what a reader sees, in what order) and render it as HTML, JSON or
Markdown through the Jinja templates. No diff logic lives in the templates."""

from __future__ import annotations

import json
import re
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from .changes import DIFF_SCHEMA, EDITED_KINDS, Alignment, Change, Kind, Nature, is_substantive
from .model import Document, Rule
from .numbering import RuleNumber
from .templating import environment
from .textdiff import Op, Piece, as_pairs, word_diff

KIND_LABEL = {
    Kind.UNCHANGED: "unchanged",
    Kind.RENUMBERED: "renumbered",
    Kind.EDITED: "edited",
    Kind.RENUMBERED_EDITED: "renumbered and edited",
    Kind.MOVED: "moved",
    Kind.MOVED_EDITED: "moved and edited",
    Kind.SPLIT: "split",
    Kind.MERGED: "merged",
    Kind.ADDED: "added",
    Kind.REMOVED: "removed",
    Kind.NOT_COVERED: "not covered",
}
# Marks that do not rely on colour: every change carries one of these next to its number.
KIND_MARK = {
    Kind.EDITED: "~",
    Kind.RENUMBERED_EDITED: "~",
    Kind.MOVED: "\u2192",
    Kind.MOVED_EDITED: "\u2192",
    Kind.SPLIT: "\u00f7",
    Kind.MERGED: "\u222a",
    Kind.ADDED: "+",
    Kind.REMOVED: "\u2212",
}
SECTION_NAMES = {
    1: "Game Concepts",
    2: "Parts of a Card",
    3: "Card Types",
    4: "Zones",
    5: "Turn Structure",
    6: "Spells, Abilities, and Effects",
    7: "Additional Rules",
    8: "Multiplayer Rules",
    9: "Casual Variants",
}


def anchor(number: RuleNumber | None, key: str, side: str = "") -> str:
    """A permanent, safe id: ``r702.15b`` for a rule in the new version, ``old-702.15b`` where an old
    rule was, ``k-flashback`` for an unnumbered keyword."""
    if number is not None:
        return f"{side or 'r'}{number}" if not side else f"{side}-{number}"
    slug = re.sub(r"[^a-z0-9]+", "-", key.casefold()).strip("-")[:60] or "node"
    return f"{side or 'k'}-{slug}"


@dataclass(slots=True)
class Side:
    number: str
    title: str | None
    text: str
    anchor: str
    section: int | None


@dataclass(slots=True)
class ExampleView:
    kind: str
    nature: str | None
    old: str | None
    new: str | None
    diff: list[Piece]


@dataclass(slots=True)
class ChangeView:
    """One change as the page shows it."""

    kind: Kind
    label: str
    mark: str
    nature: str | None
    reason: str
    similarity: float
    old: list[Side]
    new: list[Side]
    anchor: str
    section: int
    diff: list[Piece]
    rewritten: bool
    examples: list[ExampleView]
    substantive: bool
    context: str
    summary: str
    extra_anchors: list[str] = field(default_factory=list)  # the other numbers of a split or merge

    @property
    def title(self) -> str:
        for s in (*self.new, *self.old):
            if s.title:
                return s.title
        return ""


@dataclass(slots=True)
class ShiftRange:
    """A run of renumbered rules under one parent that all moved by the same amount."""

    first_old: str
    last_old: str
    first_new: str
    last_new: str
    delta: int
    count: int
    anchor: str
    items: list[tuple[str, str]]

    @property
    def label(self) -> str:
        sign = "+" if self.delta > 0 else ""
        span = self.first_old if self.first_old == self.last_old else f"{self.first_old}\u2013{self.last_old}"
        target = self.first_new if self.first_new == self.last_new else f"{self.first_new}\u2013{self.last_new}"
        how = f"shifted by {sign}{self.delta}" if self.delta else "renumbered"
        extra = len(self.items) - self.count
        more = f" with {extra} subrule{'s' if extra > 1 else ''}" if extra > 0 else ""
        return f"{span}{more} {how} (now {target})"


@dataclass(slots=True)
class SectionView:
    number: int
    name: str
    anchor: str
    changes: list[ChangeView] = field(default_factory=list)
    ghosts: list[tuple[str, str, str]] = field(default_factory=list)  # (old anchor, old number, target anchor)

    @property
    def counts(self) -> dict[str, int]:
        c = Counter(ch.kind.value for ch in self.changes)
        return dict(sorted(c.items()))


@dataclass(slots=True)
class GlossaryView:
    kind: Kind
    label: str
    term: str
    old_term: str | None
    nature: str | None
    reason: str
    diff: list[Piece]
    anchor: str


@dataclass(slots=True)
class ReportView:
    old: dict[str, Any]
    new: dict[str, Any]
    totals: list[tuple[str, str, int]]  # (kind value, label, count)
    sections: list[SectionView]
    shifts: list[ShiftRange]
    references_only: list[tuple[str, str, str]]  # (old number, new number, anchor)
    typography_only: list[tuple[str, str, str]]  # (old number, new number, anchor)
    glossary: list[GlossaryView]
    example_changes: list[ChangeView]
    moves: list[ChangeView]
    kinds_present: list[tuple[str, str]]
    inferred: list[tuple[str, str, float]]
    not_covered: int


def _section_of(r: Rule) -> int:
    if r.number is not None:
        return r.number.section
    return 7 if r.category else 0


def _version(doc: Document) -> dict[str, Any]:
    v = doc.version
    return {
        "label": v.label,
        "effective_date": v.effective_date.isoformat() if v.effective_date else None,
        "era": v.era,
        "format": v.format,
        "sha256": v.sha256,
        "coverage": doc.coverage.description,
        "rules": len(doc.rules),
    }


def _side(doc: Document, i: int, side: str) -> Side:
    r = doc.rules[i]
    return Side(
        str(r.number) if r.number is not None else (r.title or r.key),
        r.title,
        r.text,
        anchor(r.number, r.key, side),
        r.number.section if r.number is not None else None,
    )


def _change_view(al: Alignment, ch: Change) -> ChangeView:
    old = [_side(al.old, i, "old") for i in ch.old]
    new = [_side(al.new, j, "") for j in ch.new]
    ra = al.old.rules[ch.old[0]] if ch.old else None
    rb = al.new.rules[ch.new[0]] if ch.new else None
    if ra is not None and rb is not None and ch.kind not in (Kind.SPLIT, Kind.MERGED):
        diff = word_diff(ra.text, rb.text, al.number_map)
    elif ch.kind == Kind.SPLIT and ra is not None:
        diff = word_diff(ra.text, "\n".join(al.new.rules[j].text for j in ch.new), al.number_map)
    elif ch.kind == Kind.MERGED and rb is not None:
        diff = word_diff("\n".join(al.old.rules[i].text for i in ch.old), rb.text, al.number_map)
    elif rb is not None:
        diff = [Piece(Op.INSERT, rb.text)]
    else:
        diff = [Piece(Op.DELETE, ra.text if ra else "")]
    examples = [
        ExampleView(
            e.kind,
            e.nature.value if e.nature else None,
            e.old,
            e.new,
            word_diff(e.old or "", e.new or "", al.number_map),
        )
        for e in ch.examples
    ]
    home = rb if rb is not None else ra
    assert home is not None
    doc = al.new if rb is not None else al.old
    return ChangeView(
        kind=ch.kind,
        label=KIND_LABEL[ch.kind],
        mark=KIND_MARK.get(ch.kind, "="),
        nature=ch.nature.value if ch.nature else None,
        reason=ch.reason,
        similarity=ch.similarity,
        old=old,
        new=new,
        anchor=new[0].anchor if new else old[0].anchor,
        section=_section_of(home),
        diff=diff,
        rewritten=ch.rewritten,
        examples=examples,
        substantive=is_substantive(ch),
        context=_context(doc, home),
        summary=summarize(diff) if ch.old and ch.new else "",
    )


def _context(doc: Document, r: Rule) -> str:
    """The nearest titled rule above ``r`` ("702.15 Lifelink" for 702.15b), for orientation."""
    p = r.number.parent if r.number is not None else None
    while p is not None:
        up = doc.get(p)
        if up is not None and up.title:
            return f"{p} {up.title}"
        p = p.parent
    return ""


def _quote(text: str, limit: int = 60) -> str:
    t = " ".join(text.split())
    return "\u201c" + (t if len(t) <= limit else t[: limit - 1] + "\u2026") + "\u201d"


def summarize(diff: list[Piece], most: int = 3) -> str:
    """One line saying what changed: 'added \u201c...\u201d; \u201cX\u201d \u2192 \u201cY\u201d'."""
    hunks: list[str] = []
    k = 0
    while k < len(diff):
        p = diff[k]
        if p.op == Op.DELETE and k + 1 < len(diff) and diff[k + 1].op == Op.INSERT:
            hunks.append(f"{_quote(p.text)} \u2192 {_quote(diff[k + 1].text)}")
            k += 2
            continue
        if p.op == Op.INSERT:
            hunks.append(f"added {_quote(p.text)}")
        elif p.op == Op.DELETE:
            hunks.append(f"removed {_quote(p.text)}")
        k += 1
    if not hunks:
        muted = sum(1 for p in diff if p.op == Op.MUTED)
        return "only typography or renumbered references" if muted else ""
    more = f"; and {len(hunks) - most} more" if len(hunks) > most else ""
    return "; ".join(hunks[:most]) + more


def _signature(a: RuleNumber, b: RuleNumber) -> tuple[Any, ...] | None:
    """What kind of shift moved ``a`` to ``b``: a rule (with its subrules) moved by n within a heading
    pair, letters moved by n under one rule, or a three-digit heading moved by n."""
    from .numbering import letter_index

    if a.rule is not None and b.rule is not None and a.letters == b.letters and a.rule != b.rule:
        return ("rule", a.heading, b.heading, b.rule - a.rule)
    if a.letters and b.letters and a.parent is not None and b.parent is not None and a.rule == b.rule:
        try:
            return ("letters", str(a.parent), str(b.parent), letter_index(b.letters) - letter_index(a.letters))
        except KeyError:
            return None
    if a.rule is None and b.rule is None and a.heading is not None and b.heading is not None:
        return ("heading", None, None, b.heading - a.heading)
    return None


def _shifts(al: Alignment) -> list[ShiftRange]:
    """Group pure renumberings into runs a reader can take in at once: consecutive rules that moved by
    the same amount (their subrules travel with them), or letters that moved under one rule."""
    out: list[ShiftRange] = []
    run: list[tuple[RuleNumber, RuleNumber, str]] = []
    sig: tuple[Any, ...] | None = None

    def flush() -> None:
        if not run:
            return
        heads = [(a, b) for a, b, _ in run if not (sig and sig[0] == "rule" and a.letters)] or [
            (a, b) for a, b, _ in run
        ]
        (a0, b0), (a1, b1) = heads[0], heads[-1]
        label_delta = sig[3] if sig else 0
        out.append(
            ShiftRange(
                str(a0),
                str(a1),
                str(b0),
                str(b1),
                label_delta,
                len(heads),
                run[0][2],
                [(str(a), str(b)) for a, b, _ in run],
            )
        )
        run.clear()

    for ch in al.changes:
        if ch.kind != Kind.RENUMBERED and not (ch.kind == Kind.RENUMBERED_EDITED and ch.nature != Nature.SUBSTANTIVE):
            continue
        ra, rb = al.old.rules[ch.old[0]], al.new.rules[ch.new[0]]
        if ra.number is None or rb.number is None:
            continue
        s = _signature(ra.number, rb.number)
        if s is None or s != sig:
            flush()
            sig = s
        run.append((ra.number, rb.number, anchor(rb.number, rb.key)))
    flush()
    return out


def _unique_anchors(
    sections: dict[int, SectionView],
    references_only: list[tuple[str, str, str]],
    typography_only: list[tuple[str, str, str]],
) -> None:
    """Every id once, even when a release publishes a number twice (2024-09-20 has two 702.175)."""
    used: set[str] = set()

    def claim(a: str) -> str:
        k, b = 2, a
        while b in used:
            b, k = f"{a}-{k}", k + 1
        used.add(b)
        return b

    for sec in sections.values():
        sec.ghosts = [(claim(g), n, t) for g, n, t in sec.ghosts]
    for sec in sections.values():
        for c in sec.changes:
            c.anchor = claim(c.anchor)
            sides = c.new[1:] if c.kind == Kind.SPLIT else c.old[1:] if c.kind == Kind.MERGED else []
            c.extra_anchors = [claim(s.anchor) for s in sides]
            for s in sides:
                s.anchor = c.extra_anchors[sides.index(s)]
    references_only[:] = [(a, b, claim(anc)) for a, b, anc in references_only]
    typography_only[:] = [(a, b, claim(anc)) for a, b, anc in typography_only]


def build_view(al: Alignment) -> ReportView:
    summary = al.summary()
    sections: dict[int, SectionView] = {}
    moves: list[ChangeView] = []
    example_changes: list[ChangeView] = []
    references_only: list[tuple[str, str, str]] = []
    typography_only: list[tuple[str, str, str]] = []

    def section(n: int) -> SectionView:
        if n not in sections:
            name = SECTION_NAMES.get(n, "Unnumbered entries" if n == 0 else f"Section {n}")
            sections[n] = SectionView(n, name, f"s{n}")
        return sections[n]

    for ch in al.changes:
        if ch.kind in (Kind.UNCHANGED, Kind.NOT_COVERED):
            continue
        if ch.kind in EDITED_KINDS and ch.nature == Nature.TYPOGRAPHY_ONLY:
            ra, rb = al.old.rules[ch.old[0]], al.new.rules[ch.new[0]]
            typography_only.append((str(ra.number or ra.key), str(rb.number or rb.key), anchor(rb.number, rb.key)))
            continue
        if ch.kind in EDITED_KINDS and ch.nature == Nature.REFERENCES_ONLY and ch.kind != Kind.MOVED_EDITED:
            rb = al.new.rules[ch.new[0]]
            references_only.append((str(al.old.rules[ch.old[0]].number), str(rb.number), anchor(rb.number, rb.key)))
            continue
        if ch.kind == Kind.RENUMBERED:
            continue
        view = _change_view(al, ch)
        section(view.section).changes.append(view)
        if ch.kind in (Kind.MOVED, Kind.MOVED_EDITED):
            moves.append(view)
            for o in view.old:
                if o.section is not None:
                    section(o.section).ghosts.append((o.anchor, o.number, view.anchor))
        if any(e.kind != "unchanged" and e.nature != Nature.TYPOGRAPHY_ONLY.value for e in view.examples):
            example_changes.append(view)

    glossary = []
    for g in al.glossary:
        if g.kind in (Kind.UNCHANGED, Kind.NOT_COVERED) or g.nature == Nature.TYPOGRAPHY_ONLY:
            continue
        term = g.new.term if g.new else g.old.term if g.old else ""
        glossary.append(
            GlossaryView(
                g.kind,
                KIND_LABEL[g.kind],
                term,
                g.old.term if g.old and g.new and g.old.term != g.new.term else None,
                g.nature.value if g.nature else None,
                g.reason,
                word_diff(g.old.text if g.old else "", g.new.text if g.new else "", al.number_map),
                anchor(None, term, "g"),
            )
        )
    _unique_anchors(sections, references_only, typography_only)
    totals = [(k.value, KIND_LABEL[k], summary[k.value]) for k in Kind if summary[k.value]]
    kinds_present = sorted({(v.kind.value, v.label) for s in sections.values() for v in s.changes})
    return ReportView(
        old=_version(al.old),
        new=_version(al.new),
        totals=totals,
        sections=[sections[k] for k in sorted(sections)],
        shifts=_shifts(al),
        references_only=references_only,
        typography_only=typography_only,
        glossary=glossary,
        example_changes=example_changes,
        moves=moves,
        kinds_present=kinds_present,
        inferred=sorted((t, n, c) for t, (n, c) in al.inferred.items()),
        not_covered=summary[Kind.NOT_COVERED.value],
    )


# --- renderers --------------------------------------------------------------------------------------


def to_html(al: Alignment, site: dict[str, str] | None = None) -> str:
    """One self-contained page; ``site`` adds links back to the site's index, search and rules."""
    view = build_view(al)
    env = environment()
    return env.get_template("diff.html.j2").render(v=view, site=site)


def to_markdown(al: Alignment) -> str:
    return environment(markdown=True).get_template("diff.md.j2").render(v=build_view(al))


def to_dict(al: Alignment) -> dict[str, Any]:
    """The ``rulediff.diff/1`` document: versions, summary, every change but the unchanged, the number map
    (every old number with a counterpart, unchanged ones included), glossary and inferred numbers."""

    def numbers(doc: Document, idx: tuple[int, ...]) -> list[str]:
        return [str(doc.rules[i].number) if doc.rules[i].number is not None else doc.rules[i].key for i in idx]

    changes = []
    for ch in al.changes:
        if ch.kind == Kind.UNCHANGED:
            continue
        ra = al.old.rules[ch.old[0]] if ch.old else None
        rb = al.new.rules[ch.new[0]] if ch.new else None
        item: dict[str, Any] = {
            "kind": ch.kind.value,
            "nature": ch.nature.value if ch.nature else None,
            "old": numbers(al.old, ch.old),
            "new": numbers(al.new, ch.new),
            "title": (rb.title if rb else None) or (ra.title if ra else None),
            "reason": ch.reason,
            "score": ch.score,
            "similarity": ch.similarity,
        }
        if ch.kind != Kind.NOT_COVERED:
            old_text = "\n".join(al.old.rules[i].text for i in ch.old)
            new_text = "\n".join(al.new.rules[j].text for j in ch.new)
            item["old_text"] = old_text if ch.old else None
            item["new_text"] = new_text if ch.new else None
            item["diff"] = as_pairs(word_diff(old_text, new_text, al.number_map))
            item["examples"] = [
                {
                    "kind": e.kind,
                    "nature": e.nature.value if e.nature else None,
                    "old": e.old,
                    "new": e.new,
                    "diff": as_pairs(word_diff(e.old or "", e.new or "", al.number_map)),
                }
                for e in ch.examples
                if e.kind != "unchanged"
            ]
        changes.append(item)
    glossary = [
        {
            "kind": g.kind.value,
            "nature": g.nature.value if g.nature else None,
            "term": g.new.term if g.new else g.old.term if g.old else None,
            "old_term": g.old.term if g.old else None,
            "reason": g.reason,
            "diff": as_pairs(word_diff(g.old.text if g.old else "", g.new.text if g.new else "", al.number_map)),
        }
        for g in al.glossary
        if g.kind != Kind.UNCHANGED
    ]
    return {
        "schema": DIFF_SCHEMA,
        "old": _version(al.old),
        "new": _version(al.new),
        "summary": al.summary(),
        "changes": changes,
        "number_map": dict(sorted(al.number_map.items(), key=lambda kv: _sort_key(kv[0]))),
        "glossary": glossary,
        "inferred_numbers": {t: {"number": n, "confidence": round(c, 4)} for t, (n, c) in sorted(al.inferred.items())},
    }


def _sort_key(number: str) -> tuple[Any, ...]:
    n = RuleNumber.try_parse(number)
    return (0, n.sort_key) if n is not None else (1, number)


def to_json(al: Alignment) -> str:
    return json.dumps(to_dict(al), ensure_ascii=False, indent=1, sort_keys=True) + "\n"
