"""House rules that must hold on every commit: ruff and mypy --strict pass, the library never imports
click, every module opens with a one-line docstring, and no module grows past the 400 lines STYLE.md asks."""

from __future__ import annotations

import ast
import re
import shutil
import subprocess
import sys

import pytest

from .conftest import ROOT

PACKAGE = ROOT / "rulediff"
MODULES = sorted(PACKAGE.rglob("*.py"))


def _tool(name: str) -> list[str]:
    exe = shutil.which(name, path=str(ROOT / ".venv" / "bin")) or shutil.which(name)
    return [exe] if exe else [sys.executable, "-m", name]


def test_ruff_passes() -> None:
    out = subprocess.run(
        [*_tool("ruff"), "check", "rulediff", "tests", "benchmarks"], cwd=ROOT, capture_output=True, text=True
    )
    assert out.returncode == 0, out.stdout + out.stderr


def test_mypy_strict_passes() -> None:
    out = subprocess.run([*_tool("mypy"), "--strict", "rulediff"], cwd=ROOT, capture_output=True, text=True)
    assert out.returncode == 0, out.stdout + out.stderr


# A figure a benchmark measured (seconds, memory, a speed-up) belongs in benchmarks/ and commit messages: in a
# docstring it goes stale without anyone noticing.
_FIGURE = re.compile(r"\b\d+(?:[.,]\d+)?\s?(?:ms|µs|MB|MiB|GB|GiB|KiB)\b|\b\d+(?:\.\d+)? s\b(?! of)")
# A function may run past the limit only with a comment on the line above it saying why ("# long: ...").
_LONGEST_FUNCTION = 80


@pytest.mark.parametrize("path", MODULES, ids=lambda p: str(p.relative_to(ROOT)))
def test_module_rules(path) -> None:  # type: ignore[no-untyped-def]
    source = path.read_text(encoding="utf-8")
    tree = ast.parse(source)
    doc = ast.get_docstring(tree)
    assert doc, "every module opens with a docstring saying its single job"
    first = tree.body[0]
    assert first.lineno == first.end_lineno, "the module docstring is one line (details go where they belong)"
    imports = {n.module or "" for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)} | {
        a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names
    }
    if path.parent != PACKAGE / "cli":
        assert "click" not in imports, "only the CLI modules (rulediff/cli/) import click"
    lines = source.splitlines()
    assert len(lines) <= 400 or "# long module:" in source, "split a module by responsibility (or say why not)"
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef | ast.Module):
            d = ast.get_docstring(node) or ""
            assert not _FIGURE.search(d), f"a benchmark figure in a docstring ({getattr(node, 'name', 'module')})"
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            start = node.decorator_list[0].lineno if node.decorator_list else node.lineno
            long = node.end_lineno - node.lineno + 1 > _LONGEST_FUNCTION  # type: ignore[operator]
            assert not long or lines[start - 2].strip().startswith("# long:"), f"{node.name} is over 80 lines"
