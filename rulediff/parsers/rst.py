"""Parser for Sphinx reStructuredText dumps: underlined titles, `601.2` / `-----` rule headings, `a.` subrule
items, `.. admonition:: Example` blocks and inline `Example:` sentences, `|3|\\ |B|` mana substitutions."""

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
_RULE_TITLE = re.compile(r"^(?P<num>[1-9]\d{2}\.\d{1,3})\s*$")
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


def parse(src: Source) -> Document:
    source = src.name
    lines = src.lines
    b = TreeBuilder(source)
    pending_section: tuple[str, int] | None = None
    pending_heading: tuple[str, int] | None = None
    # Titles followed by another title before any rule: "General" over "Casting Spells" over "601.1" is
    # 600 General (a heading with no rules of its own), numbered back from the first rule after them.
    orphans: list[tuple[str, int]] = []
    current_rule: RuleNumber | None = None
    current_heading: int | None = None
    last_letters = ""
    example_indent: int | None = None  # indentation of the admonition whose body we are in
    example_open = False  # whether that admonition's example has begun
    para: list[str] = []
    para_line = 0

    def flush() -> None:
        nonlocal para, example_open
        if not para:
            return
        text = render_inline(" ".join(para))
        parts = _INLINE_EXAMPLE.split(text)
        if example_indent is not None:
            if example_open:
                b.continuation(text, para_line)
            else:
                # The admonition's title is the word the official text starts its examples with.
                b.example(f"Example: {text}", para_line)
                example_open = True
        elif b.first_text(parts[0]):
            for ex in parts[1:]:
                b.example(ex, para_line)
        else:
            b.continuation(parts[0], para_line)
            for ex in parts[1:]:
                b.example(ex, para_line)
        para = []

    i = 0
    n = len(lines)
    while i < n:
        raw = lines[i]
        s = raw.strip()
        nxt = lines[i + 1].strip() if i + 1 < n else ""
        indent = len(raw) - len(raw.lstrip())
        if not s:
            flush()
            i += 1
            continue
        # Overlined section title: ****** / Title / ******
        if _ADORNMENT.match(s) and i + 2 < n and _ADORNMENT.match(lines[i + 2].strip()) and lines[i + 1].strip():
            flush()
            example_indent = None
            pending_section = (lines[i + 1].strip(), i + 2)
            i += 3
            continue
        m = _RULE_TITLE.match(s)
        if m and _ADORNMENT.match(nxt):
            flush()
            example_indent = None
            num = RuleNumber.parse(m["num"])
            assert num.heading is not None
            if pending_section is not None:
                b.rule(RuleNumber(num.section), pending_section[0], pending_section[1])
                pending_section = None
            for k, (title, line) in enumerate(orphans):
                heading = num.heading - len(orphans) + k
                if heading // 100 == num.section and (current_heading is None or heading > current_heading):
                    b.warn(line, f"title {title!r} has no numbered rules under it; read as rule {heading}", "structure")
                    b.rule(RuleNumber(num.section, heading), title, line)
                    current_heading = heading
                else:
                    b.warn(line, f"title {title!r} has no numbered rules under it; dropped", "structure")
            orphans = []
            if pending_heading is not None or current_heading != num.heading:
                title, line = pending_heading if pending_heading is not None else ("", i + 1)
                if not title:
                    b.warn(i + 1, f"rule {num} has no title above it for rule {num.heading}", "structure")
                b.rule(RuleNumber(num.section, num.heading), title, line)
                pending_heading = None
                current_heading = num.heading
            b.rule(num, "", i + 1)
            current_rule, last_letters = num, ""
            i += 2
            continue
        # Any other underlined title is a three-digit rule's title ("Casting Spells" over "====").
        if _ADORNMENT.match(nxt) and not _ADORNMENT.match(s) and indent == 0:
            flush()
            example_indent = None
            if pending_heading is not None:
                orphans.append(pending_heading)
            pending_heading = (s, i + 1)
            i += 2
            continue
        d = _DIRECTIVE.match(raw)
        if d:
            flush()
            if d["name"] == "admonition" and d["arg"].strip().lower().startswith("example"):
                example_indent, example_open = len(d["indent"]), False
            else:
                example_indent = None
                b.warn(i + 1, f"directive '{d['name']}' dropped", "directive")
            i += 1
            continue
        if _TARGET.match(raw) or _COMMENT.match(raw):
            flush()
            i += 1
            continue
        item = _ITEM.match(raw)
        if item and current_rule is not None and _next_letters(last_letters, item["letters"]):
            flush()
            example_indent = None
            b.rule(current_rule.with_letters(item["letters"]), "", i + 1)
            last_letters = item["letters"]
            para, para_line = [item["text"]], i + 1
            i += 1
            continue
        if example_indent is not None and indent <= example_indent:
            example_indent = None
        if current_rule is None:
            b.warn(i + 1, "text before the first rule; dropped", "orphan")
            i += 1
            continue
        if not para:
            para_line = i + 1
        para.append(s)
        i += 1
    flush()
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
