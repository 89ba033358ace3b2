"""Parser for Sphinx reStructuredText dumps."""

# Parser for Sphinx reStructuredText dumps: underlined titles, `601.2` / `-----` rule headings, `a.` subrule items,
# `.. admonition:: Example` blocks and inline `Example:` sentences, `|3|\ |B|` mana substitutions.

from __future__ import annotations

import re

from ..errors import ParseError
from ..model import Document
from ..numbering import RuleNumber, letter_index
from .base import Format, Source
from .build import TreeBuilder, document, partial_coverage

NAME = "sphinx-rst"
DESCRIPTION = (
    "Sphinx reStructuredText: '601.2' over '-----', 'a.' subrules, admonition examples (e.g. the 2011-14 seed)"
)

_ADORNMENT = re.compile(r"^([=\-*~^#+`'\".:_])\1{2,}\s*$")
_RULE_TITLE = re.compile(r"^(?P<num>[1-9][0-9]{2}\.[0-9]{1,3})\s*$")
_ITEM = re.compile(r"^(?P<indent>\s*)(?P<letters>[a-z]{1,2})\.\s+(?P<text>\S.*)$")
_DIRECTIVE = re.compile(r"^(?P<indent>\s*)\.\.\s+(?P<name>[\w-]+)::\s*(?P<arg>.*)$")
_TARGET = re.compile(r"^\s*\.\.\s+_[^:]+:\s*$|^\s*:\w+:\s*\S*\s*$|^\s*\.\.\s*$")
_COMMENT = re.compile(r"^\s*\.\.(?:\s|$)(?!.*::)")
_SUBST = re.compile(r"\|(?P<sym>[^|\s]{1,6})\|")
_ESCAPED_SPACE = re.compile(r"\\ ")
_REF_MANGLE = re.compile(r":ref:(?=[a-z])")
_INLINE_EXAMPLE = re.compile(r"(?<=[.)\"\u201d])\s+(?=Example:\s)")


def render_inline(text: str) -> str:
    """'|3|\\ |B|' -> '{3}{B}', ':ref:erred' -> 'referred' (a search-and-replace once turned every "ref"
    into the role marker), escaped spaces dropped."""
    s = _REF_MANGLE.sub("ref", text)
    s = _ESCAPED_SPACE.sub("", s)
    return _SUBST.sub(lambda m: "{" + m["sym"] + "}", s)


def sniff(src: Source) -> float:
    text = src.text_or_none
    if text is None:
        return 0.0
    head = text[:60000]
    rule_titles = len(re.findall(r"^[1-9]\d{2}\.\d{1,3}\n-{3,}\s*$", head, re.M))
    admonitions = head.count(".. admonition::")
    return 0.95 if rule_titles >= 2 or (rule_titles and admonitions) else 0.0


class _Reader:
    """One reading of an RST dump, line by line: the pending titles, the rule and letters under way, the
    admonition being read, and the paragraph being gathered."""

    def __init__(self, b: TreeBuilder) -> None:
        self.b = b
        self.pending_section: tuple[str, int] | None = None
        self.pending_heading: tuple[str, int] | None = None
        # Titles followed by another title before any rule: "General" over "Casting Spells" over "601.1" is
        # 600 General (a heading with no rules of its own), numbered back from the first rule after them.
        self.orphans: list[tuple[str, int]] = []
        self.current_rule: RuleNumber | None = None
        self.current_heading: int | None = None
        self.last_letters = ""
        self.example_indent: int | None = None  # indentation of the admonition whose body we are in
        self.example_open = False  # whether that admonition's example has begun
        self.para: list[str] = []
        self.para_line = 0

    def flush(self) -> None:
        if not self.para:
            return
        b = self.b
        text = render_inline(" ".join(self.para))
        parts = _INLINE_EXAMPLE.split(text)
        if self.example_indent is not None:
            if self.example_open:
                b.continuation(text, self.para_line)
            else:
                # The admonition's title is the word the official text starts its examples with.
                b.example(f"Example: {text}", self.para_line)
                self.example_open = True
        elif b.first_text(parts[0]):
            for ex in parts[1:]:
                b.example(ex, self.para_line)
        else:
            b.continuation(parts[0], self.para_line)
            for ex in parts[1:]:
                b.example(ex, self.para_line)
        self.para = []

    def rule_title(self, num: RuleNumber, line: int) -> None:
        """A rule's own title ("601.2" over "-----"): the section, headings and orphaned titles it closes."""
        b = self.b
        assert num.heading is not None
        if self.pending_section is not None:
            b.rule(RuleNumber(num.section), self.pending_section[0], self.pending_section[1])
            self.pending_section = None
        for k, (title, at) in enumerate(self.orphans):
            heading = num.heading - len(self.orphans) + k
            if heading // 100 == num.section and (self.current_heading is None or heading > self.current_heading):
                b.warn(at, f"title {title!r} has no numbered rules under it; read as rule {heading}", "structure")
                b.rule(RuleNumber(num.section, heading), title, at)
                self.current_heading = heading
            else:
                b.warn(at, f"title {title!r} has no numbered rules under it; dropped", "structure")
        self.orphans = []
        if self.pending_heading is not None or self.current_heading != num.heading:
            title, at = self.pending_heading if self.pending_heading is not None else ("", line)
            if not title:
                b.warn(line, f"rule {num} has no title above it for rule {num.heading}", "structure")
            b.rule(RuleNumber(num.section, num.heading), title, at)
            self.pending_heading = None
            self.current_heading = num.heading
        b.rule(num, "", line)
        self.current_rule, self.last_letters = num, ""

    def directive(self, d: re.Match[str], line: int) -> None:
        if d["name"] == "admonition" and d["arg"].strip().lower().startswith("example"):
            self.example_indent, self.example_open = len(d["indent"]), False
        else:
            self.example_indent = None
            self.b.warn(line, f"directive '{d['name']}' dropped", "directive")

    def text(self, s: str, indent: int, line: int) -> None:
        """A line of a paragraph (or of an admonition's example, while it is indented under it)."""
        if self.example_indent is not None and indent <= self.example_indent:
            self.example_indent = None
        if self.current_rule is None:
            self.b.warn(line, "text before the first rule; dropped", "orphan")
            return
        if not self.para:
            self.para_line = line
        self.para.append(s)

    def read(self, lines: list[str]) -> None:
        i, n = 0, len(lines)
        while i < n:
            i = self._line(lines, i, n)
        self.flush()

    def _line(self, lines: list[str], i: int, n: int) -> int:
        """Read the construct starting at line ``i``; the index of the line after it."""
        raw = lines[i]
        s = raw.strip()
        nxt = lines[i + 1].strip() if i + 1 < n else ""
        indent = len(raw) - len(raw.lstrip())
        if not s:
            self.flush()
            return i + 1
        # Overlined section title: ****** / Title / ******
        if _ADORNMENT.match(s) and i + 2 < n and _ADORNMENT.match(lines[i + 2].strip()) and lines[i + 1].strip():
            self.flush()
            self.example_indent = None
            self.pending_section = (lines[i + 1].strip(), i + 2)
            return i + 3
        m = _RULE_TITLE.match(s)
        if m and _ADORNMENT.match(nxt):
            self.flush()
            self.example_indent = None
            self.rule_title(RuleNumber.parse(m["num"]), i + 1)
            return i + 2
        # Any other underlined title is a three-digit rule's title ("Casting Spells" over "====").
        if _ADORNMENT.match(nxt) and not _ADORNMENT.match(s) and indent == 0:
            self.flush()
            self.example_indent = None
            if self.pending_heading is not None:
                self.orphans.append(self.pending_heading)
            self.pending_heading = (s, i + 1)
            return i + 2
        d = _DIRECTIVE.match(raw)
        if d:
            self.flush()
            self.directive(d, i + 1)
            return i + 1
        if _TARGET.match(raw) or _COMMENT.match(raw):
            self.flush()
            return i + 1
        item = _ITEM.match(raw)
        if item and self.current_rule is not None and _next_letters(self.last_letters, item["letters"]):
            self.flush()
            self.example_indent = None
            self.b.rule(self.current_rule.with_letters(item["letters"]), "", i + 1)
            self.last_letters = item["letters"]
            self.para, self.para_line = [item["text"]], i + 1
            return i + 1
        self.text(s, indent, i + 1)
        return i + 1


def parse(src: Source) -> Document:
    source = src.name
    lines = src.lines
    b = TreeBuilder(source)
    _Reader(b).read(lines)
    mangled = [k for k, ln in enumerate(lines) if _REF_MANGLE.search(ln)]
    if mangled:
        b.warn(
            mangled[0] + 1,
            f"':ref:' mangling on {len(mangled)} lines (':ref:erred'); repaired to 'ref' from here on",
            "mangling",
        )
    if not len(b):
        raise ParseError(
            "no rules found; expected rule titles like '601.2' underlined with '-----'", source=source, line=1
        )
    rules, warns = b.build()
    return document(src, NAME, rules, coverage=partial_coverage(rules, "reStructuredText dump"), warnings=warns)


def _next_letters(prev: str, cand: str) -> bool:
    """Is ``cand`` a plausible next subrule letter after ``prev`` (a, b, ... z, aa)? Stops prose like
    'e. g.' from becoming subrules."""
    try:
        c = letter_index(cand)
    except KeyError:
        return False
    if not prev:
        return c == 0
    return 0 < c - letter_index(prev) <= 2


FORMAT = Format(NAME, DESCRIPTION, sniff, parse)
