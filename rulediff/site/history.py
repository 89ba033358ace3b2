"""The site's rule pages: one history page per lineage at a stable, number-based address."""

# The site's rule pages: one history page per rule lineage at a stable, number-based address, the whole rule at each
# stretch of releases, each step linked to the release's diff page, references linked to their rules.

from __future__ import annotations

import functools
import hashlib
import json
from collections.abc import Callable, Iterable
from typing import Any

from markupsafe import Markup

from ..archive import Archive, VersionRow
from ..matcher.lineage import UNCERTAIN, link_texts
from ..render.templating import made_by
from .rule_index import Row, RuleIndex, number_sort_key
from .step_work import PendingPage, Progress, StepWork, unpack_steps
from .steps import Lineage, Lookup, StepMaker


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
    marks = arc.lineages.all_marks()
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
        key = _page_key(path, runs, versions, diff_into, via, ended, numbers, children, gone)
        if w.fresh_if(path, functools.partial(links_hold, key, idx, versions[-1].id)):
            continue
        context = {
            "latest": {"number": latest[2], "title": latest[3]},
            "numbers": numbers,
            "children": children,
            "gone": gone.label if gone is not None else None,
            "gone_diff": ("../" + diff_into[gone.id]) if gone is not None and gone.id in diff_into else None,
            "ended": ended,
        }
        page = _pending_page(idx, steps, items, path, key, via, context)
        if page.kept is None:
            to_work.append(page)
        pending.append(page)
    listing.sort(key=lambda e: (e["number"] is None, number_sort_key(e["number"]), str(e["title"])))
    return listing, pending, StepWork(to_work, steps, progress, total)


def _page_key(
    path: str,
    runs: list[list[Any]],
    versions: list[VersionRow],
    diff_into: dict[int, str],
    via: dict[int, str],
    ended: str | None,
    numbers: list[tuple[str, str, str | None]],
    children: list[tuple[str, str]],
    gone: VersionRow | None,
) -> str:
    """What a rule's page says, with no word of the newest release unless the rule changed in it (a rule in
    force runs "to today"): adding a release leaves the pages of the rules it keeps as they were. The links its
    texts make by number are named in the key it is stamped with (see ``links_hold``)."""
    return hashlib.sha1(
        json.dumps(
            [
                made_by(),  # the code and templates that make it
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


def _pending_page(
    idx: RuleIndex,
    steps: StepMaker,
    items: list[Row],
    path: str,
    key: str,
    via: dict[int, str],
    context: dict[str, Any],
) -> PendingPage:
    """A page to write: its lineage's texts by release, and its steps as rendered before when its runs of
    releases read the same (else none: they are worked out, see ``StepWork``)."""
    versions, order = idx.versions, idx.order
    plan = [
        (order[vid], number, title, body, idx.kids[vid].get(number or "", ())) for _, vid, number, title, body in items
    ]
    lineage = Lineage.of(plan, via, versions, idx.complete)
    block = steps.block_key(lineage)
    # every release the lineage is linked into by weak evidence starts a step that says so
    context["uncertain"] = bool(via) and any(via.get(versions[k].id) == UNCERTAIN for k, *_ in plan)
    return PendingPage(path, key, context, lineage, block, steps.kept(block), None)


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
            worked = unpack_steps(page) if page.steps is not None or lineage is None else steps.work_out(lineage)
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
    return sorted(set(idx.heads[vid].get(number, [])), key=number_sort_key)
