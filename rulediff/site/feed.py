"""The site's Atom feed (RFC 4287): one entry per release, newest first, its counts and new keywords."""

# Built as an lxml tree, never from a string template: lxml escapes every text and attribute, and the tree can only
# be well-formed. Every value comes from the archive (no build time, no random id), so the same archive gives the
# same bytes, whether the site was built afresh or brought up to date.
#
# Links are relative to the feed, which sits at the site's top (RFC 4287 section 4.2.7: relative references are
# resolved against xml:base, or failing that the feed document's own address). The site has no option naming the
# address it is published at, so there is nothing to make them absolute with.

from __future__ import annotations

import re
import uuid
from typing import Any

from lxml import etree

from ..archive import ReleaseName, VersionRow
from ..matcher.records import MUST_READ, reader_changes, reader_counts
from .index import Page, overlaps
from .writer import SiteWriter

ATOM = "http://www.w3.org/2005/Atom"
FEED = "feed.xml"
# Ids are name-based UUIDs (RFC 4122 version 5, a registered URN namespace) in a namespace of rulediff's own: a
# release's id is made from its text's sha256, so it stays the same whatever it is labelled or wherever the site is
# published, and the feed's from a fixed name (every rulediff feed follows the same releases).
NAMESPACE = uuid.uuid5(uuid.NAMESPACE_URL, "https://pypi.org/project/rulediff/")
FEED_ID = uuid.uuid5(NAMESPACE, "feed of Comprehensive Rules releases").urn
# 'updated' of a feed with no dated release: a fixed day, never the build's.
NO_RELEASE = "1970-01-01"
_DAY = re.compile(r"\d{4}-\d{2}-\d{2}\Z")


def entry_id(v: VersionRow) -> str:
    """The stable id of a release's entry."""
    return uuid.uuid5(NAMESPACE, f"release {v.sha256}").urn


def _day(v: VersionRow) -> str | None:
    """The day a release is in force from (a re-release's publication), or None when it has no day."""
    day = v.in_force_from
    return day if v.date != "undated" and _DAY.match(day) else None


def _stamp(day: str) -> str:
    return f"{day}T00:00:00Z"


def headline(summary: dict[str, int], rules: int) -> str:
    """The index's headline in words: the changes to read, each kind of them, and the rules the release has."""
    total = reader_changes(summary)
    counts = reader_counts(summary)
    kinds = ", ".join(f"{counts[s]} {s.value}" for s in MUST_READ if counts[s])
    said = f"{total} {'change' if total == 1 else 'changes'} to read" + (f" ({kinds})" if kinds else "")
    return f"{said}; {rules} rules."


def _text(parent: Any, tag: str, text: str, **attrs: str) -> Any:
    el = etree.SubElement(parent, f"{{{ATOM}}}{tag}", attrs)
    el.text = text
    return el


def feed_bytes(
    versions: list[VersionRow],
    pages: list[Page],
    keywords: dict[int, list[str]],
    names: dict[int, ReleaseName] | None = None,
) -> bytes:
    """The feed of the timeline's ``versions`` (oldest first) with their diff ``pages``, new ``keywords`` and
    what each release is called where known (``names``: its set's code and name, a re-release's name)."""
    names = names or {}
    into = {p.new.id: p for p in pages if p.role == "consecutive"}
    dated = [(day, v) for v in versions if (day := _day(v)) is not None]
    root = etree.Element(f"{{{ATOM}}}feed", nsmap={None: ATOM})
    _text(root, "id", FEED_ID)
    _text(root, "title", "Comprehensive Rules releases")
    _text(root, "subtitle", "Every archived release of the Magic: The Gathering Comprehensive Rules, with what changed")
    _text(root, "updated", _stamp(max((day for day, _ in dated), default=NO_RELEASE)))
    author = etree.SubElement(root, f"{{{ATOM}}}author")
    _text(author, "name", "rulediff")
    etree.SubElement(root, f"{{{ATOM}}}link", rel="self", type="application/atom+xml", href=FEED)
    etree.SubElement(root, f"{{{ATOM}}}link", rel="alternate", type="text/html", href="index.html")
    _text(root, "generator", "rulediff")
    for day, v in sorted(dated, key=lambda dv: (dv[0], dv[1].seq, dv[1].id), reverse=True):
        p = into.get(v.id)
        entry = etree.SubElement(root, f"{{{ATOM}}}entry")
        _text(entry, "id", entry_id(v))
        _text(entry, "title", _title(v, names.get(v.id)))
        _text(entry, "updated", _stamp(day))
        href = p.path if p is not None else "index.html"
        etree.SubElement(entry, f"{{{ATOM}}}link", rel="alternate", type="text/html", href=href)
        new = keywords.get(v.id, [])
        for word in new:
            etree.SubElement(entry, f"{{{ATOM}}}category", term=word, label="new keyword")
        if p is None:
            said = f"The first release in the archive; {v.rule_count} rules."
        elif p.summary and not overlaps(p.summary):
            said = f"No rule in common with {p.old.label} (texts of different parts); {v.rule_count} rules."
        else:
            said = f"Since {p.old.label}: " + headline(p.summary, v.rule_count)
        if new:
            said += f" New {'keyword' if len(new) == 1 else 'keywords'}: {', '.join(new)}."
        name = names.get(v.id)
        if name is not None and name.bulletin:
            said += f" Update bulletin: {name.bulletin}"
            etree.SubElement(entry, f"{{{ATOM}}}link", rel="related", type="text/html", href=name.bulletin)
        _text(entry, "summary", said)
    return bytes(etree.tostring(root, xml_declaration=True, encoding="utf-8", pretty_print=True))


def _title(v: VersionRow, name: ReleaseName | None) -> str:
    """'Comprehensive Rules 2020-04-17 (IKO: Ikoria: Lair of Behemoths)', the set said where it is known."""
    if name is None or not (name.code or name.set_name or name.rerelease):
        return f"Comprehensive Rules {v.label}"
    called = ": ".join(x for x in (name.code, name.set_name) if x)
    if name.rerelease:
        called += f" ({name.rerelease})" if called else name.rerelease
    return f"Comprehensive Rules {v.label} ({called})"


def write_feed(
    versions: list[VersionRow],
    pages: list[Page],
    keywords: dict[int, list[str]],
    w: SiteWriter,
    names: dict[int, ReleaseName] | None = None,
) -> None:
    """feed.xml at the site's top."""
    w.write(FEED, feed_bytes(versions, pages, keywords, names).decode("utf-8"))
