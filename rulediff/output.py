"""Write outputs safely: the target's folder must exist, an existing file is replaced only when asked, and
the bytes land atomically (written beside the target, then renamed), so no half-written file remains."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from .errors import OutputError


def check_target(path: str | os.PathLike[str], force: bool) -> Path:
    p = Path(path)
    if p.is_dir():
        raise OutputError("is a directory; expected an output file name", source=str(p))
    parent = p.parent if str(p.parent) else Path(".")
    if not parent.is_dir():
        raise OutputError(f"folder {str(parent)!r} does not exist", source=str(p))
    if p.exists() and not p.is_symlink() and not p.is_file():
        raise OutputError("is a device, FIFO or socket, not a file; refusing to replace it", source=str(p))
    if (p.exists() or p.is_symlink()) and not force:
        raise OutputError("already exists; use --force to replace it", source=str(p))
    return p


def write_atomic(path: str | os.PathLike[str], data: str | bytes, *, force: bool = False) -> Path:
    """Write ``data`` to ``path`` all at once or not at all."""
    p = check_target(path, force)
    raw = data.encode("utf-8") if isinstance(data, str) else data
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{p.name}.", suffix=".part", dir=str(p.parent if str(p.parent) else "."))
    except OSError as e:
        raise OutputError(f"cannot write: {e.strerror}", source=str(p)) from None
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(raw)
            fh.flush()
            os.fsync(fh.fileno())
        # mkstemp makes the file private; give it the mode a plain open() would have.
        os.chmod(tmp, p.stat().st_mode & 0o777 if p.is_file() else file_mode())
        os.replace(tmp, p)
    except BaseException as e:
        Path(tmp).unlink(missing_ok=True)
        if isinstance(e, OSError):  # disk full, quota, I/O: one line naming the file, nothing left behind
            raise OutputError(f"cannot write: {e.strerror}", source=str(p)) from None
        raise
    return p


def file_mode() -> int:
    """The mode a plain open() would give a new file (0o666 less the umask)."""
    current = os.umask(0)
    os.umask(current)
    return 0o666 & ~current
