"""Release-wide term substitutions (EDH -> Commander, Tribal -> Kindred) detected from a pair of releases."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import replace

from ..model import Document
from ..text import normalize
from ..words.agreement import STEM, agreeing, inflects
from ..words.records import Rename
from ..words.renames import (
    joined_texts,
    new_spellings,
    old_spellings,
    quoted,
    renamed,
    renamed_text,
    rule_texts,
    substitute,
    text_users,
    uses,
    whole_words,
)
from .inflections import extending
from .likeness import Likeness
from .passes import match
from .records import Pair
from .terms import (
    MAX_LEFT,
    MIN_NAMED,
    MIN_RULES,
    Edit,
    Release,
    TermPairs,
    edits,
    gather,
    release,
    telling_words,
)

# ... and, of the paired rules that used the old term (those that only dropped it aside), at least this share now
# use the new one.
MIN_CONSISTENT = 0.6
# A rename that travels with another one found in the same rules may leave its old word in use in
# another sense, if at least this share of the changed rules that used it switched.
COMPANION_CONSISTENT = 0.9
# A rename of a phrase that opens sentences with a word like these ("For many years, ..." -> "Previously, ...",
# 2010-02-01, in the historical notes) is rewording, not a term: a term is named inside sentences too.
_OPENERS = frozenset("for in at on by with from since after before during until previously once".split())
_NEXT = re.compile(r"[ \t]+(\w+)")


def detect(old: Document, new: Document, pairs: Iterable[tuple[int, int]]) -> tuple[Rename, ...]:
    """The renames of ``old`` -> ``new`` seen in the paired rules (positions): a word pair replaced in
    at least MIN_RULES rules (MIN_NAMED when it also renamed a rule's title), in most of the paired
    rules that used the old term, whose old term then (mostly) disappears from the new release. Never
    from a list: the pair itself says it."""
    return _detect(old, new, edits(old, new, [Pair(i, j, 1.0, "") for i, j in pairs]))


def _detect(old: Document, new: Document, edited: list[Edit]) -> tuple[Rename, ...]:
    """:func:`detect` given the edits of the pair (terms.edits)."""
    lost_words, gained_words = telling_words(edited)
    if not lost_words and not gained_words:
        return ()
    found = _Found(edited, gather(edited, lost_words, gained_words), release(old), release(new))
    # Terms replaced first, then words dropped: "transforming" -> "nonmodal" (2025-09-19), not "transforming
    # double-faced" -> "double-faced", where the same rules dropped the word that others replaced.
    seen = found.terms
    for key, rules in sorted(seen.seen.items(), key=lambda kv: (kv[0] in seen.dropped, -len(kv[1]), kv[0])):
        found.consider(key, rules)
    if found.renames:
        found.inflections()
    return tuple(found.renames)


class _Found:
    """The renames found so far in a pair's edits, the rules each showed in, and the edits' old texts read in
    their words (a term judged after them is judged on what they left)."""

    def __init__(self, edited: list[Edit], terms: TermPairs, old_words: Release, new_words: Release) -> None:
        self.edited, self.terms, self.old_words, self.new_words = edited, terms, old_words, new_words
        self.renames: list[Rename] = []
        self.rules: list[set[int]] = []
        self.olds: set[str] = set()
        self.texts = [e.old for e in edited]
        self.joined, self.starts = joined_texts(self.texts)

    def consider(self, key: tuple[str, str], rules: set[int]) -> None:
        """Take the term pair ``key``, seen in ``rules``, if it is a rename (see :func:`detect`)."""
        terms = self.terms
        least = MIN_NAMED if key in terms.named else MIN_RULES
        if len(rules) < least or any(f" {f} " in f" {key[0]} " for f in self.olds):
            return  # (a longer stretch of a rename found before: read in its words, no text uses it any more)
        spellings = _spellings(terms.spelled[key])
        if _opens_sentences(spellings) or not _own_sense(key, terms):
            return
        olds, news = old_spellings(spellings), new_spellings(spellings)
        # The edited rules that use the term still, read in the words of the renames found before it: a longer or
        # shorter stretch of one of them ("Multiple copies of" after "copies of") is left with none.
        users = [self.edited[x] for x in text_users(self.texts, self.joined, self.starts, olds)]
        rules = rules.intersection(e.rule for e in users)
        if len(rules) < least:
            return
        # Most of those that kept the term or gave it another name renamed it so: rules that only dropped it
        # (2025-09-19 dropped "transforming" from most of the double-faced cards it renamed "nonmodal" elsewhere)
        # do not count against it, those that replaced it by another word do ("play" became "cast",
        # "activate" or "put onto the battlefield" in 2009: no rename of "play").
        kept = {e.rule for e in users if uses(e.new, olds)}
        dropped = key in terms.dropped  # (the new words were in the old phrase: no gain to count)
        renamed_in = {e.rule for e in users if e.rule not in kept and (dropped or _gained(e, news))}
        other = set().union(*(terms.seen[k] for k in terms.by_old[key[0]] if k != key)) - renamed_in
        switched = len(renamed_in)
        before = self.old_words.count(olds)
        if switched < MIN_CONSISTENT * len(renamed_in | kept | other) or switched < least or not before:
            return
        in_quotes = False
        if self.new_words.count(olds) > MAX_LEFT * before:
            # The old word lives on in another sense ("general" of the Emperor variant, "in general"):
            # still a rename when it travels with one already found (EDH -> Commander took "general"
            # -> "commander" with it) in most of its rules, and every edited rule that used it switched.
            # Or it lives on in the rules' own words, and only the card text they quote was renamed.
            companion = any(len(rules & other) * 2 >= len(rules) for other in self.rules) or any(
                f.new.casefold() == key[1] for f in self.renames
            )
            if not companion or switched < COMPANION_CONSISTENT * len({e.rule for e in users}):
                if not _renamed_in_quotes(users, olds, news, self.old_words, self.new_words):
                    return
                in_quotes = True
        top = terms.spelled[key].most_common(1)[0][0]
        rename = Rename(*top, _with_variants(spellings, terms.agreeing.get(key), self.old_words), quoted=in_quotes)
        if dropped and not _explains(rename, users, rules, least):
            return
        self._take(key, rules, rename, spellings)

    def inflections(self) -> None:
        """The inflected forms of the renames found, however few rules use them, spellings of theirs: a term pair
        each of whose words is a word of a rename's spelling, that word with letters after it, or that verb agreeing
        otherwise, old and new ("himself or herself" -> "themselves" of "him or her" -> "them", 2018-04-27, in two
        rules; "enter the battlefield" -> "enter" of 2024-07-30's quoted "enters the battlefield" -> "enters"), when
        the old form (mostly) left the release (its quotations, for a rename of quoted text) and most of the edited
        rules that used it there took the new one, as of a rename."""
        # (of the terms, not of the verbs agreeing with them: "he or she casts" -> "they cast" brings no "casts")
        pairs = [(x, y) for r in self.renames for x, y in r.spellings if not agreeing(x, y)]
        stems_old = {w for x, _ in pairs for w in x.casefold().split() if len(w) >= STEM and w not in _NO_STEMS}
        stems_new = {w for _, y in pairs for w in y.casefold().split() if len(w) >= STEM and w not in _NO_STEMS}
        where, lost, gained = extending(self.edited, stems_old, stems_new)
        if not lost:
            return
        terms = gather(where, lost, gained)
        for (a, b), spelled in sorted(terms.spelled.items()):
            at = next((k for k, r in enumerate(self.renames) if _inflection_of(a, b, r.spellings)), None)
            if at is None:
                continue
            f = self.renames[at]
            spellings = _spellings(spelled)
            if self._switched(old_spellings(spellings), new_spellings(spellings), f.quoted):
                self.renames[at] = Rename(f.old, f.new, tuple(sorted({*f.spellings, *spellings})), quoted=f.quoted)

    def _switched(self, olds: tuple[str, ...], news: tuple[str, ...], in_quotes: bool) -> bool:
        """``olds`` (mostly: MAX_LEFT) left the new release (its quotations when ``in_quotes``), and most of the
        edited rules that used them there (MIN_CONSISTENT) use ``news`` instead."""
        read = quoted if in_quotes else _whole
        users = [self.edited[x] for x in text_users(self.texts, self.joined, self.starts, olds)]
        users = [e for e in users if uses(read(e.old), olds)]
        count = Release.count_quoted if in_quotes else Release.count
        if not users or count(self.new_words, olds) > MAX_LEFT * count(self.old_words, olds):
            return False
        switched = sum(1 for e in users if uses(t := read(e.new), news) and not uses(t, olds))
        return switched >= MIN_CONSISTENT * len(users)

    def _take(self, key: tuple[str, str], rules: set[int], rename: Rename, spellings: Spellings) -> None:
        core = self.terms.core.get(key)
        at = next((k for k, f in enumerate(self.renames) if core and self.terms.core.get(_key(f)) == core), None)
        if at is None:
            # (A term found in a context is named as spelled there: "both players" -> "all players", 2005-08.)
            if core is None:
                named = _widen(Rename(rename.old, rename.new, spellings), self.old_words, self.new_words)
                rename = Rename(named.old, named.new, rename.spellings, quoted=rename.quoted)
            self.renames.append(rename)
            self.rules.append(set(rules))
        else:
            # Another context of a term found before ("could play" -> "could cast" after "you play" -> "you
            # cast"): one rename, "play" -> "cast", spelled in each.
            f = self.renames[at]
            merged = tuple(sorted({*f.spellings, *rename.spellings}))
            self.renames[at] = Rename(f.old, f.new, merged, quoted=f.quoted and rename.quoted)
            self.rules[at] |= rules
        olds = old_spellings(rename.spellings)
        self.olds.update(a.casefold() for a in olds)
        for x in text_users(self.texts, self.joined, self.starts, olds):
            self.texts[x] = renamed_text(self.texts[x], rename)
        self.joined, self.starts = joined_texts(self.texts)


Spellings = tuple[tuple[str, str], ...]

# The words of a rename that have no inflected forms (beside those shorter than agreement.STEM): "then", "there"
# and "these" are no forms of "the" ("enters the battlefield").
_NO_STEMS = frozenset({"the", "and"})


def _whole(text: str) -> str:
    return text


def _inflection_of(a: str, b: str, spellings: Spellings) -> bool:
    """``a`` -> ``b`` is a spelling of ``spellings`` inflected (agreement.inflects), old and new alike."""
    return any(inflects(a, x) and inflects(b, y) for x, y in spellings)


def _own_sense(key: tuple[str, str], found_as: TermPairs) -> bool:
    """A term seen with the word before or after it is renamed in that context only when the term itself was
    renamed to different words in different places: 2009's "play" became "cast" ("you play" -> "you cast"),
    "activate" and "the battlefield" ("from play"); a word renamed in some rules and kept in others is no rename,
    whatever words stand beside it."""
    core = found_as.core.get(key)
    if core is None:
        return True
    old = core[0].casefold()
    senses = {k[1] for k in found_as.by_old[old] if len(found_as.seen[k]) >= MIN_NAMED}
    return len(senses) >= 2


def _explains(rename: Rename, users: list[Edit], rules: set[int], least: int) -> bool:
    """Words dropped throughout are a rename when dropping them is the whole edit of most of the texts that
    dropped them ("enters the battlefield" -> "enters" in 2024-07-30's quoted card text), not a part of a rewording
    ("put a token onto the battlefield" -> "create a token", 2016-09-30)."""
    whole = {e.rule for e in users if e.rule in rules and normalize(substitute(e.old, (rename,))) == normalize(e.new)}
    return len(whole) >= max(least, len(rules) / 2)


def _key(r: Rename) -> tuple[str, str]:
    return r.old.casefold(), r.new.casefold()


def _gained(e: Edit, news: tuple[str, ...]) -> bool:
    """The new text uses the new term more often than the old one did (a term the old text already used, as
    "double-faced" in "transforming double-faced card", was not brought by a rename)."""
    if not uses(e.new, news):
        return False
    pattern = whole_words(news)
    return len(pattern.findall(e.new)) > len(pattern.findall(e.old))


def _opens_sentences(spellings: tuple[tuple[str, str], ...]) -> bool:
    """Every old spelling opens a sentence with a word like "For" (see _OPENERS)."""
    return all(a[:1].isupper() and a.split()[0].casefold() in _OPENERS for a, _ in spellings)


def _renamed_in_quotes(
    users: list[Edit], olds: tuple[str, ...], news: tuple[str, ...], old_words: Release, new_words: Release
) -> bool:
    """The old term left the text the rules quote (most of it), where most of the edited texts that quoted it
    switched to the new one, in MIN_RULES rules or more."""
    quoting = [e for e in users if uses(quoted(e.old), olds)]
    switched = sum(1 for e in quoting if uses(q := quoted(e.new), news) and not uses(q, olds))
    if len({e.rule for e in quoting}) < MIN_RULES or switched < MIN_CONSISTENT * len(quoting):
        return False
    before = old_words.count_quoted(olds)
    return bool(before) and new_words.count_quoted(olds) <= MAX_LEFT * before


def _with_variants(
    spellings: tuple[tuple[str, str], ...], agreeing: Counter[tuple[str, str]] | None, release: Release
) -> tuple[tuple[str, str], ...]:
    """A rename's spellings with the phrases that agree with it ("he or she has" -> "they have") and its
    capitalised and title-case spellings the old release uses ("Converted Mana Cost" -> "Mana Value", a
    glossary term)."""
    out = dict(spellings)
    text = release.text
    for a, b in spellings:
        for x, y in ((a[:1].upper() + a[1:], b[:1].upper() + b[1:]), (a.title(), b.title())):
            if x not in out and x in text:  # (a glance at C speed; an occurrence inside a word adds nothing)
                out[x] = y
    for a, b in agreeing or ():
        out.setdefault(a, b)
    return tuple(sorted(out.items()))


def _spellings(seen: Counter[tuple[str, str]]) -> tuple[tuple[str, str], ...]:
    """One new spelling per old spelling, the most used: "Tribal" -> "Kindred", "tribal" -> "kindred"."""
    out: dict[str, str] = {}
    for (a, b), _ in sorted(seen.items(), key=lambda kv: (-kv[1], kv[0])):
        out.setdefault(a, b)
    return tuple(sorted(out.items()))


def _widen(r: Rename, old_words: Release, new_words: Release) -> Rename:
    """A term that always comes with the same next word is named with it: "Totem" -> "Umbra" is shown
    "Totem armor" -> "Umbra armor" when every totem was armor and every umbra is (the substitution
    itself stays the detected one)."""
    olds, news = old_spellings(r.spellings), new_spellings(r.spellings)
    after_old = _next_words(olds, old_words)
    after_new = _next_words(news, new_words)
    if len(after_old) != 1 or after_old != after_new or "" in after_old:
        return r
    w = next(iter(after_old))
    return Rename(f"{r.old} {w}", f"{r.new} {w}", r.spellings, r.rules, r.quoted)


def _next_words(spellings: tuple[str, ...], release: Release) -> set[str]:
    out: set[str] = set()
    text = release.text
    for end in release.ends(spellings):
        m = _NEXT.match(text, end)
        out.add(m.group(1).casefold() if m else "")
    if not out:
        out.add("")  # some occurrence is followed by no word at all
    return out


def through_renames(
    old: Document,
    new: Document,
    pairs: list[Pair],
    likeness: Likeness | None = None,
    refused: set[tuple[int, int]] | None = None,
    closer: set[tuple[int, int]] | None = None,
) -> tuple[list[Pair], tuple[Rename, ...]]:
    """The matcher's ``pairs`` and the renames they show; when there are some, the pairs of ``old`` read
    in the new release's words, so the rules a rename touched (903 "EDH" -> "Commander" and its
    subrules) stay linked. Positions are those of ``old`` either way. ``refused`` and ``closer`` get the links
    the second matching gave up and those it made as closer counterparts than by place (see passes.match)."""
    renames = _detect_pairs(old, new, pairs)
    for _ in range(2):
        if not renames:
            break
        read = renamed(old, renames, new)
        # Only the rules a rename touched, on either side, may link otherwise: the other links stand as made.
        using = _using_new(new, renames)
        kept = [p for p in pairs if read.rules[p.old] is old.rules[p.old] and p.new not in using]
        # Equal raw content was judged on the renamed texts: it holds only for the rules the renames left alone.
        before = pairs
        pairs = [
            p if not p.same or read.rules[p.old] is old.rules[p.old] else replace(p, same=False)
            for p in match(read, new, likeness, kept, refused, closer)
        ]
        if len({(p.old, p.new) for p in pairs} - {(p.old, p.new) for p in before}) < MIN_RULES:
            # The renames linked fewer rules anew than a rename needs: detecting again from (nearly) the same links
            # finds the same renames. (Over every consecutive pair and the long jumps, detecting again never found
            # another: 2009-07-11 linked 9 anew, 2011-02-04 -> 2026-01-16 4, at the cost of a second detection.)
            break
        # The rules now linked may show a companion rename ("general" -> "commander"): once more then.
        more = _detect_pairs(old, new, pairs)
        if {(r.old, r.new) for r in more} <= {(r.old, r.new) for r in renames}:
            break
        renames = more
    return pairs, renames


def _using_new(new: Document, renames: tuple[Rename, ...]) -> set[int]:
    """The positions of the rules of ``new`` whose text, title or an example uses a new spelling of ``renames``."""
    texts, owner = rule_texts(new)
    joined, starts = joined_texts(texts)
    return {owner[x] for r in renames for x in text_users(texts, joined, starts, new_spellings(r.spellings))}


def _detect_pairs(old: Document, new: Document, pairs: list[Pair]) -> tuple[Rename, ...]:
    return _detect(old, new, edits(old, new, pairs))


def counted(renames: tuple[Rename, ...], old: Document, new: Document, pairs: list[Pair]) -> tuple[Rename, ...]:
    """Each rename with the number of rules it touched: paired rules whose old text (or an example) used the old
    term and whose new text (or an example) uses the new one. The pairs whose old texts use it are found by one
    search of them all (:func:`text_users`), not one test per pair."""
    if not renames:
        return ()
    ra, rb = old.rules, new.rules
    texts = [ra[p.old].text for p in pairs]
    owner = [k for k, p in enumerate(pairs) for _ in ra[p.old].examples]
    examples = [e.text for p in pairs for e in ra[p.old].examples]
    joined, starts = joined_texts(texts)
    joined_ex, starts_ex = joined_texts(examples) if examples else ("", [])
    out = []
    for r in renames:
        olds, news = old_spellings(r.spellings), new_spellings(r.spellings)
        touched = {k for k in text_users(texts, joined, starts, olds) if uses(rb[pairs[k].new].text, news)}
        if examples:
            touched.update(
                k
                for k in (owner[x] for x in text_users(examples, joined_ex, starts_ex, olds))
                if any(uses(e.text, news) for e in rb[pairs[k].new].examples)
            )
        out.append(Rename(r.old, r.new, r.spellings, len(touched), r.quoted))
    return tuple(out)
