"""Normalisation of rule text for comparison only: typography, spacing, references. Raw text is kept elsewhere."""

from __future__ import annotations

import re

from .numbering import find_references

# Typographic variants and their comparison form. Applied with str.replace, guarded by `in`: both are
# memchr-fast, while str.translate with a dict walks every character in Python-object space.
_REPLACE: tuple[tuple[str, str], ...] = (
    ("\u2018", "'"),
    ("\u2019", "'"),
    ("\u201a", "'"),
    ("\u201b", "'"),
    ("\u2032", "'"),
    ("\u00b4", "'"),
    ("`", "'"),
    ("\u201c", '"'),
    ("\u201d", '"'),
    ("\u201e", '"'),
    ("\u201f", '"'),
    ("\u2033", '"'),
    ("\u200b", ""),
    ("\ufeff", ""),
    ("\u00ad", ""),
    ("\u2122", ""),
    ("\u00ae", ""),
    ("\u2026", "..."),
    ("\u2212", "-"),
    ("\u2010", "-"),
    ("\u2011", "-"),
)
_NON_ASCII_REPLACE = tuple((a, b) for a, b in _REPLACE if not a.isascii())
_ASCII_REPLACE = tuple((a, b) for a, b in _REPLACE if a.isascii())

_DASHES = re.compile(r"\s*(?:--|\u2014|\u2013|\u2012|\u2015)\s*")
_MARKS = re.compile(r"\((?:tm|TM|Tm|R|r)\)")
_ITALIC = re.compile(r"(?<![\w_])_([^_\n]+?)_(?![\w_])")
_LOSSY_APOS = re.compile(r"(?<=[A-Za-z])\?(?=(?:s|t|re|ve|ll|d|m)\b)")
_PUNCT_AFTER_SPACE = (" .", " ,", " ;", " :", " )")


def normalize(text: str) -> str:
    """Comparison form of ``text``: quotes straight, dashes unified, marks and italics markers gone,
    whitespace collapsed. Two texts that differ only in typography normalise equal."""
    s = text
    if not s.isascii():
        for a, b in _NON_ASCII_REPLACE:
            if a in s:
                s = s.replace(a, b)
        if "\u2014" in s or "\u2013" in s or "\u2012" in s or "\u2015" in s:
            s = _DASHES.sub(" - ", s)
    for a, b in _ASCII_REPLACE:
        if a in s:
            s = s.replace(a, b)
    if "(" in s:
        s = _MARKS.sub("", s)
    if "_" in s:
        s = _ITALIC.sub(r"\1", s)
    if "?" in s:
        s = _LOSSY_APOS.sub("'", s)
    if "--" in s:
        s = _DASHES.sub(" - ", s)
    # str.split() with no argument splits on every Unicode space (no-break, U+2028, tabs...).
    s = " ".join(s.split())
    for p in _PUNCT_AFTER_SPACE:
        if p in s:
            s = s.replace(p, p[1])
    return s


REF_PLACEHOLDER = "\u27e8ref\u27e9"


def mask_references(text: str) -> str:
    """Replace every cross-reference by a placeholder so renumbering fallout compares equal."""
    refs = find_references(text)
    if not refs:
        return text
    out: list[str] = []
    pos = 0
    for r in refs:
        out.append(text[pos : r.start])
        out.append(REF_PLACEHOLDER)
        pos = r.end
    out.append(text[pos:])
    return "".join(out)


def words(text: str) -> list[str]:
    """Tokens for similarity: lower-cased words of the normalised text."""
    return re.findall(r"\w+(?:'\w+)?", text.lower())
