"""Reports: golden HTML/JSON/Markdown for a small fixture pair (deterministic bytes), structure checked
with lxml (unique ids, every internal link resolves, every change anchored), and rule text as untrusted
input (scripts, attribute injection, template syntax all stay text)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import lxml.html
import pytest

from rulediff import align, parse
from rulediff.render.diff_json import iter_json, to_dict, to_json
from rulediff.render.html import to_html
from rulediff.render.markdown import to_markdown

from .conftest import FIXTURES, ROOT

PAIR = FIXTURES / "report"


def _pair():  # type: ignore[no-untyped-def]
    return align(parse(str(PAIR / "old.txt")), parse(str(PAIR / "new.txt")))


def _golden(name: str, got: str) -> None:
    want = PAIR / name
    if os.environ.get("RULEDIFF_UPDATE_GOLDEN"):
        want.write_text(got, encoding="utf-8")
    assert want.exists(), f"{want} missing: run with RULEDIFF_UPDATE_GOLDEN=1 and review it"
    assert got == want.read_text(encoding="utf-8")


def _relative(text: str) -> str:
    # The golden files must not depend on where the checkout lives.
    return text.replace(str(PAIR) + os.sep, "")


@pytest.mark.parametrize(
    ("render", "name"), [(to_html, "expected.html"), (to_json, "expected.json"), (to_markdown, "expected.md")]
)
def test_golden_reports(render, name: str) -> None:  # type: ignore[no-untyped-def]
    _golden(name, _relative(render(_pair())))


def test_html_structure() -> None:
    al = _pair()
    tree = lxml.html.document_fromstring(to_html(al))
    ids = [e.get("id") for e in tree.iter() if e.get("id")]
    assert len(ids) == len(set(ids)), "ids are unique"
    for a in tree.iter("a"):
        href = a.get("href") or ""
        assert not href.startswith(("http:", "https:", "//")), "no network"
        if href.startswith("#"):
            assert href[1:] in ids, f"link {href} resolves"
    for node in tree.iter("script", "link", "img", "iframe"):
        assert node.tag == "script" and not node.get("src"), "self-contained: no external resources"
    # Every change a reader sees has a permanent anchor: the cards, and renumbered/typography/reference lists.
    d = to_dict(al)
    for ch in d["changes"]:
        if ch["kind"] == "not_covered":
            continue
        number = (ch["new"] or ch["old"])[0]
        assert f"r{number}" in ids or f"old-{number}" in ids, f"{ch['kind']} {number} has an anchor"
    assert "r702.4b" in ids and "r702.5" in ids
    # Kind marks do not rely on colour alone: every card has a textual badge.
    for card in tree.find_class("change"):
        assert card.find_class("badge")


def test_rule_text_is_untrusted() -> None:
    html = to_html(_pair())
    tree = lxml.html.document_fromstring(html)
    scripts = [s.text or "" for s in tree.iter("script")]
    assert len(scripts) == 1 and "alert" not in scripts[0], "only our own script"
    assert not any(e.get("onerror") for e in tree.iter()), "no attribute comes from input"
    assert not list(tree.iter("img"))
    text = tree.text_content()
    assert "<script>alert('x')</script>" in text
    assert '"><img src=x onerror=alert(1)>' in text
    assert "{{ 7*7 }}" in text and "49" not in text
    md = to_markdown(_pair())
    assert "<script>" not in md and "\\<script\\>" in md


def test_json_schema_and_number_map() -> None:
    d = json.loads(to_json(_pair()))
    assert d["schema"] == "rulediff.diff/1.1"
    assert {"old", "new", "summary", "changes", "number_map"} <= set(d)
    nm = d["number_map"]
    assert nm["702.2"] == "702.3" and nm["702.3b"] == "702.4b" and nm["100.1"] == "100.1"
    assert nm["100.4"] == ["100.4", "100.5"], "a split maps to a list"
    edited = next(c for c in d["changes"] if c["new"] == ["702.4b"])
    assert edited["kind"] == "renumbered_edited" and edited["nature"] == "substantive"
    assert [1, ", or its owner if it has no controller,"] in edited["diff"]
    assert edited["examples"][0]["kind"] == "edited"
    refs = next(c for c in d["changes"] if c["new"] == ["100.3"])
    assert refs["nature"] == "references_only"
    typo = next(c for c in d["changes"] if c["new"] == ["702.1"])
    assert typo["nature"] == "typography_only"
    assert {g["kind"] for g in d["glossary"]} >= {"added", "removed", "edited"}


def test_the_json_written_as_it_is_made_is_the_json(monkeypatch: pytest.MonkeyPatch) -> None:
    """iter_json's pieces make to_json's text, in blocks of about _BLOCK characters (each a change at most
    past it), so a long diff's JSON is never held whole."""
    import rulediff.render.diff_json

    al = _pair()
    assert "".join(iter_json(al)) == to_json(al)
    monkeypatch.setattr(rulediff.render.diff_json, "_BLOCK", 200)
    blocks = list(iter_json(al))
    assert "".join(blocks) == to_json(al)
    longest_change = max(len(json.dumps(c, ensure_ascii=False, indent=1)) * 2 for c in to_dict(al)["changes"])
    assert len(blocks) > 5 and max(map(len, blocks[:-1])) < 200 + longest_change


def test_markdown_reads_like_release_notes() -> None:
    md = to_markdown(_pair())
    assert "### 702.4b (in 702.4 Lifelink)\n\n*Renumbered from 702.3b and changed.*" in md
    assert "source's **controller, or its owner if it has no controller,** to gain" in md
    assert "- 702.2\u2013702.4 with 4 subrules shifted by +1 (now 702.3\u2013702.5)" in md
    assert "### New keyword: Defender (702.2)" in md
    assert "*100.4 was split into 100.4 and 100.5.*" in md


SCRIPT = (
    "import sys; from rulediff import align, parse; from rulediff.render.html import to_html;"
    "from rulediff.render.diff_json import to_json; from rulediff.render.markdown import to_markdown;"
    "al = align(parse(sys.argv[1]), parse(sys.argv[2]));"
    "sys.stdout.write(to_html(al) + to_json(al) + to_markdown(al))"
)


def test_output_is_identical_across_runs_and_hash_seeds() -> None:
    outs = set()
    for seed in ("0", "1", "12345"):
        env = {**os.environ, "PYTHONHASHSEED": seed}
        run = subprocess.run(
            [sys.executable, "-c", SCRIPT, str(PAIR / "old.txt"), str(PAIR / "new.txt")],
            capture_output=True,
            env=env,
            cwd=ROOT,
            check=True,
        )
        outs.add(run.stdout)
    assert len(outs) == 1


def test_templates_are_found_from_the_package() -> None:
    from rulediff.render.templating import template_dir

    assert (template_dir() / "diff.html.j2").is_file()
    assert Path(template_dir()).name == "templates"
