"""What the matcher compares of one document: its tree and each node's comparison forms."""

# What the matcher compares of one document: the tree of every node (levels, parents, children, number labels, raw
# content keys), and each node's comparison forms, worked out the first time a pass asks for them.
#
# Most nodes of a real pair are the same raw text on both sides and are paired on that alone (``match``'s first
# pass), so their normalised, reference-masked forms, titles and word counts are never needed: a consecutive pair
# asks for a few hundred of them instead of every node of both documents.

from __future__ import annotations

import re
import threading
from collections import Counter, OrderedDict
from collections.abc import Callable, Sequence
from functools import lru_cache
from typing import Generic, TypeVar

from ..errors import AlignmentError
from ..model import Document, Rule
from ..text import mask_references, normalize, word_tuple
from .likeness import BUDGET_TIMES

_T = TypeVar("_T")

# The matcher's level of a node without a number (a keyword summary); numbered levels are Level's values.
UNNUMBERED = 4
_RULE = 2

RawKey = str | tuple[str, tuple[str, ...]]


@lru_cache(maxsize=1 << 13)
def title_key(t: str | None) -> str:
    """A title as the matcher compares it, through normalize: "The _Magic_ Golden Rules" and "The Magic Golden
    Rules" are one title. Remembered: titles repeat in every release."""
    if not t:
        return ""  # most nodes have no title
    if t.isascii() and t.replace(" ", "").isalnum() and "  " not in t and t[0] != " " and t[-1] != " ":
        # ASCII words and single spaces ("Bands with Other"), as most titles are: normalize leaves such a
        # text alone but for case, and the key is the text casefolded.
        return t.casefold()
    return _NOT_WORD.sub(" ", normalize(t).casefold()).strip()


_NOT_WORD = re.compile(r"[\W_]+")


@lru_cache(maxsize=1 << 15)
def word_count(text: str) -> int:
    # Both sides of a diff (and consecutive releases) share most texts: count each once.
    return len(word_tuple(text))


# The children of every leaf: one shared empty tuple, so a leaf costs no list of its own and nothing can add
# to every leaf at once.
_LEAF: tuple[int, ...] = ()


class Side:
    """One document as the matcher sees it. Tree facts are lists over every position; the comparison forms
    are methods that compute a node's form on first use and keep it (documents are immutable)."""

    __slots__ = (
        "doc",
        "rules",
        "level",
        "parent",
        "children",
        "labels",
        "raw",
        "dparent",
        "_masked",
        "_key",
        "_body",
        "_folded",
        "_title",
        "_weight",
        "_title_count",
        "_unique_raw",
        "_titled",
        "_by_text",
        "_groups",
    )

    def __init__(self, doc: Document) -> None:
        rules = doc.rules
        n = len(rules)
        self.doc = doc
        self.rules = rules
        level = [UNNUMBERED] * n
        parent = [-1] * n
        # Leaves share one empty tuple; a node's own list is made at its first child.
        children: list[Sequence[int]] = [_LEAF] * n
        labels: list[str | None] = [None] * n
        # The raw content: the text, or with examples the text and theirs (levels are compared apart).
        raw: list[RawKey] = [(r.text, tuple([e.text for e in r.examples])) if r.examples else r.text for r in rules]
        dparent: list[str] = [""] * n
        pos: dict[str, int] = {}
        printed: dict[str, int] = {}  # numbers printed more than once: how often so far
        for i, r in enumerate(rules):
            num = r.number
            if num is None:
                continue  # an unnumbered node (a keyword summary) compares at the rule level
            s = num.spelled or str(num)
            # The level, and the keys of the ancestors nearest first, read off the canonical spelling
            # ("702.15b" -> "702.15", "702", "7"): no RuleNumber is made or hashed per node.
            if num.heading is None:
                lv, p = 0, -1
            elif num.rule is None:
                lv = 1
                up = dparent[i] = s[:1]
                p = pos.get(up, -1)
            elif num.letters:
                lv = 3
                up = dparent[i] = s[: len(s) - len(num.letters)]
                p = pos.get(up, -1)
                if p < 0:
                    p = pos.get(s[:3], -1)
                    if p < 0:
                        p = pos.get(s[:1], -1)
            else:
                lv = 2
                up = dparent[i] = s[:3]
                p = pos.get(up, -1)
                if p < 0:
                    p = pos.get(s[:1], -1)
            level[i] = lv
            if pos.setdefault(s, i) == i:
                labels[i] = s
            else:
                seen = printed[s] = printed.get(s, 1) + 1
                labels[i] = f"{s}#{seen}"
            if p >= 0:
                parent[i] = p
                kids = children[p]
                if kids is _LEAF:
                    children[p] = [i]
                else:
                    kids.append(i)  # type: ignore[attr-defined]  # a list: made just above for its first
        self.level = level
        self.parent = parent
        self.children = children
        self.labels = labels
        self.raw = raw
        self.dparent = dparent
        self._masked: list[str | None] = [None] * n
        self._key: list[str | None] = [None] * n
        self._body: list[str | None] = [None] * n
        self._folded: list[str | None] = [None] * n
        self._title: list[str | None] = [None] * n
        self._weight: list[int] = [-1] * n
        self._title_count: Counter[str] | None = None
        self._unique_raw: dict[RawKey, int] | None = None
        self._titled: list[int] | None = None
        self._by_text: dict[str, list[int]] | None = None
        self._groups: dict[str, list[int]] | None = None

    # -- comparison forms, each computed on first use ----------------------------------------------

    def masked(self, i: int) -> str:
        """The node's own text, normalised, references masked."""
        m = self._masked[i]
        if m is None:
            m = self._masked[i] = mask_references(self.rules[i].norm)
        return m

    def key(self, i: int) -> str:
        """The exact comparison key: level, masked text and masked examples."""
        k = self._key[i]
        if k is None:
            r: Rule = self.rules[i]
            lv = self.level[i]
            ex = "\x1e".join([mask_references(e.norm) for e in r.examples]) if r.examples else ""
            k = self._key[i] = f"{lv if lv != UNNUMBERED else _RULE}\x1f{self.masked(i)}\x1f{ex}"
        return k

    def body(self, i: int) -> str:
        """The masked text for similarity; a headed rule's own text is only its title, its substance is its
        children, so its body includes theirs."""
        b = self._body[i]
        if b is None:
            b = self.masked(i)
            kids = self.children[i]
            if kids and self.level[i] == _RULE and self.rules[i].title:
                b = b + " " + " ".join([self.masked(c) for c in kids])
            self._body[i] = b
        return b

    def folded(self, i: int) -> str:
        """The body casefolded (asked of the same node against many others)."""
        f = self._folded[i]
        if f is None:
            f = self._folded[i] = self.body(i).casefold()
        return f

    def title(self, i: int) -> str:
        t = self._title[i]
        if t is None:
            t = self._title[i] = title_key(self.rules[i].title)
        return t

    def weight(self, i: int) -> int:
        """Words of the node's own masked text."""
        w = self._weight[i]
        if w < 0:
            w = self._weight[i] = word_count(self.masked(i))
        return w

    @property
    def title_count(self) -> Counter[str]:
        """How often each title of a numbered node occurs in the whole document."""
        c = self._title_count
        if c is None:
            c = self._title_count = Counter(
                t for i, r in enumerate(self.rules) if r.title and r.number is not None and (t := self.title(i))
            )
        return c

    @property
    def unique_raw(self) -> dict[RawKey, int]:
        """The raw contents printed once in the whole document, with their positions, in order (worked out once:
        each release of a series is aligned twice, and an alignment may match twice)."""
        u = self._unique_raw
        if u is None:
            raw = self.raw
            count = Counter(raw)
            u = self._unique_raw = {k: i for i, k in enumerate(raw) if count[k] == 1}
        return u

    @property
    def titled(self) -> list[int]:
        """The positions of the nodes with a title (a heading, a titled rule, a keyword entry), in order."""
        t = self._titled
        if t is None:
            t = self._titled = [i for i, r in enumerate(self.rules) if r.title]
        return t

    @property
    def by_text(self) -> dict[str, list[int]]:
        """The positions of the nodes by their raw text (worked out once)."""
        t = self._by_text
        if t is None:
            t = self._by_text = {}
            for i, r in enumerate(self.rules):
                t.setdefault(r.text, []).append(i)
        return t

    def siblings(self, i: int) -> list[int]:
        """Positions of the numbered nodes printed under the same parent number as ``i`` (that number need
        not be printed itself), ``i`` included; [] for an unnumbered node or a section."""
        up = self.dparent[i]
        if not up:
            return []
        groups = self._groups
        if groups is None:
            # Filled before it is shared: another thread reading a half-filled map missed its own number.
            groups = {}
            for k, u in enumerate(self.dparent):
                if u:
                    groups.setdefault(u, []).append(k)
            self._groups = groups
        return groups[up]

    def descendants(self, i: int) -> list[int]:
        out: list[int] = []
        stack = list(self.children[i])
        while stack:
            c = stack.pop()
            out.append(c)
            stack.extend(self.children[c])
        return out


class PerDocument(Generic[_T]):
    """What is worked out of a document, kept for the last few documents asked about (documents are
    immutable). Keyed by identity, each entry holds its document, so the id is not another's while kept; a
    lock for alignments in several threads, the making outside it (two threads may both make one, and
    either is right)."""

    def __init__(self, make: Callable[[Document], _T], size: int = 4) -> None:
        self.make, self.size = make, size
        self.kept: OrderedDict[int, tuple[Document, _T]] = OrderedDict()
        self.lock = threading.Lock()

    def __call__(self, doc: Document) -> _T:
        with self.lock:
            hit = self.kept.get(id(doc))
            if hit is not None and hit[0] is doc:
                self.kept.move_to_end(id(doc))
                return hit[1]
        made = self.make(doc)
        with self.lock:
            self.kept[id(doc)] = (doc, made)
            while len(self.kept) > self.size:
                self.kept.popitem(last=False)
        return made


# Walking a series of releases aligns each one twice (as the newer and then as the older): what a pass
# worked out of a document is kept.
prepared = PerDocument(Side)


def too_much(a: Side, b: Side, fa: list[int], fb: list[int]) -> AlignmentError:
    """The error of a similarity pass over the budget, naming the longest text left to compare (on either
    side: the likeliest cause, whichever release it is in)."""
    size, side, k = max(
        [(len(a.body(i)), a, i) for i in fa] + [(len(b.body(j)), b, j) for j in fb],
        key=lambda t: t[0],
    )
    other = b if side is a else a
    r = side.rules[k]
    return AlignmentError(
        f"too much unlike text to align with {other.doc.version.source}: {r.named} holds {size:,} characters, "
        f"and the alignment would compare more than {BUDGET_TIMES} times as much text as any two real releases",
        source=side.doc.version.source,
        line=r.line,
    )


def number_labels(doc: Document) -> list[str | None]:
    """Each node's number as the number map writes it, "#2" on a number's second printing (2024-09-20's
    two 702.175), references resolving to the first. Made once per document; shared, not to be mutated."""
    return prepared(doc).labels
