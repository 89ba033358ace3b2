"""The archive commands: archive add, list, remove and export (click only)."""

from __future__ import annotations

import contextlib
import json
from pathlib import Path

import click

from ..errors import ArchiveError
from .frame import ACCEPT_WARNINGS, add_entries, archive_option, guard, open_archive, say_identified, write_out


@click.group()
def archive() -> None:
    """Keep every version in one SQLite file: add, list, remove, export.

    \b
    Examples:
      rulediff archive add ../shared/cr-corpus/txt
      rulediff archive list
      rulediff archive export > archive.jsonl
    """


@click.command("add")
@click.argument("paths", nargs=-1, required=True, type=click.Path(path_type=str))
@ACCEPT_WARNINGS
@archive_option
@guard
def archive_add(paths: tuple[str, ...], accept: bool) -> None:
    """Add files or folders (a folder's MANIFEST gives labels and eras). Re-adding is a no-op. A file whose
    reading lost a numbered rule (a number written with characters no rule number has) is refused, naming its
    line, unless --accept-warnings.

    \b
    Examples:
      rulediff archive add cr-20260116.txt
      rulediff archive add corpus/ ../shared/cr-corpus/txt
    """
    from ..archive import entries

    for p in paths:
        if not Path(p).exists():
            raise ArchiveError("no such file or folder", source=p)
    items = entries(list(paths))
    if not items:
        raise ArchiveError("no files to add", source=" ".join(paths))
    with open_archive() as arc:
        add_entries(arc, items, accept=accept)


@click.command("list")
@click.option("--json", "as_json", is_flag=True, help="One JSON object per version.")
@archive_option
@guard
def archive_list(as_json: bool) -> None:
    """List archived versions: date, label, format, rules, changes since the previous one, and for an
    undated dump the release its text matches (it is placed beside it). A partial dump beside a complete
    release of its date is counted against that release, and marked "beside" it.

    \b
    Example:
      rulediff archive list
    """
    from ..matcher.records import reader_changes

    with open_archive(create=False) as arc:
        versions = arc.versions.all()
        aside = arc.versions.beside(versions)
        summaries = arc.alignments.summaries()
        matches = {vid: i.release_label for vid, i in arc.identifications.all().items() if i.matched}
        prev = None
        rows = []
        beside: dict[int, str] = {}
        for v in versions:
            before = arc.versions.release_of(v.id, versions) if v.id in aside else prev
            s = summaries.get((before.id, v.id)) if before else None
            changes = reader_changes(s) if s else None
            rows.append((v, changes))
            if v.id in aside and before is not None:
                beside[v.id] = before.label
            else:
                prev = v
    if as_json:
        for v, changes in rows:
            click.echo(
                json.dumps(
                    {
                        "date": v.date,
                        "label": v.label,
                        "format": v.format,
                        "rules": v.rule_count,
                        "changes": changes,
                        "sha256": v.sha256,
                        "text_matches": matches.get(v.id),
                        "beside": beside.get(v.id),
                    },
                    sort_keys=True,
                )
            )
        return
    click.echo(f"{'date':<12} {'label':<34} {'format':<15} {'rules':>6} {'changes':>8}")
    for v, changes in rows:
        match = f"  text matches {matches[v.id]}" if v.id in matches else ""
        if v.id in beside and v.id not in matches:
            match += f"  (partial: beside {beside[v.id]})"
        click.echo(
            f"{v.date:<12} {v.label[:34]:<34} {v.format:<15} {v.rule_count:>6} {'' if changes is None else changes:>8}"
            + match
        )


@click.command("remove")
@click.argument("version")
@archive_option
@guard
def archive_remove(version: str) -> None:
    """Remove one version (by date, label or sha256 prefix); its neighbours are re-aligned, and the other
    versions of its date are labelled again by publication ("(re-release 3)" becomes "(re-release 2)").

    \b
    Example:
      rulediff archive remove 2026-08-07
    """
    from ..identify import record as record_identifications

    with open_archive(create=False) as arc:
        before = {x.id: x.label for x in arc.versions.all()}
        v = arc.remove(version)
        click.echo(f"removed {v.label}")
        for x in arc.versions.all():
            if before.get(x.id, x.label) != x.label:
                click.echo(f"relabelled {before[x.id]} as {x.label}")
        say_identified(record_identifications(arc))


@click.command("export")
@click.option(
    "-o", "--output", type=click.Path(dir_okay=False, path_type=str), help="Write here (whole or not at all)."
)
@click.option("--force", is_flag=True, help="Replace OUTPUT if it exists.")
@archive_option
@guard
def archive_export(output: str | None, force: bool) -> None:
    """Every version and rule as JSON lines (type "version" then its "rule" records).

    With -o the file is written whole or not at all: damage found in the archive partway leaves it as it was.
    Standard output cannot be taken back: a damaged archive is looked over for missing rows before the first
    line, and damage only reading finds ends the output there (exit 2).

    \b
    Examples:
      rulediff archive export -o archive.jsonl
      rulediff archive export > archive.jsonl
    """
    from ..support.safe_write import check_target

    if output is not None:
        check_target(output, force)
    with open_archive(create=False) as arc:
        arc.versions.check_rule_counts()
        # Closed here, with the archive still open: left to the garbage collector after a closed pipe (export |
        # head) or Ctrl-C, the export's snapshot ended on a closed database, with a traceback.
        with contextlib.closing(arc.export()) as records:
            write_out(output, (json.dumps(rec, ensure_ascii=False, sort_keys=True) + "\n" for rec in records), force)
