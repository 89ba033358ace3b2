"""Lint a parsed Document: each finding names its line."""

# Lint a parsed Document: numbering gaps, duplicates, l/o letters, order, headings that define something else, other
# languages, empty rules and unknown characters. Each finding names its line.

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from collections.abc import Iterator

from ..model import Document, ParseWarning, Rule
from ..numbering import Level, RuleNumber, letter_index

# Common function words of languages other than English; a sentence made largely of them is not English.
_FOREIGN = frozenset(
    (
        "el la los las del de que se en por con para una uno unos sus es son pueden puede cuando como sólo solo "
        "también cartas carta permanentes criatura hechizo le les des du et est une dans pour avec sont ne pas qui "
        "au aux der die das und ist nicht mit von zu den dem ein eine il di che non per gli della sono"
    ).split()
)
_ENGLISH = frozenset(
    (
        "the a an of to and is are that this it its in on for with as be by or if can may any each you your their "
        "player players card cards creature spell ability"
    ).split()
)
_NOT_A_TERM = frozenset("if when whenever a an the each some any this that it its as while after before".split())
_WORD = re.compile(r"[^\W\d_]+(?:['\u2019][^\W\d_]+)?")
_SENTENCE = re.compile(r"[^.!?]+[.!?]?")
_MOJIBAKE = re.compile(r"\u00e2\u20ac|\u00c3[\u0080-\u00bf\u2018-\u203a]|\u00c2[\u00a0-\u00bf]")
# "can?t", "cards?even": a cp1252 apostrophe or dash lost in conversion. Not "default.asp?x=".
_LOSSY = re.compile(r"(?<!\.asp)(?<!\.aspx)(?<!\.php)(?<=[A-Za-z])\?(?=[A-Za-z])")
# "Flying is ...", "\u201cAffinity for [text]\u201d means ...", "To exert a permanent, ..."
_DEFINES = re.compile(
    r"^(?:\u201c|\")?(?P<term>[A-Z][\w'\u2019-]*(?: [\w'\u2019-]+){0,3}?)(?:\u201d|\")?"
    r"\s+(?:is|are|represents|appears|means)\b"
    r"|^To (?P<verb>[a-z]+)\b"
)
_ALLOWED_CONTROL = {"\n", "\t"}
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")
_FOREIGN_ONLY = _FOREIGN - _ENGLISH


# A junk file can produce a finding per line; past this many of one kind, one summary line stands in.
MAX_PER_CODE = 100


def lint(doc: Document) -> list[ParseWarning]:
    """All findings for ``doc``, ordered by line (at most MAX_PER_CODE of each kind, then a summary)."""
    out: list[ParseWarning] = []
    out.extend(_duplicates_letters_order(doc))
    out.extend(_gaps(doc))
    for r in doc.rules:
        out.extend(_text_checks(r))
    out.extend(_heading_mismatch(doc))
    out.extend(_run_together(doc))
    out.sort(key=lambda w: (w.line, w.code, w.message))
    return _capped(out)


def _capped(found: list[ParseWarning]) -> list[ParseWarning]:
    counts: dict[str, int] = {}
    kept: list[ParseWarning] = []
    for w in found:
        n = counts.get(w.code, 0) + 1
        counts[w.code] = n
        if n <= MAX_PER_CODE:
            kept.append(w)
    for code, n in sorted(counts.items()):
        if n > MAX_PER_CODE:
            last = max(w.line for w in kept if w.code == code)
            kept.append(ParseWarning(last, f"... and {n - MAX_PER_CODE} more '{code}' findings not shown", code))
    kept.sort(key=lambda w: (w.line, w.code, w.message))
    return kept


def _duplicates_letters_order(doc: Document) -> Iterator[ParseWarning]:
    first: dict[RuleNumber, int] = {}
    prev: Rule | None = None
    for r in doc.rules:
        n = r.number
        if n is None:
            continue
        if n in first:
            yield ParseWarning(r.line, f"duplicate rule number {n} (first at line {first[n]})", "duplicate")
        else:
            first[n] = r.line
        if not n.letters_valid:
            yield ParseWarning(r.line, f"rule {n} uses the letter 'l' or 'o', which the rules skip", "letters")
        if prev is not None and prev.number is not None and n < prev.number:
            yield ParseWarning(r.line, f"rule {n} comes after {prev.number} (line {prev.line}): out of order", "order")
        prev = r


def _gaps(doc: Document) -> Iterator[ParseWarning]:
    """Missing numbers between two siblings that are both present (2 after 702.14 is 702.16: 702.15 missing)."""
    by_parent: dict[RuleNumber | None, list[Rule]] = {}
    for r in doc.rules:
        if r.number is not None and r.number.level >= Level.RULE:
            by_parent.setdefault(r.number.parent, []).append(r)
    for parent, kids in by_parent.items():
        kids = sorted(kids, key=lambda r: r.number.sort_key if r.number else ())
        if parent is not None and parent in doc and kids and doc.coverage.covers(kids[0].number or parent):
            first = kids[0].number
            assert first is not None
            start_ok = (first.letters and letter_index_safe(first.letters) == 0) or (
                not first.letters and first.rule == 1
            )
            if not start_ok:
                yield ParseWarning(kids[0].line, f"{parent} starts at {first}: earlier numbers missing", "gap")
        for a, b in zip(kids, kids[1:], strict=False):
            na, nb = a.number, b.number
            assert na is not None and nb is not None
            if na.letters and nb.letters:
                ia, ib = letter_index_safe(na.letters), letter_index_safe(nb.letters)
                if ia >= 0 and ib > ia + 1:
                    yield ParseWarning(b.line, f"numbering gap: {na} is followed by {nb}", "gap")
            elif (
                not na.letters
                and not nb.letters
                and na.rule is not None
                and nb.rule is not None
                and nb.rule > na.rule + 1
                and _interval_holds_between(doc, na, nb)
            ):
                yield ParseWarning(b.line, f"numbering gap: {na} is followed by {nb}", "gap")


def letter_index_safe(letters: str) -> int:
    try:
        return letter_index(letters)
    except KeyError:
        return -1


def _interval_holds_between(doc: Document, a: RuleNumber, b: RuleNumber) -> bool:
    """For a string-ordered slice, the numbers between a and b may simply be outside the slice."""
    if doc.coverage.interval is None:
        return True
    return all(doc.coverage.covers(RuleNumber(a.section, a.heading, k)) for k in range((a.rule or 0) + 1, b.rule or 0))


def _text_checks(r: Rule) -> Iterator[ParseWarning]:
    who = str(r.number) if r.number is not None else repr(r.title)
    if not r.text.strip() and not r.examples:
        yield ParseWarning(r.line, f"{who} has no text", "empty")
    for text in (r.text, *(e.text for e in r.examples), *r.notes):
        bad = [] if text.isascii() and not _CONTROL.search(text) else sorted(c for c in set(text) if _unknown(c))
        if bad:
            names = ", ".join(f"U+{ord(c):04X}" for c in bad[:5])
            yield ParseWarning(r.line, f"{who} contains unexpected characters ({names})", "characters")
        moji = _MOJIBAKE.search(text)
        if moji:
            yield ParseWarning(r.line, f"{who} contains mis-decoded text (mojibake) near {moji[0]!r}", "characters")
        m = _LOSSY.search(text)
        if m:
            yield ParseWarning(
                r.line,
                f"{who}: '?' inside a word ({text[max(0, m.start() - 8) : m.end() + 8]!r}): a lossy conversion?",
                "characters",
            )
        maybe_foreign = len(_FOREIGN_ONLY.intersection(text.lower().split())) >= 3
        for sentence in _SENTENCE.findall(text) if maybe_foreign else ():
            if _foreign(sentence):
                yield ParseWarning(
                    r.line, f"{who} has a sentence not in English: {sentence.strip()[:60]!r}", "language"
                )


def _unknown(c: str) -> bool:
    if c in _ALLOWED_CONTROL:
        return False
    cat = unicodedata.category(c)
    return cat in ("Cc", "Co", "Cn", "Cs") or c == "\ufffd"


def _foreign(sentence: str) -> bool:
    words = [w.lower() for w in _WORD.findall(sentence)]
    if len(words) < 4:
        return False
    foreign = sum(1 for w in words if w in _FOREIGN)
    english = sum(1 for w in words if w in _ENGLISH)
    return foreign >= 3 and foreign > 2 * english


def _defined_term(text: str) -> str | None:
    m = _DEFINES.match(text.strip())
    if not m:
        return None
    term = (m["term"] or m["verb"] or "").strip()
    if not term or term.split()[0].lower() in _NOT_A_TERM:
        return None
    return term


def _heading_mismatch(doc: Document) -> Iterator[ParseWarning]:
    """A keyword heading whose paragraph defines another keyword (the 2017 page's "Impulse" defines Surge)."""
    for r in doc.rules:
        title = r.title
        if not title or (r.number is not None and r.number.level != Level.RULE):
            continue
        text = r.text if r.number is None else next((c.text for c in doc.children(r.number)), "")
        term = _defined_term(text)
        if term is None:
            continue
        # Same keyword when any word stem of one occurs in the other ("Phased Out" / "phase out").
        stems = {w[:4] for w in _WORD.findall(title.casefold()) if len(w) > 2}
        if any(w[:4] in stems for w in _WORD.findall(term.casefold())):
            continue
        yield ParseWarning(r.line, f"heading {title!r} but its text defines {term!r}", "heading")


_GLUE = ("the", "and")
_LETTERS_ONLY = re.compile(r"[A-Za-z]+")


def _run_together(doc: Document) -> Iterator[ParseWarning]:
    """Words glued together where a hyphen or space was lost in copying ("leaves-thebattlefield",
    "greenand-white"): a rare token that is "the"/"and" plus a word the document uses elsewhere."""
    texts = [t for r in doc.rules for t in (r.text, *(e.text for e in r.examples))]
    counts = Counter(_LETTERS_ONLY.findall("\n".join(texts).lower()))
    for w, n in sorted(counts.items()):
        if n > 2 or len(w) < 7 or not w.startswith(_GLUE) and not w.endswith(_GLUE):
            continue
        for glue in _GLUE:
            rest = w[len(glue) :] if w.startswith(glue) else w[: -len(glue)] if w.endswith(glue) else ""
            if len(rest) >= 3 and counts.get(rest, 0) >= 2:
                parts = (glue, rest) if w.startswith(glue) else (rest, glue)
                line = next(
                    (r.line for r in doc.rules for t in (r.text, *(e.text for e in r.examples)) if w in t.lower()), 0
                )
                yield ParseWarning(line, f"{w!r} looks like {parts[0]!r} and {parts[1]!r} run together", "joined-words")
                break
