"""Naming the code that made something kept (stored alignments, edits, rendered steps): a digest of the
sources of the modules that make it, so what other code made is known as stale and made again, even between
releases. No imports of rulediff: every module may use it."""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent


def sources_digest(names: Iterable[str], seed: str = "") -> str:
    """The sha256 (hex) of ``seed`` and then each named module's name and source (paths inside the
    package; a module not there counts as empty)."""
    h = hashlib.sha256(seed.encode())
    for name in names:
        path = _PACKAGE / name
        h.update(name.encode() + b"\0" + (path.read_bytes() if path.is_file() else b"") + b"\0")
    return h.hexdigest()
