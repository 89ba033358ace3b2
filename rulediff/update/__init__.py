"""Following the official rules page: fetch.py (HTTP and local copies), page.py (the links), run.py (one run)."""
