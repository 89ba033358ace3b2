"""'rulediff update': follow the official rules page, archive a new release, rebuild the site (click only)."""

# 'rulediff update': fetch the official rules page (or a mirror, or a saved copy), archive the current release's
# editions the archive lacks, each dated by its own text, and rebuild the site when -o is given (click only).

from __future__ import annotations

from pathlib import Path

import click

from ..errors import OutputError
from .frame import archive_option, guard, open_archive


@click.command()
@click.option(
    "-o", "--output", default=None, type=click.Path(file_okay=False, path_type=str), help="Rebuild this site."
)
@click.option("--source", default=None, metavar="URL", help="The rules page: a mirror's URL or a saved copy's path.")
@click.option("--check", is_flag=True, help="Only say whether a new release is out: exit 10 if so; change nothing.")
@click.option("--timeout", type=click.FloatRange(min=0.1), default=30.0, show_default=True, help="Seconds per read.")
@click.option("--retries", type=click.IntRange(min=0), default=3, show_default=True, help="Retries of a failed fetch.")
@click.option(
    "--backoff", type=click.FloatRange(min=0.0), default=2.0, show_default=True, help="First wait between retries."
)
@archive_option
@guard
def update(output: str | None, source: str | None, check: bool, timeout: float, retries: int, backoff: float) -> None:
    """Follow the official rules page: find the current release's TXT, DOCX and PDF by the page's structure,
    download what the archive lacks (conditional requests: an unchanged page costs one small answer), date each
    file from its own "effective as of" line, archive it (the TXT first; a missing or bad DOCX or PDF is a
    warning) and, with -o, rebuild the site. A release already archived is "no new release" (exit 0); one
    older than the archive's newest is refused as a stale page or mirror (exit 2). --check changes nothing
    and exits 10 when a new release is out. Run it daily (see the README).

    \b
    Examples:
      rulediff update -o site
      rulediff update --check || [ $? -eq 10 ] && echo "a new release is out"
      rulediff update --source https://mirror.example/rules --archive cr.sqlite
    """
    from ..update.fetch import Settings
    from ..update.run import DEFAULT_SOURCE, NEW_RELEASE, run

    if output is not None and not output.strip():
        raise OutputError("an empty folder name; name the folder the site goes in (-o site)", source="-o")
    settings = Settings(timeout=timeout, retries=retries, backoff=backoff)
    with open_archive() as arc:
        out = run(arc, source or DEFAULT_SOURCE, settings, check=check, say=click.echo)
        for line in out.warnings:
            click.echo(f"rulediff: warning: {line}", err=True)
        if check:
            if out.new:
                click.echo(f"new release {out.label}")
                raise click.exceptions.Exit(NEW_RELEASE)
            click.echo("no new release" + (f" (newest: {out.label})" if out.label else ""))
            return
        for res in out.added:
            click.echo(f"{res.status:<17} {res.version.label}  ({res.version.format}, {res.version.rule_count} rules)")
        from .frame import say_disagreements

        say_disagreements(arc, out.added)
        if not out.new:
            click.echo("no new release" + (f" (newest: {out.label})" if out.label else ""))
        if output is not None and (out.added or not (Path(output) / "index.html").is_file()):
            _rebuild(arc, output)


def _rebuild(arc: object, output: str) -> None:
    from ..site.build import build_site

    stats = build_site(arc, output)  # type: ignore[arg-type]
    click.echo(f"wrote {output}/index.html: {stats['written']} files written, {stats['unchanged']} unchanged")
