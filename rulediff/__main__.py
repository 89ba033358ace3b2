"""`python -m rulediff`: the same command line as the `rulediff` console script."""

from __future__ import annotations

from .cli import run

if __name__ == "__main__":
    run()
