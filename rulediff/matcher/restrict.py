"""Limit an alignment, or a document, to the rules under a few number prefixes (``--only 613``)."""

from __future__ import annotations

from dataclasses import replace

from ..errors import RulediffError
from ..model import Document, Rule
from ..numbering import RuleNumber
from .records import Alignment


def parse_prefixes(prefixes: tuple[str, ...] | list[str]) -> list[RuleNumber]:
    """The numbers named by ``--only`` (a section "6", a rule "613", a subrule "613.1a")."""
    out = []
    for p in prefixes:
        n = RuleNumber.try_parse(p.strip().rstrip("."))
        if n is None:
            raise RulediffError(f"--only {p!r}: expected a section, rule or subrule number such as 6, 613 or 613.1a")
        out.append(n)
    return out


def under(number: RuleNumber | None, prefixes: list[RuleNumber]) -> bool:
    """Is ``number`` one of ``prefixes`` or below one of them? By the number tree, not by string:
    "613.1" holds 613.1a but not 613.10."""
    if number is None:
        return False
    return any(p == number or p.is_ancestor_of(number) for p in prefixes)


def restrict(al: Alignment, prefixes: list[RuleNumber]) -> Alignment:
    """The alignment with only the changes that touch a rule under ``prefixes`` on either side; the
    glossary, having no numbers, is left out, and so are number-map entries and inferred numbers
    outside the prefixes."""

    def touches(doc: Document, idx: tuple[int, ...]) -> bool:
        return any(under(doc.rules[i].number, prefixes) for i in idx)

    changes = [ch for ch in al.changes if touches(al.old, ch.old) or touches(al.new, ch.new)]
    inferred = {t: v for t, v in al.inferred.items() if under(RuleNumber.try_parse(v[0]), prefixes)}

    def mapped(old: str, new: str | list[str]) -> bool:
        return any(
            under(RuleNumber.try_parse(n.split("#")[0]), prefixes)
            for n in [old, *([new] if isinstance(new, str) else new)]
        )

    number_map = {o: n for o, n in al.number_map.items() if mapped(o, n)}
    return replace(al, changes=changes, glossary=[], inferred=inferred, number_map=number_map)


def subtree(doc: Document, rule: Rule) -> list[tuple[int, Rule]]:
    """``rule`` and everything below it in document order, each with its depth below ``rule``."""
    out: list[tuple[int, Rule]] = []

    def walk(r: Rule, depth: int) -> None:
        out.append((depth, r))
        if r.number is not None:
            for child in doc.children(r.number):
                walk(child, depth + 1)

    walk(rule, 0)
    return out
