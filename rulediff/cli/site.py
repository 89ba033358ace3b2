"""The main job, 'rulediff report': archive the sources and write the site (click only)."""

# The main job, 'rulediff report': archive the sources given (the shipped corpus into an empty archive) and write
# the site (click only).

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from ..errors import ArchiveError, OutputError
from .frame import ACCEPT_WARNINGS, add_entries, archive_option, guard, open_archive, progress_bar

if TYPE_CHECKING:
    pass


@click.command()
@click.argument("sources", nargs=-1, type=click.Path(path_type=str))
@click.option("-o", "--output", default="site", show_default=True, type=click.Path(file_okay=False, path_type=str))
@click.option("--force", is_flag=True, help="Write into OUTPUT even if it holds files that are not a rulediff site.")
@ACCEPT_WARNINGS
@archive_option
@guard
def report(sources: tuple[str, ...], output: str, force: bool, accept: bool) -> None:
    """Build the release-notes site: archive SOURCES (default: the shipped corpus, when the archive is
    empty), then write an index, one diff page per consecutive pair, one history page per rule and an
    offline search page into OUTPUT. Rebuilds only rewrite what changed.

    \b
    Examples:
      rulediff report
      rulediff report ../shared/cr-corpus/txt -o cr-site
    """
    from ..archive import entries, shipped_corpus
    from ..site.build import build_site
    from ..site.writer import prepare_folder

    if not output.strip():
        raise OutputError("an empty folder name; name the folder the site goes in (-o site)", source="-o")
    for p in sources:
        if not Path(p).exists():
            raise ArchiveError("no such file or folder", source=p)
    items = entries(list(sources)) if sources else []
    if sources and not items:  # an empty folder named is a mistake, not a request for the shipped corpus
        raise ArchiveError("no files to add", source=" ".join(sources))
    prepare_folder(Path(output), force=force)  # before any archiving: a wrong -o fails at once
    with open_archive() as arc:
        if not items and not arc.versions.all():
            items = entries([str(shipped_corpus())])
        if items:
            add_entries(arc, items, quiet=True, accept=accept)
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
    left = stats["left_alone"]
    if left:
        shown = ", ".join(left[:5]) + (", ..." if len(left) > 5 else "")
        click.echo(
            f"rulediff: warning: {output}: left {len(left)} file(s) an earlier build listed that rulediff cannot "
            f"prove it wrote: {shown}",
            err=True,
        )
