"""The release notes' view-model built from an Alignment, in bulletin order."""

# Release notes of an Alignment as a rules manager publishes them: the view-model (view.py) built in bulletin order,
# read by the Markdown, HTML and ``rulediff.notes/1.1`` renderers.

from __future__ import annotations

import os
import re
from typing import Any

from ..matcher.records import Alignment, Change, GlossaryChange, Kind, Shown, glossary_shown, shown_as
from ..model import Document, Rule
from ..numbering import RuleNumber
from ..words.agreement import forms
from ..words.diff import one_output
from ..words.records import Rename
from .passages import LONG, Passage, list_change, marked, marked_by_parts, plain
from .printed import printings, said
from .shifts import shifts
from .view import Brief, Entry, ExampleNote, GlossaryNote, Group, Notes, headline

# --- the view-model ---------------------------------------------------------------------------------


def version_info(doc: Document) -> dict[str, Any]:
    v = doc.version
    return {
        "label": v.label,
        # The file name only (where the checkout lives is no part of the output): it tells apart two
        # files of one date, such as 2026-08-07 and its re-release.
        "file": os.path.basename(v.source.replace("\\", "/")) if v.source else None,
        "effective_date": v.effective_date.isoformat() if v.effective_date else None,
        "era": v.era,
        "format": v.format,
        "sha256": v.sha256,
        "coverage": doc.coverage.description,
        "rules": len(doc.rules),
    }


def rename_info(r: Rename) -> dict[str, Any]:
    """A rename as the JSON outputs give it: its term, the rules it touched, whether only quoted text took it, the
    phrases substituted as it ("spellings", case kept: its verbs agreeing after it and its inflected forms too, "he or
    she has" -> "they have"; an apostrophe in one matches a straight or a curly one, and the verbs of a list after a
    renamed subject that agree with it are renamed without a spelling of their own), and those inflected forms,
    which the notes name beside it ("forms")."""
    return {
        **r.as_dict(),
        "spellings": [[a, b] for a, b in r.spellings],
        "forms": [[a, b] for a, b in forms(r.spellings, r.old)],
    }


def anchor(number: RuleNumber | None, key: str, side: str = "") -> str:
    """A permanent, safe id: ``r702.15b`` for a rule in the new version, ``old-702.15b`` where an old
    rule was, ``k-flashback`` for an unnumbered keyword."""
    if number is not None:
        return f"{side or 'r'}{number}" if not side else f"{side}-{number}"
    slug = re.sub(r"[^a-z0-9]+", "-", key.casefold()).strip("-")[:60] or "node"
    return f"{side or 'k'}-{slug}"


def glossary_anchor(term: str) -> str:
    """The id a diff page gives a glossary term's change, whether a note or a brief: the site's glossary pages
    link to it (site/glossary.py), so the one spelling is made here."""
    return anchor(None, term, "g")


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9.]+", "-", text.casefold()).strip("-")[:60] or "node"


def _number_id(number: str) -> str:
    n = RuleNumber.try_parse(number)
    return anchor(n, number)


def _name(r: Rule) -> str:
    return str(r.number) if r.number is not None else (r.title or r.key)


def _context(doc: Document, r: Rule) -> str:
    """The nearest titled rule above ``r`` ("702.15 Lifelink" for 702.15b), for orientation."""
    p = r.number.parent if r.number is not None else None
    while p is not None:
        up = doc.get(p)
        if up is not None and up.title:
            return f"{p} {up.title}"
        p = p.parent
    return ""


def _section(r: Rule) -> int:
    if r.number is not None:
        return r.number.section
    return 7 if r.category else 0


class _Ids:
    """Every id once, even when a release publishes a number twice (2024-09-20 has two 702.175)."""

    def __init__(self) -> None:
        self.used: set[str] = set()

    def claim(self, a: str) -> str:
        k, b = 2, a
        while b in self.used:
            b, k = f"{a}-{k}", k + 1
        self.used.add(b)
        return b


def _examples(al: Alignment, ch: Change, link: bool) -> list[ExampleNote]:
    out = []
    for e in ch.examples:
        if e.kind == "edited" and e.nature is not None and e.nature.value == "substantive":
            o, n = marked(e.old or "", e.new or "", al.number_map, link)
            out.append(ExampleNote("Example changed", o, n))
        elif e.kind == "added":
            # An example of a new rule is simply part of it (its text starts "Example:" already).
            out.append(ExampleNote("New example" if ch.old else "", None, plain("New", e.new or "", link)))
        elif e.kind == "removed":
            out.append(ExampleNote("Example removed" if ch.new else "", plain("Old", e.old or ""), None))
    return out


# Position -> "printed twice: first" in the old and the new release (render/printed.py): mostly empty.
Printings = tuple[dict[int, str], dict[int, str]]


def _entry(al: Alignment, ch: Change, shown: Shown, ids: _Ids, link: bool, printed: Printings) -> Entry:
    olds = [al.old.rules[i] for i in ch.old]
    news = [al.new.rules[j] for j in ch.new]
    home = news[0] if news else olds[0]
    doc = al.new if news else al.old
    old_text = "\n".join(r.text for r in olds)
    new_text = "\n".join(r.text for r in news)
    old_numbers = [_name(r) for r in olds]
    new_numbers = [_name(r) for r in news]
    title = next((r.title for r in (*news, *olds) if r.title), None) or ""
    # The old number as a reader is told it, where the old release prints it twice.
    told = [said(n, printed[0].get(i, "")) for n, i in zip(old_numbers, ch.old, strict=True)]
    label, old, new, added, removed = _passages(al, ch, shown, (told, new_numbers), (olds, news), link)
    ident = ids.claim(anchor(home.number, home.key, "" if news else "old"))
    # Every number the change touches can be linked to: the other parts of a split, where the old
    # rules of a renumbering, move or merge were.
    extra = [ids.claim(anchor(r.number, r.key)) for r in news[1:]]
    if news and olds and old_numbers != new_numbers:
        extra += [ids.claim(anchor(r.number, r.key, "old")) for r in olds]
    return Entry(
        id=ident,
        shown=shown,
        kind=ch.kind,
        number=_name(home),
        old_numbers=old_numbers,
        new_numbers=new_numbers,
        title=title,
        context=_context(doc, home),
        section=_section(home),
        label=label,
        old=old,
        new=new,
        old_text=old_text,
        new_text=new_text,
        list_added=added,
        list_removed=removed,
        examples=_examples(al, ch, link),
        rewritten=ch.rewritten,
        reason=ch.reason,
        extra_ids=extra,
        uncertain=ch.uncertain,
        printed=printed[1].get(ch.new[0], "") if news else printed[0].get(ch.old[0], ""),
        closest=ch.closest.said() if ch.closest else "",
    )


def _passages(
    al: Alignment,
    ch: Change,
    shown: Shown,
    numbers: tuple[list[str], list[str]],
    rules: tuple[list[Rule], list[Rule]],
    link: bool,
) -> tuple[str, list[Passage], list[Passage], list[str], list[str]]:
    """What an entry shows of a change: its label, the old and new passages (marked where they differ), and
    for a long list, the items added and removed instead."""
    (old_numbers, new_numbers), (olds, news) = numbers, rules
    if shown == Shown.SPLIT:
        # (a split's parts, and a merge's sources, in the order the release has them)
        at = sorted(range(len(news)), key=ch.new.__getitem__)
        new_numbers, news = [new_numbers[k] for k in at], [news[k] for k in at]
    elif shown == Shown.MERGED:
        at = sorted(range(len(olds)), key=ch.old.__getitem__)
        old_numbers, olds = [old_numbers[k] for k in at], [olds[k] for k in at]
    old_text = "\n".join(r.text for r in olds)
    new_text = "\n".join(r.text for r in news)
    old: list[Passage] = []
    new: list[Passage] = []
    added: list[str] = []
    removed: list[str] = []
    if shown == Shown.ADDED:
        label = "New rule."
        new = [plain("New", new_text, link)]
    elif shown == Shown.REMOVED:
        label = "Removed."
        old = [plain("Old", old_text)]
    elif shown == Shown.SPLIT:
        # The old rule marked against its parts put together: what no part kept.
        label = f"{old_numbers[0]} was split into {_and(new_numbers)}."
        whole = marked_by_parts(old_text, [r.text for r in news], al.number_map, new=False)
        old = [Passage(f"Old {old_numbers[0]}", whole.runs, whole.excerpt)]
        new = [plain(f"New {n}", r.text, link) for n, r in zip(new_numbers, news, strict=True)]
    elif shown == Shown.MERGED:
        # The merged rule marked against its sources put together: what none of them said.
        label = f"{_and(old_numbers)} were merged into {new_numbers[0]}."
        old = [plain(f"Old {n}", r.text) for n, r in zip(old_numbers, olds, strict=True)]
        whole = marked_by_parts(new_text, [r.text for r in olds], al.number_map, new=True, link=link)
        new = [Passage(f"New {new_numbers[0]}", whole.runs, whole.excerpt)]
    else:
        renumbered = [n.partition(" (")[0] for n in old_numbers] != new_numbers
        if shown == Shown.MOVED:
            label = f"Moved from {old_numbers[0]}" + (" and changed." if ch.kind == Kind.MOVED_EDITED else ".")
        elif renumbered:
            label = f"Renumbered from {old_numbers[0]} and changed."
        else:
            label = "Changed."
        if old_text == new_text:
            new = [plain("Text", new_text, link)]
        elif ch.rewritten:
            label = label[:-1] + ", rewritten."
            old, new = [plain("Old", old_text)], [plain("New", new_text, link)]
        else:
            lc = list_change(old_text, new_text) if max(len(old_text), len(new_text)) > LONG else None
            if lc is not None:
                added, removed = lc
            else:
                o, n = marked(old_text, new_text, al.number_map, link)
                old, new = [o], [n]
    return label, old, new, added, removed


def _and(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def _groups(al: Alignment, added: list[tuple[Change, Entry]], ids: _Ids) -> list[Group]:
    """New rules grouped under their highest new ancestor; new keywords first, then new keyword
    actions, then the other new rules in rule order."""
    numbers = {str(al.new.rules[ch.new[0]].number) for ch, _ in added if al.new.rules[ch.new[0]].number}
    groups: dict[str, list[Entry]] = {}
    heads: dict[str, Rule] = {}
    for ch, e in added:
        r = al.new.rules[ch.new[0]]
        root = r.number
        while root is not None and root.parent is not None and str(root.parent) in numbers:
            root = root.parent
        key = str(root) if root is not None else f"k:{r.key}"
        if e.printed:
            # Two new rules of one number (2024-09-20's 702.175) are two groups: a subrule goes with the heading
            # of its printing ("702.175a", printed twice: second, with the second 702.175).
            key += "#" + e.printed.rpartition(": ")[2]
        groups.setdefault(key, []).append(e)
        heads.setdefault(key, r)

    def rank(key: str) -> int:
        n = heads[key].number
        if n is not None and n.rule is not None and not n.letters and heads[key].title:
            return {702: 0, 701: 1}.get(n.heading or 0, 2)
        return 2

    out = []
    for _, key in sorted(enumerate(groups), key=lambda t: (rank(t[1]), t[0])):
        head = heads[key]
        level = rank(key)
        twice = groups[key][0].printed if groups[key][0].number == _name(head) else ""
        name = said(_name(head), twice)
        if level < 2:
            what = "New keyword" if level == 0 else "New keyword action"
            label = f"{what}: {head.title} ({head.number}{', ' + twice if twice else ''})"
        elif head.title:
            label = f"New rule: {name} {head.title}"
        else:
            ctx = _context(al.new, head)
            label = f"New rule: {name}" + (f" (in {ctx})" if ctx else "")
        ident = f"new-{key.partition('#')[0]}".replace(":", "-").replace(" ", "-")
        out.append(Group(ids.claim(ident), label, groups[key]))
    return out


def _glossary_note(al: Alignment, g: GlossaryChange, ids: _Ids, link: bool) -> GlossaryNote:
    term = g.new.term if g.new else g.old.term if g.old else ""
    ident = ids.claim(glossary_anchor(term))
    if g.old is None:
        return GlossaryNote(ident, Shown.GLOSSARY, "New term", term, None, None, plain("New", _lines(g.new), link))
    if g.new is None:
        return GlossaryNote(ident, Shown.GLOSSARY, "Term removed", term, None, plain("Old", _lines(g.old)), None)
    o, n = marked(_lines(g.old), _lines(g.new), al.number_map, link)
    renamed = g.old.term if g.old.term != g.new.term else None
    return GlossaryNote(ident, Shown.GLOSSARY, "Term changed", term, renamed, o, n, g.uncertain, g.reason)


def _lines(entry: Any) -> str:
    return str(entry.text).replace("\u2028", "\n")


@one_output()
def build_notes(al: Alignment, link: bool = True) -> Notes:
    """The notes of ``al``: every change a reader must see exactly once, in bulletin order."""
    summary = al.summary()
    ids = _Ids()
    printed = (printings(al.old), printings(al.new))
    added: list[tuple[Change, Entry]] = []
    changes: list[Entry] = []
    references: list[Brief] = []
    typography: list[Brief] = []
    renamed: list[Brief] = []
    briefs = {Shown.REFERENCES_ONLY: references, Shown.TYPOGRAPHY_ONLY: typography, Shown.RENAMED: renamed}
    for ch in al.changes:
        shown = shown_as(ch)
        if shown is None or shown == Shown.RENUMBERED:
            continue
        if shown in briefs:
            ra, rb = al.old.rules[ch.old[0]], al.new.rules[ch.new[0]]
            twice = printed[1].get(ch.new[0], ""), printed[0].get(ch.old[0], "")
            briefs[shown].append(Brief(ids.claim(anchor(rb.number, rb.key)), _name(rb), _name(ra), "", *twice))
            continue
        e = _entry(al, ch, shown, ids, link, printed)
        if shown == Shown.ADDED:
            added.append((ch, e))
        else:
            changes.append(e)
    glossary = []
    for g in al.glossary:
        shown = glossary_shown(g)
        if shown == Shown.GLOSSARY:
            glossary.append(_glossary_note(al, g, ids, link))
        elif shown in briefs and g.new is not None:
            briefs[shown].append(Brief(ids.claim(glossary_anchor(g.new.term)), "", "", g.new.term))
    renumbering = shifts(al, printed)
    for r in renumbering:
        r.anchor = ids.claim(f"renumbered-{_slug(r.first_new)}")
        r.items = [(a, b, ids.claim(_number_id(b.partition(" (")[0]))) for a, b, _ in r.items]
    return Notes(
        old=version_info(al.old),
        new=version_info(al.new),
        summary=summary,
        headline=headline(summary),
        new_rules=_groups(al, added, ids),
        changes=changes,
        glossary=glossary,
        renumbering=renumbering,
        references_only=references,
        typography_only=typography,
        not_covered=summary[Kind.NOT_COVERED.value],
        inferred=sorted((t, n, c) for t, (n, c) in al.inferred.items()),
        ids=ids.used,
        renames=list(al.renames),
        renamed_only=renamed,
    )
