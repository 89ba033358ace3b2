"""Where the editions of one release disagree: the rules and words an edition reads otherwise than its text."""

# Where the editions of one release disagree: each rule or glossary entry that a Word or PDF edition reads otherwise
# (in words, not typography) than the text edition it stands beside, with the words that differ. The text stays the
# reference: the timeline, histories and diff pages read it; the edition is kept, listed and compared.

from __future__ import annotations

from ..matcher.records import Alignment, Kind, is_substantive
from ..model import Document
from ..words.diff import Op, word_diff
from ..words.records import Nature
from .alignments import Alignments
from .rows import VersionRow
from .versions import Versions

# Words of context shown around a difference, and differences listed before "and N more".
_CONTEXT = 4
SHOWN = 5


def disagreements(versions: Versions, alignments: Alignments, edition: VersionRow) -> list[str]:
    """One line per rule or glossary entry where ``edition`` reads otherwise than the release it is an edition
    of ("rule 100.1: “old” → “new”"); empty when it is no edition, or the two differ in typography alone."""
    every = versions.all()
    ref_id = versions.editions(every).get(edition.id)
    if ref_id is None:
        return []
    al = alignments.get(f"#{ref_id}", f"#{edition.id}")
    return _lines(al, versions.document(ref_id), versions.document(edition.id))


def _lines(al: Alignment, old: Document, new: Document) -> list[str]:
    out: list[str] = []
    for ch in al.changes:
        if not is_substantive(ch):
            continue
        a = old.rules[ch.old[0]] if ch.old else None
        b = new.rules[ch.new[0]] if ch.new else None
        where = f"rule {(a or b).number or (a or b).key}" if (a or b) is not None else "a rule"  # type: ignore[union-attr]
        if a is None or b is None:
            out.append(f"{where}: only in the {'edition' if a is None else 'text'}")
        elif ch.kind in (Kind.MOVED, Kind.MOVED_EDITED, Kind.RENUMBERED_EDITED) and a.number != b.number:
            out.append(f"{where}: numbered {b.number} in the edition")
        else:
            out.append(f"{where}: {words_apart(a.text, b.text)}")
    for g in al.glossary:
        if g.kind == Kind.UNCHANGED or (g.kind == Kind.EDITED and g.nature != Nature.SUBSTANTIVE):
            continue
        term = (g.old or g.new).term  # type: ignore[union-attr]
        if g.old is None or g.new is None:
            out.append(f"glossary {term!r}: only in the {'edition' if g.old is None else 'text'}")
        else:
            out.append(f"glossary {term!r}: {words_apart(g.old.text, g.new.text)}")
    return out


def words_apart(old: str, new: str) -> str:
    """The first stretch where two texts differ in words, with a few words around it: “… old …” → “… new …”."""
    pieces = word_diff(old, new)
    k = next((i for i, p in enumerate(pieces) if p.op in (Op.DELETE, Op.INSERT)), None)
    if k is None:
        return "differs"
    end = k
    while end < len(pieces) and pieces[end].op in (Op.DELETE, Op.INSERT):
        end += 1
    before = "".join(p.text for p in pieces[:k] if p.op != Op.INSERT).split()[-_CONTEXT:]
    after = "".join(p.text for p in pieces[end:] if p.op != Op.INSERT).split()[:_CONTEXT]
    gone = "".join(p.text for p in pieces[k:end] if p.op == Op.DELETE).strip()
    came = "".join(p.text for p in pieces[k:end] if p.op == Op.INSERT).strip()
    head, tail = " ".join(before), " ".join(after)
    return f"\u201c{_join(head, gone, tail)}\u201d \u2192 \u201c{_join(head, came, tail)}\u201d"


def _join(*parts: str) -> str:
    return " ".join(p for p in parts if p)
