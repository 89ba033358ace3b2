"""The command line's shared frame: the root group, --archive, progress, and one-line errors."""

# The command line's shared frame: the root command group, --archive (before or after a command), the progress bar,
# opening and adding to the archive, and the guard that turns library errors into one-line messages (click only; the
# commands live in the other modules of this package).

from __future__ import annotations

import os
import select
import signal
import stat
import sys
import traceback
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager, suppress
from functools import wraps
from typing import TYPE_CHECKING, Any, NoReturn, TypeVar

import click

from .._version import __version__
from ..errors import DamagedArchiveError, RulediffError
from ..support.safe_write import write_atomic

if TYPE_CHECKING:
    from ..archive import AddResult, Archive, Entry, Identified, VersionRow
    from ..model import Document

F = TypeVar("F", bound=Callable[..., Any])


def reader_gone() -> bool:
    """Has the reader of standard output gone (its pipe or socket reports an error to a writer)? With no
    output to look at (a test runner's), a broken pipe is taken to be the output's, as it always was."""
    try:
        fd = sys.stdout.fileno()
        mode = os.fstat(fd).st_mode
        if not (stat.S_ISFIFO(mode) or stat.S_ISSOCK(mode)):
            return False
        poller = select.poll()
        poller.register(fd, select.POLLOUT)
        return any(ev & (select.POLLERR | select.POLLHUP) for _, ev in poller.poll(0))
    except (OSError, ValueError, AttributeError):
        return True


def _stream(e: OSError) -> str | None:
    """Which standard stream ``e`` was raised writing to ("standard output" or "standard error"), in click's
    echo or in the flush at the end of the program; None when it was neither."""
    tb = e.__traceback__
    while tb is not None:
        frame = tb.tb_frame
        if frame.f_code.co_name in ("echo", "leave"):
            try:
                fd = frame.f_locals["file"].fileno()
            except (KeyError, AttributeError, OSError, ValueError):
                fd = -1
            if fd in (1, 2):
                return "standard output" if fd == 1 else "standard error"
        tb = tb.tb_next
    return None


def os_error_line(e: OSError) -> str:
    """An OSError as one line naming what failed: the file, the standard stream written to, or else rulediff."""
    where = e.filename if e.filename is not None else _stream(e) or "rulediff"
    return f"{where}: {e.strerror or e}"


def leave(code: Any) -> None:
    """End the process with ``code`` (a SystemExit's), once what it printed is written out.

    It does not tear the interpreter down: a command's data (a long diff's alignment, a report's rule rows)
    would be freed object by object for nothing. Everything a
    command writes to a file is closed by the command itself (output files, the archive, the site's
    journal); worker processes leave when this one has gone (support/worker_pool.py). Standard output is flushed here: a
    full disk or a broken pipe at that point is reported as one line, as inside a command. Under a profiler,
    a tracer (coverage) or Python's development mode, the interpreter ends as usual, so that they report."""
    if code is None:
        code = 0
    elif not isinstance(code, int):
        click.echo(code, err=True)
        code = 1
    file = sys.stdout
    try:
        if file is not None:
            file.flush()
    except BrokenPipeError as e:
        if not reader_gone():
            if not code:
                say(os_error_line(e))
            code = 2
    except (OSError, ValueError) as e:
        # Said once: a command that failed to write it has said so already (what it could not write is still
        # in standard output's buffer when the program runs unbuffered, behind cli.whole_writes).
        if not code:
            say(os_error_line(e) if isinstance(e, OSError) else f"standard output: {e}")
        code = 2
    with suppress(OSError, ValueError):
        if sys.stderr is not None:
            sys.stderr.flush()
    if sys.getprofile() is not None or sys.gettrace() is not None or sys.flags.dev_mode:
        sys.exit(code)
    os._exit(code)


def write_out(output: str | None, text: str | Iterable[str], force: bool) -> None:
    """A command's output, whole or in pieces written as they are made: to ``output`` all at once or not at
    all (write_atomic), else to standard output."""
    if output is not None:
        write_atomic(output, text, force=force)
        return
    for piece in [text] if isinstance(text, str) else text:
        click.echo(piece, nl=False)


def say(line: str) -> None:
    with suppress(OSError, ValueError):
        click.echo(f"rulediff: error: {line}", err=True)


class InputError(click.ClickException):
    """A RulediffError shown as one line on stderr, exit code 2."""

    exit_code = 2

    def show(self, file: Any = None) -> None:
        click.echo(f"rulediff: error: {self.format_message()}", err=True)


def guard(fn: F) -> F:
    """Turn library errors into one-line messages; anything else is an internal error (exit 1)."""

    @wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        ctx = click.get_current_context()
        debug = bool(ctx.find_root().params.get("debug"))
        try:
            return fn(*args, **kwargs)
        except RulediffError as e:
            if debug:
                traceback.print_exc()
            if isinstance(e, DamagedArchiveError) and e.source is None:
                e = DamagedArchiveError(e.message, source=_archive_named())  # the reader knows no path
            raise InputError(e.one_line()) from None
        except Terminated:
            _interrupted("terminated", 128 + signal.SIGTERM)
        except KeyboardInterrupt:
            _interrupted("interrupted", 128 + signal.SIGINT)
        except (click.ClickException, click.exceptions.Exit, click.Abort):
            raise
        except BrokenPipeError as e:
            if reader_gone():
                # The reader went away (rulediff ... | head): stop quietly, as a Unix tool does.
                devnull = os.open(os.devnull, os.O_WRONLY)
                os.dup2(devnull, sys.stdout.fileno())
                sys.exit(0)
            # Another pipe broke (a worker process that could not start or ended early): an error, not done.
            if debug:
                traceback.print_exc()
            raise InputError(f"rulediff: {e.strerror or e} (not the output: a worker process ended early?)") from None
        except OSError as e:
            # The machine, not rulediff: disk full, read-only file system, permissions.
            if debug:
                traceback.print_exc()
            raise InputError(os_error_line(e)) from None
        except Exception as e:  # an internal failure: say so in one line, exit 1
            if debug:
                traceback.print_exc()
            futures = sys.modules.get("concurrent.futures")  # imported if a command used worker processes
            if futures is not None and isinstance(e, futures.BrokenExecutor):
                # Killed (the OOM killer, kill -9): what it was writing is mended as any interrupted write is.
                raise InputError(
                    "a worker process ended abruptly (killed, or out of memory?); run the command again"
                ) from None
            click.echo(f"rulediff: internal error: {type(e).__name__}: {e} (rerun with --debug)", err=True)
            sys.exit(1)

    return wrapper  # type: ignore[return-value]


class _OneLineErrors(click.Group):
    """The root command: a usage error (an option's bad value, a missing argument, an unknown command) is one
    line on stderr, exit 2, like every other error; click's own display is three (usage, hint, error)."""

    def make_context(self, info_name: str | None, args: list[str], parent: Any = None, **extra: Any) -> Any:
        with _one_line():
            return super().make_context(info_name, args, parent=parent, **extra)

    def invoke(self, ctx: click.Context) -> Any:
        with _one_line():  # the commands' own arguments are read here
            return super().invoke(ctx)


@contextmanager
def _one_line() -> Iterator[None]:
    try:
        yield
    except click.exceptions.NoArgsIsHelpError:
        raise  # no arguments at all: the help, as click shows it
    except click.UsageError as e:
        where = e.ctx.command_path if e.ctx is not None else "rulediff"
        raise InputError(f"{e.format_message()} (see '{where} -h')") from None


@click.group(cls=_OneLineErrors, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="rulediff")
@click.option("--debug", is_flag=True, help="Show the full traceback when something fails.")
@click.option(
    "--archive",
    "archive_path",
    envvar="RULEDIFF_ARCHIVE",
    type=click.Path(dir_okay=False, path_type=str),
    help="The archive file (default ./rulediff.sqlite, or $RULEDIFF_ARCHIVE).",
)
@click.pass_context
def main(ctx: click.Context, debug: bool, archive_path: str | None) -> None:
    """Archive every version of the Magic: The Gathering Comprehensive Rules and diff any two.

    \b
    Examples:
      rulediff report                      build the site from the shipped corpus
      rulediff diff OLD.txt NEW.txt -o changes.html
      rulediff history lifelink
      rulediff search "mana burn"
    """
    ctx.obj = {"archive": archive_path}
    # SIGTERM ends a command the way Ctrl-C does: the open transaction rolls back, temp files go.
    signal.signal(signal.SIGTERM, _terminated)


class Terminated(KeyboardInterrupt):
    """SIGTERM, taken as Ctrl-C is: every clean-up on the way up runs (the open transaction rolls back, temp
    files go), and the command then exits 143."""


def _terminated(signum: int, frame: object) -> None:
    raise Terminated


def _interrupted(what: str, code: int) -> NoReturn:
    """End a command stopped by Ctrl-C or SIGTERM: one line, and the exit code a shell expects (130, 143).
    Everything written is whole: outputs are written to temp files and renamed, the archive's changes are
    transactions, the site's pages go through its journal."""
    with suppress(OSError, ValueError):
        click.echo(f"rulediff: {what}; nothing half-written", err=True)
    sys.exit(code)


def as_text(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    """A query typed on the command line as text: bytes that are not UTF-8 (which the system hands over as
    lone surrogates, which no stored text holds and SQLite cannot take) read as U+FFFD."""
    if value is None:
        return None
    return value.encode("utf-8", "surrogateescape").decode("utf-8", "replace")


def _archive_named() -> str:
    """The archive file this command uses."""
    from ..archive import default_path

    return archive_path() or str(default_path())


def archive_path() -> str | None:
    """The --archive given to the command line (None: the default)."""
    obj = click.get_current_context().find_root().obj
    return obj.get("archive") if isinstance(obj, dict) else None


def _remember_archive(ctx: click.Context, param: click.Parameter, value: str | None) -> None:
    # Given after the command, --archive overrides the one given before it (and $RULEDIFF_ARCHIVE).
    if value is not None:
        root = ctx.find_root()
        if not isinstance(root.obj, dict):
            root.obj = {}
        root.obj["archive"] = value


def _remember_debug(ctx: click.Context, param: click.Parameter, value: bool) -> None:
    if value:
        ctx.find_root().params["debug"] = True


def debug_option() -> click.Option:
    """``--debug`` where users type it: after the command as well as before it (added to every command)."""
    return click.Option(
        ["--debug"],
        is_flag=True,
        expose_value=False,
        callback=_remember_debug,
        help="Show the full traceback when something fails.",
    )


def archive_option(fn: F) -> F:
    """``--archive PATH`` where users type it: after the command as well as before it."""
    return click.option(
        "--archive",
        type=click.Path(dir_okay=False, path_type=str),
        expose_value=False,
        callback=_remember_archive,
        help="The archive file (default ./rulediff.sqlite, or $RULEDIFF_ARCHIVE).",
    )(fn)


def progress_bar(length: int, label: str) -> Any:
    """click's progress bar on stderr, shown only when stderr is a terminal (stdout stays clean for pipes)."""
    err = sys.stderr
    return click.progressbar(
        length=max(length, 1), label=label, file=err, hidden=not err.isatty(), item_show_func=lambda item: item
    )


def asked_day(text: str | None, what: str = "--as-of") -> str | None:
    """The day a question names (dates.day_asked), what was assumed reading it said on stderr; None: today's
    version, unasked."""
    from ..dates import day_asked

    if text is None:
        return None
    day, notes = day_asked(text, what=what)
    for note in notes:
        click.echo(note, err=True)
    return day


def open_archive(create: bool = True) -> Archive:
    from ..archive import Archive

    return Archive.open(archive_path(), create=create)


def add_entries(arc: Archive, items: list[Entry], quiet: bool = False, accept: bool = False) -> list[AddResult]:
    """Archive items with a progress bar; one line per file unless quiet. ``accept``: archive a file whose
    reading lost a numbered rule (--accept-warnings), saying so on stderr."""
    from ..identify import record as record_identifications

    results: list[AddResult] = []
    with progress_bar(len(items), "archiving") as bar:

        def done(entry: Entry, res: AddResult) -> None:
            results.append(res)
            bar.update(1, res.version.label)

        arc.add_many(items, on_added=done, accept_warnings=accept)
    found = record_identifications(arc)
    if not quiet:
        for res in results:
            click.echo(f"{res.status:<17} {res.version.label}  ({res.version.format}, {res.version.rule_count} rules)")
        say_identified(found)
    return results


def say_identified(found: list[tuple[VersionRow, Identified]]) -> None:
    """One line per dump (re)identified against the archive's official releases."""
    for v, ident in found:
        said = f"text matches {ident.release_label}" if ident.matched else "no archived release explains it"
        click.echo(f"{'identified':<17} {v.label}  ({said})")


ACCEPT_WARNINGS = click.option(
    "--accept-warnings",
    "accept",
    is_flag=True,
    help="Archive a file even when its reading lost a numbered rule (a number in characters no number has).",
)


def say_lost_rules(doc: Document) -> None:
    """The warnings of ``doc`` that say a numbered rule was lost in the reading, one line each on stderr, as
    every command that reads a file says them."""
    from ..model import LOST_RULE

    for w in doc.warnings:
        if w.code == LOST_RULE:
            with suppress(OSError, ValueError):
                click.echo(f"rulediff: warning: {doc.version.source}:{w.line}: {w.message}", err=True)
