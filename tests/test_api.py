"""The site's JSON API: every file follows its shipped schema (checked by a JSON Schema validator), a bot reading it
over HTTP (127.0.0.1) and from file:// gets what the command line answers, and adding a release rewrites only the
API files it changes."""

from __future__ import annotations

import json
import re
import shutil
import threading
from collections.abc import Iterator
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import urljoin
from urllib.request import urlopen

import pytest
from click.testing import CliRunner
from jsonschema import Draft202012Validator

from rulediff.archive import Archive
from rulediff.cli import main
from rulediff.site.api import schema_texts
from rulediff.site.build import build_site

from .conftest import FIXTURES, cr_file, needs_cr_corpus

CUT = FIXTURES / "history" / "mana-burn-obsolete-2009"


def _site(root: Path, files: list[Path], names: list[list[str]] | None = None) -> tuple[Path, Path]:
    """An archive of ``files`` (each release named by ``archive describe ARGS`` for each of ``names``) and its
    site with the API."""
    archive, site = root / "a.sqlite", root / "site"
    with Archive.open(archive) as arc:
        for f in files:
            arc.add_file(f)
    for args in names or []:
        r = CliRunner().invoke(main, ["archive", "describe", *args, "--archive", str(archive)])
        assert r.exit_code == 0, r.output
    with Archive.open(archive) as arc:
        build_site(arc, site)
    return archive, site


@pytest.fixture(scope="module")
def cut_site(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    names = [
        ["2009-07-11", "--set", "M10", "--set-name", "Magic 2010", "--bulletin", "https://example.org/m10-bulletin"],
        ["2014-05-01", "--set", "JOU", "--set-name", "Journey into Nyx"],
    ]
    return _site(tmp_path_factory.mktemp("api"), sorted(CUT.glob("cr-*.txt")), names)


def _validators() -> dict[str, Draft202012Validator]:
    out = {}
    for name, text in schema_texts().items():
        schema = json.loads(text)
        Draft202012Validator.check_schema(schema)
        out[name] = Draft202012Validator(schema)
    return out


def _endpoint_patterns(index: dict[str, Any]) -> list[tuple[re.Pattern[str], str]]:
    """Each endpoint of api/index.json as a pattern over file paths, with the schema file its files follow."""
    out = []
    for e in index["endpoints"]:
        pattern = re.escape(e["path"]).replace(r"\{", "{").replace(r"\}", "}")
        pattern = re.sub(r"\{[a-z]+\}", r"[^/]+", pattern)
        out.append((re.compile(pattern), e["schema_file"].rsplit("/", 1)[1]))
    return out


def test_every_api_file_follows_its_schema(cut_site: tuple[Path, Path]) -> None:
    """Walk the whole API: each file is named by an endpoint of api/index.json and validates against the schema
    that endpoint names; the schemas are the ones shipped, and are valid JSON Schemas themselves."""
    _, site = cut_site
    validators = _validators()
    index = json.loads((site / "api" / "index.json").read_text("utf-8"))
    patterns = _endpoint_patterns(index)
    assert set(index["schemas"].values()) == {f"api/schemas/{n}" for n in validators}
    checked: dict[str, int] = {}
    for path in sorted((site / "api").rglob("*")):
        if not path.is_file():
            continue
        rel = path.relative_to(site).as_posix()
        if rel.startswith("api/schemas/"):
            assert path.read_text("utf-8") == schema_texts()[path.name]
            continue
        found = [schema for pattern, schema in patterns if pattern.fullmatch(rel)]
        assert found, f"{rel} is no endpoint of api/index.json"
        data = json.loads(path.read_text("utf-8"))
        errors = [f"{'/'.join(map(str, e.absolute_path))}: {e.message}" for e in validators[found[0]].iter_errors(data)]
        assert not errors, f"{rel}: {errors[:3]}"
        checked[found[0]] = checked.get(found[0], 0) + 1
    # five releases, four consecutive pairs, one file per rule page, and one of each list
    rule_pages = len(list((site / "rules").glob("*.html"))) - 1  # (rules/index.html)
    assert checked["document.schema.json"] == 5 + 1 and checked["diff.schema.json"] == 4 + 1
    assert checked["notes.schema.json"] == 4 + 1 and checked["history.schema.json"] == rule_pages
    for name in ("releases", "latest", "glossary", "keywords", "api"):
        assert checked[f"{name}.schema.json"] == 1


def test_the_command_line_json_follows_the_same_schemas(cut_site: tuple[Path, Path]) -> None:
    """The shapes the API ships are the command line's: parse --json, diff --format json and notes validate."""
    archive, _ = cut_site
    validators = _validators()
    runs = {
        "document.schema.json": ["parse", str(CUT / "cr-20110204.txt"), "--json"],
        "diff.schema.json": ["diff", "2009-05-01", "2011-02-04", "--format", "json"],
        "notes.schema.json": ["diff", "2009-05-01", "2011-02-04", "--format", "notes"],
    }
    for schema, args in runs.items():
        r = CliRunner().invoke(main, ["--archive", str(archive), *args])
        assert r.exit_code == 0, r.output
        errors = list(validators[schema].iter_errors(json.loads(r.stdout)))
        assert not errors, f"{args}: {[e.message for e in errors[:3]]}"


class _Quiet(SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 (the standard library's name)
        pass


@pytest.fixture
def served(cut_site: tuple[Path, Path]) -> Iterator[str]:
    """The cut fixture's site served on 127.0.0.1 by a plain static file server."""
    yield from _serve(cut_site[1])


def _serve(site: Path) -> Iterator[str]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), partial(_Quiet, directory=str(site)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()
        thread.join()


class Bot:
    """Reads the API as a bot would: from a base URL, by the paths api/index.json and the files give."""

    def __init__(self, base: str) -> None:
        self.base = base
        self.index = self.get("api/index.json")

    def get(self, rel: str) -> Any:
        with urlopen(urljoin(self.base, rel), timeout=30) as response:
            return json.loads(response.read().decode("utf-8"))

    def endpoint(self, template: str, **values: str) -> Any:
        path = next(e["path"] for e in self.index["endpoints"] if e["path"] == template)
        for k, v in values.items():
            path = path.replace("{" + k + "}", v)
        return self.get(path)


def _cli(archive: Path, *args: str) -> Any:
    r = CliRunner().invoke(main, ["--archive", str(archive), *args])
    assert r.exit_code == 0, r.output
    return json.loads(r.stdout)


def _shared(a: dict[str, Any], b: dict[str, Any]) -> dict[str, tuple[Any, Any]]:
    """The fields two answers share that differ."""
    return {k: (a[k], b[k]) for k in set(a) & set(b) if a[k] != b[k]}


def _bot_asks(
    base: str, archive: Path, newest: Path, pair: tuple[str, str], rule: tuple[str, str], keyword: str, term: str
) -> None:
    """The questions a bot asks, each answered by the API as the command line answers it: the latest release
    (``newest`` is its file), rule ``rule[0]`` with its lineage back to ``rule[1]``, the diff of ``pair`` (the
    newest), the keyword ``keyword`` and the glossary term ``term``."""
    bot = Bot(base)
    latest = bot.endpoint("api/latest.json")
    releases = bot.endpoint("api/releases.json")["releases"]
    assert latest["release"] == releases[0] and latest["release"]["label"] == pair[1]
    r = CliRunner().invoke(main, ["--archive", str(archive), "archive", "list", "--json"])
    listed = [json.loads(line) for line in r.stdout.splitlines()]
    assert [r["label"] for r in releases] == [r["label"] for r in reversed(listed)]
    assert not _shared(releases[0], listed[-1]) and releases[0]["counts"]["rules"] == listed[-1]["rules"]
    # the newest release, whole: as 'rulediff parse --json' reads its file, but for where the file was and the
    # lint findings parse adds to the parser's warnings (rulediff lint FILE)
    doc = bot.get(latest["aliases"]["document"])
    assert doc == bot.get(latest["release"]["paths"]["document"])
    parsed = _cli(archive, "parse", str(newest), "--json")
    parsed["version"]["source"] = doc["version"]["source"] = None
    assert all(w in parsed["warnings"] for w in doc["warnings"])
    parsed["warnings"] = doc["warnings"]
    assert not _shared(doc, parsed) and set(doc) == set(parsed)
    # the newest diff and its notes: as 'rulediff diff OLD NEW' writes them
    diff = bot.get(latest["aliases"]["diff"])
    assert diff == _cli(archive, "diff", *pair, "--format", "json")
    assert bot.get(latest["aliases"]["notes"]) == _cli(archive, "diff", *pair, "--format", "notes")
    # a rule and its lineage: what 'rulediff history NUMBER --format json' says, each text once per stretch
    got = bot.endpoint("api/rules/{number}.json", number=rule[0])
    history = _cli(archive, "history", rule[0], "--format", "json")
    assert got["number"] == rule[0] and rule[1] in [n["number"] for n in got["numbers"]]
    assert len(got["stretches"]) == len(history["stretches"])
    for mine, theirs in zip(got["stretches"], history["stretches"], strict=True):
        assert not _shared(mine, theirs) and mine["from"] == theirs["from"]
    for mine, theirs in zip(got["numbers"], history["numbers"], strict=True):
        assert not _shared(mine, theirs)
    assert set(_shared(got, history)) == {"schema", "numbers", "stretches"}  # (1.1: "until", not "to")
    # a keyword: its number now and the release it is first in, as the history of its name says
    kw = next(k for k in bot.endpoint("api/keywords.json")["keyword_abilities"] if k["name"] == keyword)
    said = _cli(archive, "history", keyword.lower(), "--format", "json")
    assert kw["number"] == said["numbers"][-1]["number"] == rule[0] and kw["first"] == said["versions"][0]["label"]
    assert bot.get(kw["rule"]) == got and rule[1] in kw["formerly"]
    # a glossary term: its name, text, first and last release, as the term's history says
    entry = next(t for t in bot.endpoint("api/glossary.json")["terms"] if t["key"] == term.lower())
    told = _cli(archive, "history", term, "--glossary", "--format", "json")
    assert entry["term"] == told["term"] and entry["text"] == told["stretches"][-1]["text"]
    assert (entry["first"], entry["last"]) == (told["stretches"][0]["from"], told["stretches"][-1]["to"])


# What the bot asks of the cut fixture: its newest release's file, the newest pair, a rule and the number it had
# before, a keyword, a glossary term.
CUT_ASKED = (CUT / "cr-20140501.txt", ("2014-02-01", "2014-05-01"), ("702.15", "702.13"), "Lifelink", "Mana Burn")


def test_a_bot_reads_the_api_over_http(cut_site: tuple[Path, Path], served: str) -> None:
    _bot_asks(served, cut_site[0], *CUT_ASKED)


def test_a_bot_reads_the_api_from_file_urls(cut_site: tuple[Path, Path]) -> None:
    archive, site = cut_site
    _bot_asks(site.resolve().as_uri() + "/", archive, *CUT_ASKED)


@needs_cr_corpus
def test_a_bot_reads_the_api_of_official_releases(tmp_path: Path) -> None:
    """2011-02-04, 2025-11-14 and 2026-01-16: 702.15 (Lifelink) back to 702.13, the diff 2025-11-14 -> 2026-01-16,
    the keyword Lifelink, the glossary's Mana Burn; over HTTP and from file://."""
    files = [cr_file(d) for d in ("2011-02-04", "2025-11-14", "2026-01-16")]
    archive, site = _site(tmp_path, files)
    asked = (archive, files[-1], ("2025-11-14", "2026-01-16"), ("702.15", "702.13"), "Lifelink", "Mana Burn")
    for base in _serve(site):
        _bot_asks(base, *asked)
    _bot_asks(site.resolve().as_uri() + "/", *asked)


def _files(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def _stamps(site: Path) -> dict[str, str]:
    stamps: dict[str, str] = json.loads((site / ".rulediff-site.json").read_text("utf-8"))
    return stamps


def test_adding_a_release_rewrites_only_the_api_files_it_changes(tmp_path: Path) -> None:
    """A release added: its document, the new pair's diff and notes, the lists and aliases are written; the API
    files of the rules it changed are made again with their pages, and no others; the site then equals one built
    at once, byte for byte."""
    files = sorted(CUT.glob("cr-*.txt"))
    kept, fresh = tmp_path / "kept", tmp_path / "fresh"
    with Archive.open(tmp_path / "a.sqlite") as arc:
        for f in files[:-1]:
            arc.add_file(f)
        build_site(arc, kept)
        before, stamped = _files(kept), _stamps(kept)
        arc.add_file(files[-1])
        build_site(arc, kept)
        after, restamped = _files(kept), _stamps(kept)
        arc.db.execute("DELETE FROM site_parts")
        build_site(arc, fresh)
    assert after == _files(fresh)
    remade = {rel for rel in restamped if rel.startswith("api/") and rel in stamped and restamped[rel] != stamped[rel]}
    added = {rel for rel in after if rel.startswith("api/") and rel not in before}
    assert added == {
        "api/releases/2014-05-01.json",
        "api/diffs/2014-02-01--2014-05-01.json",
        "api/notes/2014-02-01--2014-05-01.json",
    }
    pages = {rel for rel in restamped if rel.startswith("rules/") and stamped.get(rel) != restamped[rel]}
    api_rules = {rel for rel in remade if rel.startswith("api/rules/")}
    assert api_rules <= {"api/" + p.removesuffix(".html") + ".json" for p in pages}
    lists = {"api/releases.json", "api/latest.json", "api/glossary.json", "api/keywords.json"}
    aliases = {"api/latest/release.json", "api/latest/diff.json", "api/latest/notes.json"}
    assert remade - api_rules <= lists | aliases
    assert not {rel for rel in remade if rel.startswith(("api/releases/", "api/diffs/", "api/notes/", "api/schemas/"))}
    # what was made again changed (here, every file made again), and what changed was made again
    changed = {rel for rel in after if rel.startswith("api/") and rel in before and after[rel] != before[rel]}
    assert changed == remade and aliases | {"api/releases.json", "api/latest.json"} <= changed


def test_no_api_leaves_it_out_and_removes_what_an_earlier_build_wrote(
    cut_site: tuple[Path, Path], tmp_path: Path
) -> None:
    archive, site = cut_site
    copy = tmp_path / "site"
    shutil.copytree(site, copy)
    r = CliRunner().invoke(main, ["report", "-o", str(copy), "--no-api", "--archive", str(archive)])
    assert r.exit_code == 0, r.output
    assert not list((copy / "api").rglob("*.json")) and (copy / "index.html").is_file()
    assert not any(rel.startswith("api/") for rel in _stamps(copy))
    r = CliRunner().invoke(main, ["report", "-o", str(copy), "--archive", str(archive)])
    assert r.exit_code == 0, r.output
    assert _files(copy) == _files(site)
    elsewhere = tmp_path / "none"
    r = CliRunner().invoke(main, ["report", "-o", str(elsewhere), "--no-api", "--archive", str(archive)])
    assert r.exit_code == 0 and not (elsewhere / "api").exists()


def test_the_api_of_every_official_release(official_site: Any) -> None:
    """The whole official corpus: a document per release, a diff and notes per consecutive pair, a file per rule
    page, within 250 MB; the release list follows its schema and names the releases the shipped data names."""
    site: Path = official_site.site
    api = site / "api"
    files = [p for p in api.rglob("*") if p.is_file()]
    assert sum(p.stat().st_size for p in files) <= 250 * 2**20
    releases = json.loads((api / "releases.json").read_text("utf-8"))
    assert not list(_validators()["releases.schema.json"].iter_errors(releases))
    entries = releases["releases"]
    assert len(entries) == len(list((api / "releases").glob("*.json"))) == 136
    assert len(list((api / "diffs").glob("*.json"))) == len(list((api / "notes").glob("*.json"))) == 135
    assert len(list((api / "rules").glob("*.json"))) == len(list((site / "rules").glob("*.html"))) - 1
    named = {e["code"]: e for e in entries if e["code"]}
    assert named["THB"]["label"] == "2020-01-24" and named["IKO_2"]["rerelease"] == "Companion Change"
    assert named["IKO"]["bulletin"].startswith("https://magic.wizards.com/") and named["6ED"]["label"] == "1999-04-23"
    assert entries[0]["paths"]["diff"] == f"api/diffs/{entries[1]['slug']}--{entries[0]['slug']}.json"
    keywords = json.loads((api / "keywords.json").read_text("utf-8"))
    lifelink = next(k for k in keywords["keyword_abilities"] if k["name"] == "Lifelink")
    assert lifelink["number"] == "702.15" and lifelink["went_out"] is None and "702.13" in lifelink["formerly"]
    words = {w["name"]: w for w in keywords["ability_words"]}
    assert words["threshold"]["went_out"] is None and words["landfall"]["came_in"]


def test_an_archive_of_one_release_has_its_document_and_no_diff(tmp_path: Path) -> None:
    _, site = _site(tmp_path, [CUT / "cr-20110204.txt"])
    latest = json.loads((site / "api" / "latest.json").read_text("utf-8"))
    assert latest["aliases"] == {"document": "api/latest/release.json", "diff": None, "notes": None}
    assert latest["release"]["paths"]["diff"] is None and latest["release"]["counts"]["changes"] is None
    doc = (site / "api" / "releases" / "2011-02-04.json").read_bytes()
    assert doc == (site / "api" / "latest" / "release.json").read_bytes()
    assert not list(_validators()["latest.schema.json"].iter_errors(latest))
    assert not list(_validators()["document.schema.json"].iter_errors(json.loads(doc)))
    assert not (site / "api" / "diffs").exists()
