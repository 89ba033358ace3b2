"""Start-up cost: a command loads only what it runs (lazy imports), and the lazy public API still answers
every name in ``rulediff.__all__``."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from .conftest import CORPUS

# Heavy modules no diff between two text files needs: the archive's SQLite layer, the site, Jinja
# (only HTML and Markdown render templates), lxml (only .docx and web pages), process pools.
NOT_FOR_A_TEXT_DIFF = ["sqlite3", "jinja2", "lxml", "concurrent.futures.process", "rulediff.archive", "rulediff.site"]


def _loaded_after(code: str) -> set[str]:
    """The modules loaded in a fresh interpreter after running ``code``."""
    out = subprocess.run(
        [sys.executable, "-c", f"{code}\nimport sys, json; print(json.dumps(sorted(sys.modules)))"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    return set(json.loads(out.strip().splitlines()[-1]))


@pytest.mark.parametrize(
    "code",
    [
        "import rulediff.cli",
        "import rulediff",
        "from rulediff.cli import main\ntry:\n    main(['--help'])\nexcept SystemExit:\n    pass",
    ],
)
def test_start_up_loads_nothing_heavy(code: str) -> None:
    loaded = _loaded_after(code)
    assert not loaded & {*NOT_FOR_A_TEXT_DIFF, "rapidfuzz", "rulediff.matcher.passes"}


@pytest.mark.parametrize("fmt", ["json", "notes"])
def test_a_text_diff_loads_no_archive_template_or_xml(fmt: str) -> None:
    pair = [str(CORPUS / "003_8b50984e948ebee1.txt"), str(CORPUS / "001_6371d5d2d2027b19.txt")]
    code = (
        "import contextlib, io\nfrom rulediff.cli import main\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n"
        "    try:\n"
        f"        main(['diff', *{pair!r}, '--format', {fmt!r}])\n"
        "    except SystemExit as e:\n"
        "        assert not e.code, e.code"
    )
    loaded = _loaded_after(code)
    assert "rulediff.matcher.passes" in loaded  # it did run the matcher
    assert not loaded & set(NOT_FOR_A_TEXT_DIFF)


def test_every_public_name_resolves_and_is_the_library_object() -> None:
    import rulediff
    from rulediff.archive import Archive
    from rulediff.matcher.classify import align
    from rulediff.parsers import FORMATS

    for name in rulediff.__all__:
        assert getattr(rulediff, name) is not None, name
    assert rulediff.Archive is Archive and rulediff.align is align and rulediff.FORMATS is FORMATS
    assert set(rulediff.__all__) <= set(dir(rulediff))
    with pytest.raises(AttributeError, match="no attribute 'nope'"):
        _ = rulediff.nope  # type: ignore[attr-defined]
