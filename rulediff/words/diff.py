"""The word diff of raw rule text on top of diff-match-patch, muted where the edit is not one."""

# Word-level diff of raw rule text on top of diff-match-patch: words encoded as characters, semantic cleanup, no
# timeout (so the output is deterministic), muted where ``nature_of`` says the edit is not one.

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from enum import IntEnum
from functools import lru_cache
from itertools import compress

from diff_match_patch import diff_match_patch

try:
    # Google's own C++ port of the same algorithm, about seven times faster on rule texts (the word diff
    # was most of a long jump's JSON). Same answers: tests/test_textdiff_engines.py holds it to the
    # Python library. The Python library stays the reference and the fallback where no wheel installs.
    import fast_diff_match_patch as _fast
except ImportError:
    _fast = None

from ..references import find_references, references_follow
from ..support.constructors import slot_filler
from ..text import normalize
from .nature import lossy_equal, nature_of
from .records import Nature

# Words, runs of spaces, and single punctuation marks are the units the reader sees change.
# Rule numbers ("702.15b", "601.2b\u2013h") stay whole, so a renumbered reference is one change.
_TOKEN = re.compile(
    r"[1-9]\d{2}\.\d{1,3}[a-z]{0,2}(?:[\u2013-](?:\d{1,3}[a-z]{0,2}|[a-z]{1,2})\b)?|\w+(?:['\u2019]\w+)*|\s+|[^\w\s]"
)


class Op(IntEnum):
    DELETE = -1
    EQUAL = 0
    INSERT = 1
    # An equal-in-meaning stretch whose characters differ: typography, or a reference that only
    # follows renumbering. Shown muted, not as an edit.
    MUTED = 2


@dataclass(frozen=True, slots=True)
class Piece:
    op: Op
    text: str
    old: str = ""  # for MUTED: what the old text said there


# Made for every stretch of every word diff: without the frozen __init__'s cost (support/constructors.py).
_piece = slot_filler(Piece, "op text old")


def _engine() -> diff_match_patch:
    dmp = diff_match_patch()
    dmp.Diff_Timeout = 0  # no deadline: the same inputs always give the same diff
    return dmp


def _encode(ta: list[str], tb: list[str]) -> tuple[str, str]:
    """Map every distinct token to one private character, diff-match-patch's lines-to-chars trick applied to
    words. Tokens are numbered in order of first appearance, old text first; the loops run in C
    (dict.fromkeys, zip, map), not per token in Python."""
    distinct = dict.fromkeys(ta)
    distinct.update(dict.fromkeys(tb))
    table = dict(zip(distinct, _alphabet(len(distinct)), strict=False))
    return "".join(map(table.__getitem__, ta)), "".join(map(table.__getitem__, tb))


# The private-use characters tokens are written as: the BMP's 6,400 first, then plane 15's.
_BMP_PRIVATE = "".join(map(chr, range(0xE000, 0xE000 + 6400)))


def _alphabet(n: int) -> str:
    """The first ``n`` private characters, in order."""
    if n <= len(_BMP_PRIVATE):
        return _BMP_PRIVATE[:n]
    return _BMP_PRIVATE + "".join(map(chr, range(0xF0000, 0xF0000 + n - len(_BMP_PRIVATE))))


_OPS = {"=": Op.EQUAL, "-": Op.DELETE, "+": Op.INSERT}


def _python_diff(a: str, b: str, semantic: bool = True) -> list[tuple[Op, int]]:
    """diff-match-patch's diff with no deadline, semantic cleanup unless ``semantic`` is False, as the Python
    library computes it: (operation, number of characters) in order."""
    dmp = _engine()
    diffs = dmp.diff_main(a, b, False)
    if semantic:
        dmp.diff_cleanupSemantic(diffs)
    return [(Op(op), len(chars)) for op, chars in diffs]


def _fast_diff(a: str, b: str, semantic: bool = True) -> list[tuple[Op, int]]:
    """The same diff from the C++ port (timelimit 0: no deadline, as Diff_Timeout = 0)."""
    assert _fast is not None
    cleanup = "Semantic" if semantic else "No"
    return [(_OPS[op], n) for op, n in _fast.diff(a, b, timelimit=0, checklines=False, cleanup=cleanup)]


_diff = _python_diff if _fast is None else _fast_diff


# What a word diff may cost: diff-match-patch without a deadline takes time up to the product of the two
# texts' token counts. The longest pair of real texts diffed for any consecutive pair of releases or jump to
# 2026 is 1,373 x 1,400 tokens (the creature subtypes list, 1.9e6); the limit is some thirteen times that.
# Two hostile releases of 500 rules of 52 KB, every apostrophe curled, took 0.1 s a rule and a minute for
# --format json.
WORD_LIMIT = 2.5e7


@lru_cache(maxsize=1 << 12)
def _raw_diff(old: str, new: str) -> tuple[Piece, ...]:
    """The word diff before muting. Remembered: a site shows the same edit on its diff page and on the
    rule's history page, and the diff is most of the cost of either."""
    if not old or not new:  # an added or removed rule: what diff-match-patch answers, without encoding
        return (Piece(Op.INSERT, new),) if new else (Piece(Op.DELETE, old),) if old else ()
    ta, tb = _TOKEN.findall(old), _TOKEN.findall(new)
    if len(ta) * len(tb) <= WORD_LIMIT:
        return tuple(_token_diff(ta, tb))
    return tuple(merged(_by_sentence(ta, tb)))


def _token_diff(ta: list[str], tb: list[str]) -> list[Piece]:
    """The diff of two token lists, a piece per run of one operation."""
    ea, eb = _encode(ta, tb)
    out = []
    i = j = 0  # one character per token: a run of n characters is n tokens of the side it reads
    piece = _piece
    for op, n in _diff(ea, eb):
        if op == Op.INSERT:
            out.append(piece(op, "".join(tb[j : j + n]), ""))
            j += n
        else:
            out.append(piece(op, "".join(ta[i : i + n]), ""))
            i += n
            if op == Op.EQUAL:
                j += n
    return out


def _by_sentence(ta: list[str], tb: list[str]) -> list[Piece]:
    """Texts too long to diff word by word within WORD_LIMIT (no real rule comes near it): diffed sentence by
    sentence, then each stretch of changed sentences word by word while what the diffs cost stays within the
    limit, the rest replaced whole. A coarser diff, never a wrong one: its pieces still spell both texts. The
    products of the diffs asked of diff-match-patch for one text add up to at most WORD_LIMIT, so a word diff
    costs at most about WORD_LIMIT steps whatever the text. The sentences are diffed without semantic cleanup,
    which would fold a sentence left alone between two changed ones into the change."""
    sa, sb = _sentences(ta), _sentences(tb)
    left = WORD_LIMIT - len(sa) * len(sb)
    if left < 0:  # sentences as many as words ("a. a. a."): no diff is made past the limit
        return _whole("".join(ta), "".join(tb))
    ea, eb = _encode(["".join(ta[x:y]) for x, y in sa], ["".join(tb[x:y]) for x, y in sb])
    out: list[Piece] = []
    i = j = 0  # sentences read, each side
    gone = came = -1  # where a changed stretch starts, each side (-1: none yet)
    for op, n in [*_diff(ea, eb, semantic=False), (Op.EQUAL, 0)]:
        if op == Op.DELETE:
            gone = i if gone < 0 else gone
            i += n
        elif op == Op.INSERT:
            came = j if came < 0 else came
            j += n
        else:
            if gone >= 0 or came >= 0:
                a = ta[sa[gone][0] : sa[i - 1][1]] if gone >= 0 else []
                b = tb[sb[came][0] : sb[j - 1][1]] if came >= 0 else []
                if a and b and len(a) * len(b) <= left:
                    left -= len(a) * len(b)
                    out.extend(_token_diff(a, b))
                else:
                    out.extend(_whole("".join(a), "".join(b)))
                gone = came = -1
            if n:
                out.append(_piece(Op.EQUAL, "".join(ta[sa[i][0] : sa[i + n - 1][1]]), ""))
            i += n
            j += n
    return out


def _whole(old: str, new: str) -> list[Piece]:
    """A text replaced whole: what it was, then what it became (either may be empty, and is left out)."""
    return [p for p in (_piece(Op.DELETE, old, ""), _piece(Op.INSERT, new, "")) if p.text]


# The tokens a sentence ends with: the marks are tokens of their own, never part of another; a line break
# is one when it stands alone (in a run of spaces, "\n\n" or " \n", it is no end: a coarser diff).
_SENTENCE_ENDS = frozenset([".", "!", "?", ";", ":", "\n"])


def _sentences(tokens: list[str]) -> list[tuple[int, int]]:
    """The sentences of a token list, as (first token, past the last): each ends after a token of
    _SENTENCE_ENDS, found at C speed (the lists are the longest texts there are)."""
    ends = [k + 1 for k in compress(range(len(tokens)), map(_SENTENCE_ENDS.__contains__, tokens))]
    if not ends or ends[-1] != len(tokens):
        ends.append(len(tokens))
    return list(zip([0, *ends[:-1]], ends, strict=True))


def merged(pieces: list[Piece]) -> list[Piece]:
    """Neighbouring pieces of one operation as one (stretches diffed apart may end and start alike); a muted
    piece stays apart, saying what it stood for, and an empty piece goes (a muted one that stood for something
    stays: removed whitespace)."""
    out: list[Piece] = []
    for p in pieces:
        if out and out[-1].op == p.op and p.op != Op.MUTED:
            out[-1] = _piece(p.op, out[-1].text + p.text, "")
        elif p.text or p.old:
            out.append(p)
    return out


# What the word diffs of one output may cost together (diff --format json, the release notes). A diff is
# charged the product of its texts' lengths in characters, never less than the product of their token counts
# (what diff-match-patch is asked), and never more than WORD_LIMIT, which bounds each text's diffs already.
# Ten times the most any real output asks (2.2e8, the JSON of a jump from 2019-01-25). WORD_LIMIT bounds each
# text; this bounds their number: 1,300 rules of 4,800 tokens each, every apostrophe curled, each just within
# WORD_LIMIT, took 105 s for --format json.
OUTPUT_LIMIT = 2.5e9
_left: ContextVar[list[float] | None] = ContextVar("word_diff_budget", default=None)


@contextmanager
def one_output(left: float | None = None) -> Iterator[None]:
    """The word diffs made meanwhile are parts of one output and share OUTPUT_LIMIT: past it, a text is shown
    replaced whole (coarser, never wrong). What each costs is charged whether or not it was remembered from
    before, and an output inside another has a budget of its own, so an output never depends on what was made
    before it. For a function's body (it decorates ``to_dict`` and ``build_notes``), not across a generator's
    pauses. Word diffs made outside any output are bounded text by text only. ``left``: the budget of the rest
    of an output begun elsewhere (what :func:`budget_left` said there: a helper process writing its second
    half, report.iter_json)."""
    token = _left.set([OUTPUT_LIMIT if left is None else left])
    try:
        yield
    finally:
        _left.reset(token)


def budget_left() -> float | None:
    """What is left of the budget of the output under way (None outside every output)."""
    left = _left.get()
    return None if left is None else left[0]


def spend(old: str, new: str) -> None:
    """Charge the output under way what ``word_diff(old, new)`` would, without diffing: an output whose diffs are
    made in two processes works out where the second begins (report.iter_json)."""
    if old != new:
        _within(old, new)


def _within(old: str, new: str) -> bool:
    """Charge the diff of ``old`` -> ``new`` to the output under way; False (and nothing charged) past its
    budget."""
    left = _left.get()
    if left is not None:
        cost = min(len(old) * len(new), WORD_LIMIT)
        if cost > left[0]:
            return False
        left[0] -= cost
    return True


def _charged(old: str, new: str) -> list[Piece]:
    """:func:`_raw_diff` within what is left of the output's budget; replaced whole past it."""
    if not _within(old, new):
        return _whole(old, new)
    return list(_raw_diff(old, new))


def word_diff(old: str, new: str, number_map: dict[str, str | list[str]] | None = None) -> list[Piece]:
    """Diff ``old`` -> ``new`` word by word, muted so that it says what :func:`nature_of` says: a
    typography-only or references-only edit shows no visible change at all, a substantive one always
    shows at least one. Inside a substantive edit, replaced stretches that are equal after
    normalisation or that are references rewritten exactly as the number map says are MUTED."""
    if old == new:
        return [Piece(Op.EQUAL, new)] if new else []
    nmap = number_map or {}
    nature = nature_of(old, new, number_map=nmap)
    raw = _charged(old, new)
    if nature != Nature.SUBSTANTIVE:
        return _mute_all(raw)
    muted = _mute(raw, nmap)
    if any(p.op in (Op.DELETE, Op.INSERT) for p in muted):
        return muted
    # Every stretch passed as noise on its own, yet the whole does not (a reference that follows the
    # map in one place but not in its sentence): show the edit rather than hide it.
    return _mute(raw, {}, typography=False)


def _mute_all(pieces: list[Piece]) -> list[Piece]:
    """Every changed stretch of an edit that is not substantive becomes one MUTED piece (a lone
    insertion such as the angle brackets of "<Wizards.com/Rules>" too)."""
    out: list[Piece] = []
    for p in pieces:
        if p.op == Op.EQUAL:
            if out and out[-1].op == Op.EQUAL:
                out[-1] = Piece(Op.EQUAL, out[-1].text + p.text)
            else:
                out.append(p)
            continue
        if out and out[-1].op == Op.MUTED:
            last = out[-1]
        else:
            last = Piece(Op.MUTED, "", "")
            out.append(last)
        if p.op == Op.DELETE:
            out[-1] = Piece(Op.MUTED, last.text, last.old + p.text)
        else:
            out[-1] = Piece(Op.MUTED, last.text + p.text, last.old)
    return out


def _follows_map(old: str, new: str, number_map: dict[str, str | list[str]]) -> bool:
    return bool(find_references(old)) and references_follow(old, new, number_map)


def _mute(pieces: list[Piece], number_map: dict[str, str | list[str]], *, typography: bool = True) -> list[Piece]:
    """Turn delete+insert pairs that mean the same into MUTED pieces; merge neighbours of one op."""
    out: list[Piece] = []
    k = 0
    while k < len(pieces):
        p = pieces[k]
        nxt = pieces[k + 1] if k + 1 < len(pieces) else None
        if p.op == Op.DELETE and nxt is not None and nxt.op == Op.INSERT:
            na, nb = normalize(p.text), normalize(nxt.text)
            same = typography and (na == nb or lossy_equal(na, nb))
            ref = False
            if typography and not same and (any(map(str.isdigit, p.text)) or any(map(str.isdigit, nxt.text))):
                # A reference needs its "rule" lead-in to be recognised: read the words before it,
                # each side in its own words.
                lead_old = "".join(q.old if q.op == Op.MUTED else q.text for q in out[-2:] if q.op != Op.INSERT)
                lead_new = "".join(q.text for q in out[-2:] if q.op != Op.DELETE)
                ref = _follows_map(lead_old[-40:] + p.text, lead_new[-40:] + nxt.text, number_map)
            if same or ref:
                out.append(_piece(Op.MUTED, nxt.text, p.text))
                k += 2
                continue
        if out and out[-1].op == p.op and p.op != Op.MUTED:
            out[-1] = _piece(p.op, out[-1].text + p.text, "")
        else:
            out.append(p)
        k += 1
    return out


def as_pairs(pieces: list[Piece]) -> list[list[object]]:
    """JSON form: ``[[op, text], ...]`` with op -1 (deleted), 0 (same), 1 (inserted); a muted piece is
    ``[2, new text, old text]``."""
    return [[int(p.op), p.text, p.old] if p.op == Op.MUTED else [int(p.op), p.text] for p in pieces]
