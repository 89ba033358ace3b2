"""A text's citations locked to a release: each cited rule's words as a digest, and the check against a newer one."""

# A lock file (rulediff.cite-lock/1, JSON) records, for each citation of a text, the rules it names as a release
# prints them and a digest of each one's words (whole: subrules and examples; typography aside). A check follows
# every locked rule from that release to a newer one and says which changed: renumbered, edited, gone. A
# citation added to the text since, or one the lock has that the text no longer has, is a change too.

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from ..errors import ParseError
from ..matcher.records import Alignment
from ..model import Document
from .find import Citation
from .follow import Followed, Follower, Status, digest, whole_text, worst

SCHEMA = "rulediff.cite-lock/1"


def lock_dict(name: str, doc: Document, citations: list[Citation]) -> dict[str, Any]:
    """The lock of ``citations`` (as the text holds them) in release ``doc``."""
    where: dict[str, int] = {}
    for k, r in enumerate(doc.rules):
        if r.number is not None:
            where.setdefault(str(r.number), k)
    return {
        "schema": SCHEMA,
        "file": name,
        "release": {"label": doc.version.label, "sha256": doc.version.sha256},
        "citations": [
            {
                "line": c.line,
                "text": c.text,
                "rules": {n: (digest(whole_text(doc, where[n])) if n in where else None) for n in c.names},
            }
            for c in citations
        ],
    }


@dataclass(frozen=True, slots=True)
class Locked:
    """A citation of the lock, checked: each rule it names and what became of it."""

    line: int
    text: str
    rules: tuple[Followed, ...]
    status: Status


def read_lock(data: bytes, source: str) -> dict[str, Any]:
    """A lock file's contents, checked for its shape; anything else is one line naming the file."""
    try:
        lock = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        raise ParseError("not a lock file: it is not JSON", source=source) from None
    ok = (
        isinstance(lock, dict)
        and lock.get("schema") == SCHEMA
        and isinstance(lock.get("release"), dict)
        and isinstance(lock["release"].get("sha256"), str)
        and isinstance(lock.get("citations"), list)
        and all(
            isinstance(c, dict)
            and isinstance(c.get("text"), str)
            and isinstance(c.get("line"), int)
            and isinstance(c.get("rules"), dict)
            and all(isinstance(k, str) and (v is None or isinstance(v, str)) for k, v in c["rules"].items())
            for c in lock["citations"]
        )
    )
    if not ok:
        raise ParseError(
            f"not a lock file: expected {SCHEMA} (rulediff cite FILE --lock LOCKFILE writes one)", source=source
        )
    checked: dict[str, Any] = lock
    return checked


def _whole(doc: Document, where: dict[str, int], number: str) -> str:
    return whole_text(doc, where[number]) if number in where else ""


def check_lock(
    lock: dict[str, Any], al: Alignment | None, doc: Document, citations: list[Citation]
) -> tuple[list[Locked], list[Citation]]:
    """Each locked citation followed from the lock's release to ``doc`` (through ``al``; None when ``doc`` is
    that release), each rule's words held to the lock's digest; and the citations of the text the lock does
    not hold (added or changed since it was made)."""
    follower = Follower(al) if al is not None else None
    where: dict[str, int] = {}
    for k, r in enumerate(doc.rules):
        if r.number is not None:
            where.setdefault(str(r.number), k)
    out = []
    for c in lock["citations"]:
        rules = []
        for number, was in c["rules"].items():
            if follower is None:
                f = Followed(number, Status.UNCHANGED, number) if number in where else Followed(number, Status.UNKNOWN)
            else:
                f = follower.follow(number)
            if was is None:  # locked as no rule of its release: still none, or a rule now
                f = Followed(number, Status.UNCHANGED) if f.status == Status.UNKNOWN else f
            elif (
                f.status in (Status.UNCHANGED, Status.RENUMBERED) and f.new and digest(_whole(doc, where, f.new)) != was
            ):
                f = Followed(number, Status.EDITED, f.new, nature="substantive", note="its words are not the lock's")
            rules.append(f)
        out.append(Locked(c["line"], c["text"], tuple(rules), worst([f.status for f in rules])))
    locked = {(c["text"], tuple(c["rules"])) for c in lock["citations"]}
    unlocked = [c for c in citations if (c.text, tuple(dict.fromkeys(c.names))) not in locked]
    return out, unlocked
