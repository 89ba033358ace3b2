"""TreeBuilder and document(): the one place where parsers turn paragraphs into Rule nodes, and nodes
into a Document."""

from __future__ import annotations

import re
from collections.abc import Iterable
from datetime import date
from pathlib import PurePath

from ..errors import ParseError
from ..model import Coverage, Document, Example, GlossaryEntry, ParseWarning, Rule, VersionInfo
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


class _Node:
    # A plain slotted class: thousands are made per release. What most nodes never get (an example,
    # a note, a continuation) stays None until they do: every list made per node is one more object
    # for the garbage collector to walk.
    __slots__ = ("number", "text", "line", "examples", "title", "category", "notes", "anchor", "last_is_example")

    def __init__(
        self,
        number: RuleNumber | None,
        text: str | None,
        line: int,
        title: str | None = None,
        category: str | None = None,
        anchor: str | None = None,
    ) -> None:
        self.number = number
        self.text = text  # None until the node has a paragraph (even an empty one)
        self.line = line
        self.examples: list[list[str | int]] | None = None
        self.title = title
        self.category = category
        self.notes: list[str] | None = None
        self.anchor = anchor
        self.last_is_example = False


class TreeBuilder:
    """Collects nodes in document order; attaches examples and continuation paragraphs to the
    current node; records duplicates and ordering problems as warnings."""

    # A real release repeats a number at most twice (published duplicates); a file that repeats one
    # hundreds of times is not a release, and is refused before it costs time and memory.
    MAX_REPEATS = 50

    def __init__(self, source: str = "<input>") -> None:
        self.source = source
        self._nodes: list[_Node] = []
        self.warnings: list[ParseWarning] = []
        # Repeats of each number, by its canonical spelling (str(number)): a string hashes at C speed,
        # a RuleNumber through the dataclass's Python __hash__.
        self._seen: dict[str, int] = {}

    @property
    def current(self) -> _Node | None:
        return self._nodes[-1] if self._nodes else None

    def warn(self, line: int, message: str, code: str = "quirk", *, quirk: str | None = None) -> None:
        self.warnings.append(ParseWarning(line, message, code, quirk=quirk))

    def rule(self, number: RuleNumber, text: str, line: int, anchor: str | None = None, key: str | None = None) -> None:
        """A numbered node; ``key`` is ``str(number)`` when the caller has it at hand."""
        # Duplicates, l/o letters and order are reported by rulediff.lint for every format.
        if key is None:
            key = str(number)
        seen = self._seen.get(key, 0) + 1
        self._seen[key] = seen
        if seen > self.MAX_REPEATS:
            first = next(n.line for n in self._nodes if n.number == number)
            raise ParseError(
                f"rule {number} appears more than {self.MAX_REPEATS} times (first at line {first}): "
                "not a Comprehensive Rules document",
                source=self.source,
                line=line,
            )
        self._nodes.append(_Node(number, text or None, line, None, None, anchor))

    def unnumbered(
        self, title: str, text: str, line: int, *, category: str | None = None, anchor: str | None = None
    ) -> None:
        self._nodes.append(_Node(None, text or None, line, title, category, anchor))

    def example(self, text: str, line: int) -> None:
        node = self.current
        if node is None:
            self.warn(line, "example before any rule; dropped", "orphan")
            return
        if node.examples is None:
            node.examples = [[text, line]]
        else:
            node.examples.append([text, line])
        node.last_is_example = True

    def note(self, text: str) -> None:
        node = self.current
        if node is not None:
            if node.notes is None:
                node.notes = [text]
            else:
                node.notes.append(text)

    def continuation(self, text: str, line: int, joiner: str = "\n") -> None:
        """A paragraph that belongs to whatever came last (the rule's text or its last example)."""
        node = self.current
        if node is None:
            self.warn(line, "text before the first rule; dropped", "orphan")
            return
        if node.last_is_example and node.examples:
            ex = node.examples[-1]
            ex[0] = f"{ex[0]}{joiner}{text}"
        elif node.text is not None:
            node.text = f"{node.text}{joiner}{text}"
        else:
            node.text = text

    def __len__(self) -> int:
        return len(self._nodes)

    def build(self) -> tuple[tuple[Rule, ...], tuple[ParseWarning, ...]]:
        rules: list[Rule] = []
        make, example = Rule.make, Example.make
        for n in self._nodes:
            text = n.text or ""
            title = n.title
            num = n.number
            # A section's or a heading's text is its title, and a rule's when it reads as one (not a
            # subrule's): told from the number's parts, which is what its level is made of.
            if title is None and num is not None and not num.letters and (num.rule is None or looks_like_title(text)):
                title = text.strip() or None
            examples = tuple([example(str(t), int(ln)) for t, ln in n.examples]) if n.examples else ()
            notes = tuple(n.notes) if n.notes else ()
            rules.append(make(num, text, n.line, title, examples, n.category, notes, n.anchor))
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
    the bytes (computed once, on the prepared source); the label defaults to the file's stem."""
    return Document(
        version=VersionInfo(label or PurePath(src.name).stem, effective, src.name, fmt, src.sha256, era=era),
        rules=rules,
        glossary=tuple(glossary),
        coverage=coverage,
        warnings=tuple(warnings),
        introduction=introduction,
        credits=credits,
        back_matter=tuple(back_matter),
    )
