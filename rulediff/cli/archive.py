"""The command line, part two: click only -- the archive, history, show, search and the site (report)."""

from __future__ import annotations

import contextlib
import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from ..errors import ArchiveError, NotFoundError
from ..support import jsontext
from .frame import _guard, archive_option, archive_path, as_text, main, progress_bar, write_out

# The library is imported inside each command: `rulediff diff` and `rulediff --help` load this module
# but need none of the archive's SQLite layer, the site builder or the history machinery.
if TYPE_CHECKING:
    from ..archive import AddResult, Archive, VersionRow
    from ..archive.identifying import Identified
    from ..archive.manifest import Entry
    from ..history.timeline import Stretch


def _open(create: bool = True) -> Archive:
    from ..archive import Archive

    return Archive.open(archive_path(), create=create)


def _add(arc: Archive, items: list[Entry], quiet: bool = False) -> list[AddResult]:
    """Archive items with a progress bar; one line per file unless quiet."""
    from ..identify import record as record_identifications

    results: list[AddResult] = []
    with progress_bar(len(items), "archiving") as bar:

        def done(entry: Entry, res: AddResult) -> None:
            results.append(res)
            bar.update(1, res.version.label)

        arc.add_many(items, on_added=done)
    found = record_identifications(arc)
    if not quiet:
        for res in results:
            click.echo(f"{res.status:<17} {res.version.label}  ({res.version.format}, {res.version.rule_count} rules)")
        _identified(found)
    return results


def _identified(found: list[tuple[VersionRow, Identified]]) -> None:
    """One line per dump (re)identified against the archive's official releases."""
    for v, ident in found:
        said = f"text matches {ident.release_label}" if ident.matched else "no archived release explains it"
        click.echo(f"{'identified':<17} {v.label}  ({said})")


@main.group()
def archive() -> None:
    """Keep every version in one SQLite file: add, list, remove, export.

    \b
    Examples:
      rulediff archive add ../shared/cr-corpus/txt
      rulediff archive list
      rulediff archive export > archive.jsonl
    """


@archive.command("add")
@click.argument("paths", nargs=-1, required=True, type=click.Path(path_type=str))
@archive_option
@_guard
def archive_add(paths: tuple[str, ...]) -> None:
    """Add files or folders (a folder's MANIFEST gives labels and eras). Re-adding is a no-op.

    \b
    Examples:
      rulediff archive add cr-20260116.txt
      rulediff archive add corpus/ ../shared/cr-corpus/txt
    """
    from ..archive.manifest import entries

    for p in paths:
        if not Path(p).exists():
            raise ArchiveError("no such file or folder", source=p)
    items = entries(list(paths))
    if not items:
        raise ArchiveError("no files to add", source=" ".join(paths))
    with _open() as arc:
        _add(arc, items)


@archive.command("list")
@click.option("--json", "as_json", is_flag=True, help="One JSON object per version.")
@archive_option
@_guard
def archive_list(as_json: bool) -> None:
    """List archived versions: date, label, format, rules, changes since the previous one, and for an
    undated dump the release its text matches (it is placed beside it).

    \b
    Example:
      rulediff archive list
    """
    from ..matcher.records import reader_changes

    with _open(create=False) as arc:
        versions = arc.versions()
        summaries = arc.summaries()
        matches = {vid: i.release_label for vid, i in arc.identified().items() if i.matched}
        prev = None
        rows = []
        for v in versions:
            s = summaries.get((prev.id, v.id)) if prev else None
            changes = reader_changes(s) if s else None
            rows.append((v, changes))
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
                    },
                    sort_keys=True,
                )
            )
        return
    click.echo(f"{'date':<12} {'label':<34} {'format':<15} {'rules':>6} {'changes':>8}")
    for v, changes in rows:
        match = f"  text matches {matches[v.id]}" if v.id in matches else ""
        click.echo(
            f"{v.date:<12} {v.label[:34]:<34} {v.format:<15} {v.rule_count:>6} {'' if changes is None else changes:>8}"
            + match
        )


@archive.command("remove")
@click.argument("version")
@archive_option
@_guard
def archive_remove(version: str) -> None:
    """Remove one version (by date, label or sha256 prefix); its neighbours are re-aligned, and the other
    versions of its date are labelled again by publication ("(re-release 3)" becomes "(re-release 2)").

    \b
    Example:
      rulediff archive remove 2026-08-07
    """
    from ..identify import record as record_identifications

    with _open(create=False) as arc:
        before = {x.id: x.label for x in arc.versions()}
        v = arc.remove(version)
        click.echo(f"removed {v.label}")
        for x in arc.versions():
            if before.get(x.id, x.label) != x.label:
                click.echo(f"relabelled {before[x.id]} as {x.label}")
        _identified(record_identifications(arc))


@archive.command("export")
@click.option(
    "-o", "--output", type=click.Path(dir_okay=False, path_type=str), help="Write here (whole or not at all)."
)
@click.option("--force", is_flag=True, help="Replace OUTPUT if it exists.")
@archive_option
@_guard
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
    with _open(create=False) as arc:
        arc.check_rule_counts()
        # Closed here, with the archive still open: left to the garbage collector after a closed pipe (export |
        # head) or Ctrl-C, the export's snapshot ended on a closed database, with a traceback.
        with contextlib.closing(arc.export()) as records:
            write_out(output, (json.dumps(rec, ensure_ascii=False, sort_keys=True) + "\n" for rec in records), force)


@main.command()
@click.argument("query", callback=as_text)
@click.option("--as-of", help="Find the rule as numbered on this date (YYYY-MM-DD).")
@click.option("--glossary", is_flag=True, help="QUERY is a glossary term (the default tries rules first).")
@click.option("--substantive", is_flag=True, help="Hide steps that changed only typography or cross-references.")
@click.option("--whole", is_flag=True, help="Print every line of the rule at each step, not only changed lines.")
@click.option("--format", "fmt", type=click.Choice(["text", "json", "html"]), default="text", show_default=True)
@archive_option
@_guard
def history(query: str, as_of: str | None, glossary: bool, substantive: bool, whole: bool, fmt: str) -> None:
    """Every version in which a rule or glossary term exists, its number there, and what changed.

    QUERY is a rule number (702.15), a keyword or title (lifelink), a glossary term (interrupt,
    mana burn) or a phrase. A headed rule's history reads the whole rule: heading, subrules and
    examples. Steps that changed only typography or cross-references are collapsed to one line.

    \b
    Examples:
      rulediff history lifelink
      rulediff history 702.13 --as-of 2011-02-04
      rulediff history "mana burn" --substantive
      rulediff history interrupt --format json
    """
    from ..history.glossary import term_history
    from ..history.rule import history as rule_history
    from ..render.templating import environment

    with _open(create=False) as arc:
        term = term_history(arc, query) if glossary or not _is_rule(arc, query, as_of) else None
        if glossary and term is None:
            raise ArchiveError(f"no glossary term {query!r} in any archived version", source=str(arc.path))
        h = rule_history(arc, query, as_of) if term is None else None
        # A term's story includes the rules that used it: when they stopped, so did the rule.
        mentions = arc.search(query, limit=50) if term is not None and fmt == "text" else []
    if term is not None:
        if fmt == "json":
            click.echo(jsontext.dumps(term.as_dict()))
        elif fmt == "html":
            click.echo(environment().get_template("history_cli.html.j2").render(h=term), nl=False)
        else:
            names = [(s.name or "", s.first.label, s.last.label) for s in term.stretches]
            _print_timeline(f"{term.title} (glossary)", names, term.stretches, term.gone_after, substantive, whole)
            if mentions:
                click.echo(f"rules that mention {query!r} (rulediff history NUMBER --as-of DATE for one):")
                for m in mentions[:8]:
                    seen = (
                        m["first_seen"]
                        if m["first_seen"] == m["last_seen"]
                        else f"{m['first_seen']} .. {m['last_seen']}"
                    )
                    click.echo(f"  {', '.join(m['numbers']) or '(unnumbered)':<16} {seen}")
        return
    assert h is not None
    if fmt == "json":
        click.echo(jsontext.dumps(h.as_dict()))
        return
    if fmt == "html":
        click.echo(environment().get_template("history_cli.html.j2").render(h=h), nl=False)
        return
    _print_timeline(h.title, h.numbers(), h.stretches, h.gone_after, substantive, whole, h.ended)
    if h.uncertain:
        click.echo("this lineage passes through an uncertain match: the matcher kept a link on weak evidence")


def _is_rule(arc: Archive, query: str, as_of: str | None) -> bool:
    """Does QUERY name a rule by number or title (rather than a glossary term or a phrase)?"""
    from ..history.rule import find_lineage

    try:
        find_lineage(arc, query, as_of, search=False)
    except NotFoundError:  # (any other error -- a date that is none, a damaged archive -- is the answer)
        return False
    return True


def _print_timeline(
    title: str,
    names: list[tuple[str, str, str]],
    steps: list[Stretch],
    gone: Any,
    substantive: bool,
    whole: bool,
    ended: str | None = None,
) -> None:
    from ..words.edits import marked_lines

    click.echo(title)
    merged = _merge_names(names)
    width = max([10, *(len(n) for n, _, _ in merged)])
    for name, first, last in merged:
        click.echo(f"  {name:<{width}} {first if first == last else f'{first} .. {last}'}")
    hidden = 0
    for s in steps:
        span = s.first.label if s.first.label == s.last.label else f"{s.first.label} .. {s.last.label}"
        what = s.change + (f" from {s.previous}" if s.previous and "renumbered" in s.change else "")
        what += f" from {s.previous!r}" if s.previous and "renamed" in s.change else ""
        head = f"{span}: {s.number or s.name or ''} {what}"
        if s.quiet:
            if substantive:
                hidden += 1
            else:
                click.echo(f"{head} ({str(s.nature).replace('_', ' ')}; collapsed)")
            continue
        if s.nature is not None and s.nature != "substantive":
            head += f" ({s.nature.replace('_', ' ')})"
        click.echo(head + (f" [{s.link}]" if s.link else ""))
        if s.change == "first seen" or (whole and not s.diff):
            for line in s.text.split("\n"):
                click.echo(f"    {line}")
            continue
        if not s.diff:  # renumbered, or back after a gap, with the same text
            continue
        skipped = 0
        for k, (touched, line) in enumerate(marked_lines(s.diff)):
            if touched or whole or k == 0:  # the first line names the rule: always there for context
                if skipped:
                    click.echo(f"    ({skipped} unchanged line{'s' if skipped > 1 else ''})")
                    skipped = 0
                click.echo(f"    {line}")
            else:
                skipped += 1
        if skipped:
            click.echo(f"    ({skipped} unchanged line{'s' if skipped > 1 else ''})")
    if hidden:
        click.echo(f"({hidden} typography or cross-reference steps hidden by --substantive)")
    if gone:
        click.echo(f"gone from {gone.label}" + (f" [{ended}]" if ended else ""))


def _merge_names(names: list[tuple[str, str, str]]) -> list[tuple[str, str, str]]:
    out: list[tuple[str, str, str]] = []
    for n, a, b in names:
        if out and out[-1][0] == n:
            out[-1] = (n, out[-1][1], b)
        else:
            out.append((n, a, b))
    return out


@main.command()
@click.argument("query", callback=as_text)
@click.option("--as-of", help="The rule as it read on this date (YYYY-MM-DD).")
@click.option("--only", "only", is_flag=True, help="Just this node, without the subrules below it.")
@archive_option
@_guard
def show(query: str, as_of: str | None, only: bool) -> None:
    """Print a whole rule as it read on a date: heading, text, every subrule, examples.

    QUERY is a number (613, 702.15, 702.15a), a rule title (lifelink) or a glossary term.
    The version shown is named on stderr.

    \b
    Examples:
      rulediff show 613 --as-of 2012-06-01
      rulediff show lifelink --as-of 2011-02-04
      rulediff show 702.15b --only
      rulediff show "mana burn"
    """
    from ..history.rule import show as rule_show
    from ..matcher.restrict import subtree

    with _open(create=False) as arc:
        found = rule_show(arc, query, as_of)
    if found.entry is not None:
        click.echo(found.entry.term)
        for line in found.entry.text.splitlines():
            click.echo(f"  {line}")
    elif found.rule is not None:
        nodes = [(0, found.rule)] if only else subtree(found.document, found.rule)
        for depth, rule in nodes:
            pad = "  " * depth
            click.echo(f"{pad}{rule.number}{'.' if rule.number and not rule.number.letters else ''} {rule.text}")
            for e in rule.examples:
                click.echo(f"{pad}    {e.text}")
    click.echo(f"-- {found.version.label} (effective {found.version.date})", err=True)


@main.command()
@click.argument("phrase", callback=as_text)
@click.option("--json", "as_json", is_flag=True, help='One JSON object per hit ("kind": rule or glossary).')
@archive_option
@_guard
def search(phrase: str, as_json: bool) -> None:
    """Find a phrase in every archived version, rules and glossary: where, first and last seen.

    \b
    Examples:
      rulediff search "mana burn"
      rulediff search "That rule no longer exists" --json
    """
    from ..history.glossary import search_glossary

    with _open(create=False) as arc:
        hits = arc.search(phrase)
        terms = search_glossary(arc, phrase)
    for h in hits:
        if as_json:
            click.echo(json.dumps({"kind": "rule", **h}, ensure_ascii=False, sort_keys=True))
            continue
        numbers = ", ".join(h["numbers"]) or "(unnumbered)"
        seen = h["first_seen"] if h["first_seen"] == h["last_seen"] else f"{h['first_seen']} .. {h['last_seen']}"
        click.echo(f"{numbers:<20} {seen:<40} {h['text'][:100]}")
    for g in terms:
        if as_json:
            click.echo(json.dumps({"kind": "glossary", **g}, ensure_ascii=False, sort_keys=True))
            continue
        seen = g["first_seen"] if g["first_seen"] == g["last_seen"] else f"{g['first_seen']} .. {g['last_seen']}"
        click.echo(f"{'glossary':<20} {seen:<40} {g['term']}: {g['text'][: 100 - len(g['term'])]}")
    if not hits and not terms:
        click.echo(f"no archived rule or glossary entry contains {phrase!r}", err=True)


@main.command()
@click.argument("sources", nargs=-1, type=click.Path(path_type=str))
@click.option("-o", "--output", default="site", show_default=True, type=click.Path(file_okay=False, path_type=str))
@click.option("--force", is_flag=True, help="Write into OUTPUT even if it holds files that are not a rulediff site.")
@archive_option
@_guard
def report(sources: tuple[str, ...], output: str, force: bool) -> None:
    """Build the release-notes site: archive SOURCES (default: the shipped corpus, when the archive is
    empty), then write an index, one diff page per consecutive pair, one history page per rule and an
    offline search page into OUTPUT. Rebuilds only rewrite what changed.

    \b
    Examples:
      rulediff report
      rulediff report ../shared/cr-corpus/txt -o cr-site
    """
    from ..archive.manifest import entries, shipped_corpus
    from ..site.build import build_site
    from ..site.writer import prepare_folder

    for p in sources:
        if not Path(p).exists():
            raise ArchiveError("no such file or folder", source=p)
    items = entries(list(sources)) if sources else []
    if sources and not items:  # an empty folder named is a mistake, not a request for the shipped corpus
        raise ArchiveError("no files to add", source=" ".join(sources))
    prepare_folder(Path(output), force=force)  # before any archiving: a wrong -o fails at once
    with _open() as arc:
        if not items and not arc.versions():
            items = entries([str(shipped_corpus())])
        if items:
            _add(arc, items, quiet=True)
        bar_state: dict[str, Any] = {}

        def progress(step: str, done: int, total: int) -> None:
            bar = bar_state.get(step)
            if bar is None:
                bar = progress_bar(total, step)
                bar.__enter__()
                bar_state[step] = bar
            bar.update(done - bar.pos)
            if done >= total:
                bar.__exit__(None, None, None)

        def waiting() -> None:
            click.echo(f"rulediff: waiting for another build of {output} to end", err=True)

        stats = build_site(arc, output, progress=progress, force=force, on_wait=waiting)
    click.echo(
        f"wrote {output}/index.html: {stats['versions']} versions, {stats['diff_pages']} diff pages, "
        f"{stats['history_pages']} rule histories ({stats['written']} files written, {stats['unchanged']} unchanged)"
    )
