"""The identify command: which archived release a dump's text is from (click only)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import TYPE_CHECKING

import click

from ..errors import ArchiveError
from ..parsers import FORMATS, parse_file
from ..support import jsontext
from .frame import archive_option, archive_path, guard, say_lost_rules

# The archive and the identification machinery are imported by the command itself: the other
# commands (and `rulediff --help`) load this module but do not need them.
if TYPE_CHECKING:
    from ..identify import Difference, Identification

# Differences listed in text output (JSON lists them all); an unrelated text can differ everywhere.
SHOWN_DIFFERENCES = 40
# Unchanged words kept on each side of a change when a difference is printed.
CONTEXT = 40


@click.command("identify")
@click.argument("file", type=click.Path(dir_okay=True, path_type=str))
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
@click.option("--top", type=click.IntRange(min=1), default=5, show_default=True, help="Candidates to list.")
@click.option("--parser", type=click.Choice(sorted(FORMATS)), help="Parser for FILE (default: detect from content).")
@archive_option
@guard
def identify_command(file: str, fmt: str, top: int, parser: str | None) -> None:
    """Which archived release is FILE's text from? Ranks the archive's official releases by how well
    each explains the dump inside what it covers (rules identical, typography only, substantive,
    missing, extra), lists the best one's differences and prints a verdict. Works for every format,
    the keyword page with no rule numbers included. Needs an archive of official releases.

    \b
    Examples:
      rulediff archive add ../shared/cr-corpus/txt
      rulediff identify corpus/003_8b50984e948ebee1.txt
      rulediff identify notes.md --format json --top 10
    """
    from ..archive import Archive, default_path
    from ..identify import identify

    path = Path(archive_path() or default_path())
    if not path.exists():
        raise ArchiveError(
            "identify needs an archive of official releases; build one with"
            " 'rulediff archive add ../shared/cr-corpus/txt' (or name it with --archive)",
            source=str(path),
        )
    doc = parse_file(file, parser)
    say_lost_rules(doc)
    with Archive.open(path, create=False) as arc:
        ident = identify(arc, doc, file)
    if fmt == "json":
        click.echo(jsontext.dumps(ident.as_dict(top)))
        return
    _print(ident, top)


def _print(ident: Identification, top: int) -> None:
    click.echo(f"verdict:  {ident.verdict}")
    click.echo(f"file:     {ident.file}")
    aligned = len({c.version.id for c in ident.candidates})
    click.echo(
        f"coverage: {ident.coverage.description}; {ident.releases} official releases archived, "
        f"{aligned} compared in full"
    )
    click.echo("")
    click.echo(
        f"{'rank':<5}{'release':<26}{'score':>7}{'compared':>10}{'identical':>10}{'typography':>11}"
        f"{'substantive':>12}{'missing':>8}{'extra':>6}"
    )
    for k, c in enumerate(ident.candidates[:top], 1):
        tie = "=" if c in ident.tied and len(ident.tied) > 1 else " "
        click.echo(
            f"{k:<4}{tie}{c.version.label[:25]:<26}{c.score:>7.4f}{c.compared:>10}{c.identical:>10}"
            f"{c.typography_only:>11}{c.substantive:>12}{c.missing:>8}{c.extra:>6}"
        )
    diffs = ident.differences
    if not diffs:
        click.echo(f"\nno differences from {ident.best.version.label} inside the dump's coverage")
        return
    click.echo(f"\ndifferences from {ident.best.version.label} ({len(diffs)}; [-release-]{{+dump+}}):")
    for d in diffs[:SHOWN_DIFFERENCES]:
        click.echo(f"  {_where(d):<24} {d.kind:<16} {_render(d)}")
    if len(diffs) > SHOWN_DIFFERENCES:
        click.echo(f"  ... and {len(diffs) - SHOWN_DIFFERENCES} more (--format json lists them all)")


def _where(d: Difference) -> str:
    if d.dump_number and d.release_number and d.dump_number != d.release_number:
        return f"{d.release_number} -> {d.dump_number}"
    where = d.dump_number or d.release_number or ""
    if d.title and not d.dump_number:
        where = f"{where} {d.title}".strip()
    return where


def _render(d: Difference) -> str:
    from ..words.diff import Op

    out = []
    for p in d.diff:
        text = re.sub(r"\s+", " ", p.text)
        if p.op == Op.DELETE:
            out.append(f"[-{text}-]")
        elif p.op == Op.INSERT:
            out.append(f"{{+{text}+}}")
        elif len(text) > 2 * CONTEXT + 5 and len(d.diff) > 1:
            head = text[:CONTEXT] if p is not d.diff[0] else ""
            tail = text[-CONTEXT:] if p is not d.diff[-1] else ""
            out.append(f"{head}\u2026{tail}")
        else:
            out.append(text)
    return "".join(out).strip()
