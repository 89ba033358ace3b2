"""Where the files shipped beside the code are: in an installed package or a source checkout."""

# Where the files shipped beside the code are (templates, the seed corpus): inside an installed package, or at the
# top of a source checkout.

from __future__ import annotations

from pathlib import Path

# The package's folder (rulediff/): an installed wheel holds templates/ and corpus/ inside it, a source
# checkout beside it.
_PACKAGE = Path(__file__).resolve().parent.parent


def shipped(name: str, marker: str) -> Path:
    """The directory ``name`` (templates, corpus) inside the installed package, or at the top of a source
    checkout; ``marker`` is a file it must contain."""
    for base in (_PACKAGE / name, _PACKAGE.parent / name):
        if (base / marker).is_file():
            return base
    raise FileNotFoundError(f"rulediff's {name}/ directory is missing (looked for {marker})")
