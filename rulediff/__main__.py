"""`python -m rulediff`: the same command line as the `rulediff` console script."""

from __future__ import annotations

from .cli import main

if __name__ == "__main__":
    main()
