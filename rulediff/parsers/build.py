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
    # A plain slotted class: thousands are made per release, and a dataclass's default factories
    # would cost more than the rest of the node.
    __slots__ = ("number", "parts", "line", "examples", "title", "category", "notes", "anchor", "last_is_example")

    def __init__(
        self,
        number: RuleNumber | None,
        parts: list[str],
        line: int,
        *,
        title: str | None = None,
        category: str | None = None,
        anchor: str | None = None,
    ) -> None:
        self.number = number
        self.parts = parts
        self.line = line
        self.examples: list[list[str | int]] = []
        self.title = title
        self.category = category
        self.notes: list[str] = []
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
        self._seen: dict[RuleNumber, int] = {}

    @property
    def current(self) -> _Node | None:
        return self._nodes[-1] if self._nodes else None

    def warn(self, line: int, message: str, code: str = "quirk", *, quirk: str | None = None) -> None:
        self.warnings.append(ParseWarning(line, message, code, quirk=quirk))

    def rule(self, number: RuleNumber, text: str, line: int, *, anchor: str | None = None) -> None:
        # Duplicates, l/o letters and order are reported by rulediff.lint for every format.
        seen = self._seen.get(number, 0) + 1
        self._seen[number] = seen
        if seen > self.MAX_REPEATS:
            first = next(n.line for n in self._nodes if n.number == number)
            raise ParseError(
                f"rule {number} appears more than {self.MAX_REPEATS} times (first at line {first}): "
                "not a Comprehensive Rules document",
                source=self.source,
                line=line,
            )
        self._nodes.append(_Node(number, [text] if text else [], line, anchor=anchor))

    def unnumbered(
        self, title: str, text: str, line: int, *, category: str | None = None, anchor: str | None = None
    ) -> None:
        n = _Node(None, [text] if text else [], line, title=title, category=category, anchor=anchor)
        self._nodes.append(n)

    def example(self, text: str, line: int) -> None:
        node = self.current
        if node is None:
            self.warn(line, "example before any rule; dropped", "orphan")
            return
        node.examples.append([text, line])
        node.last_is_example = True

    def note(self, text: str) -> None:
        if self.current is not None:
            self.current.notes.append(text)

    def continuation(self, text: str, line: int, joiner: str = "\n") -> None:
        """A paragraph that belongs to whatever came last (the rule's text or its last example)."""
        node = self.current
        if node is None:
            self.warn(line, "text before the first rule; dropped", "orphan")
            return
        if node.last_is_example and node.examples:
            ex = node.examples[-1]
            ex[0] = f"{ex[0]}{joiner}{text}"
        elif node.parts:
            node.parts[-1] = f"{node.parts[-1]}{joiner}{text}"
        else:
            node.parts.append(text)

    def __len__(self) -> int:
        return len(self._nodes)

    def build(self) -> tuple[tuple[Rule, ...], tuple[ParseWarning, ...]]:
        rules: list[Rule] = []
        make, example = Rule.make, Example.make
        for n in self._nodes:
            parts = n.parts
            text = parts[0] if len(parts) == 1 else "\n".join(parts)
            title = n.title
            num = n.number
            if title is None and num is not None and not num.letters:
                level = num.level
                if level in (Level.SECTION, Level.HEADING) or (level == Level.RULE and looks_like_title(text)):
                    title = text.strip() or None
            rules.append(
                make(
                    num,
                    text,
                    n.line,
                    title=title,
                    examples=[example(str(t), int(ln)) for t, ln in n.examples] if n.examples else (),
                    category=n.category,
                    notes=n.notes,
                    anchor=n.anchor,
                )
            )
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
