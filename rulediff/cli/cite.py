"""The cite command: a text's rule citations followed to a newer release, rewritten, locked, checked (click only)."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from ..errors import ArchiveError, RulediffError
from ..support import jsontext
from ..support.bounded_read import read_input
from ..support.safe_write import write_atomic
from .frame import archive_option, guard, open_archive

if TYPE_CHECKING:
    from ..archive import Archive, VersionRow
    from ..matcher.records import Alignment

_BOM = b"\xef\xbb\xbf"


@click.command("cite")
@click.argument("file", type=click.Path(dir_okay=False, path_type=str))
@click.option("--from", "old", metavar="OLD", help="The release the text cites (label or date); default: NEW.")
@click.option("--to", "new", metavar="NEW", help="The release to follow the citations to; default: the newest.")
@click.option("--write", is_flag=True, help="Rewrite FILE's numbers that moved (never one gone or ambiguous).")
@click.option("--lock", "lockfile", metavar="LOCKFILE", help="Record each citation's rules and words as NEW has them.")
@click.option("--check", is_flag=True, help="Check FILE's citations against --lock: fail if a cited rule changed.")
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON (rulediff.cite/1).")
@archive_option
@guard
def cite_command(
    file: str, old: str | None, new: str | None, write: bool, lockfile: str | None, check: bool, as_json: bool
) -> None:
    """Follow a text's rule citations ("rule 702.15a", "CR 613.1", "[702.15]", "506.7a-f") to a newer release.

    FILE is Markdown, HTML or plain text (by its name, else its content). Each citation is reported
    unchanged, renumbered (with its new number), edited (with the words that changed), gone (with the
    rule its words went to, if any), ambiguous (split, or printed twice) or unknown. Exit status: 0 all
    current, 3 something changed, 2 an error.

    \b
    Examples:
      rulediff cite article.md --from 2011-02-04 --to 2026-01-16
      rulediff cite article.md --from 2011-02-04 --write
      rulediff cite rulings.html --lock rulings.lock
      rulediff cite rulings.html --check --lock rulings.lock
    """
    if check and (lockfile is None or write or old is not None):
        raise click.UsageError("--check reads the release from --lock LOCKFILE; it takes no --from or --write")
    data = read_input(file)
    bom = data.startswith(_BOM)
    text = data[3 if bom else 0 :].decode("utf-8", "surrogateescape")  # every byte comes back as it was
    from ..cite import format_of

    fmt = format_of(file, text)
    with open_archive(create=False) as arc:
        target = _release(arc, new) if new else _newest(arc)
        if check:
            assert lockfile is not None
            code = _check(arc, file, text, fmt, lockfile, target, as_json)
        else:
            code = _follow(arc, file, text, fmt, _release(arc, old) if old else target, target, write, bom, as_json)
            if lockfile is not None:
                _lock(arc, file, lockfile, target)
    sys.exit(code)


def _release(arc: Archive, ref: str) -> VersionRow:
    """A release by label or date; a date that is no release's own is the release in force that day."""
    import re

    try:
        return arc.versions.resolve(ref)
    except RulediffError:
        if not re.fullmatch(r"\d{4}-\d{2}-\d{2}", ref.strip()):
            raise
    return arc.versions.in_force(ref.strip(), what="release")


def _newest(arc: Archive) -> VersionRow:
    versions = arc.versions.all()
    if not versions:
        raise ArchiveError("no release archived yet; add one with 'rulediff archive add FILE'", source=str(arc.path))
    return versions[-1]


def _aligned(arc: Archive, old: VersionRow, new: VersionRow) -> Alignment:
    """The alignment `rulediff diff OLD NEW` makes (a release with itself: every rule unchanged)."""
    if old.id == new.id:
        from ..matcher.classify import align

        doc = arc.versions.document(old.id)
        return align(doc, doc)
    return arc.alignments.get(f"#{old.id}", f"#{new.id}")


def _follow(
    arc: Archive,
    file: str,
    text: str,
    fmt: str,
    old: VersionRow,
    new: VersionRow,
    write: bool,
    bom: bool,
    as_json: bool,
) -> int:
    from ..cite import Status, follow_citations, rewritten, worst
    from ..cite.say import citation_lines, counts

    cited = follow_citations(text, fmt, _aligned(arc, old, new))
    changed = 0
    if write:
        out, changed = rewritten(text, cited)
        if changed:
            write_atomic(file, (_BOM if bom else b"") + out.encode("utf-8", "surrogateescape"), force=True)
    statuses = [c.status for c in cited]
    if as_json:
        report: dict[str, Any] = {
            "schema": "rulediff.cite/1",
            "file": file,
            "format": fmt,
            "from": old.label,
            "to": new.label,
            "citations": [c.as_dict() for c in cited],
            "counts": {str(s): statuses.count(s) for s in Status if statuses.count(s)},
            "rewritten": changed,
        }
        click.echo(jsontext.dumps(report))
    else:
        for c in cited:
            if c.status != Status.UNCHANGED or c.new_text != c.citation.text:
                for line in citation_lines(file, c, new.label):
                    click.echo(line)
    said = f"{counts(statuses)}, {old.label} -> {new.label}"
    if write:
        said += f"; {changed} number{'s' if changed != 1 else ''} rewritten in {file}"
    click.echo(said, err=True)
    return 0 if worst(statuses) == Status.UNCHANGED else 3


def _lock(arc: Archive, file: str, lockfile: str, new: VersionRow) -> None:
    """Write the lock of FILE's citations (as it now reads) in release ``new``."""
    from ..cite import find_citations, format_of, lock_dict

    data = read_input(file)
    text = data[3 if data.startswith(_BOM) else 0 :].decode("utf-8", "surrogateescape")
    doc = arc.versions.document(new.id)
    lock = lock_dict(Path(file).name, doc, find_citations(text, format_of(file, text)))
    write_atomic(lockfile, json.dumps(lock, ensure_ascii=False, indent=1) + "\n", force=True)
    click.echo(f"locked {len(lock['citations'])} citations of {file} to {new.label} in {lockfile}", err=True)


def _check(arc: Archive, file: str, text: str, fmt: str, lockfile: str, new: VersionRow, as_json: bool) -> int:
    from ..cite import Status, check_lock, find_citations, read_lock, worst
    from ..cite.say import counts, locked_lines

    lock = read_lock(read_input(lockfile), lockfile)
    was = arc.versions.by_sha(lock["release"]["sha256"])
    if was is None:
        named = lock["release"].get("label", lock["release"]["sha256"][:12])
        raise ArchiveError(f"{lockfile}: the release it was locked to ({named}) is not archived", source=str(arc.path))
    al = None if was.id == new.id else _aligned(arc, was, new)
    checked, unlocked = check_lock(lock, al, arc.versions.document(new.id), find_citations(text, fmt))
    statuses = [c.status for c in checked]
    if as_json:
        report = {
            "schema": "rulediff.cite-check/1",
            "file": file,
            "locked": was.label,
            "to": new.label,
            "citations": [
                {
                    "line": c.line,
                    "text": c.text,
                    "status": str(c.status),
                    "rules": {f.number: str(f.status) for f in c.rules},
                }
                for c in checked
            ],
            "unlocked": [{"line": c.line, "text": c.text} for c in unlocked],
        }
        click.echo(jsontext.dumps(report))
    else:
        for c in checked:
            if c.status != Status.UNCHANGED:
                for line in locked_lines(file, c, new.label):
                    click.echo(line)
        for u in unlocked:
            click.echo(f"{file}:{u.line}: {u.text}: not in the lock (cited since it was made)")
    click.echo(f"{counts(statuses)} locked to {was.label}, checked against {new.label}", err=True)
    return 0 if worst(statuses) == Status.UNCHANGED and not unlocked else 3
