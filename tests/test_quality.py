"""House rules that must hold on every commit: ruff and mypy --strict pass, the library never imports
click, every module opens with a one-line docstring, and no module grows past the 400 lines STYLE.md asks."""

from __future__ import annotations

import ast
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


@pytest.mark.parametrize("path", MODULES, ids=lambda p: str(p.relative_to(ROOT)))
def test_module_rules(path) -> None:  # type: ignore[no-untyped-def]
    tree = ast.parse(path.read_text(encoding="utf-8"))
    doc = ast.get_docstring(tree)
    assert doc, "every module opens with a docstring saying its single job"
    imports = {n.module or "" for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)} | {
        a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names
    }
    if path.parent != PACKAGE / "cli":
        assert "click" not in imports, "only the CLI modules (rulediff/cli/) import click"
    assert len(path.read_text(encoding="utf-8").splitlines()) <= 400, "split a module by responsibility"
