"""The history pages' keys: a page is rebuilt when (and only when) what it shows changes."""

from __future__ import annotations

import hashlib
import json
from itertools import pairwise
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rulediff.archive import Archive
from rulediff.site.build import build_site
from rulediff.site.history import _runs

_entry = st.tuples(
    st.sampled_from(["702.15", "702.16", None]),
    st.sampled_from(["Lifelink", None]),
    st.integers(1, 3),
    st.sampled_from([(), (("702.15a", 4),), (("702.15a", 5),), (("702.15a", 4), ("702.15b", 6))]),
)


@st.composite
def plans(draw: st.DrawFn) -> list[tuple[object, ...]]:
    # Release positions strictly rising, with gaps (a rule missing from a release), and what the page shows
    # at each from a small alphabet, so that runs of the same form often.
    gaps = draw(st.lists(st.integers(1, 3), max_size=40))
    shown = draw(st.lists(_entry, min_size=len(gaps), max_size=len(gaps)))
    out, k = [], -1
    for gap, (number, title, body, subrules) in zip(gaps, shown, strict=True):
        k += gap
        out.append((k, number, title, body, subrules if number else ()))
    return out


def _runs_of(plan: list[tuple[Any, ...]]) -> list[list[Any]]:
    """``_runs`` of a plan given as (release position, number, title, body, subrules), one release a rule."""
    items = [(1, 100 + k, number, title, body) for k, number, title, body, _ in plan]
    kids = {100 + k: {number or "": ks} for k, number, _, _, ks in plan}
    return _runs(items, {100 + k: k for k, *_ in plan}, kids)


@given(plans())
def test_runs_say_the_whole_plan_and_nothing_else(plan: list[tuple[Any, ...]]) -> None:
    runs = _runs_of(plan)
    back = [(k, *rest) for first, last, *rest in runs for k in range(first, last + 1)]
    assert back == plan  # two plans with one key would be one page for two histories
    # and runs are as long as they can be: no two neighbours could have been one
    assert all(not (b[0] == a[1] + 1 and b[2:] == a[2:]) for a, b in pairwise(runs))


def test_an_unchanged_rule_is_one_run_however_many_releases() -> None:
    plan = [(k, "702.15", "Lifelink", 7, ()) for k in range(10, 130)]
    assert _runs_of(plan) == [[10, 129, "702.15", "Lifelink", 7, ()]]


# Three releases cut from a parser fixture: the effective date changed, and rules added, dropped or renumbered.
_BASE = Path(__file__).resolve().parent / "fixtures" / "parsers" / "official-text" / "lf-only" / "input.txt"


def _release(folder: Path, date: tuple[str, str], edits: list[tuple[str, str]], name: str | None = None) -> Path:
    text = _BASE.read_text("utf-8").replace("July 18, 2014", date[0], 1)
    text = text.replace("See rule 207.2c.", "See rule 100.5.", 1)  # a glossary term names a rule that moves
    for old, new in edits:
        assert old in text
        text = text.replace(old, new, 1)
    path = folder / (name or f"cr-{date[1]}.txt")
    path.write_text(text, "utf-8")
    return path


def _tree(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def test_a_kept_page_whose_references_move_is_made_again(tmp_path: Path) -> None:
    """Adding a release leaves a rule's page alone unless the rule changed in it or a rule its texts name by
    number moved. Here the third release renumbers 100.5 to 100.8 (its page moves to rules/100.8.html) and
    100.2a to 100.2c: the page of 100.7, gone since the second release, names 100.5 in the first, and the
    page of 100.4, unchanged in force, names 100.2a (left dangling in the newest). Both pages are made again,
    and so is the glossary page naming 100.5 in force (a dangling reference in the newest release). The site
    equals one built at once."""
    extra = (
        "100.5. There is no maximum deck size.",
        "100.5. There is no maximum deck size.\n\n100.7. Any deck may be shuffled. See rule 100.5.",
    )
    first = _release(tmp_path, ("July 18, 2014", "20140718"), [extra])
    second = _release(tmp_path, ("September 26, 2014", "20140926"), [])
    text = _BASE.read_text("utf-8")
    tail = text[text.index("100.6b") : text.index("\n", text.index("100.6b"))]
    third = _release(
        tmp_path,
        ("January 23, 2015", "20150123"),
        [
            ("100.5. There is no maximum deck size.\n", ""),
            (tail, tail + "\n\n100.8. There is no maximum deck size."),
            ("100.2a In constructed", "100.2c In constructed"),
        ],
    )
    with Archive.open(tmp_path / "a.sqlite") as arc:
        arc.add_file(first)
        arc.add_file(second)
        build_site(arc, tmp_path / "kept")
        assert 'href="../rules/100.5.html">100.5</a>' in (tmp_path / "kept" / "rules" / "100.7.html").read_text("utf-8")
        assert 'href="../rules/100.2a.html">100.2a</a>' in (tmp_path / "kept" / "rules" / "100.4.html").read_text(
            "utf-8"
        )
        term = tmp_path / "kept" / "glossary" / "ability-word.html"
        assert 'href="../rules/100.5.html">100.5</a>' in term.read_text("utf-8")
        untouched = tmp_path / "kept" / "rules" / "100.6.html"
        before = untouched.stat().st_mtime_ns
        assert "<strong>100.6</strong> 2014-07-18 &#8211; today." in untouched.read_text("utf-8")
        arc.add_file(third)
        build_site(arc, tmp_path / "kept")
        assert untouched.stat().st_mtime_ns == before  # in force, unchanged, its links where they were
        arc.db.execute("DELETE FROM site_parts")
        build_site(arc, tmp_path / "fresh")
    kept = tmp_path / "kept" / "rules"
    assert 'href="../rules/100.8.html">100.5</a>' in (kept / "100.7.html").read_text("utf-8")
    assert ">100.2a</a>" not in (kept / "100.4.html").read_text("utf-8")
    assert "100.2a" in (kept / "100.4.html").read_text("utf-8")
    assert "See rule 100.5." in term.read_text("utf-8")  # the newest release has no 100.5 to link to
    assert _tree(tmp_path / "kept") == _tree(tmp_path / "fresh")


def _as_fresh(arc: Archive, kept: Path, fresh: Path) -> None:
    """The site in ``kept`` equals one built at once into ``fresh`` (no rendered steps reused)."""
    arc.db.execute("DELETE FROM site_parts")
    build_site(arc, fresh)
    assert _tree(kept) == _tree(fresh)


_NINE = (
    "in their area.",
    "in their area.\n\n100.9. Each player starts with twenty life unless a variant says otherwise.",
)


def test_a_glossary_page_whose_last_release_is_replaced_is_made_again(tmp_path: Path) -> None:
    """A term's last run ends in the second release (the third drops it); that release is removed and a
    corrected file of the same date (the same label, another release) added, which has the rule the term
    names: the reference becomes a link. (Found by a review: the key named where a run ends by label only.)"""
    see = ("See rule 100.5.", "See rule 100.9.")
    drop = (
        "Ability Word\nAn italicized word with no rules meaning that ties together abilities on different cards"
        " that have similar functionality. See rule 100.5.\n",
        "",
    )
    first = _release(tmp_path, ("July 18, 2014", "20140718"), [see])
    second = _release(tmp_path, ("September 26, 2014", "20140926"), [see])
    fixed = _release(tmp_path, ("September 26, 2014", "20140926"), [see, _NINE], name="cr-20140926-fixed.txt")
    third = _release(tmp_path, ("January 23, 2015", "20150123"), [drop, _NINE])
    with Archive.open(tmp_path / "a.sqlite") as arc:
        for f in (first, second, third):
            arc.add_file(f)
        build_site(arc, tmp_path / "kept")
        term = tmp_path / "kept" / "glossary" / "ability-word.html"
        assert "See rule 100.9." in term.read_text("utf-8") and "gone from 2015-01-23" in term.read_text("utf-8")
        arc.remove("2014-09-26")
        arc.add_file(fixed)
        build_site(arc, tmp_path / "kept")
        assert 'See rule <a class="ref" href="../rules/100.9.html">100.9</a>.' in term.read_text("utf-8")
        _as_fresh(arc, tmp_path / "kept", tmp_path / "fresh")


def test_a_rule_page_whose_last_release_changes_label_is_made_again(tmp_path: Path) -> None:
    """Three files of one date, labelled in the order archived: 2014-09-26, (re-release 2), (re-release 3).
    Removing (re-release 2) and adding its file again makes it (re-release 3), and the old (re-release 3)
    (re-release 2): the label 100.7's run ends at now names another release, the one that has the 100.9
    100.7 names. (Found by a review: the key named where a run ends by label only.)"""
    rule = ("in their area.", "in their area.\n\n100.7. Any deck may be shuffled before play. See rule 100.9.")
    both = (rule[0], rule[1] + "\n\n" + _NINE[1].split("\n\n", 1)[1])
    day = ("September 26, 2014", "20140926")
    one = _release(tmp_path, day, [rule], name="cr-20140926.txt")
    two = _release(tmp_path, day, [both, ("no maximum deck size", "no largest deck size")], name="cr-20140926-b.txt")
    three = _release(tmp_path, day, [rule, ("100.6b Players", "100.6b Each of the players")], name="cr-20140926-c.txt")
    later = _release(tmp_path, ("January 23, 2015", "20150123"), [])
    with Archive.open(tmp_path / "a.sqlite") as arc:
        for f in (one, two, three, later):
            arc.add_file(f)
        build_site(arc, tmp_path / "kept")
        page = tmp_path / "kept" / "rules" / "100.7.html"
        assert "See rule 100.9." in page.read_text("utf-8")
        arc.remove("2014-09-26 (re-release 2)")
        arc.add_file(two)
        assert [v.label for v in arc.versions.all()][-2] == "2014-09-26 (re-release 3)"
        build_site(arc, tmp_path / "kept")
        assert 'See rule <a class="ref" href="../rules/100.9.html">100.9</a>.' in page.read_text("utf-8")
        _as_fresh(arc, tmp_path / "kept", tmp_path / "fresh")


def test_removing_the_first_release_of_a_date_relabels_the_next_and_its_pages_follow(tmp_path: Path) -> None:
    """Two files of one date: removing the first makes the second the date's own ("2014-09-26", no longer
    "(re-release 2)"); every page that named it by its old label is made again, as a fresh build makes it."""
    rule = ("in their area.", "in their area.\n\n100.7. Any deck may be shuffled before play. See rule 100.9.")
    both = (rule[0], rule[1] + "\n\n" + _NINE[1].split("\n\n", 1)[1])
    day = ("September 26, 2014", "20140926")
    one = _release(tmp_path, day, [rule], name="cr-20140926.txt")
    two = _release(tmp_path, day, [both], name="cr-20140926-b.txt")
    later = _release(tmp_path, ("January 23, 2015", "20150123"), [("no maximum deck size", "no largest deck size")])
    with Archive.open(tmp_path / "a.sqlite") as arc:
        for f in (one, two, later):
            arc.add_file(f)
        build_site(arc, tmp_path / "kept")
        page = (tmp_path / "kept" / "rules" / "100.9.html").read_text("utf-8")
        assert "2014-09-26 (re-release 2)" in page
        arc.remove("2014-09-26")
        assert [v.label for v in arc.versions.all()] == ["2014-09-26", "2015-01-23"]
        build_site(arc, tmp_path / "kept")
        page = (tmp_path / "kept" / "rules" / "100.9.html").read_text("utf-8")
        assert "re-release" not in page and "2014-09-26" in page
        _as_fresh(arc, tmp_path / "kept", tmp_path / "fresh")


def test_pages_are_made_again_by_other_code_or_templates(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every page's key names the code and templates that make it: a rebuild with nothing new looks at
    no page again, and the same rebuild by other code (or templates) renders every page again."""
    from rulediff.site import api as site_api
    from rulediff.site import build as site
    from rulediff.site import glossary as site_glossary
    from rulediff.site import history as site_history
    from rulediff.site import reader as site_reader
    from rulediff.site import reader_pages as site_reader_pages
    from rulediff.support.code_digest import package_digest

    folder = tmp_path / "templates"
    folder.mkdir()
    (folder / "a.j2").write_text("one", "utf-8")
    before = package_digest(folder)
    (folder / "a.j2").write_text("two", "utf-8")
    assert package_digest(folder) != before
    (folder / "b.j2").write_text("", "utf-8")
    assert len({before, package_digest(folder), package_digest(None)}) == 3

    releases = [
        _release(tmp_path, ("July 18, 2014", "20140718"), []),
        _release(tmp_path, ("September 26, 2014", "20140926"), [("no maximum deck", "no largest deck")]),
    ]
    with Archive.open(tmp_path / "a.sqlite") as arc:
        for f in releases:
            arc.add_file(f)
        first = build_site(arc, tmp_path / "out")
        again = build_site(arc, tmp_path / "out")
        assert again["written"] == 0 and again["unchanged"] < 10
        for module in (site, site_glossary, site_history, site_api, site_reader, site_reader_pages):
            monkeypatch.setattr(module, "made_by", lambda: "other code")
        other = build_site(arc, tmp_path / "out")
    # every page rendered again (to the same bytes); only the stamp, its keys new, is written. The small files
    # stamped with the digest of what they hold are made by every build and never read again (tests/test_reader.py)
    stamps = json.loads((tmp_path / "out" / ".rulediff-site.json").read_text("utf-8"))
    keys = {rel: entry[0] if isinstance(entry, list) else entry for rel, entry in stamps.items()}  # [key, digest]
    own = [rel for rel, key in keys.items() if key == hashlib.sha1((tmp_path / "out" / rel).read_bytes()).hexdigest()]
    assert own and all(rel.startswith("cr/") or "/" not in rel for rel in own)
    assert other["written"] == 1 and other["unchanged"] == first["written"] - 1 - len(own)


def test_a_rule_whose_examples_only_moved_down_the_file_keeps_its_page(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A body keeps the line of each of its examples, so a rule with an example is a new body whenever a
    line before it moves: to its page it is the same rule, and its page is not made again."""
    from rulediff.site.writer import SiteWriter

    example = (
        "100.6b Players can use",
        "Example: A match of three games ends when one wins two.\n\n100.6b Players can use",
    )
    earlier = ("no maximum deck size.", "no maximum deck size.\n\n100.5a A deck may hold any number of cards.")
    first = _release(tmp_path, ("July 18, 2014", "20140718"), [example])
    second = _release(tmp_path, ("September 26, 2014", "20140926"), [example, earlier])
    rendered: list[str] = []
    write = SiteWriter.write
    monkeypatch.setattr(SiteWriter, "write", lambda w, rel, *a: (rendered.append(rel), write(w, rel, *a))[1])
    with Archive.open(tmp_path / "a.sqlite") as arc:
        arc.add_file(first)
        build_site(arc, tmp_path / "kept")
        assert "A match of three games" in (tmp_path / "kept" / "rules" / "100.6.html").read_text("utf-8")
        arc.add_file(second)
        docs = [arc.versions.document(v.label) for v in arc.versions.all()]
        lines = [next(r for r in d.rules if str(r.number) == "100.6a").examples[0].line for d in docs]
        assert lines[1] == lines[0] + 2  # the example moved down two lines: the body is another
        assert len(arc.texts.bodies_read_alike()) == 1
        rendered.clear()
        build_site(arc, tmp_path / "kept")
        assert "rules/100.5.html" in rendered and "rules/100.6.html" not in rendered
        _as_fresh(arc, tmp_path / "kept", tmp_path / "fresh")


def test_a_diff_page_follows_a_rule_page_that_moves(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A diff page links each rule it shows to the rule's page. The second release edits 100.5; the fifth
    renumbers it to 100.8, so its page moves to rules/100.8.html: the first pair's page links there once the
    fifth is added, and the second pair's page (100.6a edited) is not rendered again."""
    from rulediff.site.writer import SiteWriter

    edited = ("no maximum deck size.", "no largest deck size.")
    other = ("100.6b Players can use", "100.6b Each player can use")
    text = _BASE.read_text("utf-8")
    tail = text[text.index("100.6b") : text.index("\n", text.index("100.6b"))]
    moved = [
        ("100.5. There is no maximum deck size.\n", ""),
        (tail, tail + "\n\n100.8. There is no largest deck size."),
    ]
    another = ("100.6a Tournaments usually", "100.6a Tournaments often")
    releases = [
        _release(tmp_path, ("July 18, 2014", "20140718"), []),
        _release(tmp_path, ("September 26, 2014", "20140926"), [edited]),
        _release(tmp_path, ("January 23, 2015", "20150123"), [edited, another]),
        _release(tmp_path, ("March 27, 2015", "20150327"), [edited, another, other]),
        _release(tmp_path, ("May 1, 2015", "20150501"), [another, *moved, other]),
    ]
    rendered: list[str] = []
    record = SiteWriter.record
    monkeypatch.setattr(SiteWriter, "record", lambda w, rel, *a: (rendered.append(rel), record(w, rel, *a))[1])
    first = tmp_path / "kept" / "diff" / "2014-07-18--2014-09-26.html"
    with Archive.open(tmp_path / "a.sqlite") as arc:
        for f in releases[:4]:
            arc.add_file(f)
        build_site(arc, tmp_path / "kept")
        assert 'class="history" href="../rules/100.5.html"' in first.read_text("utf-8")
        arc.add_file(releases[4])
        rendered.clear()
        build_site(arc, tmp_path / "kept")
        assert "diff/2014-07-18--2014-09-26.html" in rendered
        assert "diff/2014-09-26--2015-01-23.html" not in rendered
        assert 'class="history" href="../rules/100.8.html"' in first.read_text("utf-8")
        _as_fresh(arc, tmp_path / "kept", tmp_path / "fresh")


@pytest.mark.parametrize("where", ["here", "shared", "worker"])
def test_where_history_steps_are_worked_out_changes_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, where: str
) -> None:
    """A full build works out history steps in batches: here while the diff pages render, then shared with a
    fresh worker process, which takes them from the first while this one takes them from the last
    (site_history.StepWork). Here every page is worked out in one of three batches: all here, or two by the
    worker (a spawned process, every step pickled there and back) and one here, or all by the worker. The
    site and what the archive keeps of it are those of a build that worked out every page here at once."""
    from rulediff.site import step_work as site_history
    from rulediff.site.step_work import StepWork

    releases = [
        _release(tmp_path, ("July 18, 2014", "20140718"), []),
        _release(tmp_path, ("September 26, 2014", "20140926"), [("no maximum deck", "no largest deck")]),
        _release(tmp_path, ("January 23, 2015", "20150123"), [("no maximum deck", "no greatest deck"), _NINE]),
    ]

    def kept(arc: Archive) -> tuple[list[tuple[str, bytes]], list[bytes]]:
        # the ids read off a page are kept by its file's inode (site._ids_on): each site has its own keys
        parts = sorted(data for (data,) in arc.db.execute("SELECT data FROM site_parts"))
        return sorted(arc.db.execute("SELECT key, data FROM edits")), parts

    batches: dict[str, list[int]] = {"here": [], "worker": []}
    here, took, here_while = StepWork._here, StepWork._took, StepWork.here_while

    def count_here(self: StepWork, batch: list[Any]) -> None:
        batches["here"].append(len(batch))
        here(self, batch)

    def count_took(self: StepWork, batch: list[Any], worked: Any) -> None:
        batches["worker"].append(len(batch))
        took(self, batch, worked)

    with Archive.open(tmp_path / "a.sqlite") as arc:
        for f in releases:
            arc.add_file(f)
        monkeypatch.setattr(site_history, "SHARED_WORK", 10**9)
        build_site(arc, tmp_path / "at-once")
        at_once = kept(arc)
        arc.db.execute("DELETE FROM site_parts")  # every page's steps to work out again
        arc.db.execute("DELETE FROM edits")
        monkeypatch.setattr(site_history, "SHARED_WORK", 1)
        monkeypatch.setattr(site_history, "BATCHES", 3)
        monkeypatch.setattr(StepWork, "_here", count_here)
        monkeypatch.setattr(StepWork, "_took", count_took)
        if where == "here":  # the diff pages' workers busy throughout
            monkeypatch.setattr(StepWork, "here_while", lambda self, busy: here_while(self, lambda: True))
        else:  # done before this process had started on a batch
            monkeypatch.setattr(StepWork, "here_while", lambda self, busy: None)
        if where == "worker":
            monkeypatch.setattr(site_history, "HANDED", 3)
        pages = build_site(arc, tmp_path / "batched")["history_pages"]
        batched = kept(arc)
    assert sum(batches["here"]) + sum(batches["worker"]) == pages >= 3 * 3  # three batches of several pages
    assert len(batches["here"]) == {"here": 3, "shared": 1, "worker": 0}[where], batches
    assert len(batches["worker"]) == {"here": 0, "shared": 2, "worker": 3}[where], batches
    assert _tree(tmp_path / "at-once") == _tree(tmp_path / "batched")
    assert batched == at_once
