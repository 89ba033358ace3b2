"""Worker processes go when the process that started them is killed: none sleeps on for ever."""

from __future__ import annotations

import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from .test_faults import _children

STARTER = textwrap.dedent(
    """
    import sys, time
    from rulediff.support.worker_pool import pool
    if __name__ == "__main__":
        workers = pool(2, spawn=sys.argv[1] == "spawn")
        jobs = [workers.submit(time.sleep, 60) for _ in range(3)]   # busy, and one more waiting
        print("started", flush=True)
        time.sleep(60)
    """
)


@pytest.mark.skipif(not Path("/proc").is_dir(), reason="needs /proc to find the workers")
@pytest.mark.parametrize("how", ["fork", "spawn"])
def test_workers_exit_when_their_parent_is_killed(tmp_path: Path, how: str) -> None:
    script = tmp_path / "starter.py"
    script.write_text(STARTER)
    proc = subprocess.Popen([sys.executable, str(script), how], stdout=subprocess.PIPE, text=True)
    assert proc.stdout is not None and proc.stdout.readline().strip() == "started"
    deadline = time.monotonic() + 30
    while len(workers := _children(proc.pid)) < 2 and time.monotonic() < deadline:
        time.sleep(0.05)
    assert len(workers) >= 2
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    deadline = time.monotonic() + 20
    while (left := [p for p in workers if Path(f"/proc/{p}").exists()]) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not left, f"workers still alive after their parent was killed: {left}"


INTERRUPTED = textwrap.dedent(
    """
    import os, signal, sys, time
    from rulediff.support.worker_pool import pool
    if __name__ == "__main__":
        workers = pool(2, spawn=sys.argv[1] == "spawn")
        try:
            jobs = [workers.submit(time.sleep, 1) for _ in range(2)]
            if sys.argv[2] == "idle":
                [job.result() for job in jobs]  # both workers up, done, and waiting for work
            os.killpg(0, signal.SIGINT)  # Ctrl-C: the terminal interrupts the whole group
            time.sleep(30)
        except KeyboardInterrupt:
            workers.shutdown(wait=True, cancel_futures=True)
            print("interrupted", flush=True)
    """
)


@pytest.mark.parametrize("how", ["fork", "spawn"])
@pytest.mark.parametrize("when", ["starting", "idle"])
def test_ctrl_c_leaves_workers_quietly(tmp_path: Path, how: str, when: str) -> None:
    """Ctrl-C while workers start up (a spawned one still importing, a forked one just copied) or wait for
    work: they print nothing, and only the parent says it was interrupted. Each printed a traceback
    (KeyboardInterrupt in its bootstrap or its wait for work)."""
    script = tmp_path / "interrupted.py"
    script.write_text(INTERRUPTED)
    proc = subprocess.run(
        [sys.executable, str(script), how, when], capture_output=True, text=True, timeout=60, start_new_session=True
    )
    assert proc.stdout.strip() == "interrupted", (proc.stdout, proc.stderr)
    assert "Traceback" not in proc.stderr and "KeyboardInterrupt" not in proc.stderr, proc.stderr


STOPPED = textwrap.dedent(
    """
    import os, signal, sys, time
    import concurrent.futures
    from rulediff.support.worker_pool import pool
    if __name__ == "__main__":
        how, when = sys.argv[1], sys.argv[2]
        real = concurrent.futures.ProcessPoolExecutor.submit

        def submit_interrupted(self, fn, /, *args, **kwargs):
            # Ctrl-C comes while the pool starts a worker (this process ignores it then)
            os.killpg(0, signal.SIGINT)
            return real(self, fn, *args, **kwargs)

        if when == "submitting":
            concurrent.futures.ProcessPoolExecutor.submit = submit_interrupted
        started = time.monotonic()
        try:
            with pool(1, spawn=how == "spawn") as workers:
                job = workers.submit(time.sleep, 30)  # a long first job: the worker takes no Ctrl-C while starting
                if when == "working":
                    time.sleep(0.5)
                    raise KeyboardInterrupt
                time.sleep(30)
            print("not interrupted", flush=True)
        except KeyboardInterrupt:
            print(f"interrupted after {time.monotonic() - started:.1f} s", flush=True)
    """
)


@pytest.mark.parametrize("how", ["fork", "spawn"])
@pytest.mark.parametrize("when", ["submitting", "working"])
def test_ctrl_c_stops_at_once_and_is_never_lost(tmp_path: Path, how: str, when: str) -> None:
    """Ctrl-C pressed in the moment a pool starts a worker was dropped (this process ignores it then, for the
    worker's sake): the command ran to its end, exit 0. And a command stopped by Ctrl-C (or an error) waited
    for its workers' jobs under way: 10 s on a full site, 30 s here. Now the interrupt is held until the moment
    ends, the workers are ended at once, and none prints a traceback."""
    script = tmp_path / "stopped.py"
    script.write_text(STOPPED)
    proc = subprocess.run(
        [sys.executable, str(script), how, when], capture_output=True, text=True, timeout=60, start_new_session=True
    )
    said = proc.stdout.strip()
    assert said.startswith("interrupted after "), (proc.stdout, proc.stderr)
    assert float(said.split()[-2]) < 10, said
    assert "Traceback" not in proc.stderr and "KeyboardInterrupt" not in proc.stderr, proc.stderr


TERMINATED = textwrap.dedent(
    """
    import os, signal, sys, time
    import multiprocessing.util
    from rulediff.support.worker_pool import pool
    if __name__ == "__main__":
        signal.signal(signal.SIGTERM, lambda signum, frame: sys.exit(128 + signum))  # as the command line does
        real = multiprocessing.util.spawnv_passfds

        def spawned_then_terminated(path, args, passfds):
            pid = real(path, args, passfds)
            if any("spawn_main" in str(a) for a in args):  # (not the resource tracker's start)
                os.kill(os.getpid(), signal.SIGTERM)  # SIGTERM while the worker is being started
            return pid

        multiprocessing.util.spawnv_passfds = spawned_then_terminated
        try:
            with pool(1, spawn=True) as workers:
                workers.submit(time.sleep, 30)
                time.sleep(30)
        finally:
            print("ended", flush=True)
    """
)


def test_sigterm_while_a_worker_starts_ends_the_command_quietly(tmp_path: Path) -> None:
    """SIGTERM taken in the middle of starting a worker left the worker without the data it reads first: it
    printed a traceback (EOFError), and, not yet known to the pool, was not ended with it."""
    script = tmp_path / "terminated.py"
    script.write_text(TERMINATED)
    proc = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 128 + signal.SIGTERM and proc.stdout.strip() == "ended", (proc.stdout, proc.stderr)
    assert "Traceback" not in proc.stderr, proc.stderr
