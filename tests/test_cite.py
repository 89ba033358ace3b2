"""rulediff cite through click's CliRunner, on an article citing the rules of 2011-02-04 read against 2026-01-16
(releases cut small, tests/fixtures/cite/): Lifelink 702.13 -> 702.15, a renamed keyword (702.86 Totem Armor is
702.89 Umbra Armor, its number Annihilator's now), a gone rule, a range (601.2a-h -> 601.2a-i), an ambiguous
citation (500.5, split in four), a rule gone (700.5, unblockable);
golden reports, --write changing exactly the numbers that moved, --lock and --check, exit codes 0 / 3 / 2."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import given
from hypothesis import strategies as st

from rulediff.archive import Archive
from rulediff.cite import find_citations, rewritten
from rulediff.cite.cited import Cited
from rulediff.cite.follow import Status
from rulediff.cli import main

from .conftest import FIXTURES

CASE = FIXTURES / "cite" / "lifelink-2011-2026"
OLD_NEW = ["--from", "2011-02-04", "--to", "2026-01-16"]


@pytest.fixture(scope="module")
def archive(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("cite") / "a.sqlite"
    with Archive.open(path) as arc:
        for f in sorted(CASE.glob("cr-*.txt")):
            arc.add_file(f)
    return path


def _run(archive: Path, folder: Path, *args: str) -> tuple[int, str, str]:
    """The command run in ``folder`` (files named as an author would name them), its exit code, out and err."""
    runner = CliRunner()
    import os

    here = os.getcwd()
    os.chdir(folder)
    try:
        r = runner.invoke(main, ["--archive", str(archive), "cite", *args])
    finally:
        os.chdir(here)
    return r.exit_code, r.stdout, r.stderr


def _article(folder: Path, name: str = "article.md") -> Path:
    shutil.copy(CASE / name, folder / name)
    return folder / name


def test_the_report_is_golden(archive: Path, tmp_path: Path) -> None:
    _article(tmp_path)
    code, out, err = _run(archive, tmp_path, "article.md", *OLD_NEW)
    assert code == 3, err
    assert out == (CASE / "expected-report.txt").read_text("utf-8")
    assert err == "10 citations: 1 renumbered, 7 edited, 1 gone, 1 ambiguous, 2011-02-04 -> 2026-01-16\n"
    lines = out.splitlines()
    assert "article.md:3: 702.13 -> 702.15: edited (substantive)" in lines  # Lifelink
    assert "article.md:4: 702.86 -> 702.89: edited (substantive)" in lines  # Umbra Armor, not Annihilator
    assert "article.md:5: 601.2a–h -> 601.2a–i: edited" in lines
    assert "article.md:6: 500.5: ambiguous: split into 500.4 and 500.5a and 500.5b" in lines
    assert "article.md:6: 100.5: edited (substantive)" in lines  # a sentence added before its own
    assert "article.md:8: 700.5: gone in 2026-01-16" in lines  # 'unblockable': no rule of 2026 holds it


def test_the_json_report_is_golden(archive: Path, tmp_path: Path) -> None:
    _article(tmp_path)
    code, out, _ = _run(archive, tmp_path, "article.md", *OLD_NEW, "--json")
    assert code == 3
    assert json.loads(out) == json.loads((CASE / "expected-report.json").read_text("utf-8"))
    report = json.loads(out)
    assert report["schema"] == "rulediff.cite/1" and report["rewritten"] == 0
    assert [c["status"] for c in report["citations"]] == [
        "edited", "renumbered", "edited", "edited", "edited", "edited", "edited", "ambiguous", "edited", "gone",
    ]  # fmt: skip


@pytest.mark.parametrize("name", ["article.md", "article.html"])
def test_write_changes_exactly_the_numbers_that_moved(archive: Path, tmp_path: Path, name: str) -> None:
    """Every byte but the numbers that moved is kept: not the gone 700.5, not the split 500.5, not a number in
    an address, an attribute or a comment; the range's end follows its rule (h -> i), Totem Armor's its keyword
    (702.86 -> 702.89)."""
    path = _article(tmp_path, name)
    before = path.read_bytes()
    code, _, err = _run(archive, tmp_path, name, *OLD_NEW, "--write")
    assert code == 3
    after = path.read_bytes()
    assert after == (CASE / f"expected-{name}").read_bytes()
    # nothing else differs: with the old numbers put back where they moved, the text is what it was
    assert (
        after.replace(b"702.15", b"702.13")
        .replace(b"702.89", b"702.86")
        .replace(b"601.2a\xe2\x80\x93i", b"601.2a\xe2\x80\x93h")
        .replace(b"601.2a&ndash;i", b"601.2a&ndash;h")
        == before
    )
    assert b"https://example.org/cr/702.13.html" in after and b'title="rule 702.13"' in after or name == "article.md"
    assert b"rule 702.89;" in after and b"rule 500.5 applies" in after or name == "article.html"
    rewrites = {"article.md": 7, "article.html": 4}[name]
    assert err.endswith(f"; {rewrites} numbers rewritten in {name}\n")
    # written again: every number now current, nothing more to write
    again = path.read_bytes()
    code, _, err = _run(archive, tmp_path, name, "--from", "2026-01-16", "--to", "2026-01-16", "--write")
    assert path.read_bytes() == again and "0 numbers rewritten" in err


def test_every_other_byte_is_kept_crlf_bom_and_bytes_that_are_no_utf8(archive: Path, tmp_path: Path) -> None:
    body = "Lifelink is rule 702.13.\r\nCaf\xe9 au lait, r\xe8gle 702.13a\r\n".encode("cp1252")
    path = tmp_path / "notes.txt"
    path.write_bytes(b"\xef\xbb\xbf" + body)
    code, _, _ = _run(archive, tmp_path, "notes.txt", *OLD_NEW, "--write")
    assert code == 3
    assert path.read_bytes() == b"\xef\xbb\xbf" + body.replace(b"702.13", b"702.15")


def test_a_text_all_current_exits_0(archive: Path, tmp_path: Path) -> None:
    (tmp_path / "new.md").write_text("Lifelink is rule 702.15; see 702.15a-b and CR 601.\n", "utf-8")
    code, out, err = _run(archive, tmp_path, "new.md", "--from", "2026-01-16", "--to", "2026-01-16")
    assert (code, out) == (0, "") and err.startswith("3 citations: 3 unchanged")
    code, out, err = _run(archive, tmp_path, "new.md")  # --from and --to default to the newest release
    assert code == 0 and "2026-01-16 -> 2026-01-16" in err


def test_lock_then_check_fails_once_a_cited_rule_changes(archive: Path, tmp_path: Path) -> None:
    """A lock made against 2026-01-16 checks clean against it; a later release that edits 702.15b (one of the
    cited rules) fails the check, naming the rule; a citation added since the lock fails it too."""
    path = _article(tmp_path)
    code, _, err = _run(archive, tmp_path, "article.md", *OLD_NEW, "--write", "--lock", "article.lock")
    assert code == 3 and "locked 10 citations of article.md to 2026-01-16" in err
    lock = json.loads((tmp_path / "article.lock").read_text("utf-8"))
    assert lock["schema"] == "rulediff.cite-lock/1" and lock["release"]["label"] == "2026-01-16"
    assert set(lock["citations"][0]["rules"]) == {"702.15"}
    code, out, err = _run(archive, tmp_path, "article.md", "--check", "--lock", "article.lock", "--to", "2026-01-16")
    assert (code, out) == (0, ""), out
    # a newer release: 702.15b says something else
    newer = tmp_path / "cr-20260227.txt"
    text = (CASE / "cr-20260116.txt").read_text("utf-8-sig")
    text = text.replace("January 16, 2026", "February 27, 2026")
    assert "702.15b Damage dealt by a source with lifelink" in text
    newer.write_text(
        text.replace("702.15b Damage dealt by a source with lifelink", "702.15b Damage a source with lifelink deals"),
        "utf-8",
    )
    with Archive.open(archive) as arc:
        arc.add_file(newer)
    try:
        code, out, _ = _run(archive, tmp_path, "article.md", "--check", "--lock", "article.lock")
        assert code == 3
        assert "article.md:3: 702.15b: edited since the lock" in out.splitlines()
        assert "702.15: edited since the lock" in out  # cited whole, 702.15 holds 702.15b
        assert "702.15a" not in out
        path.write_text(path.read_text("utf-8") + "See also rule 702.15e.\n", "utf-8")
        code, out, _ = _run(archive, tmp_path, "article.md", "--check", "--lock", "article.lock", "--to", "2026-01-16")
        assert code == 3 and out.strip().endswith("702.15e: not in the lock (cited since it was made)")
    finally:
        with Archive.open(archive) as arc:
            arc.remove("2026-02-27")


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["missing.md", *OLD_NEW], "missing.md: no such file"),
        (["article.md", "--from", "1990-01-01"], "no archived version in force on 1990-01-01"),
        (["article.md", "--from", "nope"], "no archived version 'nope'"),
        (["article.md", "--check"], "--check reads the release from --lock LOCKFILE"),
        (["article.md", "--check", "--lock", "article.md"], "article.md: not a lock file: it is not JSON"),
        (["article.md", "--check", "--lock", "bad.lock"], "bad.lock: not a lock file: expected rulediff.cite-lock/1"),
    ],
)
def test_errors_are_one_line_exit_2(archive: Path, tmp_path: Path, args: list[str], said: str) -> None:
    _article(tmp_path)
    (tmp_path / "bad.lock").write_text('{"schema": "something else"}', "utf-8")
    code, out, err = _run(archive, tmp_path, *args)
    assert code == 2, (out, err)
    assert err.count("\n") == 1 and err.startswith("rulediff: error: ") and said in err, err
    assert "Traceback" not in err


@pytest.mark.parametrize(
    ("text", "cited"),
    [
        ("rule 702.15a", ["702.15a"]),
        ("CR 613.1 and CR 613", ["613.1", "613"]),
        ("[702.15]", ["702.15"]),
        ("rules 506.7a\u2013f", ["506.7a-f"]),
        ("rules 119.9-10", ["119.9-10"]),
        ("section 7 is not followed", []),
        ("version 1.2.3 and $100 are no rules", []),
    ],
)
def test_what_is_read_as_a_citation(text: str, cited: list[str]) -> None:
    found = find_citations(text, "plain")
    assert ["-".join(w.full if w.first else masked(w) for w in c.written) for c in found] == cited


def masked(w: object) -> str:
    from rulediff.cite.cited import _written

    return _written(w)  # type: ignore[arg-type]


_PIECES = st.lists(
    st.sampled_from(
        [
            "rule 702.15a",
            "CR 613",
            "[702.15]",
            "601.2a\u2013h",
            " and ",
            "https://x.org/702.15",
            '<a href="702.15">',
            "\r\n",
            "é",
            " ",
        ]
    ),
    max_size=12,
)


@given(_PIECES, st.sampled_from(["plain", "markdown", "html"]))
def test_a_rewrite_touches_only_the_numbers_it_names(pieces: list[str], fmt: str) -> None:
    """Whatever the text, citations never overlap and lie inside it, and a rewrite changes the bytes of the
    numbers it rewrites and no other."""
    text = "".join(pieces)
    found = find_citations(text, fmt)
    spans = [(w.start, w.end) for c in found for w in c.written]
    assert all(0 <= a < b <= len(text) for a, b in spans)
    assert all(b1 <= a2 for (_, b1), (a2, _) in zip(spans, spans[1:], strict=False))
    edits = tuple((a, b, "X" * (b - a)) for a, b in spans)
    cited = [Cited(c, (), Status.RENUMBERED, tuple(e for e in edits if c.start <= e[0] < c.end)) for c in found]
    out, n = rewritten(text, cited)
    assert n == len(spans) and len(out) == len(text)
    assert all(out[k] == text[k] for k in range(len(text)) if not any(a <= k < b for a, b in spans))
