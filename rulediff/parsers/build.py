"""TreeBuilder and document(): where every parser turns paragraphs into rules and a Document."""

# TreeBuilder and document(): the one place where parsers turn paragraphs into Rule nodes, and nodes into a
# Document.

from __future__ import annotations

import re
from collections.abc import Iterable
from datetime import date
from pathlib import PurePath
from typing import NoReturn

from ..coverage import Coverage
from ..errors import ParseError
from ..model import Document, GlossaryEntry, ParseWarning, Rule, VersionInfo, new_example, new_rule
from ..numbering import Level, RuleNumber
from .base import Source

_TERMINAL = re.compile(r"[.:;!?]['\"\u2019\u201d)]*$")


def looks_like_title(text: str) -> bool:
    """A headed rule's text ("Lifelink", "Bands with Other") rather than a sentence."""
    t = text.strip()
    if not t or len(t) > 80 or "\n" in t:
        return False
    if _TERMINAL.search(t) and not t.endswith("..."):
        return False
    first = t[0]
    return (first.isupper() or first.isdigit() or first in "\"'\u201c") and len(t.split()) <= 10


class TreeBuilder:
    """Collects nodes in document order; attaches examples and continuation paragraphs to the
    current node; records duplicates and ordering problems as warnings."""

    # A real release repeats a number at most twice (published duplicates); a file that repeats one
    # hundreds of times is not a release, and is refused before it costs time and memory.
    MAX_REPEATS = 50

    def __init__(self, source: str = "<input>") -> None:
        self.source = source
        self.warnings: list[ParseWarning] = []
        # The nodes as columns, one entry per node in document order: a release has thousands of
        # nodes, and four list appends cost a fraction of an object made (and walked by the garbage
        # collector) per node. A node's text is None until it has a paragraph (even an empty one).
        self._numbers: list[RuleNumber | None] = []
        self._texts: list[str | None] = []
        self._lines: list[int] = []
        self._anchors: list[str | None] = []
        # What few nodes have, by position: titles and categories (unnumbered nodes), examples as
        # [text, line] (a continuation extends the last one), notes.
        self._titles: dict[int, str] = {}
        self._categories: dict[int, str] = {}
        self._examples: dict[int, list[list[str | int]]] = {}
        self._notes: dict[int, list[str]] = {}
        # The node whose last paragraph was an example (a continuation then extends the example), or -1:
        # a position, so a node added after it needs no reset.
        self._example_at = -1
        # Continuations, gathered and joined once (build): a text grown by copying it at every line costs
        # the square of its length. By node, or by (node, example); with the length so far, checked against
        # MAX_TEXT as the text grows, so a hostile input is refused at the line that passes it.
        self._more: dict[int | tuple[int, int], list[str]] = {}
        self._length: dict[int | tuple[int, int], int] = {}
        # Repeats of each number, by its canonical spelling (str(number)): a string hashes at C speed,
        # a RuleNumber through the dataclass's Python __hash__.
        self._seen: dict[str, int] = {}

    def warn(self, line: int, message: str, code: str = "quirk", *, quirk: str | None = None) -> None:
        self.warnings.append(ParseWarning(line, message, code, quirk=quirk))

    def rule(self, number: RuleNumber, text: str, line: int, anchor: str | None = None, key: str | None = None) -> None:
        """A numbered node; ``key`` is ``str(number)`` when the caller has it at hand. (numbered.read_body adds a
        number seen for the first time to the columns itself, as this does: keep the two in step.)"""
        # Duplicates, l/o letters and order are reported by rulediff.parsers.lint for every format.
        if key is None:
            key = str(number)
        seen = self._seen.get(key, 0) + 1
        self._seen[key] = seen
        if seen > self.MAX_REPEATS:
            first = next(ln for n, ln in zip(self._numbers, self._lines, strict=True) if n == number)
            raise ParseError(
                f"rule {number} appears more than {self.MAX_REPEATS} times (first at line {first}): "
                "not a Comprehensive Rules document",
                source=self.source,
                line=line,
            )
        self._numbers.append(number)
        self._texts.append(text or None)
        self._lines.append(line)
        self._anchors.append(anchor)

    def columns(self) -> tuple[list[RuleNumber | None], list[str | None], list[int], list[str | None], dict[str, int]]:
        """The node columns and the repeat counts, for read_body's loop, which adds the plain numbered nodes
        of a release (thousands) itself, as ``rule`` would, and calls ``rule`` for a number seen before."""
        return self._numbers, self._texts, self._lines, self._anchors, self._seen

    def unnumbered(
        self, title: str, text: str, line: int, *, category: str | None = None, anchor: str | None = None
    ) -> None:
        at = len(self._numbers)
        self._numbers.append(None)
        self._texts.append(text or None)
        self._lines.append(line)
        self._anchors.append(anchor)
        self._titles[at] = title
        if category is not None:
            self._categories[at] = category

    def first_text(self, text: str) -> bool:
        """Make ``text`` the last node's text if it is a numbered node without one yet (not even an
        empty one); whether it was."""
        if not self._numbers or self._numbers[-1] is None or self._texts[-1] is not None:
            return False
        self._texts[-1] = text
        return True

    def example(self, text: str, line: int) -> None:
        if not self._numbers:
            self.warn(line, "example before any rule; dropped", "orphan")
            return
        at = len(self._numbers) - 1
        examples = self._examples.get(at)
        if examples is None:
            self._examples[at] = [[text, line]]
        else:
            examples.append([text, line])
        self._example_at = at

    def note(self, text: str) -> None:
        if self._numbers:
            self._notes.setdefault(len(self._numbers) - 1, []).append(text)

    def continuation(self, text: str, line: int, joiner: str = "\n") -> None:
        """A paragraph that belongs to whatever came last (the rule's text or its last example)."""
        if not self._numbers:
            self.warn(line, "text before the first rule; dropped", "orphan")
            return
        at = len(self._numbers) - 1
        if self._example_at == at:
            examples = self._examples[at]
            self._grow((at, len(examples) - 1), str(examples[-1][0]), joiner, text, line)
        elif (last := self._texts[-1]) is not None:
            self._grow(at, last, joiner, text, line)
        else:
            self._texts[-1] = text

    def _grow(self, key: int | tuple[int, int], first: str, joiner: str, text: str, line: int) -> None:
        more = self._more.get(key)
        if more is None:
            more = self._more[key] = []
            self._length[key] = len(first)
        more.append(joiner)
        more.append(text)
        length = self._length[key] = self._length[key] + len(joiner) + len(text)
        if length > MAX_TEXT:
            at = key if isinstance(key, int) else key[0]
            number = self._numbers[at]
            what = f"rule {number}" if number is not None else f"the entry {self._titles.get(at, '')!r}"
            if not isinstance(key, int):
                what = f"an example of {what}"
            raise ParseError(
                f"{what} is over {MAX_TEXT:,} characters long by here, and no rule of any release is over 4,000: "
                "not a Comprehensive Rules text (a missed heading or line break?)",
                source=self.source,
                line=line,
            )

    def _joined(self, key: int | tuple[int, int], first: str) -> str:
        more = self._more.get(key)
        return first if more is None else first + "".join(more)

    def __len__(self) -> int:
        return len(self._numbers)

    def build(self) -> tuple[tuple[Rule, ...], tuple[ParseWarning, ...]]:
        rules: list[Rule] = []
        make, example = new_rule, new_example
        titles, categories, all_examples, all_notes = self._titles, self._categories, self._examples, self._notes
        columns = zip(self._numbers, self._texts, self._lines, self._anchors, strict=True)
        add = rules.append
        more = self._more
        for at, (num, text, line, anchor) in enumerate(columns):
            if text is None:
                text = ""
            elif more and at in more:
                text = self._joined(at, text)
            title = titles.get(at) if titles else None
            # A section's or a heading's text is its title, and a rule's when it reads as one (not a
            # subrule's): told from the number's parts, which is what its level is made of.
            if title is None and num is not None and not num.letters and (num.rule is None or looks_like_title(text)):
                title = text.strip() or None
            found = all_examples.get(at)
            if found and more:
                found = [[self._joined((at, k), str(t)), ln] for k, (t, ln) in enumerate(found)]
            examples = tuple([example(str(t), int(ln), None) for t, ln in found]) if found else ()
            notes = tuple(all_notes.get(at, ())) if all_notes else ()
            category = categories.get(at) if categories else None
            add(make(num, text, line, title, examples, None, None, category, notes, anchor))
        return tuple(rules), tuple(self.warnings)


def partial_coverage(rules: tuple[Rule, ...], what: str) -> Coverage:
    """Coverage of a partial dump: the sections it has a section line for, otherwise the three-digit
    rules (headings) it has a heading line for, otherwise the headings its numbers fall under."""
    sections = sorted({r.number.section for r in rules if r.number is not None and r.number.level == Level.SECTION})
    if sections:
        desc = ", ".join(f"section {s}" for s in sections)
        return Coverage(sections=tuple(sections), description=f"{what}: {desc}")
    heads = sorted({r.number.heading for r in rules if r.number is not None and r.number.heading is not None})
    if not heads:
        return Coverage(description=f"{what}: no numbered rules")
    desc = f"rule {heads[0]}" if len(heads) == 1 else f"rules {heads[0]}-{heads[-1]}"
    return Coverage(headings=tuple(heads), description=f"{what}: {desc}")


def document(
    src: Source,
    fmt: str,
    rules: tuple[Rule, ...],
    *,
    coverage: Coverage,
    warnings: Iterable[ParseWarning] = (),
    label: str | None = None,
    effective: date | None = None,
    era: str | None = None,
    glossary: Iterable[GlossaryEntry] = (),
    introduction: str = "",
    credits: str = "",
    back_matter: Iterable[tuple[str, str]] = (),
) -> Document:
    """The Document every parser returns: its version names the source, the format and the sha256 of
    the bytes (computed once, on the prepared source); the label defaults to the file's stem. A rule,
    example or glossary entry longer than MAX_TEXT is refused (ParseError at its line)."""
    entries = tuple(glossary)
    _refuse_giant_texts(src, rules, entries)
    return Document(
        version=VersionInfo(label or PurePath(src.name).stem, effective, src.name, fmt, src.sha256, era=era),
        rules=rules,
        glossary=entries,
        coverage=coverage,
        warnings=tuple(warnings),
        introduction=introduction,
        credits=credits,
        back_matter=tuple(back_matter),
    )


# No rule is this long: the longest text of any release is 2,872 characters (205.3m, the creature types),
# the longest example 1,011 and the longest glossary entry 3,922 (2005-02-01's Creature Type), in all the
# documents the corpus, the seeds and the fixtures hold. A longer one is a heading or a break the reading
# missed, or hostile input; aligning it would cost time in proportion to the square of its length
# (comparing a text of 300 KB with another takes 2 s), so it is refused here.
MAX_TEXT = 64 * 1024


def _refuse_giant_texts(src: Source, rules: tuple[Rule, ...], glossary: tuple[GlossaryEntry, ...]) -> None:
    # (the common case in C-speed passes: no text near the limit)
    texts = [r.text for r in rules]
    texts += [e.text for r in rules if r.examples for e in r.examples]
    texts += [g.text for g in glossary]
    if max(map(len, texts), default=0) <= MAX_TEXT:
        return
    for r in rules:
        for what, text, line in (
            (r.named, r.text, r.line),
            *((f"an example of {r.named}", e.text, e.line) for e in r.examples),
        ):
            if len(text) > MAX_TEXT:
                _giant(src, what, text, line)
    for g in glossary:
        if len(g.text) > MAX_TEXT:
            _giant(src, f"the glossary entry {g.term!r}", g.text, g.line)


def _giant(src: Source, what: str, text: str, line: int) -> NoReturn:
    raise ParseError(
        f"{what} is {len(text):,} characters long, and no rule of any release is over 4,000: "
        "not a Comprehensive Rules text (a missed heading or line break?)",
        source=src.name,
        line=line,
    )
