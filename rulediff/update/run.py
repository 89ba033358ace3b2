"""One run of 'rulediff update': the page, the current release's files, each dated by its text, archived whole."""

# One run of 'rulediff update'. The page is fetched (conditionally: an unchanged page since the last run that ended
# well is "no new release" at once) and its links read; the TXT is fetched, parsed and dated from its own
# "effective as of" line. Same bytes archived: no new release (the editions the archive lacks are still fetched);
# older than the archive's newest release: refused, a stale page or mirror. Then the DOCX and PDF, each a warning
# when missing, bad or of another date. Everything is fetched and read before anything is archived, the TXT first;
# the validators are kept only once a run ended well, so a failed run is tried again whole.

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ..archive import AddResult, Archive, VersionRow
from ..errors import RulediffError
from ..model import Document
from ..parsers import parse_bytes
from .fetch import Fetched, FetchError, Settings, fetch
from .page import Links, file_name, read_links

DEFAULT_SOURCE = "https://magic.wizards.com/en/rules"
# The parser each edition is read with: a file is what the page says it is, or it is refused.
FORMAT_OF = {"txt": "official-text", "docx": "docx", "pdf": "pdf"}
NOTE = "update"
NEW_RELEASE = 10  # the exit code of --check when there is one


class StaleError(RulediffError):
    """The page or mirror offers a release older than the newest archived: never archived over the newer."""


@dataclass(slots=True)
class Outcome:
    """What a run found and did: the release's label (None: the page is unchanged), whether it is new, the
    results of what was archived, and warnings to say (one line each)."""

    label: str | None = None
    new: bool = False
    added: list[AddResult] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    unchanged_page: bool = False


@dataclass(slots=True)
class _File:
    kind: str
    url: str
    fetched: Fetched
    doc: Document | None = None


def run(arc: Archive, source: str, settings: Settings, *, check: bool = False, say: Callable[[str], None]) -> Outcome:
    """Fetch ``source`` and archive what the archive lacks of its current release (nothing with ``check``)."""
    notes: dict[str, Any] = dict(arc.note(NOTE) or {})
    page = fetch(source, settings, notes.get(source, {}).get("validators"))
    if page.body is None:
        return Outcome(unchanged_page=True)
    links = read_links(page.body, page.url)
    txt = _get(links, "txt", settings, notes)
    if txt.fetched.body is None:  # the same text as when a run last ended well
        return Outcome(label=notes.get(txt.url, {}).get("label"), unchanged_page=False)
    txt.doc = _read(txt)
    label = _date_of(txt)
    known = arc.versions.by_sha(txt.doc.version.sha256)
    if known is None:
        _refuse_stale(arc, txt, label)
    out = Outcome(label=label, new=known is None)
    if check:
        return out
    editions = _editions(arc, links, settings, notes, known, label, out)
    if known is None:
        say(f"new release {label}: {file_name(txt.url)}")
        out.added.append(
            arc.add(txt.fetched.body, file_name(txt.url), fmt=FORMAT_OF["txt"], parsed=txt.doc, provenance=txt.url)
        )
    for f in editions:
        assert f.fetched.body is not None and f.doc is not None
        out.added.append(
            arc.add(f.fetched.body, file_name(f.url), fmt=FORMAT_OF[f.kind], parsed=f.doc, provenance=f.url)
        )
    _remember(arc, notes, source, page, [txt, *editions], label)
    return out


def _get(links: Links, kind: str, settings: Settings, notes: dict[str, Any]) -> _File:
    url = links.urls[kind]
    return _File(kind, url, fetch(url, settings, notes.get(url, {}).get("validators")))


def _read(f: _File) -> Document:
    """The file parsed as the edition the page says it is. An HTML page where the rules should be (a server's
    error page served with a 200) is said as such, not as a text that has no rules."""
    body = f.fetched.body or b""
    head = body[:512].lstrip(b"\xef\xbb\xbf \t\r\n").lower()
    if head.startswith((b"<!doctype html", b"<html", b"<head", b"<body")):
        raise FetchError(f"an HTML page, not the {f.kind.upper()} edition of the rules (an error page?)", source=f.url)
    return parse_bytes(body, file_name(f.url), FORMAT_OF[f.kind])


def _date_of(f: _File) -> str:
    """The file's own effective date ("These rules are effective as of ..."), never the day it was fetched."""
    assert f.doc is not None
    day = f.doc.version.effective_date
    if day is None:
        raise FetchError("the file states no effective date ('These rules are effective as of ...')", source=f.url)
    return day.isoformat()


def _refuse_stale(arc: Archive, f: _File, label: str) -> None:
    newest = _newest(arc)
    if newest is not None and newest.effective_date is not None and label < newest.effective_date:
        raise StaleError(
            f"offers the release of {label}, older than the newest archived ({newest.label}): a stale page or "
            "mirror; nothing archived",
            source=f.url,
        )


def _newest(arc: Archive) -> VersionRow | None:
    dated = [v for v in arc.versions.timeline() if v.effective_date is not None]
    return max(dated, key=lambda v: (v.effective_date or "", v.seq)) if dated else None


def _editions(
    arc: Archive,
    links: Links,
    settings: Settings,
    notes: dict[str, Any],
    known: VersionRow | None,
    label: str,
    out: Outcome,
) -> list[_File]:
    """The DOCX and PDF the archive lacks of this release, fetched and read; each failure a warning line."""
    have: set[str] = set()
    if known is not None:
        every = arc.versions.all()
        have = {v.format for v in every if arc.versions.editions(every).get(v.id) == known.id}
    got: list[_File] = []
    for kind in ("docx", "pdf"):
        if FORMAT_OF[kind] in have:
            continue
        if kind not in links.urls:
            out.warnings.append(f"{links.page}:{links.line}: the page links no {kind.upper()} edition; the TXT alone")
            continue
        try:
            f = _get(links, kind, settings, notes)
            if f.fetched.body is None:
                continue
            f.doc = _read(f)
            day = _date_of(f)
        except RulediffError as e:
            out.warnings.append(f"{e.one_line()}; the {kind.upper()} edition is not archived")
            continue
        if day != label:
            out.warnings.append(
                f"{f.url}: dated {day}, not {label} as the TXT; the {kind.upper()} edition is not archived"
            )
            continue
        if arc.versions.by_sha(f.doc.version.sha256) is None:
            got.append(f)
    return got


def _remember(arc: Archive, notes: dict[str, Any], source: str, page: Fetched, files: list[_File], label: str) -> None:
    """Keep the validators of the page (under the address the next run asks for, whatever it redirected to) and
    of each file fetched whole, for the next run's conditional requests."""
    notes[source] = {"validators": page.validators}
    for f in files:
        if f.fetched.body is not None:
            notes[f.url] = {"validators": f.fetched.validators, "label": label}
    arc.keep_note(NOTE, notes)
