"""Indented JSON, byte for byte what json.dumps(indent=1, sort_keys=True) writes, from a quicker encoder."""

# Indented JSON, byte for byte what ``json.dumps(obj, ensure_ascii=False, indent=1, sort_keys=True)`` writes, in
# about half its time: the standard library's indenting encoder is its pure-Python generator (the C one cannot
# indent), and it was a fifth of a long jump's ``--format json``.

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from json.encoder import encode_basestring  # the C escaper when the _json accelerator is there
from typing import Any

_NEWLINE = ["\n" + " " * k for k in range(64)]
_SEPARATOR = ["," + s for s in _NEWLINE]


class _UnsupportedError(Exception):
    """Something the fast path leaves to the standard library (non-string keys, other types, depth)."""


def dumps(obj: Any) -> str:
    """``obj`` as ``json.dumps(obj, ensure_ascii=False, indent=1, sort_keys=True)`` writes it."""
    out: list[str] = []
    try:
        _write(obj, 0, out)
    except (_UnsupportedError, TypeError, RecursionError):
        # Non-string keys, other types, circular or very deep data: the library's own text or error.
        return json.dumps(obj, ensure_ascii=False, indent=1, sort_keys=True)
    return "".join(out)


def chunks(obj: Any, written: dict[str, Iterable[str]] | None = None) -> Iterator[str]:
    """:func:`dumps` of ``obj`` in pieces, to be written as they are made: a dict's members one by one, and the
    items of a list member one by one (the changes of a long diff, a hundred megabytes for hostile input).
    Each piece is what :func:`dumps` writes there, cut out of the text it writes for that member alone. A
    value neither writer can take raises as :func:`dumps` does, after the pieces before it. ``written``: list
    members whose items are written elsewhere, as :func:`list_items` writes them, in pieces (their value in
    ``obj`` is not read); at least two items each."""
    written = written or {}
    if type(obj) is not dict or not obj or not all(type(k) is str for k in obj):
        yield dumps(obj)
        return
    yield "{"
    for n, k in enumerate(sorted(obj)):
        v = obj[k]
        comma = "," if n else ""
        items = written.get(k)
        if items is not None or (type(v) is list and len(v) > 1):
            yield comma + _NEWLINE[1] + encode_basestring(k) + ": ["  # what dumps({k: [x]}) writes before x
            yield from list_items(k, v) if items is None else items
            yield _NEWLINE[1] + "]"
        else:
            yield comma + dumps({k: v})[1:-2]  # dumps({k: v}) is "{" + the member + "\n}"
    yield "\n}"


def list_items(key: str, items: Iterable[Any], first: int = 0) -> Iterator[str]:
    """The pieces :func:`chunks` writes for the items of the list member ``key`` of two items or more, each
    with the comma before it; ``first``: the place of the first of ``items`` in the list (a list written in
    parts)."""
    head = len(_NEWLINE[1] + encode_basestring(key) + ": [")
    tail = len(_NEWLINE[1] + "]\n}")
    for m, item in enumerate(items, first):
        yield ("," if m else "") + dumps({key: [item]})[1 + head : -tail]


def _scalar(o: Any) -> str:
    # The checks and their order are the library's (_make_iterencode): str, None, True, False, int, float.
    if isinstance(o, str):
        return encode_basestring(o)
    if o is None:
        return "null"
    if o is True:
        return "true"
    if o is False:
        return "false"
    if isinstance(o, int):
        return int.__repr__(o)
    if isinstance(o, float):
        if o != o:
            return "NaN"
        if o == float("inf"):
            return "Infinity"
        if o == -float("inf"):
            return "-Infinity"
        return float.__repr__(o)
    raise _UnsupportedError


def _nested(o: Any) -> bool:
    return isinstance(o, (dict, list, tuple))


def _flat(v: list[Any], level: int) -> str | None:
    """A list of strings and ints only, written whole at ``level`` (a word diff's pieces, [op, text] and
    [op, text, old], are most of the containers of a long diff, position lists many more): one call for the
    list rather than one per item. None when an item is anything else (the caller writes it item by item)."""
    parts = []
    for x in v:
        tx = type(x)
        if tx is str:
            parts.append(encode_basestring(x))
        elif tx is int:
            parts.append(int.__repr__(x))
        else:
            return None
    return "[" + _NEWLINE[level + 1] + _SEPARATOR[level + 1].join(parts) + _NEWLINE[level] + "]"


def _write(o: Any, level: int, out: list[str]) -> None:
    # Exact types first (the common case, cheap to test), isinstance for subclasses as the library does.
    if level + 1 >= len(_NEWLINE):
        raise _UnsupportedError
    t = type(o)
    if t is dict or (t is not list and isinstance(o, dict)):
        if not o:
            out.append("{}")
            return
        sep = _SEPARATOR[level + 1]
        lead = _NEWLINE[level + 1]
        out.append("{")
        # A key that is not a string makes encode_basestring raise TypeError: the library takes over.
        for k in sorted(o):
            v = o[k]
            tv = type(v)
            if tv is str:
                out.append(lead + encode_basestring(k) + ": " + encode_basestring(v))
            elif tv is list and v and level + 2 < len(_NEWLINE) and (flat := _flat(v, level + 1)) is not None:
                out.append(lead + encode_basestring(k) + ": " + flat)
            elif tv is dict or tv is list or _nested(v):
                out.append(lead + encode_basestring(k) + ": ")
                _write(v, level + 1, out)
            else:
                out.append(lead + encode_basestring(k) + ": " + _scalar(v))
            lead = sep
        out.append(_NEWLINE[level] + "}")
    elif t is list or isinstance(o, (list, tuple)):
        if not o:
            out.append("[]")
            return
        sep = _SEPARATOR[level + 1]
        lead = _NEWLINE[level + 1]
        out.append("[")
        inner = level + 2 < len(_NEWLINE)
        for v in o:
            tv = type(v)
            if tv is str:
                out.append(lead + encode_basestring(v))
            elif tv is int:
                out.append(lead + int.__repr__(v))
            elif tv is list and inner and v and (flat := _flat(v, level + 1)) is not None:
                out.append(lead + flat)
            elif tv is dict or tv is list or _nested(v):
                out.append(lead)
                _write(v, level + 1, out)
            else:
                out.append(lead + _scalar(v))
            lead = sep
        out.append(_NEWLINE[level] + "]")
    else:
        out.append(_scalar(o))
