"""Marked text: whole words only, excerpts made of the text's own words, long lists as the items that came
and went. Properties over generated edits, and table cases from real rules."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from rulediff.marked import Passage, list_change, marked

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
