"""Normalisation of rule text for comparison only: typography, spacing, references. Raw text is kept elsewhere."""

from __future__ import annotations

import re

from .numbering import find_references

_TRANSLATE = str.maketrans(
    {
        "\u2018": "'",
        "\u2019": "'",
        "\u201a": "'",
        "\u201b": "'",
        "\u2032": "'",
        "\u00b4": "'",
        "`": "'",
        "\u201c": '"',
        "\u201d": '"',
        "\u201e": '"',
        "\u201f": '"',
        "\u2033": '"',
        "\u00a0": " ",
        "\u2007": " ",
        "\u2009": " ",
        "\u200a": " ",
        "\u202f": " ",
        "\u2028": " ",
        "\u2029": " ",
        "\t": " ",
        "\u200b": None,
        "\ufeff": None,
        "\u00ad": None,
        "\u2122": None,
        "\u00ae": None,
        "\u2026": "...",
        "\u2212": "-",
        "\u2010": "-",
        "\u2011": "-",
    }
)

_DASHES = re.compile(r"\s*(?:--|\u2014|\u2013|\u2012|\u2015)\s*")
_SPACED_HYPHEN = re.compile(r"\s+-\s+")
_MARKS = re.compile(r"\((?:tm|TM|Tm|R|r)\)")
_ITALIC = re.compile(r"(?<![\w_])_([^_\n]+?)_(?![\w_])")
_LOSSY_APOS = re.compile(r"(?<=[A-Za-z])\?(?=(?:s|t|re|ve|ll|d|m)\b)")
_SPACES = re.compile(r"\s+")
_SPACE_BEFORE_PUNCT = re.compile(r"\s+(?=[.,;:)])")


def normalize(text: str) -> str:
    """Comparison form of ``text``: quotes straight, dashes unified, marks and italics markers gone,
    whitespace collapsed. Two texts that differ only in typography normalise equal."""
    s = text.translate(_TRANSLATE)
    s = _MARKS.sub("", s)
    s = _ITALIC.sub(r"\1", s)
    s = _LOSSY_APOS.sub("'", s)
    s = _DASHES.sub(" - ", s)
    s = _SPACED_HYPHEN.sub(" - ", s)
    s = _SPACES.sub(" ", s)
    s = _SPACE_BEFORE_PUNCT.sub("", s)
    return s.strip()


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
