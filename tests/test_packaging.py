"""Packaging from a clean machine: build the wheel and sdist, install the wheel into a fresh virtual
environment outside the source tree, and run the main job and a diff from there (templates and corpus
must come from the installed package)."""

from __future__ import annotations

import subprocess
import sys
import venv
from pathlib import Path

import pytest

from .conftest import ROOT


@pytest.mark.slow
def test_wheel_installs_and_runs_outside_the_source_tree(tmp_path: Path) -> None:
    dist = tmp_path / "dist"
    subprocess.run(
        [sys.executable, "-m", "build", "--wheel", "--sdist", "--outdir", str(dist), str(ROOT)],
        check=True,
        capture_output=True,
    )
    wheels = list(dist.glob("rulediff-*.whl"))
    assert wheels and list(dist.glob("rulediff-*.tar.gz"))
    env_dir = tmp_path / "venv"
    venv.create(env_dir, with_pip=True)
    py = env_dir / "bin" / "python"
    subprocess.run([str(py), "-m", "pip", "install", "-q", str(wheels[0])], check=True, capture_output=True)
    work = tmp_path / "elsewhere"
    work.mkdir()
    exe = str(env_dir / "bin" / "rulediff")
    run = subprocess.run([exe, "report", "-o", "site"], cwd=work, capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    assert (work / "site" / "index.html").is_file()
    assert (work / "site" / "diff" / "2011-blog--2022-markdown.html").is_file()
    # the API and the schemas it names come from the installed package's data
    assert (work / "site" / "api" / "index.json").is_file()
    assert len(list((work / "site" / "api" / "schemas").glob("*.schema.json"))) == 9
    run = subprocess.run(
        [exe, "diff", "2011-blog", "2022-markdown", "-o", "notes.html"], cwd=work, capture_output=True, text=True
    )
    assert run.returncode == 0, run.stderr
    html = (work / "notes.html").read_text(encoding="utf-8")
    assert html.startswith("<!DOCTYPE html>") and "702.13" in html
    # The installed package resolves its own templates, not the checkout's.
    where = subprocess.run(
        [str(py), "-c", "from rulediff.render.templating import template_dir; print(template_dir())"],
        cwd=work,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert str(env_dir) in where and str(ROOT) not in where
