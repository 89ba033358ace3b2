"""One release's whole rules as HTML: contents, every rule with its anchors, the glossary."""

# One release's whole rules as the pages of cr/<slug>/ show them: every numbered rule an element with Yawgatog's id
# (R70215a) and ours on its number (r702.15a), a number printed twice suffixed -2; references link to the rules
# they name in this release, a glossary term's first naming in a rule links to its entry, and every rule's number
# leads to its history through the release's history.html. One page per section, the glossary on its own.

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from .reader_text import Cut, Filler, Terms, esc, term_key

GLOSSARY_PAGE = "glossary.html"
INDEX_PAGE = "index.html"
UNNUMBERED_PAGE = "unnumbered.html"  # a source's rules before its first number (a keyword page has no numbers)


def yawgatog_id(number: str) -> str:
    """Yawgatog's anchor of a rule number: "702.15a" -> "R70215a"."""
    return "R" + number.replace(".", "")


def section_page(number: str) -> str:
    return f"{number[0]}.html"


def level(number: str) -> int:
    """0 a section ("7"), 1 a heading ("702"), 2 a rule ("702.15"), 3 a subrule ("702.15a")."""
    if "." not in number:
        return 0 if len(number) == 1 else 1
    return 3 if number[-1].isalpha() else 2


def _printed(number: str) -> str:
    """A number as the rules print it: "702.15." but "702.15a"."""
    return number if number[-1].isalpha() else number + "."


# (number or None, title or None, text, example texts) of one rule, in the order the release prints them
RuleRow = tuple[str | None, str | None, str, list[str]]


@dataclass(slots=True)
class Release:
    """What a release's pages show."""

    rules: list[RuleRow]
    glossary: list[tuple[str, str]]  # (term, text)
    introduction: str = ""
    credits: str = ""
    partial: str | None = None  # what a partial dump covers; None for the whole rules


def glossary_ids(glossary: list[tuple[str, str]]) -> dict[str, str]:
    """Entry key -> the id of its entry on the glossary page (the term spelled for an address)."""
    out: dict[str, str] = {}
    used: set[str] = {"credits"}  # the glossary page's other part
    for term, _ in glossary:
        key = term_key(term)
        if key in out:
            continue
        base = re.sub(r"[^a-z0-9]+", "-", key).strip("-") or "term"
        ident, n = base, 2
        while ident in used:
            ident, n = f"{base}-{n}", n + 1
        used.add(ident)
        out[key] = ident
    return out


def rule_ids(rules: list[tuple[str | None, str | None]]) -> list[str]:
    """Each rule's id, in order, from its (number, title): Yawgatog's for a number, and -2, -3 for a number
    printed again; "u-" and its title spelled for an address for a rule with no number (a keyword page's)."""
    seen: dict[str, int] = {}
    out = []
    for number, title in rules:
        base = (
            yawgatog_id(number)
            if number
            else "u-" + (re.sub(r"[^a-z0-9]+", "-", (title or "").lower()).strip("-") or "rule")
        )
        k = seen[base] = seen.get(base, 0) + 1
        out.append(base + (f"-{k}" if k > 1 else ""))
    return out


@dataclass(slots=True)
class Body:
    """A release's pages (file name -> their HTML) and its contents."""

    pages: dict[str, str] = field(default_factory=dict)
    contents: list[tuple[str, str, str]] = field(default_factory=list)  # (page, number, title) of sections, headings


class Renderer:
    """Renders releases one after another, each rule's HTML kept for the next release while nothing it links
    to moved (most of a release prints its rules as the one before did)."""

    def __init__(self, terms: Terms) -> None:
        self.terms = terms
        self.kept: dict[tuple[object, ...], tuple[str, frozenset[str]]] = {}
        self.anchors: dict[str, tuple[str, str]] = {}
        self.gloss: dict[str, str] = {}

    def state(self) -> dict[str, Any]:
        """What ``restore`` takes: the last release rendered, for the next build to render the next one from."""
        kept = [[*key, html, sorted(deps)] for key, (html, deps) in self.kept.items()]
        return {"anchors": self.anchors, "gloss": self.gloss, "kept": kept}

    def restore(self, state: Any) -> None:
        """Go on from the ``state`` an earlier build kept (anything that does not read as one is ignored: the
        rules are then rendered afresh, to the same HTML)."""
        try:
            anchors = {str(n): (str(p), str(i)) for n, (p, i) in state["anchors"].items()}
            gloss = {str(k): str(v) for k, v in state["gloss"].items()}
            kept = {tuple(e[:-2]): (str(e[-2]), frozenset(map(str, e[-1]))) for e in state["kept"]}
        except (TypeError, KeyError, ValueError, AttributeError, IndexError):
            return
        self.anchors, self.gloss, self.kept = anchors, gloss, kept

    def render(self, rel: Release) -> Body:
        """Every page's HTML of ``rel`` but the index (see the module's comment)."""
        ids = rule_ids([(n, title) for n, title, _, _ in rel.rules])
        anchors = {
            n: (section_page(n), i) for (n, _, _, _), i in zip(rel.rules, ids, strict=True) if n and "-" not in i
        }
        gloss = glossary_ids(rel.glossary)
        moved = {n for n in anchors.keys() | self.anchors.keys() if anchors.get(n) != self.anchors.get(n)}
        moved |= {"g:" + k for k in gloss.keys() | self.gloss.keys() if gloss.get(k) != self.gloss.get(k)}
        before, self.kept = self.kept, {}
        self.anchors, self.gloss = anchors, gloss
        body = Body()
        chunks: dict[str, list[str]] = {}
        page = UNNUMBERED_PAGE
        fillers: dict[str, Filler] = {}
        for row, ident in zip(rel.rules, ids, strict=True):
            number = row[0]
            if number:
                page = section_page(number)
                if level(number) <= 1:
                    body.contents.append((page, number, row[2]))
            key = (ident, *row[:3], *row[3])
            got = before.get(key)
            if got is None or not got[1].isdisjoint(moved):
                f = fillers.get(page)
                if f is None:
                    f = fillers[page] = Filler(anchors, gloss, page, GLOSSARY_PAGE)
                got = self._node(row, ident, f)
            self.kept[key] = got
            chunks.setdefault(page, []).append(got[0])
        for name, parts in chunks.items():
            body.pages[name] = "".join(parts)
        body.pages[GLOSSARY_PAGE] = self._glossary(rel, gloss)
        return body

    def _node(self, row: RuleRow, ident: str, f: Filler) -> tuple[str, frozenset[str]]:
        """A rule's HTML and what it links to (rule numbers, glossary keys as "g:KEY")."""
        number, title, text, examples = row
        cut = self.terms.cut
        cuts = [cut(e, False) for e in examples]
        shown = "".join(f'<p class="ex">{f.fill(c)}</p>\n' for c in cuts)
        if not number:
            cuts.append(cut(text, False))
            name = esc(title) if title and title != text else "&#8635;"
            head = f'<a class="n" href="history.html#{ident}"><b>{name}</b></a> '
            return f'<p id="{ident}" class="u">{head}{f.fill(cuts[-1])}</p>\n' + shown, _deps(cuts)
        ours = "r" + number + ident[len(yawgatog_id(number)) :]  # and its -2 when printed twice
        num = f'<a id="{ours}" href="history.html#{ident}">{_printed(number)}</a>'
        depth = level(number)
        if depth <= 1:
            tag = "h2" if depth == 0 else "h3"
            return f'<{tag} id="{ident}">{num} {esc(text)}</{tag}>\n', frozenset()
        cuts.append(cut(text, title is None))
        cls = "t" if title is not None else ("s" if depth == 3 else "r")
        return f'<p id="{ident}" class="{cls}">{num} {f.fill(cuts[-1], set())}</p>\n' + shown, _deps(cuts)

    def _glossary(self, rel: Release, gloss: dict[str, str]) -> str:
        f = Filler(self.anchors, gloss, GLOSSARY_PAGE, GLOSSARY_PAGE)
        out = ['<dl class="glossary">\n']
        done: set[str] = set()
        for term, text in rel.glossary:
            ident = gloss[term_key(term)]
            attr = "" if ident in done else f' id="{ident}"'
            done.add(ident)
            lines = "<br>".join(f.fill(self.terms.cut(line, False)) for line in text.split("\n"))
            out.append(f"<dt{attr}>{esc(term)}</dt><dd>{lines}</dd>\n")
        out.append("</dl>\n")
        return "".join(out)


def _deps(cuts: list[Cut]) -> frozenset[str]:
    out: set[str] = set()
    for _, holes in cuts:
        for kind, _, _, what in holes:
            if kind == "r":
                out.update(what)
            else:
                out.update("g:" + k for _, keys in what for k in keys)
    return frozenset(out)
