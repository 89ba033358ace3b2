"""The commands that look things up in the archive: history, show and search (click only)."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

import click

from ..errors import ArchiveError, NotFoundError
from ..support import jsontext
from .frame import archive_option, as_text, asked_day, guard, open_archive

if TYPE_CHECKING:
    from ..archive import Archive
    from ..history.timeline import Stretch


@click.command()
@click.argument("query", callback=as_text)
@click.option("--as-of", help="Find the rule as numbered on this date (YYYY-MM-DD; YYYY or YYYY-MM: the last day).")
@click.option("--glossary", is_flag=True, help="QUERY is a glossary term (the default tries rules first).")
@click.option("--substantive", is_flag=True, help="Hide steps that changed only typography or cross-references.")
@click.option("--whole", is_flag=True, help="Print every line of the rule at each step, not only changed lines.")
@click.option("--format", "fmt", type=click.Choice(["text", "json", "html"]), default="text", show_default=True)
@archive_option
@guard
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

    as_of = asked_day(as_of)
    with open_archive(create=False) as arc:
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
            names = term.numbers()  # a name respelled (quotes, "/" for ",") is one name
            _print_timeline(f"{term.title} (glossary)", names, term.stretches, term.gone_after, substantive, whole)
            if term.uncertain:
                click.echo("this term passes through an uncertain match: the matcher kept a link on weak evidence")
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
        what += f" from {s.previous!r}" if s.previous and ("renamed" in s.change or "respelled" in s.change) else ""
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


@click.command()
@click.argument("query", callback=as_text)
@click.option("--as-of", help="The rule as it read on this date (YYYY-MM-DD; YYYY or YYYY-MM: the last day).")
@click.option("--only", "only", is_flag=True, help="Just this node, without the subrules below it.")
@archive_option
@guard
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

    as_of = asked_day(as_of)
    with open_archive(create=False) as arc:
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


@click.command()
@click.argument("phrase", callback=as_text)
@click.option("--json", "as_json", is_flag=True, help='One JSON object per hit ("kind": rule or glossary).')
@archive_option
@guard
def search(phrase: str, as_json: bool) -> None:
    """Find a phrase in every archived version, rules and glossary: where, first and last seen.

    \b
    Examples:
      rulediff search "mana burn"
      rulediff search "That rule no longer exists" --json
    """
    from ..history.glossary import search_glossary

    with open_archive(create=False) as arc:
        hits = arc.search(phrase)
        terms = search_glossary(arc, phrase)
    for h in hits:
        if as_json:
            # (the lineage id is the archive's own: it changes when a release is removed and added again)
            shown = {k: v for k, v in h.items() if k != "lineage"}
            click.echo(json.dumps({"kind": "rule", **shown}, ensure_ascii=False, sort_keys=True))
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
