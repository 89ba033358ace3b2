"""Rule text as the whole-rules pages show it: escaped, with holes where references and glossary terms link."""

# Rule text as the whole-rules pages (cr/<slug>/) show it. A text is cut once into escaped runs and holes -- a
# reference, with the numbers it names; a glossary term, with the entries it may name -- and every release that
# prints the same text fills the same holes with its own anchors (136 releases print some 13,000 distinct texts).

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import lru_cache
from typing import Any

from ..references import find_references

# A text cut once: the text, then its holes in order of where they start -- ("r", start, end, the rule numbers a
# reference names: the first the release prints wins) and ("g", start, 0, the glossary terms that may start
# there, longest first, each (end, the keys of the entries it names)). Terms may overlap one another (a release
# links the longest its own glossary defines), never a reference.
Hole = tuple[str, int, int, tuple[Any, ...]]
Cut = tuple[str, tuple[Hole, ...]]


def esc(text: str) -> str:
    """``text`` escaped for an HTML element's content or a quoted attribute."""
    if "&" in text:
        text = text.replace("&", "&amp;")
    if "<" in text:
        text = text.replace("<", "&lt;")
    if ">" in text:
        text = text.replace(">", "&gt;")
    if '"' in text:
        text = text.replace('"', "&quot;")
    return text


_PAREN = re.compile(r"\s*\((?:Obsolete|Informal|[^()]*)\)\s*$")
OBSOLETE = re.compile(r"\(obsolete\)\s*$", re.IGNORECASE)
_QUOTES = str.maketrans("", "", '"\u201c\u201d')


def term_key(term: str) -> str:
    """What names a glossary entry from release to release: its term as printed, folded to lower case, with
    the curly quotes some releases print made straight."""
    return " ".join(term.replace("\u2019", "'").split()).casefold()


def term_names(term: str) -> list[str]:
    """The names an entry's term gives it, as rule text writes them ("Control, Controller": control,
    controller; "Respond/Response (Informal)": respond, response); a name with a placeholder ("Partner
    with [name]") is none."""
    bare = _PAREN.sub("", term).translate(_QUOTES)
    out = []
    for name in re.split(r",\s*|/", bare):
        name = " ".join(name.replace("\u2019", "'").split()).strip(" .,").casefold()
        if name and not any(c in name for c in "[]") and len(name) > 1:
            out.append(name)
    return out


def _variants(name: str) -> list[str]:
    """A name and its plural, as a rule may write either ("creature", "creatures"; "ability", "abilities")."""
    out = [name, name + "s"]
    if name.endswith(("s", "x", "ch", "sh")):
        out.append(name + "es")
    if name.endswith("y") and name[-2:-1] not in "aeiou":
        out.append(name[:-1] + "ies")
    return out


_DIGIT = re.compile(r"\d")
_WORD = re.compile(r"\w(?:[\w'\u2019-]*\w)?")


class Terms:
    """Every glossary term of every release, as the words rule text names it with: where in a text a term
    may be linked. Built once a build; a release links a term only when its own glossary defines it."""

    def __init__(self, terms: Iterable[str]) -> None:
        by_words: dict[tuple[str, ...], list[str]] = {}
        for term in sorted(set(terms)):
            if OBSOLETE.search(term):  # a word the game no longer gives a meaning: not a term to link
                continue
            key = term_key(term)
            for name in term_names(term):
                for v in _variants(name):
                    keys = by_words.setdefault(tuple(v.split()), [])
                    if key not in keys:
                        keys.append(key)
        # first word -> (the name's words joined by one space, its entries), longest first
        first: dict[str, list[tuple[str, tuple[str, ...]]]] = {}
        for words, keys in by_words.items():
            first.setdefault(words[0], []).append((" ".join(words), tuple(keys)))
        for cands in first.values():
            cands.sort(key=lambda c: (-len(c[0]), c[0]))
        self.first = first
        self.cut = lru_cache(maxsize=1 << 16)(self._cut)

    def _cut(self, text: str, glossary: bool) -> Cut:
        """``text`` and its holes: every reference, and (``glossary``) every run of words that names a term,
        outside the references."""
        refs = find_references(text) if _DIGIT.search(text) else []
        holes: list[Hole] = [("r", r.start, r.end, tuple(str(t) for t in r.targets)) for r in refs]
        if glossary:
            holes.extend(self._terms(text, [(r.start, r.end) for r in refs]))
            holes.sort(key=lambda h: h[1])
        return text, tuple(holes)

    def _terms(self, text: str, taken: list[tuple[int, int]]) -> list[Hole]:
        low = text.lower().replace("\u2019", "'")
        if len(low) != len(text):  # a letter whose lower case is longer: positions read off the text itself
            low = "".join(c.lower() if len(c.lower()) == 1 else c for c in text).replace("\u2019", "'")
        first = self.first
        starts = [(m.start(), c) for m in _WORD.finditer(low) if (c := first.get(m.group())) is not None]
        out: list[Hole] = []
        for start, cands in starts:
            found = []
            for name, keys in cands:  # longest first
                end = start + len(name)
                whole = low.startswith(name, start) and _word_ends(low, end)
                if whole and (not taken or not any(a < end and start < b for a, b in taken)):
                    found.append((end, keys))
            if found:
                out.append(("g", start, 0, tuple(found)))
        return out


def _word_ends(low: str, end: int) -> bool:
    """Does a word (as _WORD reads words) end at ``end``?"""
    if end >= len(low):
        return True
    c = low[end]
    if c.isalnum() or c == "_":
        return False
    return not (c in "'-" and end + 1 < len(low) and (low[end + 1].isalnum() or low[end + 1] == "_"))


class Filler:
    """One release's answers to the holes: where each rule number it prints is (page and id), and the id of
    each glossary entry it defines."""

    def __init__(
        self, anchors: dict[str, tuple[str, str]], glossary: dict[str, str], page: str, glossary_page: str
    ) -> None:
        self.anchors, self.glossary, self.page = anchors, glossary, page
        self.to_glossary = "" if page == glossary_page else glossary_page

    def href(self, number: str) -> str | None:
        at = self.anchors.get(number)
        if at is None:
            return None
        page, ident = at
        return f"#{ident}" if page == self.page else f"{page}#{ident}"

    def fill(self, cut: Cut, linked: set[str] | None = None) -> str:
        """The text as HTML: each reference linked to the first number it names that this release prints;
        the longest term this release defines at each place linked to its entry, the first time the node
        names that entry (``linked``: the entries named so far; None: no term is linked)."""
        text, holes = cut
        if not holes:
            return esc(text)
        out: list[str] = []
        pos = 0
        for kind, start, end, what in holes:
            if start < pos:
                continue  # inside a term already linked
            if kind == "r":
                for t in what:
                    href = self.href(t)
                    if href is not None:
                        out.append(f'{esc(text[pos:start])}<a href="{href}">{esc(text[start:end])}</a>')
                        pos = end
                        break
                continue
            if linked is None:
                continue
            for end, keys in what:
                ident = next((self.glossary[k] for k in keys if k in self.glossary), None)
                if ident is None:
                    continue
                if ident in linked:  # the words are this term's, linked before: as they are
                    out.append(esc(text[pos:end]))
                else:
                    linked.add(ident)
                    shown = esc(text[start:end])
                    out.append(f'{esc(text[pos:start])}<a class="g" href="{self.to_glossary}#{ident}">{shown}</a>')
                pos = end
                break
        out.append(esc(text[pos:]))
        return "".join(out)
