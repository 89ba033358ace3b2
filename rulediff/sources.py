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


def package_digest(extra: Path | None = None) -> str:
    """The sha256 (hex) of every module of the package and of every file in the folder ``extra`` (the
    templates): what a page the site keeps was made by, so that other code or templates make it again."""
    seed = hashlib.sha256()
    if extra is not None:
        # (compiled bytecode beside the templates of an installed package changes with no template changing)
        files = (p for p in extra.rglob("*") if p.is_file() and "__pycache__" not in p.parts and p.suffix != ".pyc")
        for path in sorted(files):
            seed.update(path.relative_to(extra).as_posix().encode() + b"\0" + path.read_bytes() + b"\0")
    names = sorted(p.relative_to(_PACKAGE).as_posix() for p in _PACKAGE.rglob("*.py"))
    return sources_digest(names, seed=seed.hexdigest())
