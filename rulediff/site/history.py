"""The site's rule pages: one history page per rule lineage at a stable, number-based address, the whole rule
at each stretch of releases, each step linked to the release's diff page, references linked to their rules."""

from __future__ import annotations

import functools
import hashlib
import json
import os
import pickle
import re
import zlib
from collections import deque
from collections.abc import Callable, Iterable
from concurrent.futures import Future
from dataclasses import dataclass
from typing import Any

from markupsafe import Markup

from ..archive import Archive, VersionRow
from ..archive.codec import orphan_rule
from ..matcher.lineage import UNCERTAIN, link_texts
from ..numbering import RuleNumber
from .step_cache import StoredEdits, StoredParts
from .steps import Lineage, Lookup, Step, StepMaker
from ..render.templating import made_by
from ..support.worker_pool import pool as worker_pool

# (lineage, version id, number, title, body id), as Archive.rule_index gives them
Row = tuple[int, int, str | None, str | None, int]
Progress = Callable[[str, int, int], None]


def file_slug(text: str) -> str:
    s = re.sub(r"[^A-Za-z0-9_-]+", "-", text).strip("-._").lower()
    return (s or "untitled")[:60]


def history_paths(by_lineage: dict[int, list[Row]], versions: list[VersionRow]) -> dict[int, str]:
    """A page address per lineage, from what readers know and the archive keeps however it is rebuilt:
    the rule's number where it was last seen (``rules/702.15.html``), or its title when it never had
    one. When several lineages end under one number, the most recent keeps the plain address and the
    others add the date of the release they ended in (``rules/702.15-until-2011-05-01.html``).
    ``by_lineage``: each lineage's rows in release order (RuleIndex.by_lineage)."""
    order = {v.id: k for k, v in enumerate(versions)}
    first: dict[int, tuple[int, str, str]] = {}
    last: dict[int, tuple[int, str | None, str | None]] = {}
    for lin, items in by_lineage.items():
        _, vid, number, title, _ = items[0]
        first[lin] = (order[vid], number or "", title or "")
        # The first of its rows in its last release (a number printed twice has two).
        x, end = len(items) - 1, items[-1][1]
        while x and items[x - 1][1] == end:
            x -= 1
        _, vid, number, title, _ = items[x]
        last[lin] = (order[vid], number, title)
    groups: dict[str, list[int]] = {}
    for lin, (_, number, title) in last.items():
        base = number if number else "t-" + file_slug(title or "untitled")
        groups.setdefault(base, []).append(lin)
    out: dict[int, str] = {}
    used: set[str] = set()
    for base in sorted(groups):
        lins = sorted(groups[base], key=lambda n: (-last[n][0], first[n], n))
        for k, lin in enumerate(lins):
            name = base if k == 0 else f"{base}-until-{file_slug(versions[last[lin][0]].date)}"
            unique, n = name, 2
            while unique in used:
                unique, n = f"{name}-{n}", n + 1
            used.add(unique)
            out[lin] = f"rules/{unique}.html"
    return out


@dataclass(slots=True)
class RuleIndex:
    """What the rule pages need from one pass over every archived rule."""

    versions: list[VersionRow]
    order: dict[int, int]
    # lineage -> its rows in release order (a release's own in the order stored), each body the first that
    # reads alike (see Archive.bodies_read_alike)
    by_lineage: dict[int, list[Row]]
    # version id -> number -> lineage: where a reference in that version's text points
    at: dict[int, dict[str, int]]
    # version id -> rule number -> its subrules ((number, body id), ...), for rules read whole
    kids: dict[int, dict[str, tuple[tuple[str, int], ...]]]
    # version id -> heading or section number -> the numbers directly below it
    heads: dict[int, dict[str, list[str]]]
    paths: dict[int, str]
    # versions that are the whole rules (not a partial dump): only they can say a rule is gone
    complete: set[int]
    # (body id, lineage) -> [first and last version position it is in, its number in the last, and which row
    # that is (the first stored there)]: what the search index is made of
    spans: dict[tuple[int, int], list[Any]]

    @classmethod
    def build(cls, arc: Archive, versions: list[VersionRow]) -> RuleIndex:
        order = {v.id: k for k, v in enumerate(versions)}
        # Stored in the order they were added, read in release order (a release inserted before others was
        # added after them): every lineage's rows then come in release order, which its page and the
        # keyword list read them in, without a sort of each.
        per_version: dict[int, list[Row]] = {v.id: [] for v in versions}
        for row in arc.rule_index():
            bucket = per_version.get(row[1])
            if bucket is None:
                raise orphan_rule(row[1])
            bucket.append(row)
        by_lineage: dict[int, list[Row]] = {}
        # Per version, not per (version, number): 300,000 keys of two would each be a tuple of their own.
        at: dict[int, dict[str, int]] = {}
        kids: dict[int, dict[str, list[tuple[str, int]]]] = {}
        heads: dict[int, dict[str, list[str]]] = {}
        parents: dict[str, str | None] = {}  # per distinct number: a few thousand, for 300,000 rows
        spans: dict[tuple[int, int], list[Any]] = {}
        alike = arc.bodies_read_alike()
        n = 0  # the row's place among all rows in release order
        # A release at a time: its position and its maps are looked up once, not once per row.
        for k, v in enumerate(versions):
            vid = v.id
            book: dict[str, int] = {}
            below: dict[str, list[tuple[str, int]]] = {}
            head: dict[str, list[str]] = {}
            at[vid], kids[vid], heads[vid] = book, below, head
            for row in per_version.pop(vid):
                lin, _, number, title, body = row
                span = spans.get((body, lin))
                if span is None:
                    spans[(body, lin)] = [k, k, number, n]
                elif k > span[1]:  # (in release order: its first release is the one it was met in)
                    span[1:] = k, number, n
                n += 1
                # A page shows a body's text and examples: bodies that read alike are one to it.
                shown = alike.get(body)
                if shown is not None:
                    body = shown
                    row = (lin, vid, number, title, body)
                same = by_lineage.get(lin)
                if same is None:
                    by_lineage[lin] = [row]
                else:
                    same.append(row)
                if number:
                    if number not in book:
                        book[number] = lin
                    parent = parents.get(number, "")
                    if parent == "":
                        parent = parents[number] = _parent_number(number)
                    if parent is not None and "." in parent:  # a subrule of a rule: read with it
                        below.setdefault(parent, []).append((number, body))
                    elif parent is not None:
                        head.setdefault(parent, []).append(number)
        sort_keys = {n: _num_key(n) for n in parents}
        for per in kids.values():
            for lst in per.values():
                if len(lst) > 1:
                    lst.sort(key=lambda c: sort_keys[c[0]])
        # A rule's subrules go into every history page entry as they are: a tuple, made once.
        subrules = {vid: {n: tuple(lst) for n, lst in per.items()} for vid, per in kids.items()}
        complete = {v.id for v in versions if arc.coverage(v.id).complete}
        paths = history_paths(by_lineage, versions)
        return cls(versions, order, by_lineage, at, subrules, heads, paths, complete, spans)

    def lineage_at(self, vid: int, number: str) -> int | None:
        book = self.at.get(vid)
        return book.get(number) if book is not None else None

    def url(self, vid: int, number: str, up: str = "../") -> str | None:
        lin = self.lineage_at(vid, number)
        return up + self.paths[lin] if lin is not None else None


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


def plan_history_pages(
    arc: Archive,
    idx: RuleIndex,
    diff_into: dict[int, str],
    w: Any,
    steps: StepMaker,
    progress: Progress | None,
) -> tuple[list[dict[str, Any]], list[PendingPage], StepWork]:
    """One page per lineage: the listing for the rules index, the pages to write (texts, stretches, steps
    read back as rendered before), and the steps to work out for the pages none of whose steps were kept:
    the costly part, done while the diff pages render and after (see ``StepWork``). A page's key is built
    from body ids (bodies that read alike as one) and its stamp names the addresses its texts link to, so an
    unchanged lineage costs no text at all, and a lineage whose runs of releases read as before costs none
    either."""
    versions, order = idx.versions, idx.order
    marks = arc.all_link_marks()
    pending: list[PendingPage] = []
    to_work: list[PendingPage] = []  # pages none of whose steps were kept
    listing: list[dict[str, Any]] = []
    total = len(idx.by_lineage)
    for planned, (lin, items) in enumerate(sorted(idx.by_lineage.items())):
        if progress and planned % 250 == 0:
            progress("history pages", planned - len(to_work), total)
        runs = _runs(items, order, idx.kids)
        path = idx.paths[lin]
        latest = items[-1]
        numbers = _numbers(runs, versions)
        listing.append(
            {
                "path": path,
                "number": latest[2],
                "title": latest[3] or "",
                "first": versions[runs[0][0]].label,
                "last": versions[runs[-1][1]].label,
                "formerly": list(dict.fromkeys(n for n, _, _ in numbers if n not in (latest[2], "(unnumbered)"))),
            }
        )
        gone = next((v for v in versions[runs[-1][1] + 1 :] if v.id in idx.complete), None)
        via, ended = link_texts(marks.get(lin, []))
        children = [(n, "../" + idx.paths[idx.at[latest[1]][n]]) for n in _children(idx, latest[1], latest[2])]
        # What the page says, with no word of the newest release unless the rule changed in it (a rule in
        # force runs "to today"): adding a release leaves the pages of the rules it keeps as they were. The
        # links its texts make by number are named in the key it is stamped with (see ``links_hold``).
        key = hashlib.sha1(
            json.dumps(
                [
                    made_by(),  # the code and templates that make it
                    lin,  # the page names its lineage id, which a reassignment (a correction, an insert) changes
                    path,
                    [[*run_key(versions, diff_into, a, b), *rest] for a, b, *rest in runs],
                    sorted(via.items()),
                    ended,
                    numbers,
                    children,
                    gone.label if gone else None,
                    gone is not None and diff_into.get(gone.id),
                ]
            ).encode("utf-8")
        ).hexdigest()
        if w.fresh_if(path, functools.partial(links_hold, key, idx, versions[-1].id)):
            continue
        plan = [
            (order[vid], number, title, body, idx.kids[vid].get(number or "", ()))
            for _, vid, number, title, body in items
        ]
        lineage = Lineage.of(plan, via, versions, idx.complete)
        block = steps.block_key(lineage)
        kept = steps.kept(block)
        context = {
            "lineage": lin,
            "latest": {"number": latest[2], "title": latest[3]},
            "numbers": numbers,
            "children": children,
            "gone": gone.label if gone is not None else None,
            "gone_diff": ("../" + diff_into[gone.id]) if gone is not None and gone.id in diff_into else None,
            "ended": ended,
            # every release the lineage is linked into by weak evidence starts a step that says so
            "uncertain": bool(via) and any(via.get(versions[k].id) == UNCERTAIN for k, *_ in plan),
        }
        page = PendingPage(path, key, context, lineage, block, kept, None)
        if kept is None:
            to_work.append(page)
        pending.append(page)
    listing.sort(key=lambda e: (e["number"] is None, _num_key(e["number"]), str(e["title"])))
    return listing, pending, StepWork(to_work, steps, progress, total)


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


def write_history_pages(
    pending: list[PendingPage], steps: StepMaker, page_ids: Callable[[str], set[str]], w: Any, env: Any
) -> None:
    """Write the planned pages once the diff pages exist: each step links to its release's diff page at
    the first of the rule's changed nodes that page has an anchor for, its references to the rules they
    name in the step's last release. Kept steps whose links no longer lead where they did are worked out
    again."""
    template = env.get_template("history.html.j2")
    for page in pending:
        lineage = page.lineage
        done = steps.checked(page.kept, lineage, page_ids) if page.kept is not None and lineage else None
        if done is None:
            worked = _unpack(page) if page.steps is not None or lineage is None else steps.work_out(lineage)
            assert worked is not None
            html, kept, lookups = steps.written(worked, page_ids)
            steps.keep(page.block, kept)
        else:
            html, lookups = done
        w.write(page.path, template.render(steps=[Markup(html)], **page.context), stamp(page.key, lookups))
        page.lineage = page.kept = page.steps = None  # written: what it was made from can go


def run_key(versions: list[VersionRow], diff_into: dict[int, str], a: int, b: int) -> list[Any]:
    """What a page says of a run of releases ``a`` .. ``b`` (positions) besides what it shows there: where it
    starts (release id and label, and the diff page into it) and where it ends (id and label; None for a
    run that reaches the newest release, which the page calls "today"). Ids as well as labels: a label can
    move to another release, and the lookups a stamp names are by id."""
    end = b != len(versions) - 1
    return [
        versions[a].id,
        versions[a].label,
        versions[b].id if end else None,
        versions[b].label if end else None,
        diff_into.get(versions[a].id),
    ]


def stamp(key: str, lookups: Iterable[Lookup]) -> str:
    """What a page is stamped with: its key, then the lookups it made by number, each once (see
    ``links_hold``)."""
    return f"{key} {json.dumps(list(dict.fromkeys(lookups)), separators=(',', ':'))}"


def links_hold(key: str, idx: RuleIndex, newest: int, stamped: str) -> bool:
    """Is a page stamped ``stamped`` made from ``key``, its links by number leading where they did? A stamp
    is the key and the lookups the page's texts made: (release, or None for the newest; number; address)."""
    head, _, links = stamped.partition(" ")
    if head != key:
        return False
    at, paths = idx.at, idx.paths
    try:
        for vid, number, url in json.loads(links):  # idx.url written out: some 70,000 lookups a build
            book = at.get(newest if vid is None else vid)
            if book is None:  # a release no longer archived
                return False
            lin = book.get(number)
            if (None if lin is None else "../" + paths[lin]) != url:
                return False
    except (ValueError, TypeError, AttributeError, RecursionError):  # a stamp damaged or from elsewhere: made again
        return False
    return True


def _runs(
    items: list[Row], order: dict[int, int], kids: dict[int, dict[str, tuple[tuple[str, int], ...]]]
) -> list[list[Any]]:
    """A lineage's rules (``items``, in release order) as runs of consecutive releases that show the same:
    ``[first, last, number, title, body id, subrules]`` (release positions by ``order``, subrules by
    ``kids``). The key of a page says what its plan says in a tenth of the words (a rule is unchanged in
    most releases), and serialising the whole plan was most of a page's key."""
    out: list[list[Any]] = []
    run: list[Any] = [None, -2, None, None, None, None]  # no release follows it
    for _, vid, number, title, body in items:
        k = order[vid]
        ks = kids[vid].get(number or "", ())
        if k == run[1] + 1 and body == run[4] and number == run[2] and title == run[3] and ks == run[5]:
            run[1] = k
        else:
            run = [k, k, number, title, body, ks]
            out.append(run)
    return out


def _pack(steps: list[Step]) -> bytes:
    """Take the rendered parts out of ``steps`` and return them compressed (a fifth of their size)."""
    parts = [s.part for s in steps]
    for s in steps:
        s.part = ""
    return zlib.compress(pickle.dumps(parts, protocol=pickle.HIGHEST_PROTOCOL), 1)


def _unpack(page: PendingPage) -> list[Step] | None:
    """A pending page's worked-out steps, their parts put back."""
    if page.steps is not None and page.packed is not None:
        for s, part in zip(page.steps, pickle.loads(zlib.decompress(page.packed)), strict=True):
            s.part = part
        page.packed = None
    return page.steps


def _numbers(runs: list[list[Any]], versions: list[VersionRow]) -> list[tuple[str, str, str | None]]:
    """The numbers a rule went by (``runs``: see ``_runs``), each with the first and last release it had it,
    None for "to today" (a rule in the newest release)."""
    out: list[tuple[str, str, str | None]] = []
    for first, last, number, *_ in runs:
        n = number or "(unnumbered)"
        if out and out[-1][0] == n:
            out[-1] = (n, out[-1][1], versions[last].label)
        else:
            out.append((n, versions[first].label, versions[last].label))
    if runs[-1][1] == len(versions) - 1:
        out[-1] = (out[-1][0], out[-1][1], None)
    return out


def _children(idx: RuleIndex, vid: int, number: str | None) -> list[str]:
    """The rules directly below a heading or section in one release (a rule's subrules are on its page)."""
    if not number or "." in number:
        return []
    return sorted(set(idx.heads[vid].get(number, [])), key=_num_key)


_LETTERS_AT_END = re.compile(r"[a-z]+$")


def _parent_number(number: str) -> str | None:
    """The parent of a number written as text ("702.15b" -> "702.15" -> "702" -> "7"), by string
    surgery (asked once per distinct number: see RuleIndex.build)."""
    if "." in number:
        trimmed = _LETTERS_AT_END.sub("", number)
        return trimmed if trimmed != number else number.split(".", 1)[0]
    return number[0] if len(number) == 3 else None


def _num_key(number: str | None) -> tuple[Any, ...]:
    n = RuleNumber.try_parse(number or "")
    return n.sort_key if n is not None else (99,)
