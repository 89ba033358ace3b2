"""Reading files for the archive in a worker process: parse each one and align it with the one before, so
that this work overlaps the archive's own storing on a two-core machine."""

from __future__ import annotations

import hashlib

from ..changes import align
from ..errors import RulediffError
from ..model import Document
from ..parsers import parse_bytes, read_input
from .codec import Encoded, encode_alignment

# The worker keeps the document it parsed last, to align the next one with it while the main process
# stores the previous file: files given in date order are then aligned before they are even added.
_WORKER_PREV: list[Document] = []


def read_and_parse(
    path: str, fmt: str | None, known: set[str]
) -> tuple[bytes, Document | None, tuple[str, Encoded] | None]:
    """Worker: the file's bytes, its Document unless the archive already has those bytes, and its
    alignment with the file before it. Parse errors are left for the main process, which reports them
    with the file's name and line."""
    data = read_input(path)
    if hashlib.sha256(data).hexdigest() in known:
        return data, None, None
    try:
        doc = parse_bytes(data, path, fmt)
    except RulediffError:
        return data, None, None
    ahead = None
    if _WORKER_PREV:
        prev = _WORKER_PREV[0]
        ahead = (prev.version.sha256, encode_alignment(align(prev, doc)))
    _WORKER_PREV[:] = [doc]
    return data, doc, ahead
