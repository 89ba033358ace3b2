"""The hand corrections of lineage: archive link, unlink and corrections (click only)."""

from __future__ import annotations

import json

import click

from .frame import archive_option, archive_path, guard

REASON = click.option("--reason", required=True, help="Why, in one line: shown as 'linked by hand: REASON'.")


@click.command("link")
@click.argument("old_version")
@click.argument("old_number")
@click.argument("new_version")
@click.argument("new_number")
@REASON
@archive_option
@guard
def archive_link(old_version: str, old_number: str, new_version: str, new_number: str, reason: str) -> None:
    """Say by hand that rule OLD_NUMBER of OLD_VERSION continues as NEW_NUMBER of NEW_VERSION (two neighbouring
    versions). Lineage, history and the site follow it and show "linked by hand: REASON". It replaces the
    matcher's links of both rules and a recorded unlink of the two; it is kept in the archive (by the versions'
    sha256, so it outlives removing and re-adding them).

    \b
    Example:
      rulediff archive link 2009-05-01 205.1 2009-07-11 204.1 --reason "same rule, reworded"
    """
    from ..archive import Archive  # here: the other commands and --help do not load the archive

    with Archive.open(archive_path(), create=False) as arc:
        click.echo(arc.lineages.link(old_version, old_number, new_version, new_number, reason))


@click.command("unlink")
@click.argument("old_version")
@click.argument("old_number")
@click.argument("new_version")
@click.argument("new_number", required=False)
@REASON
@archive_option
@guard
def archive_unlink(old_version: str, old_number: str, new_version: str, new_number: str | None, reason: str) -> None:
    """Say by hand that rule OLD_NUMBER of OLD_VERSION is not the same rule as NEW_NUMBER of NEW_VERSION (without
    NEW_NUMBER: has no successor there). The old rule's history ends there and the new one starts, each saying
    "unlinked by hand: REASON". Unlinking a link recorded by hand withdraws it.

    \b
    Examples:
      rulediff archive unlink 2009-05-01 408.2 2009-07-11 114.2 --reason "only the special actions went there"
      rulediff archive unlink 2009-05-01 212.1 2009-07-11 --reason "no single successor"
    """
    from ..archive import Archive  # here: the other commands and --help do not load the archive

    with Archive.open(archive_path(), create=False) as arc:
        click.echo(arc.lineages.unlink(old_version, old_number, new_version, new_number, reason))


@click.command("corrections")
@click.option("--json", "as_json", is_flag=True, help="One JSON object per correction.")
@archive_option
@guard
def archive_corrections(as_json: bool) -> None:
    """List the hand corrections in force: those shipped with rulediff and those recorded in the archive
    (which replace shipped ones about the same rule), each with whether lineage applies it here.

    \b
    Example:
      rulediff archive corrections
    """
    from ..archive import Archive  # here: the other commands and --help do not load the archive

    with Archive.open(archive_path(), create=False) as arc:
        rows = arc.corrections.listing()
    for r in rows:
        if as_json:
            click.echo(json.dumps(r, ensure_ascii=False, sort_keys=True))
            continue
        arrow = "->" if r["action"] == "link" else "-/->"
        click.echo(
            f"{r['source']:<8} {r['old_version']} {r['old_number']} {arrow} {r['new_version']} {r['new_number'] or '-'}"
            f"  [{r['status']}]\n         {r['reason']}"
        )
