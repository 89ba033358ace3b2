"""Known edits applied to a real release, with the ground truth of which old node became which new node.

Used by the mutation benchmark (benchmarks/match_mutations.py) and by tests/test_match_mutations.py.
Edits: insert and delete rules and subrules (later numbers shift, cross-references are rewritten to
follow), move subrules and rules across sections, split and merge subrules, light and heavy text edits.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, field

from rulediff.model import Document, Example, Rule, VersionInfo
from rulediff.numbering import Level, RuleNumber, letters_at
from rulediff.references import find_references

_NUMBER = re.compile(r"\b[1-9]\d{2}\.\d{1,3}[a-z]{0,2}\b")
_FILLER = (
    "as described above",
    "unless an effect states otherwise",
    "during the cleanup step",
    "if that player controls a creature",
    "for each opponent",
)
_VOCAB = "token permanent player spell ability creature counter graveyard library battlefield stack".split()


@dataclass(slots=True)
class _Node:
    number: RuleNumber
    text: str
    examples: list[str]
    title: str | None
    origins: list[int]  # positions in the original document this node continues (two after a merge)
    line: int = 0
    ranged: bool = False


@dataclass(slots=True)
class Mutated:
    doc: Document
    truth: set[tuple[int, int]]  # (old position, new position) pairs that really correspond
    untouched: set[int]  # old positions whose text no edit touched (renumbering aside)
    log: list[str] = field(default_factory=list)


def _children(nodes: list[_Node], parent: RuleNumber) -> list[int]:
    return [k for k, n in enumerate(nodes) if n.number.parent == parent]


def _renumber(nodes: list[_Node], mapping: dict[RuleNumber, RuleNumber]) -> None:
    """Apply a renumbering to nodes and to every cross-reference in every text. A range ("rules
    119.7-8") cannot be rewritten number by number, so a node with one that the mapping touches is
    marked ``ranged`` and not counted as untouched."""
    if not mapping:
        return
    as_text = {str(a): str(b) for a, b in mapping.items()}
    for n in nodes:
        for ref in (r for t in (n.text, *n.examples) for r in find_references(t)):
            if len(ref.targets) > 1 and any(t in mapping for t in ref.targets):
                n.ranged = True
        n.number = mapping.get(n.number, n.number)
        n.text = _NUMBER.sub(lambda m: as_text.get(m.group(0), m.group(0)), n.text)
        n.examples = [_NUMBER.sub(lambda m: as_text.get(m.group(0), m.group(0)), e) for e in n.examples]


def _shift_rules(nodes: list[_Node], heading: RuleNumber, start: int, delta: int) -> None:
    """Rules ``heading.start`` and later (with their subrules) move by ``delta``."""
    assert heading.heading is not None
    mapping: dict[RuleNumber, RuleNumber] = {}
    for n in nodes:
        num = n.number
        if num.heading == heading.heading and num.rule is not None and num.rule >= start:
            mapping[num] = RuleNumber(num.section, num.heading, num.rule + delta, num.letters)
    _renumber(nodes, mapping)


def _shift_letters(nodes: list[_Node], rule: RuleNumber, start: int, delta: int) -> None:
    from rulediff.numbering import letter_index

    mapping: dict[RuleNumber, RuleNumber] = {}
    for n in nodes:
        num = n.number
        if num.letters and num.parent == rule and letter_index(num.letters) >= start:
            mapping[num] = rule.with_letters(letters_at(letter_index(num.letters) + delta))
    _renumber(nodes, mapping)


class _NothingToEditError(Exception):
    """This kind of edit has nothing to work on in this document."""


class Mutator:
    def __init__(self, doc: Document, seed: int) -> None:
        self.rng = random.Random(seed)
        self.nodes = [
            _Node(r.number, r.text, [e.text for e in r.examples], r.title, [k], r.line)
            for k, r in enumerate(doc.rules)
            if r.number is not None
        ]
        self.doc = doc
        self.touched: set[int] = set()
        self.log: list[str] = []

    # -- helpers ------------------------------------------------------------------------------

    def _pick(self, level: Level, under: tuple[int, ...] = (1, 2, 3, 4, 5, 6, 7, 8, 9)) -> int:
        cands = [k for k, n in enumerate(self.nodes) if n.number.level == level and n.number.section in under]
        return self._choice(cands)

    def _choice(self, cands: list[int]) -> int:
        if not cands:
            raise _NothingToEditError
        return self.rng.choice(cands)

    def _touch(self, n: _Node) -> None:
        self.touched.update(n.origins)

    def _gone(self, number: RuleNumber) -> None:
        """``number`` stops existing: every text that refers to it now dangles or, after the shift, points
        at another rule -- a real edit to those texts, so they are no longer untouched."""
        for n in self.nodes:
            if any(number in r.targets for t in (n.text, *n.examples) for r in find_references(t)):
                self._touch(n)

    def _sentence(self) -> str:
        w = self.rng.sample(_VOCAB, 4)
        return f"A {w[0]} that becomes a {w[1]} is treated as a new {w[2]} with no {w[3]}."

    # -- edits --------------------------------------------------------------------------------

    def insert_rule(self) -> None:
        k = self._pick(Level.RULE, (1, 2, 3, 4, 5, 6, 7))
        num = self.nodes[k].number
        assert num.rule is not None and num.heading is not None
        _shift_rules(self.nodes, RuleNumber(num.section, num.heading), num.rule, +1)
        new = _Node(num, self._sentence() + " " + self._sentence(), [], None, [])
        self.nodes.insert(k, new)
        self.log.append(f"insert rule {num}")

    def delete_rule(self) -> None:
        k = self._pick(Level.RULE)
        num = self.nodes[k].number
        assert num.rule is not None and num.heading is not None
        gone = [k, *_children(self.nodes, num)]
        for g in sorted(gone, reverse=True):
            self._touch(self.nodes[g])
            self._gone(self.nodes[g].number)
            del self.nodes[g]
        _shift_rules(self.nodes, RuleNumber(num.section, num.heading), num.rule + 1, -1)
        self.log.append(f"delete rule {num}")

    def insert_subrule(self) -> None:
        from rulediff.numbering import letter_index

        k = self._pick(Level.SUBRULE)
        num = self.nodes[k].number
        parent = num.parent
        assert parent is not None
        _shift_letters(self.nodes, parent, letter_index(num.letters), +1)
        self.nodes.insert(k, _Node(num, self._sentence(), [], None, []))
        self.log.append(f"insert subrule {num}")

    def delete_subrule(self) -> None:
        from rulediff.numbering import letter_index

        k = self._pick(Level.SUBRULE)
        n = self.nodes.pop(k)
        self._touch(n)
        self._gone(n.number)
        assert n.number.parent is not None
        _shift_letters(self.nodes, n.number.parent, letter_index(n.number.letters) + 1, -1)
        self.log.append(f"delete subrule {n.number}")

    def move_subrule(self) -> None:
        """A subrule leaves its rule (later letters close up) and becomes the last subrule of a rule
        in another section. One simultaneous renumbering, so references follow every node."""
        from rulediff.numbering import letter_index

        k = self._pick(Level.SUBRULE)
        n = self.nodes[k]
        src = n.number
        assert src.parent is not None
        targets = [
            t
            for t, m in enumerate(self.nodes)
            if m.number.level == Level.RULE and m.number.heading != src.heading and _children(self.nodes, m.number)
        ]
        t = self._choice(targets)
        last = self.nodes[_children(self.nodes, self.nodes[t].number)[-1]].number
        dest = self.nodes[t].number.with_letters(letters_at(letter_index(last.letters) + 1))
        mapping = {src: dest}
        for m in self.nodes:
            if (
                m.number.parent == src.parent
                and m.number.letters
                and letter_index(m.number.letters) > letter_index(src.letters)
            ):
                mapping[m.number] = src.parent.with_letters(letters_at(letter_index(m.number.letters) - 1))
        self.nodes.pop(k)
        _renumber([*self.nodes, n], mapping)
        after = max(p for p, m in enumerate(self.nodes) if m.number.parent == dest.parent or m.number == dest.parent)
        self.nodes.insert(after + 1, n)
        self.log.append(f"move subrule {src} -> {dest}")

    def move_rule(self) -> None:
        """A rule with its subrules leaves its heading and becomes the last rule of another heading."""
        k = self._pick(Level.RULE, (1, 2, 3, 4, 5, 6, 7))
        src = self.nodes[k].number
        assert src.heading is not None and src.rule is not None
        block = [k, *_children(self.nodes, src)]
        with_rules = {m.number.heading for m in self.nodes if m.number.level == Level.RULE}
        headings = [
            m.number
            for m in self.nodes
            if m.number.level == Level.HEADING and m.number.heading != src.heading and m.number.heading in with_rules
        ]
        if not headings:
            raise _NothingToEditError
        dest = self.rng.choice(headings)
        assert dest.heading is not None
        new_rule = max(m.number.rule or 0 for m in self.nodes if m.number.heading == dest.heading) + 1
        mapping: dict[RuleNumber, RuleNumber] = {}
        for b in block:
            num = self.nodes[b].number
            mapping[num] = RuleNumber(dest.section, dest.heading, new_rule, num.letters)
        for m in self.nodes:
            num = m.number
            if num.heading == src.heading and num.rule is not None and num.rule > src.rule:
                mapping[num] = RuleNumber(num.section, num.heading, num.rule - 1, num.letters)
        moving = [self.nodes[b] for b in block]
        for b in sorted(block, reverse=True):
            del self.nodes[b]
        _renumber([*self.nodes, *moving], mapping)
        last_pos = max(p for p, m in enumerate(self.nodes) if m.number.heading == dest.heading)
        self.nodes[last_pos + 1 : last_pos + 1] = moving
        self.log.append(f"move rule {src} -> {mapping[src]}")

    def split_subrule(self) -> None:
        from rulediff.numbering import letter_index

        cands = [k for k, n in enumerate(self.nodes) if n.number.level == Level.SUBRULE and n.text.count(". ") >= 2]
        k = self._choice(cands)
        n = self.nodes[k]
        sentences = n.text.split(". ")
        cut = max(1, len(sentences) // 2)
        first, second = ". ".join(sentences[:cut]) + ".", ". ".join(sentences[cut:])
        assert n.number.parent is not None
        _shift_letters(self.nodes, n.number.parent, letter_index(n.number.letters) + 1, +1)
        n.text = first
        self._touch(n)
        nxt = _Node(
            n.number.with_letters(letters_at(letter_index(n.number.letters) + 1)), second, [], None, list(n.origins)
        )
        self.nodes.insert(k + 1, nxt)
        self.log.append(f"split subrule {n.number}")

    def merge_subrules(self) -> None:
        from rulediff.numbering import letter_index

        cands = [
            k
            for k in range(len(self.nodes) - 1)
            if self.nodes[k].number.level == Level.SUBRULE
            and self.nodes[k + 1].number.parent == self.nodes[k].number.parent
            and len(self.nodes[k].text) + len(self.nodes[k + 1].text) > 120
        ]
        k = self._choice(cands)
        a, b = self.nodes[k], self.nodes.pop(k + 1)
        self._gone(b.number)
        a.text = f"{a.text} {b.text}"
        a.examples += b.examples
        a.origins += b.origins
        self._touch(a)
        assert b.number.parent is not None
        _shift_letters(self.nodes, b.number.parent, letter_index(b.number.letters) + 1, -1)
        self.log.append(f"merge {a.number} + {b.number}")

    def light_edit(self) -> None:
        k = self._pick(self.rng.choice([Level.RULE, Level.SUBRULE]))
        n = self.nodes[k]
        if n.title or len(n.text.split()) < 6:
            return
        w = n.text.split()
        w.insert(self.rng.randrange(1, len(w)), self.rng.choice(_FILLER))
        n.text = " ".join(w)
        self._touch(n)
        self.log.append(f"light edit {n.number}")

    def heavy_edit(self) -> None:
        k = self._pick(Level.SUBRULE)
        n = self.nodes[k]
        w = n.text.split()
        if len(w) < 12:
            return
        for p in self.rng.sample(range(len(w)), len(w) // 3):
            w[p] = self.rng.choice(_VOCAB)
        n.text = " ".join(w)
        self._touch(n)
        self.log.append(f"heavy edit {n.number}")

    EDITS = (
        "insert_rule",
        "delete_rule",
        "insert_subrule",
        "delete_subrule",
        "move_subrule",
        "move_rule",
        "split_subrule",
        "merge_subrules",
        "light_edit",
        "heavy_edit",
    )

    def run(self, n_edits: int) -> Mutated:
        for _ in range(n_edits):
            try:
                getattr(self, self.rng.choice(self.EDITS))()
            except _NothingToEditError:
                self.log.append("skipped: nothing to edit that way")
        rules: list[Rule] = []
        truth: set[tuple[int, int]] = set()
        numbered = [k for k, r in enumerate(self.doc.rules) if r.number is not None]
        offset = len(self.doc.rules) - len(numbered)
        for pos, n in enumerate(self.nodes):
            rules.append(
                Rule.make(
                    n.number, n.text, pos + 1, title=n.title, examples=(Example.make(e, pos + 1) for e in n.examples)
                )
            )
            for o in n.origins:
                truth.add((o, pos))
        v = self.doc.version
        doc = Document(
            VersionInfo(f"{v.label}+mutated", v.effective_date, v.source, v.format, v.sha256),
            tuple(rules),
            self.doc.glossary,
            self.doc.coverage,
        )
        ranged = {o for n in self.nodes if n.ranged for o in n.origins}
        untouched = {k for k in numbered if k not in self.touched and k not in ranged}
        assert offset == 0, "mutations start from fully numbered releases"
        return Mutated(doc, truth, untouched, self.log)


def mutate(doc: Document, seed: int, n_edits: int = 40) -> Mutated:
    """``doc`` with ``n_edits`` random known edits, and the truth about which node is which."""
    return Mutator(doc, seed).run(n_edits)


def score(predicted: set[tuple[int, int]], truth: set[tuple[int, int]]) -> tuple[float, float]:
    """Precision and recall of predicted (old, new) pairs against the truth."""
    hit = len(predicted & truth)
    return (hit / len(predicted) if predicted else 1.0, hit / len(truth) if truth else 1.0)
