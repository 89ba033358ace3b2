"""Reading an input the user named, whatever it is, in chunks and never past one size cap."""

# Reading an input the user named, whatever it is (file, pipe, FIFO, device), in chunks and never past one size cap,
# so no source can exhaust memory or hang the command.

from __future__ import annotations

import errno
import os
import stat

from ..errors import ParseError

# The largest official release is about 1 MB of text (a few MB as .docx); 32 MB leaves room for any dump
# of the rules while bounding what one input can cost.
MAX_BYTES = 32 * 1024 * 1024
CHUNK = 1024 * 1024


def read_input(path: str | os.PathLike[str], limit: int = MAX_BYTES) -> bytes:
    """The bytes of ``path``, read in chunks up to ``limit``: a regular file, or a pipe, FIFO or character
    device (``/dev/stdin``, ``<(cmd)``). A FIFO nobody writes to reads as empty instead of waiting forever;
    anything longer than ``limit`` (``/dev/zero``) is refused after ``limit`` bytes."""
    src = os.fspath(path)
    try:
        st = os.stat(src)
    except FileNotFoundError:
        raise ParseError("no such file", source=src) from None
    except OSError as e:
        raise ParseError(f"cannot read file: {e.strerror}", source=src) from None
    if stat.S_ISDIR(st.st_mode):
        raise ParseError("is a directory; expected a file", source=src)
    if stat.S_ISBLK(st.st_mode) or stat.S_ISSOCK(st.st_mode):
        raise ParseError("is a block device or socket; expected a file or a pipe", source=src)
    if stat.S_ISREG(st.st_mode) and st.st_size > limit:
        raise ParseError(f"file is {st.st_size} bytes; refusing inputs over {limit} bytes", source=src)
    try:
        # Non-blocking open: a FIFO without a writer would otherwise block here for ever. Reads then block
        # again, and a FIFO whose writer never came reads as end of file.
        fd = os.open(src, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except OSError as e:
        raise ParseError(f"cannot read file: {e.strerror}", source=src) from None
    try:
        os.set_blocking(fd, True)
        # The chunks are kept as read and joined once at the end: a release fits one chunk, and joining
        # one chunk returns it as it is, where a growing bytearray copied the whole input twice.
        chunks: list[bytes] = []
        size = 0
        while size <= limit:
            try:
                chunk = os.read(fd, min(CHUNK, limit + 1 - size))
            except InterruptedError:
                continue
            except OSError as e:
                if e.errno == errno.EAGAIN:
                    break
                raise ParseError(f"cannot read file: {e.strerror}", source=src) from None
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
    finally:
        os.close(fd)
    if size > limit:
        raise ParseError(f"input goes on past {limit} bytes; refusing inputs over {limit} bytes", source=src)
    return b"".join(chunks)
