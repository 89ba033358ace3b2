"""Cross-references in rule text (rule 702.15, rules 601.2b-h, section 7), and whether rewritten ones follow."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from .numbering import RuleNumber, letter_range

_DASH = "\u2013\u2014\u2012-"
_NUM = r"[1-9][0-9]{2}(?:\.[0-9]{1,3}[a-z]{0,2})?"
# A dotted number anywhere is a reference; a bare three-digit one only after "rule(s)".
_DOTTED = r"[1-9][0-9]{2}\.[0-9]{1,3}[a-z]{0,2}"
_RANGE_TAIL = rf"(?:\s?[{_DASH}]\s?(?:{_NUM}|[0-9]{{1,3}}[a-z]{{0,2}}|[a-z]{{1,2}})(?![\w.]\w))?"
_REF_RE = re.compile(
    rf"(?P<lead>\b(?:[Rr]ules?|[Ss]ections?)\s+)?"
    rf"(?P<first>(?(lead){_NUM}|{_DOTTED}))(?![0-9])(?P<tail>{_RANGE_TAIL})"
)
_SECTION_RE = re.compile(r"\b[Ss]ections?\s+(?P<n>[1-9])\b(?![.,]\d)")
_LIST_CONT_RE = re.compile(rf"(?:,\s*(?:and\s+|or\s+)?|\s+(?:and|or|through)\s+)(?P<n>{_NUM})(?P<tail>{_RANGE_TAIL})")
# ... and the next of a list whose numbers name their titles: "rules 701.42, "Meld," and 729, "Merging with
# Permanents."" (2025-09-19 on): a reference of its own, after the title (which is words of the text, not masked).
_NAMED_CONT_RE = re.compile(
    rf",\s*[\"\u201c][^\"\u201c\u201d]{{3,80}}?[\"\u201d],?\s+(?:and\s+|or\s+)?(?P<n>{_NUM})(?P<tail>{_RANGE_TAIL})"
)


@dataclass(frozen=True, slots=True)
class Reference:
    """One cross-reference in rule text: where it is and every number it names (ranges expanded)."""

    start: int
    end: int
    text: str
    targets: tuple[RuleNumber, ...]


def _expand(first: RuleNumber, tail: str) -> tuple[RuleNumber, ...]:
    tail = tail.strip().lstrip(_DASH).strip()
    if not tail:
        return (first,)
    last = RuleNumber.try_parse(tail)
    if last is not None and last.heading is not None:
        # Full number: "601.2b-601.2h" or "702.2-702.5".
        if last.heading == first.heading and last.rule is not None and first.rule is not None:
            if last.letters and first.letters and last.rule == first.rule:
                return tuple(first.with_letters(x) for x in letter_range(first.letters, last.letters)) or (first, last)
            if not last.letters and not first.letters and first.rule <= last.rule:
                return tuple(RuleNumber(first.section, first.heading, r) for r in range(first.rule, last.rule + 1))
        return (first, last)
    if tail.isdigit() and first.rule is not None and not first.letters:
        # "119.9-10"
        hi = int(tail)
        if first.rule <= hi <= first.rule + 60:
            return tuple(RuleNumber(first.section, first.heading, r) for r in range(first.rule, hi + 1))
        return (first,)
    if tail.isdigit() and first.rule is None and first.heading is not None:
        hi = int(tail)
        if first.heading <= hi <= first.heading + 60:
            return tuple(RuleNumber(h // 100, h) for h in range(first.heading, hi + 1))
        return (first,)
    if tail.isalpha() and first.letters:
        # "601.2b-h"
        return tuple(first.with_letters(x) for x in letter_range(first.letters, tail)) or (first,)
    return (first,)


def find_references(text: str) -> list[Reference]:
    """All cross-references in ``text``, with ranges and lists expanded.

    Handles "rule 702.15", "rules 601.2b–h", "601.2f-h", "rules 119.9–10", "rules 702.15 and
    702.16", "section 7", and bare dotted numbers ("see 613.1d").
    """
    return list(_references(text))


_ANY_DIGIT = re.compile(r"[1-9]")


def _has_digit(text: str) -> bool:
    """``_ANY_DIGIT.search(text)`` found one: nine C-speed looks for a character, where the character class is tried
    at every position (most rule texts hold no reference, and were read through to their end)."""
    return (
        "1" in text
        or "2" in text
        or "3" in text
        or "4" in text
        or "5" in text
        or "6" in text
        or "7" in text
        or "8" in text
        or "9" in text
    )


# The words a lead-in reads ([Rr]ules?|[Ss]ections?), no two ending alike, and the most letters one has.
_LEADS = ("rule", "rules", "Rule", "Rules", "section", "sections", "Section", "Sections")
_LEAD_LONGEST = 8


# Where a number the grammar reads can start: three digits not followed by a fourth (it reads no longer run,
# and a dotted number has its dot there), so a run of digits holds one candidate at most.
_NUMBER_START = re.compile(r"[1-9][0-9][0-9](?![0-9])")


def _search_reference(text: str, pos: int) -> re.Match[str] | None:
    """``_REF_RE.search(text, pos)``, with the grammar tried only where a match can start. Every number it
    reads starts with three digits not followed by a fourth (_NUMBER_START, found at C speed), and a match
    starts either there or at its lead-in: "rule(s)" or "section(s)" right before the run of spaces that
    ends at those digits (a lead-in holds no digit, so no other number is between). The regex's own scan
    tries its whole pattern at every position of the text, which made the grammar most of the cost of
    reading references. Each stretch of text is read a bounded number of times: linear, like the scan."""
    while True:
        d = _NUMBER_START.search(text, pos)
        if d is None:
            return None
        at = d.start()
        k = pos + len(text[pos:at].rstrip())  # where the spaces before the digits start (str.isspace is \s)
        if k < at:  # spaces before the digits: a lead-in may end where they start
            # ... and only there: one of its words ending at k (no two of them end alike), which can start no
            # other match before the digits (one reading a number there would start at an earlier number).
            lo = max(pos, k - _LEAD_LONGEST)
            for lead in _LEADS:
                if text.endswith(lead, lo, k):
                    m = _REF_RE.match(text, k - len(lead))
                    if m is not None:
                        return m
                    break
        m = _REF_RE.match(text, at)
        if m is not None:
            return m
        pos = at + 1


@lru_cache(maxsize=1 << 15)
def _references(text: str) -> tuple[Reference, ...]:
    # One grammar run per distinct text: matching, natures, muting and reports all ask about the same
    # texts, and most repeat unchanged from release to release. Every reference holds a digit 1-9.
    if not _has_digit(text):
        return ()
    refs: list[Reference] = []
    pos = 0
    while True:
        m = _search_reference(text, pos)
        if not m:
            break
        first = RuleNumber.try_parse(m.group("first"))
        end = m.end()
        if first is None:
            pos = m.end()
            continue
        start = m.start("first")
        targets = list(_expand(first, m.group("tail")))
        if m.group("lead"):
            # A list after "rules": "rules 702.15, 702.16, and 702.17" (a reference), or whose numbers name their
            # titles (a reference each).
            while True:
                c = _LIST_CONT_RE.match(text, end)
                named = c is None and (c := _NAMED_CONT_RE.match(text, end)) is not None
                if c is None or (n := RuleNumber.try_parse(c.group("n"))) is None:
                    break
                if named:
                    refs.append(Reference(start, end, text[start:end], tuple(targets)))
                    start, targets = c.start("n"), []
                targets.extend(_expand(n, c.group("tail")))
                end = c.end()
        refs.append(Reference(start, end, text[start:end], tuple(targets)))
        pos = end
    if "ection" not in text:
        return tuple(refs)
    seen = {(r.start, r.end) for r in refs}
    for m in _SECTION_RE.finditer(text):
        s, e = m.start("n"), m.end("n")
        if not any(a <= s < b for a, b in seen):
            refs.append(Reference(s, e, text[s:e], (RuleNumber(int(m.group("n"))),)))
    refs.sort(key=lambda r: r.start)
    return tuple(refs)


def references_follow(old: str, new: str, number_map: dict[str, str | list[str]]) -> bool:
    """Every cross-reference in ``new`` is what the matching one in ``old`` became under ``number_map``
    (old number -> new number, or the list a split became); a number the map does not know stays put."""
    ra, rb = find_references(old), find_references(new)
    if len(ra) != len(rb):
        return False
    for x, y in zip(ra, rb, strict=True):
        if len(x.targets) == len(y.targets):
            if not all(_maps_to(ta, tb, number_map) for ta, tb in zip(x.targets, y.targets, strict=True)) and not (
                _same_named_target(old, x, new, y)
            ):
                return False
        elif not (
            # A range whose ends follow the map follows it, whatever came in or went out between its
            # ends ("601.2a-g" -> "601.2a-h" when a subrule was inserted before g).
            _is_range(x)
            and _is_range(y)
            and _maps_to(x.targets[0], y.targets[0], number_map)
            and _maps_to(x.targets[-1], y.targets[-1], number_map)
        ):
            return False
    return True


# A reference that names its target: 'rule 728, "Day and Night"' (after normalize, quotes are straight).
_NAMED = re.compile(r'\s*,\s*"([^"]{3,80}?)[.,]?"')


def _same_named_target(old: str, x: Reference, new: str, y: Reference) -> bool:
    """Both references name the same rule by its title: only the number beside the title changed. The
    number caught up with a renumbering of that heading made in an earlier release (2024-09-20
    corrected "rule 727, "Day and Night"" to 728, which Day and Night had been since 2024-07-30)."""
    ma, mb = _NAMED.match(old, x.end), _NAMED.match(new, y.end)
    return ma is not None and mb is not None and ma.group(1) == mb.group(1)


def _maps_to(a: RuleNumber, b: RuleNumber, number_map: dict[str, str | list[str]]) -> bool:
    mapped = number_map.get(str(a), str(a))
    return str(b) in (mapped if isinstance(mapped, list) else [mapped]) or _gathered_in(str(a), str(b), number_map)


def _gathered_in(a: str, b: str, number_map: dict[str, str | list[str]]) -> bool:
    """``a`` and every rule under it went under ``b``, which holds nothing else (but what an ancestor of ``a`` became,
    as the heading a section split off): 2019-07-12's 200.3 "See rule 110.5" -> "See rule 111", where 110.5
    (Tokens) became 111.1 and its subrules 111.2-111.8, and 111 came out of 110. (A reference to a rule with
    subrules rewritten to name its parent names more than it did: "See rule 807.5" -> "See rule 807".)"""
    to = number_map.get(a)
    if to is None or not all(_under(x, b) for x in (to if isinstance(to, list) else [to])):
        return False  # (most references that do not follow the map stop here: the scan below is of every number)
    under = False
    for k, v in number_map.items():
        mine = k == a or _under(k, a)
        there = [x == b or _under(x, b) for x in (v if isinstance(v, list) else [v])]
        if mine and not all(there):
            return False  # (a rule under it went elsewhere)
        if any(there) and not mine and not _under(a, k):
            return False  # (b holds another rule besides, or another rule became b: b is not where a went)
        under |= k != a and mine
    return under


def _under(x: str, top: str) -> bool:
    """Rule number ``x`` is a descendant of ``top`` ("111.2" of "111", "702.15b" of "702.15")."""
    if len(x) <= len(top) or not x.startswith(top):
        return False
    # (a letter after a rule's number is its subrule: "702.15b" of "702.15"; after a subrule's letter it is another
    # subrule, "704.5aa" beside "704.5a")
    return x[len(top)] == "." or (x[len(top)].isalpha() and "." in top and top[-1].isdigit())


def _is_range(ref: Reference) -> bool:
    return len(ref.targets) > 1 and any(c in ref.text for c in _DASH) and not any(c in ref.text for c in ",&")
