"""Marked text: whole words only, excerpts made of the text's own words, long lists as the items that came
and went. Properties over generated edits, and table cases from real rules."""

from __future__ import annotations

import re
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from rulediff.references import find_references
from rulediff.render.excerpts import shared_windows
from rulediff.render.passages import Passage, Run, _flags, _runs, _words, list_change, marked, marked_by_parts, plain
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


def _plain_words(text: str, flags: list[bool], link: bool) -> list[tuple[Any, ...]]:
    refs = [
        (ref.start + m.start(), ref.start + m.end(), m.group())
        for ref in (find_references(text) if link else [])
        for m in re.finditer(r"[1-9]\d{2}(?:\.\d{1,3}[a-z]{0,2})?", ref.text)
    ]
    out: list[tuple[Any, ...]] = []
    for m in _PLAIN_TOKEN.finditer(text):
        a, b = m.start(), m.end()
        if m.group().isspace():
            out.append((m.group(), True, False, None))
            continue
        changed = any(flags[a:b])
        at = a
        for s, e, n in (r for r in refs if a <= r[0] <= b and r[1] <= b):
            if s > at:
                out.append((text[at:s], False, changed, None))
            out.append((text[s:e], False, changed, n))
            at = e
        if at < b:
            out.append((text[at:b], False, changed, None))
    return out


def _plain_runs(words: list[tuple[Any, ...]], shown: list[tuple[int, int]] | None) -> tuple[list[Run], bool]:
    keep = [True] * len(words)
    if shown:
        starts = [sum(len(w[0]) for w in words[:k]) for k in range(len(words))]
        inside = [not w[1] and any(a <= at < b for a, b in shown) for w, at in zip(words, starts, strict=True)]
        keep = [
            inside[k] or (words[k][1] and 0 < k < len(words) - 1 and inside[k - 1] and inside[k + 1])
            for k in range(len(words))
        ]
    runs: list[Run] = []

    def put(text: str, changed: bool, ref: str | None = None, gap: bool = False) -> None:
        last = runs[-1] if runs else None
        if last and not gap and not last.gap and ref is None and last.ref is None and last.changed == changed:
            runs[-1] = Run(last.text + text, changed)
        else:
            runs.append(Run(text, changed, ref, gap))

    for k, (text, space, changed, ref) in enumerate(words):
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
    return runs, bool(shown)


REF_WORDS = st.sampled_from(
    "the a rule 702.15b, rules 601.2b\u2013h section 7 see 613.1d and 702.16 \u00a0 \n x 100.1a.".split(" ")
)


@settings(max_examples=400, deadline=None)
@given(st.lists(REF_WORDS | WORDS, max_size=60), st.lists(REF_WORDS | WORDS, max_size=60), st.booleans())
def test_marked_runs_are_the_word_by_word_runs(a: list[str], b: list[str], link: bool) -> None:
    """marked's tokens and runs (a tuple a token, a run's text joined once) and plain (no token at all) are
    what reading word by word makes: a word object each, runs made again for every word they take."""
    old, new = _text(a), _text(b)
    pieces = word_diff(old, new, {})
    (ot, of), (nt, nf) = _flags(pieces)
    shown = shared_windows(pieces)
    for text, flags, side in ((ot, of, 0), (nt, nf, 1)):
        want = _plain_words(text, flags, link)
        assert _words(text, flags, link) == want
        for spans in (None, shown[side] if shown else None):
            assert _runs(want, spans) == _plain_runs(want, spans)
    for text in (old, new):
        words = _plain_words(text, [False] * len(text), link)
        assert plain("New", text, link).runs == _plain_runs(words, None)[0]


# 601.2a as 2025-11-14 and 2026-01-16 print it (a sentence inserted), 506.4 as 2026-06-19 and 2026-08-07 do (two
# words inserted into a long sentence).
R601_2A = (
    "To propose the casting of a spell, a player first moves that card (or that copy of a card) from where it is "
    "to the stack. It becomes the topmost object on the stack. It has all the characteristics of the card (or the "
    "copy of a card) associated with it, and that player becomes its controller. Any continuous effects that "
    "modify the characteristics of the spell as you start casting it begin as it is put on the stack (see rule "
    "611.2f). The spell remains on the stack until it resolves, it\u2019s countered, or a rule or effect moves it "
    "elsewhere."
)
R601_2A_NEW = R601_2A.replace(
    "(see rule 611.2f). ",
    "(see rule 611.2f). Any one-shot effects that cause the spell to gain abilities as you cast it apply as it is "
    "put on the stack (see rule 610.5). ",
)
R506_4 = (
    "A permanent is removed from combat if it leaves the battlefield, if its controller changes, if it phases out, "
    "if an effect specifically removes it from combat, if it\u2019s a planeswalker that\u2019s being attacked and "
    "stops being a planeswalker, if it\u2019s a battle that\u2019s being attacked and stops being a battle, or if "
    "it\u2019s an attacking or blocking creature that regenerates (see rule 701.19), stops being a creature, or "
    "becomes a battle. A creature that\u2019s removed from combat stops being an attacking, blocking, blocked, "
    "and/or unblocked creature. A planeswalker or battle that\u2019s removed from combat stops being attacked."
)


def _shown(p: Passage, mark: str) -> str:
    """The passage with each stretch of marked runs between ``mark``'s two characters."""
    out, inside = [], False
    for r in p.runs:
        if r.changed != inside:
            out.append(mark[0] if r.changed else mark[1])
            inside = r.changed
        out.append(r.text)
    return "".join(out) + (mark[1] if inside else "")


def test_excerpts_of_real_rules_cut_both_sides_at_the_same_sentence_or_clause() -> None:
    o, n = marked(R601_2A, R601_2A_NEW, {})
    context = (
        "Any continuous effects that modify the characteristics of the spell as you start casting it begin as it "
        "is put on the stack (see rule 611.2f). "
    )
    after = (
        "The spell remains on the stack until it resolves, it\u2019s countered, or a rule or effect moves it elsewhere."
    )
    assert o.excerpt and n.excerpt
    assert o.text == "\u2026 " + context + after
    inserted = "Any one-shot effects that cause the spell to gain abilities as you cast it apply as it is put on"
    assert _shown(n, "{}") == "\u2026 " + context + "{" + inserted + " the stack (see rule 610.5).} " + after
    o, n = marked(R506_4, R506_4.replace("controller changes", "controller or protector changes"), {})
    head = "A permanent is removed from combat if it leaves the battlefield, if its controller "
    tail = "changes, if it phases out, if an effect specifically removes it from combat, \u2026"
    assert o.text == head + tail
    assert _shown(n, "{}") == head + "{or protector} " + tail


SENTENCE_WORDS = st.sampled_from("the creature player mana attacks; blocks, it. Then (see so and".split())


@settings(max_examples=300, deadline=None)
@given(st.lists(SENTENCE_WORDS, min_size=80, max_size=200), st.data())
def test_excerpts_show_the_same_words_around_each_change_on_both_sides(a: list[str], data: st.DataObject) -> None:
    """Whatever the edit, an excerpt keeps on each side the same stretches of the text both sides share: with its
    marked words taken out, the old excerpt reads as the new one, gap for gap."""
    b = list(a)
    for _ in range(data.draw(st.integers(1, 4))):
        at = data.draw(st.integers(0, len(b)))
        cut = data.draw(st.integers(0, 3))
        b[at : at + cut] = data.draw(st.lists(SENTENCE_WORDS, max_size=4))
    old, new = _text(a), _text(b)
    o, n = marked(old, new, {})
    assert o.excerpt == n.excerpt
    if not o.excerpt:
        return

    def windows(p: Passage) -> list[str]:
        out = [""]
        for r in p.runs:
            if r.gap:
                out.append("")
            elif not r.changed:
                out[-1] += r.text
        return [" ".join(w.split()) for w in out]

    assert windows(o) == windows(n)


# 2009-07-11's 419.6h and the three rules it was split into, the one its split stands by (613.11a) first.
R419_6H = (
    "Some effects replace card draws. These effects are applied even if no cards could be drawn because there are no"
    " cards in the affected player's library. If an effect replaces a draw within a sequence of card draws, all"
    " actions required by the replacement are completed, if possible, before resuming the sequence."
)
R613_11 = (
    "Some effects replace card draws. These effects are applied even if no cards could be drawn because there are no"
    " cards in the affected player's library."
)
R613_11A = (
    "If an effect replaces a draw within a sequence of card draws, all actions required by the replacement are"
    " completed, if possible, before resuming the sequence."
)


def test_a_split_marks_only_what_no_part_kept_whatever_order_the_parts_come_in() -> None:
    p = marked_by_parts(R419_6H, [R613_11A, R613_11], {}, new=False)
    assert p.text == R419_6H and not _spans(p)
    # (read against the parts put together alone, the opening that 613.11 kept was marked as gone)
    o, _ = marked(R419_6H, "\n".join([R613_11A, R613_11]), {})
    assert _spans(o)
    p = marked_by_parts(R419_6H + " Then it ends.", [R613_11A, R613_11], {}, new=False)
    assert [p.text[s:e] for s, e in _spans(p)] == ["Then it ends."]


def test_a_merge_marks_only_what_no_source_said() -> None:
    p = marked_by_parts(R419_6H + " Then it ends.", [R613_11A, R613_11], {}, new=True)
    assert [p.text[s:e] for s, e in _spans(p)] == ["Then it ends."]
