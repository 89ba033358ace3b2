"""TreeBuilder: the one place where parsers turn numbered paragraphs into Rule nodes and warnings."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from ..errors import ParseError
from ..model import Coverage, Example, ParseWarning, Rule
from ..numbering import Level, RuleNumber

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


@dataclass(slots=True)
class _Node:
    number: RuleNumber | None
    parts: list[str]
    line: int
    examples: list[list[str | int]] = field(default_factory=list)
    title: str | None = None
    category: str | None = None
    notes: list[str] = field(default_factory=list)
    anchor: str | None = None
    last_is_example: bool = False


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
        self._seen: dict[RuleNumber, list[int]] = {}

    @property
    def current(self) -> _Node | None:
        return self._nodes[-1] if self._nodes else None

    def warn(self, line: int, message: str, code: str = "quirk") -> None:
        self.warnings.append(ParseWarning(line, message, code))

    def rule(self, number: RuleNumber, text: str, line: int, *, anchor: str | None = None) -> None:
        # Duplicates, l/o letters and order are reported by rulediff.lint for every format.
        seen = self._seen.setdefault(number, [0, line])
        seen[0] += 1
        if seen[0] > self.MAX_REPEATS:
            raise ParseError(
                f"rule {number} appears more than {self.MAX_REPEATS} times (first at line {seen[1]}): "
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
        for n in self._nodes:
            text = "\n".join(n.parts)
            title = n.title
            if title is None and n.number is not None:
                level = n.number.level
                if level in (Level.SECTION, Level.HEADING) or (level == Level.RULE and looks_like_title(text)):
                    title = text.strip() or None
            rules.append(
                Rule.make(
                    n.number,
                    text,
                    n.line,
                    title=title,
                    examples=(Example.make(str(t), int(ln)) for t, ln in n.examples),
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
