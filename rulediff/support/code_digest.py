"""Naming the code that made something kept: a digest of the named modules' sources."""

# Naming the code that made something kept (stored alignments, edits, rendered steps): a digest of the sources of
# the modules that make it, so what other code made is known as stale and made again, even between releases. No
# imports of rulediff: every module may use it.

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent.parent


def module_path(name: str) -> Path:
    """The source file of the rulediff module imported as ``name`` ("rulediff.words.edits"), found without
    importing it; a name that is no module of the package raises LookupError (a list naming a module that
    moved away would otherwise never mark what it stamps stale again)."""
    head, *rest = name.split(".")
    if head != _PACKAGE.name or not rest:
        raise LookupError(f"{name!r} is not a module of {_PACKAGE.name}")
    base = _PACKAGE.joinpath(*rest)
    for path in (base.with_suffix(".py"), base / "__init__.py"):
        if path.is_file():
            return path
    raise LookupError(f"no module {name!r} in {_PACKAGE}")


def sources_digest(names: Iterable[str], seed: str = "") -> str:
    """The sha256 (hex) of ``seed`` and then each named module's import name and source."""
    h = hashlib.sha256(seed.encode())
    for name in names:
        h.update(name.encode() + b"\0" + module_path(name).read_bytes() + b"\0")
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
    h = hashlib.sha256(seed.hexdigest().encode())
    for path in sorted(_PACKAGE.rglob("*.py")):
        h.update(path.relative_to(_PACKAGE).as_posix().encode() + b"\0" + path.read_bytes() + b"\0")
    return h.hexdigest()
