"""Working out the history pages' steps: here while diff pages render, then with one worker."""

# Working out the steps of the history pages before they are written: here while the diff pages render, and with one
# fresh worker for what is left.

from __future__ import annotations

import os
import pickle
import zlib
from collections import deque
from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import dataclass
from typing import Any

from ..archive import Archive, VersionRow
from ..support.worker_pool import pool as worker_pool
from .step_cache import StoredEdits, StoredParts
from .steps import Lineage, Step, StepMaker

Progress = Callable[[str, int, int], None]


@dataclass(slots=True)
class PendingPage:
    """A history page worked out but not yet written: its links into diff pages wait for those pages."""

    path: str
    key: str
    context: dict[str, Any]
    lineage: Lineage | None  # kept only while its steps may need checking or working out (memory)
    block: str  # the key of its steps as written
    kept: dict[str, Any] | None  # its steps as an earlier build wrote them, if their runs are the same
    steps: list[Step] | None  # its steps worked out (when none were kept), their parts packed apart
    packed: bytes | None = None  # the parts of ``steps``, compressed: a full build's pages wait all at once


# A build shares the working out of steps with a worker process when at least this many pages need it (a
# full build: some 3,700; adding a release: a few dozen, worked out here at once), in about this many
# batches: enough for the processes to end together, few enough that a batch's start costs nothing. The
# worker is handed a few batches at a time, so that this process can take the others from the end, and an
# error on either side ends the build within a batch or two.
SHARED_WORK = 400


BATCHES = 24


HANDED = 2


class StepWork:
    """The steps of the history pages none of whose steps were kept, to be worked out (their parts packed)
    before the pages are written: most of a full build's work. While the diff pages' workers render, this
    process works out batches itself (``here_while``); what is left once they are done (and gone, with
    their memory) it shares with one fresh worker (``rest_shared``), which would otherwise leave a core idle.
    Where a page is worked out changes nothing it shows: steps are worked out from the page's lineage alone,
    and what is kept of them only saves work."""

    def __init__(self, pages: list[PendingPage], steps: StepMaker, progress: Progress | None, total: int) -> None:
        self.steps, self.progress, self.total = steps, progress, total
        self.ready = total - len(pages)  # the pages with nothing to work out
        self.shared = len(pages) >= SHARED_WORK
        size = -(-len(pages) // BATCHES) if self.shared else max(1, len(pages))
        self.batches = deque(pages[k : k + size] for k in range(0, len(pages), size))
        self.build = os.urandom(8).hex()  # tells a worker that its archive and caches are of this build
        self.count(0)

    def count(self, done: int) -> None:
        self.ready += done
        if self.progress:
            self.progress("history pages", self.ready, self.total)

    def here_while(self, busy: Callable[[], bool]) -> None:
        """Work out batches here, from the last, while ``busy()`` says the other workers are at work; every
        batch, when there are few pages."""
        while self.batches and (not self.shared or busy()):
            self._here(self.batches.pop())

    def rest_shared(self) -> None:
        """Work out the batches left: one fresh worker takes them from the first, ``HANDED`` at a time, and
        this process from the last, until they meet."""
        if len(self.batches) <= 1:
            while self.batches:
                self._here(self.batches.pop())
            return
        steps, batches = self.steps, self.batches
        arc = steps.arc
        handed: deque[tuple[list[PendingPage], Future[Worked]]] = deque()
        with worker_pool(1, spawn=True) as pool:
            while batches or handed:
                while batches and len(handed) < HANDED:
                    batch = batches.popleft()
                    lineages = [page.lineage for page in batch]
                    job = pool.submit(
                        work_out_apart,
                        self.build,
                        str(arc.path),
                        arc.identity,
                        steps.versions,
                        steps.diff_into,
                        lineages,
                    )
                    handed.append((batch, job))
                if batches:
                    self._here(batches.pop())
                else:
                    handed[0][1].result()  # wait for the worker (an error it met is raised here)
                while handed and handed[0][1].done():
                    batch, job = handed.popleft()
                    self._took(batch, job.result())

    def _here(self, batch: list[PendingPage]) -> None:
        for page in batch:
            assert page.lineage is not None  # a page to work out keeps its lineage until it is
            _worked(page, self.steps.work_out(page.lineage))
        self.count(len(batch))

    def _took(self, batch: list[PendingPage], worked: Worked) -> None:
        """What the worker worked out of ``batch``: its edits and parts kept with this build's."""
        done, edits, parts = worked
        self.steps.memo.take(edits)
        self.steps.parts.take(parts)
        for page, (steps, packed) in zip(batch, done, strict=True):
            _worked(page, steps, packed)
        self.count(len(batch))


def _worked(page: PendingPage, steps: list[Step], packed: bytes | None = None) -> None:
    """Put ``steps`` on ``page``, their parts packed apart (``packed``: as a worker packed them)."""
    page.packed = _pack(steps) if packed is None else packed
    page.steps, page.lineage = steps, None  # worked out: its lineage can go


# What a worker hands back of a batch: each page's steps with their parts packed apart (see _pack), and the
# edits and rendered steps it worked out (StoredEdits.give, StoredParts.give).
Worked = tuple[list[tuple[list[Step], bytes]], dict[str, bytes], dict[str, bytes]]


# In a worker: the build it works for (StepWork.build), and that build's archive and kept edits and steps,
# opened at its first batch and kept for the others. A worker serves one build; called in a process that
# serves several, a new build closes the archive of the one before.
_APART: dict[str, tuple[Archive, StoredEdits, StoredParts]] = {}


def work_out_apart(
    build: str,
    archive: str,
    identity: tuple[int, int],
    versions: list[VersionRow],
    diff_into: dict[int, str],
    lineages: list[Lineage | None],
) -> Worked:
    """Worker: the steps of ``lineages`` (see ``StepMaker.work_out``) for build ``build`` of the archive the
    build has open (``identity``), each with its parts packed, and the edits and rendered steps it worked out,
    for the build to keep with its own."""
    opened = _APART.get(build)
    if opened is None:
        for arc, _, _ in _APART.values():
            arc.close()
        _APART.clear()
        arc = Archive.open_again(archive, identity)
        opened = _APART[build] = (arc, StoredEdits(arc), StoredParts(arc))
    arc, memo, parts = opened
    maker = StepMaker(arc, versions, _no_url, diff_into, memo, parts)
    out = []
    for lin in lineages:
        assert lin is not None
        worked = maker.work_out(lin)
        out.append((worked, _pack(worked)))
    return out, memo.give(), parts.give()


def _no_url(vid: int, number: str) -> str | None:
    return None  # working out steps looks up no address: their links are filled in when they are written


def _pack(steps: list[Step]) -> bytes:
    """Take the rendered parts and what each step says out of ``steps`` and return them compressed (a fifth of
    their size)."""
    parts = [(s.part, s.shown) for s in steps]
    for s in steps:
        s.part = s.shown = ""
    return zlib.compress(pickle.dumps(parts, protocol=pickle.HIGHEST_PROTOCOL), 1)


def unpack_steps(page: PendingPage) -> list[Step] | None:
    """A pending page's worked-out steps, their parts put back."""
    if page.steps is not None and page.packed is not None:
        for s, (part, said) in zip(page.steps, pickle.loads(zlib.decompress(page.packed)), strict=True):
            s.part, s.shown = part, said
        page.packed = None
    return page.steps
