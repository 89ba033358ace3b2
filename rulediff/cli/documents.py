"""The commands that read files: parse, lint, formats and diff (click only)."""

from __future__ import annotations

import re
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from ..errors import RulediffError
from ..parsers import FORMATS, parse_file
from ..support import jsontext
from ..support.safe_write import check_target
from .frame import archive_option, archive_path, asked_day, guard, say_lost_rules, write_out

if TYPE_CHECKING:
    from collections.abc import Iterator

    from ..archive import VersionRow
    from ..model import Document


_DIFF_FORMATS = {".html": "html", ".htm": "html", ".json": "json", ".md": "md", ".markdown": "md"}


@click.command()
@click.argument("file", type=click.Path(dir_okay=True, path_type=str))
@click.option(
    "--format", "fmt", type=click.Choice(sorted(FORMATS)), help="Parser to use (default: detect from content)."
)
@click.option("--json", "as_json", is_flag=True, help="Print the whole document as JSON (schema rulediff.document/1).")
@guard
def parse(file: str, fmt: str | None, as_json: bool) -> None:
    """Parse FILE and print a summary, or the whole document as JSON.

    \b
    Examples:
      rulediff parse cr-20260116.txt
      rulediff parse corpus/000_67b17b6c7d536d12.txt --json > 2022.json
    """
    doc = parse_file(file, fmt, lint=True)
    if as_json:
        click.echo(jsontext.dumps(doc.as_dict()))
        return
    v = doc.version
    c = doc.counts()
    click.echo(f"file:           {file}")
    click.echo(f"format:         {v.format}")
    click.echo(f"label:          {v.label}")
    click.echo(f"effective date: {v.effective_date.isoformat() if v.effective_date else 'not stated'}")
    if v.era:
        click.echo(f"era:            {v.era}")
    click.echo(f"coverage:       {doc.coverage.description}")
    click.echo(
        f"counts:         {c['section']} sections, {c['heading']} headings, {c['rule']} rules, "
        f"{c['subrule']} subrules, {c['unnumbered']} unnumbered, {c['examples']} examples, "
        f"{c['glossary']} glossary terms"
    )
    click.echo(f"warnings:       {len(doc.warnings)}")
    for w in doc.warnings:
        click.echo(f"  {file}:{w.line}: {w.code}: {w.message}")


@click.command()
@click.argument("file", type=click.Path(dir_okay=True, path_type=str))
@click.option(
    "--format", "fmt", type=click.Choice(sorted(FORMATS)), help="Parser to use (default: detect from content)."
)
@click.option("--strict", is_flag=True, help="Exit with status 3 when there are findings.")
@guard
def lint(file: str, fmt: str | None, strict: bool) -> None:
    """Report defects in FILE, one per line as FILE:LINE: CODE: MESSAGE.

    Numbering gaps, duplicate numbers, the letters l and o, rules out of order, headings whose text
    defines something else, text in another language, empty rules, unknown or mis-decoded
    characters, words run together, and every quirk the parser had to read around.

    \b
    Examples:
      rulediff lint corpus/004_009a5df1986052e3.txt
      rulediff lint cr-20240920.txt --strict
    """
    doc = parse_file(file, fmt, lint=True)
    for w in doc.warnings:
        click.echo(f"{file}:{w.line}: {w.code}: {w.message}")
    click.echo(f"{len(doc.warnings)} finding(s) in {file} ({doc.version.format})", err=True)
    if strict and doc.warnings:
        sys.exit(3)


@click.command()
@click.argument("old", type=str)
@click.argument("new", type=str)
@click.option("-o", "--output", type=click.Path(dir_okay=False, path_type=str), help="Write here instead of stdout.")
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["html", "json", "md", "notes"]),
    help="Output format (default: from the -o extension, else md): md and html are the release notes, "
    "notes their JSON (rulediff.notes/1.1), json every change in full (rulediff.diff/1.1).",
)
@click.option(
    "--link-base",
    metavar="URL",
    help="Link rule numbers (and references such as 'see rule 704') into the site 'rulediff report' published at URL.",
)
@click.option("--force", is_flag=True, help="Replace OUTPUT if it exists.")
@click.option("--old-format", type=click.Choice(sorted(FORMATS)), help="Parser for OLD (default: detect).")
@click.option("--new-format", type=click.Choice(sorted(FORMATS)), help="Parser for NEW (default: detect).")
@click.option(
    "--only",
    "only",
    multiple=True,
    metavar="NUMBER",
    help="Only changes to this section, rule or subrule and what is below it (repeatable): 6, 613, 613.1a.",
)
@archive_option
@guard
def diff(
    old: str,
    new: str,
    output: str | None,
    fmt: str | None,
    force: bool,
    old_format: str | None,
    new_format: str | None,
    only: tuple[str, ...],
    link_base: str | None,
) -> None:
    """Show what changed from OLD to NEW: renumbering followed, typography and reference noise apart.

    OLD and NEW are files in any supported format, or versions in the archive named by effective
    date or label.

    \b
    Examples:
      rulediff diff cr-20250919.txt cr-20251114.txt -o changes.html
      rulediff diff cr-20110204.txt cr-20260116.txt --format json > 2011-2026.json
      rulediff diff 2011-02-04 2026-01-16 -o notes.md
      rulediff diff 2026-06-19 2026-08-07 -o notes.md --link-base https://example.org/cr
      rulediff diff 2012-01-01 2026-01-16 --only 613 --only 702.15
    """
    # Imported here, not at the top: `rulediff --help` and the other commands do not need the matcher.
    from ..matcher.classify import align
    from ..matcher.restrict import parse_prefixes, restrict
    from ..render.view import headline

    prefixes = parse_prefixes(only)
    if output is not None:
        check_target(output, force)
    kind = fmt or (_DIFF_FORMATS.get(Path(output).suffix.lower(), "md") if output else "md")
    if _is_archived(old, old_format) and _is_archived(new, new_format):
        from ..archive import Archive

        with Archive.open(archive_path(), create=False) as arc:
            a, b = _in_force(arc, old), _in_force(arc, new)
            _compare_versions(old, new, a, b)
            # stored for neighbours, computed once and kept otherwise
            al = arc.alignments.get(f"#{a.id}", f"#{b.id}")
    else:
        al = align(load_document(old, old_format), load_document(new, new_format))
        _say_backwards(old, new, al.old.version.effective_date, al.new.version.effective_date)
    if prefixes:
        al = restrict(al, prefixes)
    text: str | Iterator[str]
    if kind == "md":
        from ..render.markdown import to_markdown

        text = to_markdown(al, link_base)
    elif kind == "html":
        from ..render.html import to_html

        text = to_html(al, link_base=link_base)
    elif kind == "notes":
        from ..render.notes_json import to_notes_json

        text = to_notes_json(al)
    else:
        from ..render.diff_json import iter_json

        # Written as it is made (a hostile diff's JSON is a hundred megabytes), a long one on two cores.
        text = iter_json(al, helper=True)
    write_out(output, text, force)
    # The counts on stderr in every format, written to a file or not: a bot reads them without parsing the output.
    click.echo(f"wrote {output}: {headline(al.summary())}" if output else headline(al.summary()), err=True)


def _compare_versions(old: str, new: str, a: VersionRow, b: VersionRow) -> None:
    """Refuse OLD and NEW naming one version (two days with no release archived between them answer "No
    changes" about no release at all); say when OLD is the newer."""
    if a.id == b.id:
        between = "" if old.strip() == new.strip() else " (no release is archived between them)"
        raise RulediffError(f"OLD {old!r} and NEW {new!r} both name {a.label}{between}: nothing to compare")
    if (a.sort_date, a.seq) > (b.sort_date, b.seq):
        _say_backwards(a.label, b.label, None, None, known=True)


def _say_backwards(old: str, new: str, a: Any, b: Any, known: bool = False) -> None:
    """One line on stderr when OLD is newer than NEW (``known``, or by the effective dates ``a``, ``b``): the
    diff then reads backwards, what came later shown as removed."""
    if known or (a is not None and b is not None and a > b):
        click.echo(
            f"note: OLD ({old}) is newer than NEW ({new}): this reads backwards in time, later rules shown as "
            "removed; swap them for what changed",
            err=True,
        )


def _is_archived(ref: str, fmt: str | None) -> bool:
    """Does ``ref`` name an archived version rather than a file?"""
    return not Path(ref).exists() and fmt is None and _looks_like_version(ref)


def load_document(ref: str, fmt: str | None) -> Document:
    """A file path, or (when no such file exists) a version in the archive."""
    if not _is_archived(ref, fmt):
        doc = parse_file(ref, fmt)
        say_lost_rules(doc)
        return doc
    from ..archive import Archive

    with Archive.open(archive_path(), create=False) as arc:
        return arc.versions.document(_in_force(arc, ref).id)


def _in_force(arc: Any, ref: str) -> VersionRow:
    """The version a reference names; a date that is no release's own date (or a year or year-month: its last
    day) means the version in force that day, said on stderr."""
    try:
        return arc.versions.resolve(ref)  # type: ignore[no-any-return]
    except RulediffError:  # (not found, or several versions share that day: the one in force then)
        if not re.fullmatch(r"[0-9]{4}(-[0-9]{2}(-[0-9]{2})?)?", ref.strip()):
            raise
    day = asked_day(ref, what="version")
    assert day is not None
    v = arc.versions.in_force(day, what="version")
    click.echo(f"{day}: the version in force that day is {v.label}", err=True)
    return v  # type: ignore[no-any-return]


def _looks_like_version(ref: str) -> bool:
    return "/" not in ref and "\\" not in ref and Path(ref).suffix.lower() not in (".txt", ".docx", ".html", ".md")


@click.command()
@guard
def formats() -> None:
    """List the parsers, in detection order.

    \b
    Example:
      rulediff formats
    """
    width = max(len(n) for n in FORMATS)
    for name, f in FORMATS.items():
        click.echo(f"{name:<{width}}  {f.description}")
