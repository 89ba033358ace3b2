"""Marked text: whole words only, excerpts made of the text's own words, long lists as the items that came
and went. Properties over generated edits, and table cases from real rules."""

from __future__ import annotations

import re
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from rulediff.references import find_references
from rulediff.render.passages import CONTEXT_WORDS, Passage, Run, _flags, _runs, _words, list_change, marked, plain
from rulediff.words.diff import word_diff

WORDS = st.sampled_from("the a creature’s mana (see rule 702.15b). abilities, Siege “Battles.” and/or {2} —".split())


def _text(words: list[str]) -> str:
    return " ".join(words)


def _spans(p: Passage) -> list[tuple[int, int]]:
    out: list[list[int]] = []
    at = 0
    for r in p.runs:
        if r.changed and out and out[-1][1] == at:
            out[-1][1] = at + len(r.text)
        elif r.changed:
            out.append([at, at + len(r.text)])
        at += len(r.text)
    return [(a, b) for a, b in out]


@given(st.lists(WORDS, min_size=1, max_size=120), st.lists(WORDS, min_size=1, max_size=120))
def test_marks_sit_on_whole_words_and_excerpts_are_the_texts_words(a: list[str], b: list[str]) -> None:
    old, new = _text(a), _text(b)
    o, n = marked(old, new, {})
    for p, full in ((o, old), (n, new)):
        text = p.text
        for s, e in _spans(p):
            assert s == 0 or text[s - 1].isspace(), text
            assert e == len(text) or text[e].isspace(), text
        for r in p.runs:
            assert r.gap or r.text in full
        if not p.excerpt:
            assert text == full
    assert bool(_spans(o) or _spans(n)) == (old.split() != new.split())


def test_long_rule_is_cut_to_its_changes() -> None:
    filler = " ".join(f"word{k}" for k in range(200))
    o, n = marked(f"{filler} and it ends.", f"{filler} and so it ends.", {})
    assert n.excerpt and n.text.startswith("\u2026 ") and n.text.endswith("and so it ends.")
    assert [r.text for r in n.runs if r.changed] == ["so"]
    assert "word100" not in n.text


def test_a_list_shows_the_items_that_came_and_went() -> None:
    items = ", ".join(f"Type{k}" for k in range(40))
    old = f"Creature types are called so. All other creature types are one word long: Advisor, {items}, Zubera."
    new = old.replace("Type7, ", "Type7, Bison, ").replace("Type9, ", "")
    assert list_change(old, new) == (["Bison"], ["Type9"])
    assert list_change(old, new.replace("Creature types", "Kindreds")) is None, "prose changed too"
    assert list_change("a, b, c", "a, b, d") is None, "too short to be a list"


# -- the fast reading held to the plain one: a word object each, a run made again for every word it takes ------

_PLAIN_TOKEN = re.compile(r"\s+|\S+")


def _plain_words(text: str, flags: list[bool], touched: set[int], link: bool) -> list[tuple[Any, ...]]:
    refs = [
        (ref.start + m.start(), ref.start + m.end(), m.group())
        for ref in (find_references(text) if link else [])
        for m in re.finditer(r"[1-9]\d{2}(?:\.\d{1,3}[a-z]{0,2})?", ref.text)
    ]
    out: list[tuple[Any, ...]] = []
    for m in _PLAIN_TOKEN.finditer(text):
        a, b = m.start(), m.end()
        if m.group().isspace():
            out.append((m.group(), True, False, False, None))
            continue
        changed = any(flags[a:b])
        near = changed or any(a <= p <= b for p in touched)
        at = a
        for s, e, n in (r for r in refs if a <= r[0] <= b and r[1] <= b):
            if s > at:
                out.append((text[at:s], False, changed, near, None))
            out.append((text[s:e], False, changed, near, n))
            at = e
        if at < b:
            out.append((text[at:b], False, changed, near, None))
    return out


def _plain_runs(words: list[tuple[Any, ...]], excerpt: bool) -> tuple[list[Run], bool]:
    keep = [True] * len(words)
    elided = False
    if excerpt:
        word_at = [k for k, w in enumerate(words) if not w[1]]
        hot = [n for n, k in enumerate(word_at) if words[k][3]]
        if hot:
            width = CONTEXT_WORDS
            wanted = {x for n in hot for x in range(max(0, n - width), min(len(word_at), n + width + 1))}
            if len(wanted) < 0.8 * len(word_at):
                elided = True
                kept = {word_at[n] for n in wanted}
                keep = [k in kept or (words[k][1] and k - 1 in kept and k + 1 in kept) for k in range(len(words))]
    runs: list[Run] = []

    def put(text: str, changed: bool, ref: str | None = None, gap: bool = False) -> None:
        last = runs[-1] if runs else None
        if last and not gap and not last.gap and ref is None and last.ref is None and last.changed == changed:
            runs[-1] = Run(last.text + text, changed)
        else:
            runs.append(Run(text, changed, ref, gap))

    for k, (text, space, changed, _, ref) in enumerate(words):
        if not keep[k]:
            if not runs or not runs[-1].gap:
                put(" \u2026 " if runs else "\u2026 ", False, gap=True)
            continue
        if space:
            put(text, 0 < k < len(words) - 1 and words[k - 1][2] and words[k + 1][2])
        else:
            put(text, changed, ref)
    if runs and runs[-1].gap:
        runs[-1] = Run(" \u2026", gap=True)
    return runs, elided


REF_WORDS = st.sampled_from(
    "the a rule 702.15b, rules 601.2b\u2013h section 7 see 613.1d and 702.16 \u00a0 \n x 100.1a.".split(" ")
)


@settings(max_examples=400, deadline=None)
@given(st.lists(REF_WORDS | WORDS, max_size=60), st.lists(REF_WORDS | WORDS, max_size=60), st.booleans())
def test_marked_runs_are_the_word_by_word_runs(a: list[str], b: list[str], link: bool) -> None:
    """marked's tokens and runs (a tuple a token, a run's text joined once) and plain (no token at all) are
    what reading word by word makes: a word object each, runs made again for every word they take."""
    old, new = _text(a), _text(b)
    (ot, of, oto), (nt, nf, nto) = _flags(word_diff(old, new, {}))
    for text, flags, touched in ((ot, of, oto), (nt, nf, nto)):
        want = _plain_words(text, flags, touched, link)
        assert _words(text, flags, touched, link) == want
        for excerpt in (False, True):
            assert _runs(want, excerpt) == _plain_runs(want, excerpt)
    for text in (old, new):
        words = _plain_words(text, [False] * len(text), set(), link)
        assert plain("New", text, link).runs == _plain_runs(words, False)[0]
