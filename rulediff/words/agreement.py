"""Verbs agreeing with a plural subject: "has" -> "have", and the verbs of a text after a subject a rename made."""

from __future__ import annotations

from functools import lru_cache

# A verb after a renamed subject that only agrees with it: "he or she has" -> "they have", "controls" -> "control".
_AGREES = frozenset(
    {
        ("has", "have"),
        ("is", "are"),
        ("was", "were"),
        ("does", "do"),
        ("hasn't", "haven't"),
        ("isn't", "aren't"),
        ("wasn't", "weren't"),
        ("doesn't", "don't"),
    }
)


def agreeing_forms(old: str) -> tuple[str, ...]:
    """The words that are ``old`` (casefolded, its apostrophes straight) agreeing with a plural subject: each ``new``
    with :func:`agrees` (``old``, ``new``)."""
    out = [old[:-1]] if old.endswith("s") else []
    if old.endswith("es"):
        out.append(old[:-2])
    if old.endswith("ies"):
        out.append(old[:-3] + "y")
    out.extend(n for o, n in _AGREES if o == old)
    return tuple(n for n in out if agrees(old, n))


def agrees(old: str, new: str) -> bool:
    """``new`` is ``old`` agreeing with a plural subject: "has" -> "have", "controls" -> "control"."""
    o, n = old.casefold().replace("\u2019", "'"), new.casefold().replace("\u2019", "'")
    if (o, n) in _AGREES:
        return True
    return len(n) > 2 and (o == n + "s" or o == n + "es" or (o.endswith("ies") and o[:-3] + "y" == n))


# The shortest word of a rename whose longer forms are its inflections ("him" of "himself"; not "or").
STEM = 3


def inflects(form: str, term: str) -> bool:
    """Each word of ``form`` is the word of ``term`` in its place, that word with letters after it, or that verb
    agreeing otherwise, and one is not the word itself (casefolded): "himself or herself" of "him or her", "enter
    the battlefield" of "enters the battlefield"."""
    fw, tw = form.casefold().split(), term.casefold().split()
    if len(fw) != len(tw) or fw == tw:
        return False
    return all(f == t or (len(t) >= STEM and f.startswith(t)) or agrees(t, f) for f, t in zip(fw, tw, strict=True))


def agreeing(a: str, b: str) -> bool:
    """The spelling ``a`` -> ``b`` ends with a verb agreeing with a subject renamed ("he or she has" -> "they
    have")."""
    wa, wb = a.split(), b.split()
    return len(wa) > 1 and len(wb) > 1 and wa[-1] != wb[-1] and agrees(wa[-1], wb[-1])


@lru_cache(maxsize=256)
def subjects(spellings: tuple[tuple[str, str], ...]) -> frozenset[str]:
    """The new subjects of the agreeing spellings of a rename, casefolded ("they" of "he or she has" -> "they
    have")."""
    return frozenset(" ".join(b.split()[:-1]).casefold() for a, b in spellings if agreeing(a, b))


def verbs_agree(a: str, b: str, subject: frozenset[str]) -> bool:
    """``b`` is ``a`` but for verbs agreeing with a plural subject of ``subject`` (one word each, casefolded) in
    ``a``: a verb after the subject, in its clause, and adverbs only between ("they also controls" -> "control"),
    or the verbs of a list of them after it whose last item follows "or" or "and" ("when they cast a spell,
    activates an ability, or takes a special action" -> "activate", "take": 2018-04-27's 116.3c), which the
    rename's spellings, a verb after the subject each, do not reach. Anything else changed, a noun that lost its
    plural or a verb in another clause, is an edit."""
    ta, tb = a.split(), b.split()
    if len(ta) != len(tb) or ta == tb:
        return False
    changed = [k for k, (x, y) in enumerate(zip(ta, tb, strict=True)) if x != y]
    listed: list[int] = []  # (where the items of a list after the subject that changed follow its separators)
    for k in changed:
        x, y = ta[k], tb[k]
        cx, cy = x.rstrip(_PUNCT), y.rstrip(_PUNCT)
        if x[len(cx) :] != y[len(cy) :] or not agrees(cx, cy):
            return False
        at = _subject_before(ta, k, subject)
        if at < 0:
            return False
        j = k - 1
        while j > at and _adverb(ta[j]):
            j -= 1
        if j == at:
            continue  # (the verb of the subject)
        if ta[j].endswith(",") or ta[j].casefold() in _AND_OR:
            listed.append(j)
            continue
        return False
    # (a list's last item follows "or" or "and": "If they win, players draw" is no list of the subject's verbs)
    return not listed or ta[listed[-1]].casefold() in _AND_OR


def _subject_before(words: list[str], k: int, subject: frozenset[str]) -> int:
    """The position of the nearest word of ``subject`` before ``words[k]`` in its clause (no word between ending
    one), or -1."""
    for j in range(k - 1, -1, -1):
        w = words[j]
        if w.rstrip(_PUNCT).casefold() in subject and w[-1:] not in _CLAUSE_ENDS:
            return j
        if w[-1:] in _CLAUSE_ENDS:
            return -1
    return -1


def _adverb(word: str) -> bool:
    w = word.casefold()
    return w in _ADVERBS or (w.endswith("ly") and len(w) > 4)


_PUNCT = ".,;:!?)\"'"
_CLAUSE_ENDS = frozenset(".;:!?")
_AND_OR = frozenset({"and", "or"})
_ADVERBS = frozenset({"also", "then", "still", "already", "now", "each", "both", "all", "only", "never", "always"})


def forms(spellings: tuple[tuple[str, str], ...], term: str) -> tuple[tuple[str, str], ...]:
    """The spellings of a rename of ``term`` that are inflected forms of another of its spellings, for the notes to
    name ("himself or herself" -> "themselves" of "him or her" -> "them"): not the term itself, in any case, nor a
    verb agreeing after the term."""
    return tuple(
        (a, b)
        for a, b in spellings
        if a.casefold() != term.casefold()
        and not agreeing(a, b)
        and any(inflects(a, x) and inflects(b, y) for x, y in spellings if (x, y) != (a, b))
    )
