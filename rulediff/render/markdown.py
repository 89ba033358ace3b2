"""The release notes as a Markdown bulletin, in the form of an official one."""

# The release notes as a Markdown bulletin, in the form of an official one, read from the notes view-model;
# ``--link-base`` links rule numbers into a site from ``rulediff report``.

from __future__ import annotations

from ..matcher.records import Alignment
from ..numbering import RuleNumber
from .links import Links
from .notes import build_notes
from .passages import Passage, Run
from .templating import environment, md_escape


def _md_runs(runs: list[Run], mark: str, links: Links | None) -> str:
    """Runs as Markdown: changed stretches wrapped in ``mark`` (whole words, so the markers always sit
    next to a space or a line end), references as links."""
    out: list[str] = []
    k = 0
    while k < len(runs):
        r = runs[k]
        if r.changed:
            group = []
            while k < len(runs) and runs[k].changed:
                group.append(_md_run(runs[k], links))
                k += 1
            text = "".join(group)
            lead = text[: len(text) - len(text.lstrip())]
            tail = text[len(text.rstrip()) :]
            out.append(f"{lead}{mark}{text.strip()}{mark}{tail}" if text.strip() else text)
            continue
        out.append(_md_run(r, links))
        k += 1
    return "".join(out).replace("\n", "  \n")


def _md_run(r: Run, links: Links | None) -> str:
    if r.ref is not None and links is not None:
        return f"[{md_escape(r.text)}]({links.rule(r.ref)})"
    return md_escape(r.text)


def _number(number: str, links: Links | None) -> str:
    if links is None or RuleNumber.try_parse(number) is None:
        return md_escape(number)
    return f"[{md_escape(number)}]({links.rule(number)})"


def to_markdown(al: Alignment, link_base: str | None = None) -> str:
    """The notes as a bulletin a rules manager can publish (and fill in the ``Why:`` lines of)."""
    notes = build_notes(al, link=link_base is not None)
    links = Links(link_base, notes) if link_base else None
    env = environment(markdown=True)

    def old(p: Passage) -> str:
        return _md_runs(p.runs, "~~", None)

    def new(p: Passage) -> str:
        return _md_runs(p.runs, "**", links)

    def number(n: str) -> str:
        return _number(n, links)

    return env.get_template("diff.md.j2").render(n=notes, old=old, new=new, number=number)
