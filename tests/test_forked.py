"""A helper process (support/fork_helper.py) and the JSON it helps write (render/diff_json.iter_json): the
same text to the byte whichever process made which changes, where the word diffs' budget runs out on either
side of the split, and when the helper fails, is killed, cannot be made or is left by Ctrl-C; a helper holds
none of its parent's files and does not outlive it."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from rulediff import align, parse
from rulediff.cli import main
from rulediff.matcher.records import Alignment
from rulediff.render import diff_json as report
from rulediff.render.diff_json import iter_json, to_json
from rulediff.support import fork_helper as forked
from rulediff.support import processes
from rulediff.words import diff as textdiff

from .conftest import CR_TXT, FIXTURES, needs_cr_corpus
from .test_textdiff_limits import _hostile_pair

needs_fork = pytest.mark.skipif(not hasattr(os, "fork"), reason="no os.fork on this platform")
pytestmark = needs_fork

PAIR = FIXTURES / "report"


def _gone(pid: int) -> bool:
    """The process ``pid`` (a child of this one) has ended and been reaped, or is a zombie."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    state = Path(f"/proc/{pid}/stat")
    return state.exists() and state.read_text().split(") ")[-1].startswith("Z")


# -- the helper process --------------------------------------------------------------------------------


def test_a_helper_sends_its_text_whole() -> None:
    long = "\u00e9t\u00e9 \U0001f600 " * 300_000  # megabytes: more than a pipe holds
    for text in ["", "plain", long]:
        helper = forked.start(lambda text=text: [text[:7], text[7:]])  # type: ignore[misc]
        assert helper is not None
        got = helper.text()
        assert got is not None and "".join(got) == text
        assert helper.text() is None  # asked again: nothing more


@pytest.mark.parametrize(
    "make",
    [
        lambda: 1 / 0,  # fails
        lambda: os._exit(0),  # leaves without a word, "successfully"
        lambda: os.kill(os.getpid(), signal.SIGKILL),  # killed
        lambda: [7],  # makes something that is not text
        lambda: iter(["half", 1 / 0]),  # fails half way
    ],
    ids=["raises", "exits-0-silent", "killed", "not-text", "half-way"],
)
def test_a_helper_that_fails_gives_none(make: Any, capfd: pytest.CaptureFixture[str]) -> None:
    helper = forked.start(make)
    assert helper is not None
    assert helper.text() is None
    out, err = capfd.readouterr()
    assert out == "" and err == "", "a helper says nothing, even when it fails"


def test_no_helper_when_fork_fails(monkeypatch: pytest.MonkeyPatch) -> None:
    def refused() -> int:
        raise OSError(11, "Resource temporarily unavailable")

    before = len(os.listdir("/proc/self/fd")) if Path("/proc/self/fd").is_dir() else None
    monkeypatch.setattr(os, "fork", refused)
    assert forked.start(lambda: "x") is None
    if before is not None:
        assert len(os.listdir("/proc/self/fd")) == before, "the pipe is closed again"


@pytest.mark.skipif(not Path("/proc/self/fd").is_dir(), reason="needs /proc/self/fd (Linux)")
def test_a_helper_holds_none_of_its_parents_files(tmp_path: Path) -> None:
    with open(tmp_path / "held", "w") as held:
        helper = forked.start(lambda: [" ".join(os.listdir("/proc/self/fd"))])
        assert helper is not None
        fds = {int(x) for x in "".join(helper.text() or []).split()}
        assert held.fileno() not in fds
    assert len(fds) <= 5, f"standard input, output and error, the pipe and the listing's own: {fds}"


def test_stop_ends_a_helper_at_once() -> None:
    helper = forked.start(lambda: time.sleep(60) or ["late"])  # type: ignore[func-returns-value]
    assert helper is not None
    pid = helper.pid
    t = time.monotonic()
    helper.stop()
    assert time.monotonic() - t < 5
    with pytest.raises(ChildProcessError):
        os.waitpid(pid, os.WNOHANG)  # reaped already
    assert helper.text() is None


def test_a_helper_leaves_when_its_parent_is_killed(tmp_path: Path) -> None:
    """kill -9 of the process that made a helper: the helper, which would have worked for a minute, goes too."""
    script = (
        "import os, sys, time\n"
        "from rulediff.support import fork_helper as forked\n"
        "h = forked.start(lambda: time.sleep(60) or ['late'])\n"
        "print(h.pid, flush=True)\n"
        "time.sleep(60)\n"
    )
    proc = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True)
    assert proc.stdout is not None
    pid = int(proc.stdout.readline())
    proc.kill()
    proc.wait()
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            break
        time.sleep(0.05)
    else:
        os.kill(pid, signal.SIGKILL)
        pytest.fail("the helper outlived its parent")


def test_a_helper_keeps_ignored_signals_ignored() -> None:
    def dispositions() -> list[str]:
        return [str(signal.getsignal(signal.SIGINT)), str(signal.getsignal(signal.SIGTERM))]

    helper = forked.start(dispositions)
    assert helper is not None
    assert "".join(helper.text() or []) == str(signal.SIG_DFL) * 2
    before = signal.signal(signal.SIGINT, signal.SIG_IGN)  # (a background job's Ctrl-C)
    try:
        helper = forked.start(dispositions)
        assert helper is not None
        assert "".join(helper.text() or []) == str(signal.SIG_IGN) + str(signal.SIG_DFL)
    finally:
        signal.signal(signal.SIGINT, before)


def test_no_helper_when_children_are_reaped_by_the_system() -> None:
    """SIGCHLD ignored (a parent may leave it so across exec): no exit status could be read, and a process id
    could be another's by the time it is ended."""
    before = signal.signal(signal.SIGCHLD, signal.SIG_IGN)
    try:
        assert forked.start(lambda: ["x"]) is None
    finally:
        signal.signal(signal.SIGCHLD, before)


@pytest.mark.skipif(not Path("/proc/self/fd").is_dir(), reason="needs /proc/self/fd (Linux)")
def test_a_helper_of_a_process_started_without_standard_streams(tmp_path: Path) -> None:
    """Standard input and output closed (``<&- >&-``): a file opened then takes their numbers, and the pipe may
    too. The copy still sends its text, and holds that file under none of them (they are /dev/null)."""
    script = (
        "import os, sys\n"
        "from rulediff.support import fork_helper as forked\n"
        "os.close(0); os.close(1)\n"
        f"held = open({str(tmp_path / 'held')!r}, 'w')\n"
        "h = forked.start(lambda: [' '.join(os.readlink(f'/proc/self/fd/{fd}') for fd in (0, 1, 2))])\n"
        "sys.stderr.write(''.join(h.text() or ['nothing']))\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60)
    assert done.stderr == " ".join([os.devnull] * 3)


# -- the JSON written with a helper ---------------------------------------------------------------------


def _recording(monkeypatch: pytest.MonkeyPatch) -> list[str | None]:
    """Two cores, whatever the machine has, and what each helper sent recorded (None: it sent nothing)."""
    monkeypatch.setattr(processes, "CORES", 2)
    sent: list[str | None] = []
    text = forked.Helper.text

    def recorded(self: forked.Helper) -> Iterator[str] | None:
        got = text(self)
        sent.append(None if got is None else "".join(got))
        return None if got is None else iter([sent[-1]])  # type: ignore[list-item]

    monkeypatch.setattr(forked.Helper, "text", recorded)
    return sent


@pytest.fixture
def helped(monkeypatch: pytest.MonkeyPatch) -> list[str | None]:
    """Any output is worth a helper (on any machine), and what each helper sent is recorded."""
    monkeypatch.setattr(report, "HELPER_FROM", 0)
    return _recording(monkeypatch)


def _pair() -> Alignment:
    return align(parse(str(PAIR / "old.txt")), parse(str(PAIR / "new.txt")))


def test_the_json_written_with_a_helper_is_the_json(helped: list[str | None]) -> None:
    al = _pair()
    assert "".join(iter_json(al, helper=True)) == to_json(al)
    assert len(helped) == 1 and helped[0], "a helper wrote some of the changes"


def test_small_outputs_and_single_cores_are_written_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    made: list[int] = []
    start = forked.start

    def counted(make: Any) -> forked.Helper | None:
        made.append(1)
        return start(make)

    monkeypatch.setattr(forked, "start", counted)
    al = _pair()
    assert "".join(iter_json(al, helper=True)) == to_json(al)  # under HELPER_FROM
    monkeypatch.setattr(report, "HELPER_FROM", 0)
    monkeypatch.setattr(processes, "CORES", 1)
    assert "".join(iter_json(al, helper=True)) == to_json(al)
    assert made == []


@pytest.mark.parametrize("runs_out_at", [3, 15, 26, 38, 41])
def test_the_budget_runs_out_where_it_would_in_one_process(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, helped: list[str | None], runs_out_at: int
) -> None:
    """40 nearly equal long rules, the word diffs' budget spent after ``runs_out_at`` of them: on the
    helper's side of the split (about the 20th change) or this process's, the same diffs are made and the
    same ones shown replaced whole, as in one process."""
    old, new = _hostile_pair(rules=40, words=300)
    (tmp_path / "a.txt").write_text(old, encoding="utf-8")
    (tmp_path / "b.txt").write_text(new, encoding="utf-8")
    al = align(parse(str(tmp_path / "a.txt")), parse(str(tmp_path / "b.txt")))
    texts = [report._diffed(al, ch)[0] for ch in al.changes if ch.kind != "unchanged"]
    charges = [len(a) * len(b) for a, b in texts]
    assert len(charges) == 40
    monkeypatch.setattr(textdiff, "OUTPUT_LIMIT", sum(charges[:runs_out_at]) + charges[0] // 2)
    textdiff._raw_diff.cache_clear()
    want = to_json(al)
    diffs = [c["diff"] for c in json.loads(want)["changes"]]
    whole = sum(1 for d in diffs if len(d) == 1 and d[0][0] == 2)  # muted whole: a text past the budget
    assert whole == max(0, 40 - runs_out_at)
    textdiff._raw_diff.cache_clear()
    assert "".join(iter_json(al, helper=True)) == want
    assert helped and helped[0]


@pytest.mark.parametrize("glossary_diffs", [0, 2, 5])
def test_the_glossarys_budget_is_what_every_change_left(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, helped: list[str | None], glossary_diffs: int
) -> None:
    """The glossary is written after the changes and diffed with the budget all of them leave, the helper's
    included: here it runs out after ``glossary_diffs`` of five changed entries."""
    old, new = _hostile_pair(rules=20, words=100)
    entries = "".join(f"Term {k}\nThe player's card can't be it's {k} card.\n\n" for k in range(5))
    old = old.replace("Glossary\n\n", "Glossary\n\n" + entries)
    new = new.replace("Glossary\n\n", "Glossary\n\n" + entries.replace("'", "\u2019"))
    (tmp_path / "a.txt").write_text(old, encoding="utf-8")
    (tmp_path / "b.txt").write_text(new, encoding="utf-8")
    al = align(parse(str(tmp_path / "a.txt")), parse(str(tmp_path / "b.txt")))
    changes = [t for ch in al.changes if ch.kind != "unchanged" for t in report._diffed(al, ch) if t[0] != t[1]]
    terms = [(g.old.text, g.new.text) for g in al.glossary if g.kind != "unchanged" and g.old and g.new]
    assert len(changes) == 20 and len(terms) == 5
    charge = [len(a) * len(b) for a, b in changes + terms]
    monkeypatch.setattr(textdiff, "OUTPUT_LIMIT", sum(charge[: 20 + glossary_diffs]) + charge[-1] // 2)
    textdiff._raw_diff.cache_clear()
    want = to_json(al)
    diffs = [g["diff"] for g in json.loads(want)["glossary"]]
    assert sum(1 for d in diffs if len(d) == 1) == 5 - glossary_diffs  # past the budget: muted whole
    textdiff._raw_diff.cache_clear()
    assert "".join(iter_json(al, helper=True)) == want
    assert helped and helped[0]


@pytest.mark.parametrize("how", ["exits", "killed"])
def test_a_helper_that_dies_leaves_its_changes_to_this_process(
    monkeypatch: pytest.MonkeyPatch, helped: list[str | None], how: str
) -> None:
    here = os.getpid()
    items = report._items

    def dying(al: Any) -> Any:
        item = items(al)

        def maybe(ch: Any) -> Any:
            if os.getpid() != here:  # in the helper
                if how == "exits":
                    os._exit(3)
                os.kill(os.getpid(), signal.SIGKILL)
            return item(ch)

        return maybe

    monkeypatch.setattr(report, "_items", dying)
    al = _pair()
    assert "".join(iter_json(al, helper=True)) == to_json(al)
    assert helped == [None]


def test_no_helper_no_difference(monkeypatch: pytest.MonkeyPatch, helped: list[str | None]) -> None:
    monkeypatch.setattr(forked, "start", lambda make: None)  # fork refused
    al = _pair()
    assert "".join(iter_json(al, helper=True)) == to_json(al)
    assert helped == []


def test_ctrl_c_while_waiting_ends_the_helper(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(report, "HELPER_FROM", 0)
    monkeypatch.setattr(processes, "CORES", 2)
    started: list[forked.Helper] = []
    start = forked.start

    def slow(make: Any) -> forked.Helper | None:
        h = start(lambda: time.sleep(60) or make())  # type: ignore[func-returns-value]
        started.append(h)  # type: ignore[arg-type]
        return h

    def interrupted(fd: int, n: int) -> bytes:
        raise KeyboardInterrupt

    al = _pair()
    monkeypatch.setattr(forked, "start", slow)
    monkeypatch.setattr(os, "read", interrupted)
    with pytest.raises(KeyboardInterrupt):
        "".join(iter_json(al, helper=True))
    monkeypatch.undo()
    assert started and _gone(started[0].pid)


def test_the_command_line_writes_the_same_json(tmp_path: Path, helped: list[str | None]) -> None:
    al = _pair()
    args = ["diff", str(PAIR / "old.txt"), str(PAIR / "new.txt"), "--format", "json"]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0, result.output
    assert result.stdout == to_json(al)
    result = CliRunner().invoke(main, [*args, "-o", str(tmp_path / "d.json")])
    assert result.exit_code == 0, result.output
    assert (tmp_path / "d.json").read_text(encoding="utf-8") == to_json(al)
    assert len(helped) == 2 and all(helped)


@needs_cr_corpus
def test_the_long_jump_is_written_on_two_cores_as_on_one(monkeypatch: pytest.MonkeyPatch) -> None:
    """The 2011-02-04 -> 2026-01-16 jump is over HELPER_FROM as it stands: the text is the same to the byte."""
    sent = _recording(monkeypatch)
    al = align(parse(str(CR_TXT / "cr-20110204.txt")), parse(str(CR_TXT / "cr-20260116.txt")))
    assert "".join(iter_json(al, helper=True)) == to_json(al)
    assert len(sent) == 1 and sent[0] and len(sent[0]) > 1_000_000


def test_an_output_too_long_to_hold_is_written_alone(monkeypatch: pytest.MonkeyPatch, helped: list[str | None]) -> None:
    """What the helper sends is held until it has all come: an output past HELPER_UP_TO (hostile input) is
    made and written by this process alone, as it goes."""
    monkeypatch.setattr(report, "HELPER_UP_TO", 1000)
    al = _pair()
    assert "".join(iter_json(al, helper=True)) == to_json(al)
    assert helped == []


def test_ctrl_c_in_the_helpers_first_instant_is_the_helpers_alone(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, helped: list[str | None], capfd: pytest.CaptureFixture[str]
) -> None:
    """Ctrl-C landing in the copy as it begins (before it has its own dispositions) is held until it has them,
    and ends it as the default does: it never runs this process's handlers there (before, a KeyboardInterrupt
    went up this process's stack in the copy: its clean-up removed the temp file being written, and it said
    "Aborted!" twice). This process, not interrupted, makes the copy's changes itself."""
    fork = os.fork
    raised = tmp_path / "raised"

    def interrupted_at_once() -> int:
        pid = fork()
        if pid == 0:
            try:
                os.kill(os.getpid(), signal.SIGINT)
                time.sleep(0.05)  # (a handler that can run runs by now)
            except KeyboardInterrupt:
                raised.write_text("the copy took Ctrl-C as this process would")
                os._exit(3)
        return pid

    monkeypatch.setattr(os, "fork", interrupted_at_once)
    al = _pair()
    assert "".join(iter_json(al, helper=True)) == to_json(al)
    assert helped == [None]
    assert not raised.exists()
    out, err = capfd.readouterr()
    assert out == "" and err == ""


def test_ctrl_c_as_the_helper_is_made_ends_it(monkeypatch: pytest.MonkeyPatch) -> None:
    """Ctrl-C landing in this process while the copy is made is taken once it is made: the copy goes too."""
    fork = os.fork
    made: list[int] = []

    def interrupted_meanwhile() -> int:
        pid = fork()
        if pid:
            made.append(pid)
            os.kill(os.getpid(), signal.SIGINT)  # held: taken when start lets it through
        return pid

    monkeypatch.setattr(os, "fork", interrupted_meanwhile)
    with pytest.raises(KeyboardInterrupt):
        forked.start(lambda: (time.sleep(60), ["late"])[1])
    monkeypatch.undo()
    assert made and _gone(made[0])
