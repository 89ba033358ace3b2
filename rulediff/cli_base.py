"""The command line's shared frame: the root command group, --archive (before or after a command), the
progress bar, and the guard that turns library errors into one-line messages (click only; the commands
live in cli.py and cli_archive.py)."""

from __future__ import annotations

import os
import select
import signal
import stat
import sys
import traceback
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import wraps
from typing import Any, TypeVar

import click

from . import __version__
from .errors import RulediffError

F = TypeVar("F", bound=Callable[..., Any])


def _reader_gone() -> bool:
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


class InputError(click.ClickException):
    """A RulediffError shown as one line on stderr, exit code 2."""

    exit_code = 2

    def show(self, file: Any = None) -> None:
        click.echo(f"rulediff: error: {self.format_message()}", err=True)


def _guard(fn: F) -> F:
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
            raise InputError(e.one_line()) from None
        except (click.ClickException, click.exceptions.Exit, click.Abort, KeyboardInterrupt):
            raise
        except BrokenPipeError as e:
            if _reader_gone():
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
            where = e.filename if e.filename is not None else "rulediff"
            raise InputError(f"{where}: {e.strerror or e}") from None
        except Exception as e:  # an internal failure: say so in one line, exit 1
            if debug:
                traceback.print_exc()
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


def _terminated(signum: int, frame: object) -> None:
    raise SystemExit(128 + signum)


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
