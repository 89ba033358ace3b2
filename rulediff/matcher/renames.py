"""Release-wide term substitutions (EDH -> Commander, Tribal -> Kindred) detected from a pair of releases."""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import replace
from functools import lru_cache

from rapidfuzz.distance import Indel

from ..model import Document, Rule
from ..words.records import Rename
from ..words.renames import joined_texts, new_spellings, old_spellings, renamed, text_users, uses
from .likeness import Likeness
from .passes import match
from .records import Pair
from .sides import PerDocument

# A substitution is a rename only when the same word pair changed in at least this many rules: a word
# changed in a handful of rules is an edit.
MIN_RULES = 5
# ... or in this many when one of them is a rule's title: the name of the thing changed ("702.89. Totem
# Armor" -> "Umbra Armor", and its rule's text with it).
MIN_NAMED = 2
# ... and the old term (mostly) left the release: at most this share of its occurrences remain.
MAX_LEFT = 0.2
# ... and, of the paired rules that used the old term, at least this share now use the new one.
MIN_CONSISTENT = 0.6
# A rename that travels with another one found in the same rules may leave its old word in use in
# another sense, if at least this share of the changed rules that used it switched.
COMPANION_CONSISTENT = 0.9
# Longest term considered, in words ("Planar Magic", "totem armor").
MAX_WORDS = 3
# Endings a term keeps through a rename: "generals" -> "commanders", "general's" -> "commander's".
_ENDINGS = ("'s", "s")
_TOKEN = re.compile(r"\w+(?:'\w+)?|[^\w\s]")
_WORD = re.compile(r"[^\W\d_][\w]*(?:'\w+)?")
_NEXT = re.compile(r"[ \t]+(\w+)")
_ARTICLES = frozenset({"a", "an", "the"})


def _plain(text: str) -> str:
    return text.replace("\u2019", "'") if "\u2019" in text else text


@lru_cache(maxsize=1 << 11)
def _tokens(text: str) -> list[str]:
    # Remembered (and shared: not to be changed): a rename's second matching asks about the same texts.
    t = _plain(text)
    if _DOMAIN.search(t):  # (a few texts: the whole pattern costs more than this search)
        t = _URL.sub(_AN_ADDRESS, t)
    return _TOKEN.findall(t)


# A web address is no word of the rules: when a release moves its pages ("Magic/TCG/Events.aspx" ->
# "wpn/Events/Rules.aspx", 2011-05-01) no term is renamed. Each address is one token, which no term holds.
# (Only the aligned tokens: the words counted in the whole release still include an address's, which can
# only keep an old word "in use" and so stop a rename, never make one.)
_DOMAIN = re.compile(r"\.(?:com|net|org)\b", re.I)
# An address starts where a run of name characters and dots does, never inside one: tried at every position
# of a long run ("a.a.a...", untrusted text), the pattern would read the rest of the run each time. Its path
# stops before a sentence's closing punctuation.
_URL = re.compile(
    r"(?<![\w-])(?<![\w-]\.)(?:https?://)?(?:[\w-]+\.)+(?:com|net|org)\b"
    r"(?:/(?:[^\s<>()\"]*[^\s<>()\".,;:!?\]])?)?",
    re.I,
)
_AN_ADDRESS = "\x00"
# Longer texts are not aligned token by token (the alignment's memory grows with the product of the two
# lengths): no rule comes near it, and a rename shows in many rules, not in one text of a hostile size.
_MAX_TOKENS = 5000


@lru_cache(maxsize=1 << 10)
def _replaced(a: str, b: str) -> tuple[tuple[int, int, int, int], ...]:
    """The stretches of tokens of ``a`` that ``b`` replaces by others, as (a0, a1, b0, b1): the gaps between
    the blocks of a longest common subsequence of the tokens where both sides have some, found by rapidfuzz
    (in C, bit-parallel; difflib's matcher takes the longest block first, which is no alignment in
    particular). Remembered like the tokens."""
    ta, tb = _tokens(a), _tokens(b)
    if len(ta) > _MAX_TOKENS or len(tb) > _MAX_TOKENS:
        return ()
    out: list[tuple[int, int, int, int]] = []
    i = j = 0
    for block in Indel.editops(ta, tb).as_matching_blocks():
        if i < block.a and j < block.b:
            out.append((i, block.a, j, block.b))
        i, j = block.a + block.size, block.b + block.size
    return tuple(out)


@lru_cache(maxsize=1 << 14)
def _words(text: str) -> frozenset[str]:
    # Remembered: consecutive releases share most texts, and a series aligns each release twice.
    return frozenset(_WORD.findall(_plain(text)))


def _is_term(tokens: Sequence[str]) -> bool:
    # Words only, one of them a real word: a subrule letter ("601.2h" -> "601.2g") is no term.
    return 0 < len(tokens) <= MAX_WORDS and all(t[0].isalpha() for t in tokens) and any(len(t) >= 3 for t in tokens)


def _trim(a: list[str], b: list[str]) -> tuple[list[str], list[str]]:
    """The term pair inside a replaced stretch: articles dropped ("an EDH" -> "a Commander" is EDH ->
    Commander), and an ending both last words share ("generals" -> "commanders")."""
    if len(a) > 1 and len(b) > 1 and a[0].casefold() in _ARTICLES and b[0].casefold() in _ARTICLES:
        a, b = a[1:], b[1:]
    for end in _ENDINGS:
        if a[-1].endswith(end) and b[-1].endswith(end) and len(a[-1]) > len(end) + 1 and len(b[-1]) > len(end) + 1:
            return [*a[:-1], a[-1][: -len(end)]], [*b[:-1], b[-1][: -len(end)]]
    return a, b


def _ends(spellings: tuple[str, ...], text: str) -> list[int]:
    """Where each whole-word occurrence of any of ``spellings`` in ``text`` ends (its ending included).
    str.find, not a regex: a release is a megabyte, and a regex scan of it costs ten times as much."""
    out: list[int] = []
    for s in spellings:
        k = text.find(s)
        while k >= 0:
            end = k + len(s)
            if text.startswith(("'s", "\u2019s"), end):
                end += 2
            elif text.startswith("s", end):
                end += 1
            if (k == 0 or not _inside(text[k - 1])) and (end == len(text) or not _inside(text[end])):
                out.append(end)
            k = text.find(s, k + 1)
    return out


def _inside(c: str) -> bool:
    return c.isalnum() or c in "_'\u2019"


class _Release:
    """Every word of a document as one string (see :func:`_text`), and where spellings end in it, each found
    once: the detection after a rename's second matching, and :func:`_widen`, ask about the same spellings in
    the same releases again (a scan of a release is a millisecond)."""

    __slots__ = ("text", "_ends")

    def __init__(self, doc: Document) -> None:
        self.text = _text(doc)
        self._ends: dict[tuple[str, ...], list[int]] = {}

    def ends(self, spellings: tuple[str, ...]) -> list[int]:
        """:func:`_ends` of ``spellings`` in the release (shared: not to be changed)."""
        found = self._ends.get(spellings)
        if found is None:
            found = self._ends[spellings] = _ends(spellings, self.text)
        return found

    def count(self, spellings: tuple[str, ...]) -> int:
        return len(self.ends(spellings))


# Each document's release text, kept as the matcher keeps its sides.
_release = PerDocument(_Release)


def _text(doc: Document) -> str:
    """Every word of ``doc`` (rules, examples, glossary) as one string, one text a line: one regex scan
    counts a term in the whole release."""
    out = [r.text for r in doc.rules]
    out.extend(e.text for r in doc.rules for e in r.examples)
    out.extend(g.text for g in doc.glossary)
    out.extend(g.term for g in doc.glossary)
    return "\n".join(out)


def detect(old: Document, new: Document, pairs: Iterable[tuple[int, int]]) -> tuple[Rename, ...]:
    """The renames of ``old`` -> ``new`` seen in the paired rules (positions): a word pair replaced in
    at least MIN_RULES rules (MIN_NAMED when it also renamed a rule's title), in most of the paired
    rules that used the old term, whose old term then (mostly) disappears from the new release. Never
    from a list: the pair itself says it."""
    pairs = list(pairs)
    return _detect(old, new, [(i, j) for i, j in pairs if edited(old.rules[i], new.rules[j])], dict(pairs))


def edited(a: Rule, b: Rule) -> bool:
    """The two texts differ beyond typography (compared as normalised text, computed once and kept)."""
    return a.text != b.text and a.norm != b.norm


def _detect(old: Document, new: Document, changed: list[tuple[int, int]], a2b: dict[int, int]) -> tuple[Rename, ...]:
    """:func:`detect` given the paired positions whose texts differ beyond typography (``changed``) among all
    the pairs (``a2b``)."""
    edited = [*changed, *_same_number_titles(old, new, a2b)]
    # Cheap filter first: a rename's old word is lost by several edited rules and kept by almost none;
    # most pairs have no such word and stop here.
    lost: Counter[str] = Counter()
    kept: Counter[str] = Counter()
    titled: set[str] = set()  # words a rule's title lost
    for i, j in edited:
        wa, wb = _words(old.rules[i].text), _words(new.rules[j].text)
        lost.update(wa - wb)
        kept.update(wa & wb)
        ta, tb = old.rules[i].title, new.rules[j].title
        if ta and ta != tb:
            titled |= _words(ta) - _words(tb or "")
    candidates = {
        w for w, n in lost.items() if n >= (MIN_NAMED if w in titled else MIN_RULES) and kept[w] <= MAX_LEFT * n
    }
    if not candidates:
        return ()
    seen: dict[tuple[str, str], set[int]] = defaultdict(set)
    spelled: dict[tuple[str, str], Counter[tuple[str, str]]] = defaultdict(Counter)
    named: set[tuple[str, str]] = set()
    for i, j in edited:
        if _no_word_token_in(candidates, old.rules[i].text):
            continue
        toks_a, toks_b = _tokens(old.rules[i].text), _tokens(new.rules[j].text)
        if candidates.isdisjoint(toks_a):
            continue
        for a0, a1, b0, b1 in _replaced(old.rules[i].text, new.rules[j].text):
            if candidates.isdisjoint(toks_a[a0:a1]):
                continue
            a, b = _trim(toks_a[a0:a1], toks_b[b0:b1])
            if not _is_term(a) or not _is_term(b):
                continue
            key = (" ".join(a).casefold(), " ".join(b).casefold())
            seen[key].add(i)
            spelled[key][(" ".join(a), " ".join(b))] += 1
            title = old.rules[i].title
            if title and " ".join(a) in _plain(title):
                named.add(key)
    old_words, new_words = _release(old), _release(new)
    edited_texts = [old.rules[i].text for i, _ in edited]
    edited_joined, starts = joined_texts(edited_texts)
    found: list[Rename] = []
    found_in: list[set[int]] = []
    for key, rules in sorted(seen.items(), key=lambda kv: (-len(kv[1]), kv[0])):
        if len(rules) < (MIN_NAMED if key in named else MIN_RULES):
            continue
        if any(f" {key[0]} " in f" {f.old.casefold()} " or f" {f.old.casefold()} " in f" {key[0]} " for f in found):
            continue  # a longer or shorter stretch of a rename already found
        spellings = _spellings(spelled[key])
        olds, news = old_spellings(spellings), new_spellings(spellings)
        users = [edited[x] for x in text_users(edited_texts, edited_joined, starts, olds)]
        switched = sum(1 for i, j in users if uses(new.rules[j].text, news) and not uses(new.rules[j].text, olds))
        before = old_words.count(olds)
        if switched < MIN_CONSISTENT * len(users) or not before:
            continue
        if new_words.count(olds) > MAX_LEFT * before:
            # The old word lives on in another sense ("general" of the Emperor variant, "in general"):
            # still a rename when it travels with one already found (EDH -> Commander took "general"
            # -> "commander" with it) in most of its rules, and every edited rule that used it switched.
            companion = any(len(rules & other) * 2 >= len(rules) for other in found_in)
            if not companion or switched < COMPANION_CONSISTENT * len(users):
                continue
        found.append(_widen(Rename(*spelled[key].most_common(1)[0][0], spellings), old_words, new_words))
        found_in.append(rules)
    return tuple(found)


def _no_word_token_in(words: set[str], text: str) -> bool:
    """None of ``words`` (each a letter first) is a token of ``text``, told from its _words (already known) where
    they say it: a token that starts with a letter is the _WORD match starting there, unless the match before it
    took the apostrophe its token had left ("3'Z'Z": tokens "3'Z", "'", "Z"; words "Z'Z"), which needs two
    apostrophes in one chain of word characters -- such a text is tokenised."""
    if ("'" in text or "\u2019" in text) and _CHAINED.search(_plain(text)):
        return False
    return words.isdisjoint(_words(text))


# (Starting with the apostrophe, looked behind after: searched for at C speed, where a leading \w is tried at
# nearly every position. test_shortcuts holds it to r"\w'\w+'".)
_CHAINED = re.compile(r"'(?<=\w')\w+'")


def _spellings(seen: Counter[tuple[str, str]]) -> tuple[tuple[str, str], ...]:
    """One new spelling per old spelling, the most used: "Tribal" -> "Kindred", "tribal" -> "kindred"."""
    out: dict[str, str] = {}
    for (a, b), _ in sorted(seen.items(), key=lambda kv: (-kv[1], kv[0])):
        out.setdefault(a, b)
    return tuple(sorted(out.items()))


def _same_number_titles(old: Document, new: Document, a2b: dict[int, int]) -> list[tuple[int, int]]:
    """Unpaired titled rules that kept their number: "702.89. Totem Armor" -> "702.89. Umbra Armor".
    Their titles are evidence of a rename (the matcher could not pair them because of it)."""
    # Unpaired positions only (set differences at C speed): a few per pair, where walking every rule with
    # its number would cost more.
    free_a = sorted(set(range(len(old.rules))).difference(a2b))
    lone = {str(old.rules[i].number): i for i in free_a if old.rules[i].title}
    if not lone:
        return []
    out = []
    for j in sorted(set(range(len(new.rules))).difference(a2b.values())):
        rb = new.rules[j]
        if not rb.title or rb.number is None:
            continue
        i = lone.get(str(rb.number))
        if i is not None and old.rules[i].number is not None and old.rules[i].title != rb.title:
            out.append((i, j))
    return sorted(out)


def _widen(r: Rename, old_words: _Release, new_words: _Release) -> Rename:
    """A term that always comes with the same next word is named with it: "Totem" -> "Umbra" is shown
    "Totem armor" -> "Umbra armor" when every totem was armor and every umbra is (the substitution
    itself stays the detected one)."""
    olds, news = old_spellings(r.spellings), new_spellings(r.spellings)
    after_old = _next_words(olds, old_words)
    after_new = _next_words(news, new_words)
    if len(after_old) != 1 or after_old != after_new or "" in after_old:
        return r
    w = next(iter(after_old))
    return Rename(f"{r.old} {w}", f"{r.new} {w}", r.spellings, r.rules)


def _next_words(spellings: tuple[str, ...], release: _Release) -> set[str]:
    out: set[str] = set()
    text = release.text
    for end in release.ends(spellings):
        m = _NEXT.match(text, end)
        out.add(m.group(1).casefold() if m else "")
    if not out:
        out.add("")  # some occurrence is followed by no word at all
    return out


def through_renames(
    old: Document, new: Document, pairs: list[Pair], likeness: Likeness | None = None
) -> tuple[list[Pair], tuple[Rename, ...]]:
    """The matcher's ``pairs`` and the renames they show; when there are some, the pairs of ``old`` read
    in the new release's words, so the rules a rename touched (903 "EDH" -> "Commander" and its
    subrules) stay linked. Positions are those of ``old`` either way."""
    renames = _detect_pairs(old, new, pairs)
    for _ in range(2):
        if not renames:
            break
        read = renamed(old, renames, new)
        # Equal raw content was judged on the renamed texts: it holds only for the rules the renames left alone.
        before = pairs
        pairs = [
            p if not p.same or read.rules[p.old] is old.rules[p.old] else replace(p, same=False)
            for p in match(read, new, likeness)
        ]
        if [(p.old, p.new, p.same) for p in pairs] == [(p.old, p.new, p.same) for p in before]:
            break  # the renames linked nothing new: detecting again from the same links finds the same renames
        # The rules now linked may show a companion rename ("general" -> "commander"): once more then.
        more = _detect_pairs(old, new, pairs)
        if {(r.old, r.new) for r in more} <= {(r.old, r.new) for r in renames}:
            break
        renames = more
    return pairs, renames


def _detect_pairs(old: Document, new: Document, pairs: list[Pair]) -> tuple[Rename, ...]:
    # Pairs the matcher made on equal raw content (most of them) have not been edited: not compared again.
    ra, rb = old.rules, new.rules
    changed = [(p.old, p.new) for p in pairs if not p.same and edited(ra[p.old], rb[p.new])]
    return _detect(old, new, changed, {p.old: p.new for p in pairs})


def counted(renames: tuple[Rename, ...], old: Document, new: Document, pairs: list[Pair]) -> tuple[Rename, ...]:
    """Each rename with the number of rules it touched: paired rules whose old text used the old term
    and whose new text uses the new one."""
    out = []
    for r in renames:
        olds, news = old_spellings(r.spellings), new_spellings(r.spellings)
        n = sum(1 for p in pairs if uses(old.rules[p.old].text, olds) and uses(new.rules[p.new].text, news))
        out.append(Rename(r.old, r.new, r.spellings, n))
    return tuple(out)
