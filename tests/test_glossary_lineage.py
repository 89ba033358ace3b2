"""The glossary at its edges: a term glued to its first sense, the glossary's matcher (respelled, renamed
throughout, renamed with its definition, a name kept, marked obsolete, uncertain), term lineage through renames
in history and on the site, a glossary index with no junk terms, search that keeps words apart at dashes."""

from __future__ import annotations

import json
import re
import sqlite3
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import lxml.html
import pytest
from click.testing import CliRunner

from rulediff.archive import Archive
from rulediff.cli import main
from rulediff.history import glossary as history_glossary
from rulediff.history.glossary import term_history, term_lines
from rulediff.matcher.glossary import TermPair, pair_terms, spelling_key
from rulediff.parsers import parse_bytes
from rulediff.text import normalize, searchable
from rulediff.words.records import Rename

from .conftest import OfficialSite, cr_file, needs_cr_corpus

HEAD = "Comprehensive Rules\n\nThese rules are effective as of June 18, 2021.\n\n1. Game Concepts\n\n100. General\n\n"
BODY = "100.1. These Magic rules apply to any Magic game.\n\n"


def _official(glossary: str) -> bytes:
    return (HEAD + BODY + "Glossary\n\n" + glossary + "\nCredits\n\nMagic Design.\n").encode()


def test_a_term_glued_to_its_first_sense_is_read_apart_and_reported() -> None:
    doc = parse_bytes(
        _official(
            "Exile1. A zone. Exile is essentially a holding area for cards.\n2. To put an object into the exile zone.\n"
            'See rule 406, "Exile."\n\nRoll a d20\nTo roll a twenty-sided die.\n\n'
            "Version 1. A term ending in one\nNot glued: no second sense follows.\n"
        ),
        "cr-20210618.txt",
        "official-text",
    )
    terms = [g.term for g in doc.glossary]
    assert terms == ["Exile", "Roll a d20", "Version 1. A term ending in one"]
    exile = doc.glossary[0]
    assert exile.senses == (
        "1. A zone. Exile is essentially a holding area for cards.",
        "2. To put an object into the exile zone.",
    )
    (w,) = [w for w in doc.warnings if w.quirk]
    assert w.quirk == "glossary_term_glued_to_sense" and w.code == "typo"
    assert "glossary term 'Exile' printed glued to its sense 1" in w.message


@needs_cr_corpus
def test_the_2021_06_18_glossary_has_no_glued_terms_and_lint_names_all_eleven() -> None:
    r = CliRunner().invoke(main, ["lint", str(cr_file("2021-06-18"))])
    glued = [ln for ln in r.stdout.splitlines() if "printed glued to its sense 1" in ln]
    assert len(glued) == 11
    assert glued[0].startswith(f"{cr_file('2021-06-18')}:5785: typo: glossary term 'Ability'")
    doc = parse_bytes(cr_file("2021-06-18").read_bytes(), "cr-20210618.txt")
    assert not [g.term for g in doc.glossary if re.search(r"[A-Za-z]\d+\.", g.term)]


@dataclass(frozen=True)
class T:
    term: str
    text: str

    @property
    def norm(self) -> str:
        return normalize(self.text)


def _pairs(old: list[T], new: list[T], renames: tuple[Rename, ...] = ()) -> dict[tuple[str, str], TermPair]:
    return {(old[p.old].term, new[p.new].term): p for p in pair_terms(old, new, renames)}


def test_the_same_name_spelled_otherwise_is_the_same_term() -> None:
    text = "Life total is a sort of score."
    got = _pairs(
        [T("Life/Life Total", text), T("?As Though?", "x")], [T("“As though”", "x"), T("Life, Life Total", text)]
    )
    assert {k: p.how for k, p in got.items()} == {
        ("Life/Life Total", "Life, Life Total"): "respelled",
        ("?As Though?", "“As though”"): "respelled",
    }
    assert spelling_key("Counts As (Obsolete)") != spelling_key("Counts As")


def test_a_definition_that_moved_to_a_new_name_is_followed_there_not_to_the_old_name_marked_obsolete() -> None:
    """2024-06-07: "Tribal" became "Kindred"; a new "Tribal (Obsolete)" points at it."""
    old = [T("Tribal", "A card type. Each kindred card has another card type. See rule 308, Kindred.")]
    new = [
        T("Kindred", "A card type. Each kindred card has another card type. See rule 308, Kindred."),
        T("Tribal (Obsolete)", "An obsolete term for kindred."),
    ]
    got = _pairs(old, new)
    assert list(got) == [("Tribal", "Kindred")] and got[("Tribal", "Kindred")].how == "renamed"


def test_a_rename_of_the_release_pairs_terms_whose_text_was_rewritten() -> None:
    old = [T("EDH", "A casual variant.")]
    new = [
        T("Commander", "A variant for multiplayer games, built around a legendary creature."),
        T("EDH (Obsolete)", "An obsolete name."),
    ]
    rename = Rename("EDH", "Commander", (("EDH", "Commander"),), 3)
    assert _pairs(old, new, (rename,))[("EDH", "Commander")].how == "renamed throughout"
    assert _pairs(old, new)[("EDH", "EDH (Obsolete)")].how == "marked obsolete"


def test_a_name_kept_among_new_names_is_followed_with_the_evidence_said() -> None:
    partner = "A keyword ability that lets two legendary creatures be your commander in the Commander variant."
    old = [T("Partner", partner), T("Upkeep", "The part of the turn in which upkeep abilities trigger.")]
    new = [
        T(
            "Partner, “Partner with [name]”",
            partner + " “Partner with [name]” is a variant that also searches a library for the named card when "
            "the creature enters, and lets its controller put that card into a player's hand.",
        ),
        T(
            "Upkeep Step",
            "The second step of the beginning phase, in which abilities that trigger at the beginning of upkeep "
            "trigger.",
        ),
    ]
    got = _pairs(old, new)
    p = got[("Partner", "Partner, “Partner with [name]”")]
    assert p.how == "name kept" and not p.uncertain and "kept among the names" in p.reason
    q = got[("Upkeep", "Upkeep Step")]
    assert q.how == "name kept" and q.uncertain and "kept inside a name" in q.reason


def test_a_term_retired_under_its_old_name_is_followed_however_rewritten() -> None:
    old = [T("Removed from the Game", "A card removed from the game is put into the removed-from-the-game zone.")]
    new = [T("Remove from the Game, Removed, Removed-from-the-Game Zone (Obsolete)", "Obsolete terms for exile.")]
    (p,) = _pairs(old, new).values()
    assert p.how == "marked obsolete" and not p.uncertain


def test_unrelated_terms_are_not_paired() -> None:
    old = [T("Floor Rules", "The rules of tournaments, published apart.")]
    new = [T("Prowl", "A keyword ability that lets a spell be cast for its prowl cost."), T("Floor", "x")]
    assert _pairs(old, new) == {}


def test_search_keeps_words_apart_at_dashes() -> None:
    assert searchable("Game actions\u2014untapping, and mana burn\u2014don\u2019t use the turn-based stack") == (
        "Game actions untapping, and mana burn don't use the turn based stack"
    )
    assert searchable("plain text") == normalize("plain text")


RENAMES = [
    # (the term as last named, a name it had, the release it was first seen in)
    ("Life, Life Total", "Life/Life Total", "1999-04-23"),
    ("Modal, Mode", "Modal/Mode", "1999-04-23"),
    ("Legendary", "Legend/Legend Rule", "1999-04-23"),
    ('Partner, "Partner with [name]"', "Partner", "2016-11-11"),
    ("Remove from the Game, Removed, Removed-from-the-Game Zone (Obsolete)", "Removed from the Game", "1999-04-23"),
    ("Mana Value", "Converted Mana Cost", "1999-04-23"),
    ("Kindred", "Tribal", "2007-05-01"),
]


@pytest.mark.parametrize(("query", "was", "first"), RENAMES)
def test_term_history_follows_renames(official_site: OfficialSite, query: str, was: str, first: str) -> None:
    with Archive.open(official_site.archive, create=False) as arc:
        h = term_history(arc, query)
    assert h is not None
    assert h.stretches[0].first.label == first
    assert was in [s.name for s in h.stretches]
    r = CliRunner().invoke(main, ["history", was, "--glossary", "--archive", str(official_site.archive)])
    assert r.exit_code == 0 and r.stdout.splitlines()[0] == f"{h.title} (glossary)"
    assert f"{first}: {was} first seen" in r.stdout or f"{first} .. " in r.stdout


def _index_terms(site: Path) -> list[tuple[str, str]]:
    tree = lxml.html.parse(str(site / "glossary" / "index.html")).getroot()
    return [
        (li.find("a").text_content(), li.text_content())
        for li in tree.xpath("//ul[contains(@class, 'glossary-terms')]/li")
    ]


def test_the_full_glossary_index_has_no_junk_terms(official_site: OfficialSite) -> None:
    terms = _index_terms(official_site.site)
    junk = [
        t
        for t, _ in terms
        if re.search(r"[A-Za-z]\d+\.", t) or len(t.split()) > 8 or t.rstrip().endswith(".") or "?" in t
    ]
    assert junk == []
    # a renamed term has one page, under its latest name, its former names said
    life = [line for t, line in terms if t == "Life, Life Total"]
    assert life and "since 1999-04-23" in life[0] and "was" not in life[0]  # respelled, not renamed
    value = [line for t, line in terms if t == "Mana Value"]
    assert value and value[0].endswith("since 1999-04-23; was Converted Mana Cost")
    assert not [t for t, _ in terms if t in ("Life/Life Total", "Converted Mana Cost", "Tribal")]
    # no range ends with a release's label (a current term is "since"; a gone one ends on a date)
    assert not [line for _, line in terms if "re-release" in line]


def test_the_site_search_shows_the_text_as_printed(official_site: OfficialSite) -> None:
    script = (official_site.site / "search-index.js").read_text("utf-8")
    assert "actionsuntapping" not in script and "burndon" not in script
    assert "Game actions\u2014untapping" in script


HISTORY = Path(__file__).resolve().parent / "fixtures" / "history" / "mana-burn-obsolete-2009"


def test_search_finds_words_joined_by_a_hyphen(tmp_path: Path) -> None:
    archive = str(tmp_path / "s.sqlite")
    assert CliRunner().invoke(main, ["archive", "add", str(HISTORY), "--archive", archive]).exit_code == 0
    for query in ("two-player game", "two player game", "Two-Headed"):
        r = CliRunner().invoke(main, ["search", query, "--json", "--archive", archive])
        assert r.exit_code == 0 and '"kind": "rule"' in r.stdout, query


def test_an_older_archive_searches_again_once_opened(tmp_path: Path) -> None:
    """An archive made before search kept words apart at hyphens: its search texts are made again when it is
    opened (schema change 9), and the full-text index with them."""
    import sqlite3

    archive = tmp_path / "s.sqlite"
    assert CliRunner().invoke(main, ["archive", "add", str(HISTORY), "--archive", str(archive)]).exit_code == 0
    db = sqlite3.connect(archive, isolation_level=None)
    db.execute("UPDATE bodies SET search = norm")  # as an older rulediff wrote it
    db.execute("INSERT INTO bodies_fts(bodies_fts) VALUES ('rebuild')")
    db.execute("DELETE FROM migrations WHERE id = 9")
    db.close()
    with Archive.open(archive, create=False) as arc:
        assert arc.search("two player game")
        (joined,) = arc.db.execute("SELECT count(*) FROM bodies WHERE search LIKE '%twoplayer%'").fetchone()
    assert joined == 0


class _Kept(dict[str, str]):
    """What the site's StoredParts does for term_lines: JSON by key, None for a key not kept or not readable."""

    def get_json(self, key: str) -> Any:
        try:
            return json.loads(self[key]) if key in self else None
        except ValueError:
            return None

    def put(self, key: str, part: str) -> None:
        self[key] = part


def _lines(arc: Archive, kept: _Kept | None = None) -> list[tuple[Any, ...]]:
    return [(ln.seen, ln.follows, ln.links) for ln in term_lines(arc, arc.versions.timeline(), kept)]


def test_a_kept_glossary_pairing_is_read_back_only_for_the_same_glossaries_and_code(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """term_lines keeps each consecutive pair's pairing by what the matcher reads of the two glossaries and
    the code that paired them: read back, the lines are the same; another glossary text, other code or a
    damaged entry pairs again."""
    archive = tmp_path / "s.sqlite"
    assert CliRunner().invoke(main, ["archive", "add", str(HISTORY), "--archive", str(archive)]).exit_code == 0
    paired: list[int] = []
    real = history_glossary.pair_terms

    def counted(old: Any, new: Any) -> list[TermPair]:
        paired.append(1)
        return real(old, new)

    monkeypatch.setattr(history_glossary, "pair_terms", counted)
    kept = _Kept()
    with Archive.open(archive, create=False) as arc:
        fresh = _lines(arc)
        assert _lines(arc, kept) == fresh and len(kept) == len(paired) // 2 == 4  # a pairing per consecutive pair
        paired.clear()
        assert _lines(arc, kept) == fresh and not paired  # read back, none paired again
        first = sorted(kept)[0]
        kept[first] = json.dumps([[0], [10**6], []])  # a position no glossary has: damaged
        assert _lines(arc, kept) == fresh and len(paired) == 1
        monkeypatch.setattr(history_glossary, "pairing_engine", lambda: "other code")
        paired.clear()
        assert _lines(arc, kept) == fresh and len(paired) == 4 and len(kept) == 8
    db = sqlite3.connect(archive, isolation_level=None)
    db.execute("UPDATE glossary SET norm = 'a text no release has' WHERE pos = 0 AND version_id = 3")
    db.close()
    with Archive.open(archive, create=False) as arc:
        paired.clear()
        changed = _lines(arc, kept)
        assert len(paired) == 2  # the two pairs that glossary is in
        assert changed == _lines(arc)
