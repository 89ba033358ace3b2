"""Every consecutive pair of official releases: the same counts in stderr's line, the Markdown, the HTML,
the notes JSON and the site (the archive's stored alignment); marks and excerpts on whole words; every
edit shows its old and new text; HTML ids unique and every link inside the page resolves."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import lxml.html
import pytest

from rulediff import align, parse
from rulediff.archive import Archive
from rulediff.archive.manifest import entries
from rulediff.matcher.records import MUST_READ, Alignment, Shown, reader_changes, reader_counts
from rulediff.render.html import to_html
from rulediff.render.markdown import to_markdown
from rulediff.render.notes import build_notes
from rulediff.render.notes_json import notes_dict
from rulediff.render.passages import Passage
from rulediff.render.view import Entry, headline
from rulediff.words.diff import Op, Piece, word_diff

from .conftest import cr_txt_files, needs_cr_corpus

pytestmark = [needs_cr_corpus, pytest.mark.sweep]

FILES = cr_txt_files()


@pytest.fixture(scope="module")
def archive(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Archive]:
    path = tmp_path_factory.mktemp("corpus") / "a.sqlite"
    with Archive.open(path) as arc:
        arc.add_many(entries([str(f) for f in FILES]))
        yield arc


def _md_counts(md: str) -> Counter[str]:
    """What the Markdown shows, counted from its text: new rules are '**N** ...' paragraphs under
    'New rules', every other change a '### ' heading whose next line says what happened."""
    c: Counter[str] = Counter()
    part = ""
    lines = md.splitlines()
    for k, line in enumerate(lines):
        if line.startswith("## "):
            part = line[3:]
        elif part == "New rules" and line.startswith("**"):
            c["added"] += 1
        elif part == "Changes" and line.startswith("### "):
            label = lines[k + 2]
            kind = (
                "removed"
                if label == "*Removed.*"
                else "moved"
                if label.startswith("*Moved from")
                else "split"
                if " was split into " in label
                else "merged"
                if " were merged into " in label
                else "edited"
            )
            c[kind] += 1
        elif part == "Glossary" and line.startswith("### "):
            c["glossary"] += 1
    return c


def _whole_words(p: Passage, full: str) -> None:
    text = p.text
    at = 0
    spans: list[list[int]] = []  # changed stretches: consecutive changed runs (a reference is a run of its own)
    for r in p.runs:
        if r.changed and spans and spans[-1][1] == at:
            spans[-1][1] = at + len(r.text)
        elif r.changed:
            spans.append([at, at + len(r.text)])
        if not r.gap:
            assert r.text in full, f"excerpt not from the text: {r.text[:60]!r}"
        at += len(r.text)
    for s, e in spans:
        before = text[s - 1] if s else " "
        after = text[e] if e < len(text) else " "
        assert before.isspace() and after.isspace(), f"mark cuts a word: {text[max(0, s - 20) : e + 20]!r}"
    for gap in re.finditer("\u2026", text):
        # An elision sits between whole words: a space (or the text's end) on its open side.
        s, e = gap.start(), gap.end()
        assert (s == 0 or text[s - 1] == " ") and (e == len(text) or text[e] == " "), text


def _hidden(p: Passage, full: str) -> list[tuple[int, int]]:
    """The stretches of ``full`` an excerpt leaves out, gap by gap (character offsets)."""
    shown = [""]
    for r in p.runs:
        if r.gap:
            shown.append("")
        else:
            shown[-1] += r.text
    out, at = [], 0
    for k, window in enumerate(shown):
        # (an empty window: before a gap that opens the excerpt, or after one that closes it)
        start = full.index(window, at) if window else 0 if k == 0 else len(full)
        if k > 0:
            out.append((at, start))
        at = start + len(window)
    return out


def _pieces_in(pieces: list[Piece], new_side: bool, span: tuple[int, int]) -> list[tuple[int, int, int]]:
    """Which pieces of a word diff a stretch of one side covers: (piece, from, to), offsets inside the piece."""
    out, at = [], 0
    for k, p in enumerate(pieces):
        text = (p.text if p.op != Op.DELETE else "") if new_side else (p.old if p.op == Op.MUTED else p.text)
        if p.op == (Op.DELETE if new_side else Op.INSERT):
            text = ""
        a, b = max(span[0], at), min(span[1], at + len(text))
        if a < b:
            out.append((k, a - at, b - at) if p.op == Op.EQUAL else (k, 0, -1))
        at += len(text)
    return out


def _shared_bounds(al: Alignment, e: Entry, label: str) -> None:
    """Both sides of an excerpted change are cut at the same bounds: each gap leaves out the same stretch of the
    text both sides share (the same equal and muted pieces of the word diff), and no change."""
    if len(e.old) == 1 and len(e.new) == 1 and (e.old[0].excerpt or e.new[0].excerpt):
        o, n = e.old[0], e.new[0]
        assert o.excerpt and n.excerpt, f"{e.number}: one side cut, the other whole: {label}"
        pieces = word_diff(e.old_text, e.new_text, al.number_map)
        was = [_pieces_in(pieces, False, s) for s in _hidden(o, e.old_text)]
        now = [_pieces_in(pieces, True, s) for s in _hidden(n, e.new_text)]
        assert was == now, f"{e.number}: cut at other bounds: {label}"
        hidden = {k for gap in was for k, _, _ in gap}
        assert all(pieces[k].op in (Op.EQUAL, Op.MUTED) for k in hidden), f"{e.number}: a change left out: {label}"


def _check_pair(al: Alignment, stored: dict[str, int]) -> None:
    fresh = al.summary()
    counts = {s.value: n for s, n in reader_counts(fresh).items()}
    label = f"{al.old.version.label} -> {al.new.version.label}"
    assert {s.value: n for s, n in reader_counts(stored).items()} == counts, f"site and CLI differ: {label}"
    notes = build_notes(al)
    assert notes.counts() == counts, label

    md = to_markdown(al)
    assert headline(fresh) in md.replace("\\", "")
    shown_md = _md_counts(md)
    for s in (*MUST_READ, Shown.GLOSSARY):
        assert shown_md[s.value] == counts[s.value], f"Markdown {s.value}: {label}"
    if reader_changes(fresh) == 0 and headline(fresh) == "No changes.":
        assert "No changes." in md

    tree = lxml.html.document_fromstring(to_html(al))
    ids = [e.get("id") for e in tree.iter() if e.get("id")]
    dup = [i for i, n in Counter(ids).items() if n > 1]
    assert not dup, f"duplicate ids {dup[:5]}: {label}"
    for a in tree.iter("a"):
        href = a.get("href") or ""
        if href.startswith("#"):
            assert href[1:] in ids, f"{href} dangles: {label}"
    cards = Counter(a.get("data-kind") for a in tree.iter("article"))
    for s in (*MUST_READ, Shown.GLOSSARY):
        assert cards[s.value] == counts[s.value], f"HTML {s.value}: {label}"
    assert tree.find_class("headline")[0].text_content() == headline(fresh)

    d = notes_dict(al)
    assert d["counts"] == counts and d["headline"] == headline(fresh)

    for e in [*notes.changes, *(e for g in notes.new_rules for e in g.entries)]:
        for p in e.old:
            _whole_words(p, e.old_text)
        for p in e.new:
            _whole_words(p, e.new_text)
        _shared_bounds(al, e, label)
        if e.shown in (Shown.EDITED, Shown.MOVED) and e.old_text != e.new_text:
            assert (e.old and e.new) or e.list_added or e.list_removed, f"{e.number} shows old and new: {label}"
        elif e.shown == Shown.EDITED:
            # The words stayed: an example changed, and shows its old and new text.
            assert any(x.old and x.new or x.label != "Example changed" for x in e.examples), e.number
            assert e.new, f"{e.number} shows its text: {label}"
        assert e.label and not e.label.endswith(("(", ",")), e.label


def test_every_consecutive_pair(archive: Archive) -> None:
    versions = archive.versions.all()
    assert len(versions) == len(FILES)
    stored = archive.alignments.summaries()
    by_name = {f.name: f for f in FILES}
    previous = None
    for v in versions:
        doc = parse(str(by_name[Path(v.source).name]))
        if previous is not None:
            prev_v, prev_doc = previous
            # A pair with hand corrections is read, counted and shown with them applied.
            _check_pair(align(prev_doc, doc, archive.corrections.for_pair(prev_v.id, v.id)), stored[(prev_v.id, v.id)])
            # The site's page for the pair is rendered from the archive's stored alignment.
            site_page = lxml.html.document_fromstring(to_html(archive.alignments.get(f"#{prev_v.id}", f"#{v.id}")))
            assert site_page.find_class("headline")[0].text_content() == headline(stored[(prev_v.id, v.id)])
        previous = (v, doc)
