"""Helpers of the tests that read one alignment of two official releases rule by rule (test_absorbed, test_held)."""

from __future__ import annotations

from rulediff import parse
from rulediff.matcher.classify import align
from rulediff.matcher.records import Alignment, Change
from rulediff.model import Document

from .conftest import cr_file


def official_pair(old: str, new: str) -> tuple[Document, Document, Alignment]:
    """The releases of dates ``old`` and ``new`` and their alignment."""
    a, b = parse(str(cr_file(old))), parse(str(cr_file(new)))
    return a, b, align(a, b)


def change_of(doc: Document, al: Alignment, number: str, side: str = "old") -> Change:
    """The change of the node numbered ``number`` of ``doc``, the alignment's old side or (``side="new"``) new."""
    return next(ch for ch in al.changes if any(str(doc.rules[k].number) == number for k in getattr(ch, side)))


def numbers(doc: Document, positions: tuple[int, ...]) -> list[str]:
    """The numbers of ``doc``'s nodes at ``positions``, sorted."""
    return sorted(str(doc.rules[k].number) for k in positions)
