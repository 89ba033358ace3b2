"""The API's lists: releases newest first, glossary terms, keywords and ability words, the endpoint index."""

# The API's lists (see site/api.py): every release newest first with its name, counts and files; every glossary
# term with its first and last release and its text; the keyword abilities, keyword actions and ability words with
# the release each came in and went out, read from the rules themselves; the index of endpoints and schemas.

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Callable
from typing import Any

from ..archive import Archive, ReleaseName, VersionRow
from ..matcher.records import reader_changes
from .api_rules import api_path
from .index import Page
from .rule_index import RuleIndex


def release_entries(
    versions: list[VersionRow],
    slugs: dict[int, str],
    pages: list[Page],
    names: dict[int, ReleaseName],
    matches: dict[int, str],
    document: Callable[[str], str],
    pair: Callable[[str, str], tuple[str, str]],
) -> list[dict[str, Any]]:
    """Every release, newest first: what it is called, its dates, counts and the paths of its files."""
    into = {p.new.id: p for p in pages if p.role == "consecutive"}
    out = []
    for v in reversed(versions):
        p = into.get(v.id)
        diff, notes = pair(slugs[p.old.id], slugs[v.id]) if p is not None else (None, None)
        summary = p.summary if p is not None and p.summary else None
        out.append(
            {
                "label": v.label,
                "slug": slugs[v.id],
                "date": v.date,
                "effective_date": v.effective_date,
                "era": v.era,
                "published": v.published,
                "format": v.format,
                "sha256": v.sha256,
                **names.get(v.id, ReleaseName()).as_dict(),
                "text_matches": matches.get(v.id),
                "previous": p.old.label if p is not None else None,
                "counts": {"rules": v.rule_count, "changes": reader_changes(summary) if summary else None},
                "summary": summary,
                "paths": {"document": document(slugs[v.id]), "diff": diff, "notes": notes, "page": p and p.path},
            }
        )
    return out


def glossary_file(terms: list[dict[str, Any]]) -> dict[str, Any]:
    """Every glossary term (as the glossary index lists it): its names, first and last release, its text."""
    return {
        "schema": "rulediff.glossary/1",
        "terms": [
            {
                "term": t["term"],
                "key": t["key"],
                "formerly": t["formerly"],
                "first": t["releases"][0],
                "last": t["releases"][1],
                "in_force": t["current"],
                "text": t["text"],
                "page": "glossary/" + t["path"],
            }
            for t in terms
        ],
    }


def keywords_file(arc: Archive, idx: RuleIndex, listing: list[dict[str, Any]]) -> dict[str, Any]:
    """The keyword abilities and keyword actions (rules directly under a heading so titled: 702 and 701, 502
    before 2009) and the ability words (the list rule 207.2c gives, the glossary's before it), each with the
    first and last release that has it, the release it came in (None: already in the first archived one) and
    the first complete release without it (None: in force)."""
    pages = {e["path"]: e for e in listing}
    abilities, actions = _keyword_rules(idx, pages)
    return {
        "schema": "rulediff.keywords/1",
        "keyword_abilities": abilities,
        "keyword_actions": actions,
        "ability_words": _ability_words(arc, idx),
    }


def _span(idx: RuleIndex, ks: list[int], first_k: int) -> dict[str, str | None]:
    """First and last release of positions ``ks``, the one it came in and the one it went out in."""
    versions = idx.versions
    gone = next((v for v in versions[ks[-1] + 1 :] if v.id in idx.complete), None)
    return {
        "first": versions[ks[0]].label,
        "came_in": versions[ks[0]].label if ks[0] > first_k else None,
        "last": versions[ks[-1]].label,
        "went_out": gone.label if gone is not None else None,
    }


def _keyword_rules(
    idx: RuleIndex, pages: dict[str, dict[str, Any]]
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    heads = {at: "action" if "action" in title.casefold() else "ability" for at, title in idx.keyword_heads().items()}
    firsts: dict[str, int] = {}  # where each kind of keyword is first listed
    for (vid, _), kind in heads.items():
        firsts[kind] = min(firsts.get(kind, idx.order[vid]), idx.order[vid])
    found: dict[str, list[dict[str, Any]]] = {"ability": [], "action": []}
    near = _near_keyword_heads(idx, heads)
    for lin, items in sorted(idx.by_lineage.items()):
        if lin not in near:
            continue
        under = [
            (idx.order[vid], number, title, heads[(vid, number.split(".", 1)[0])])
            for _, vid, number, title, _ in items
            if number
            and number.count(".") == 1
            and not number[-1].isalpha()
            and title
            and (vid, number.split(".", 1)[0]) in heads
        ]
        if not under:
            continue
        ks = sorted({k for k, *_ in under})
        _, number, title, kind = under[-1]
        path = idx.paths[lin]
        found[kind].append(
            {
                "name": title,
                "number": number,
                **_span(idx, ks, firsts.get(kind, 0)),
                "rule": api_path(path),
                "page": path,
                "formerly": pages.get(path, {}).get("formerly", []),
            }
        )
    for kind in found:
        found[kind].sort(key=lambda e: (e["name"].casefold(), e["first"]))
    return found["ability"], found["action"]


def _near_keyword_heads(idx: RuleIndex, heads: dict[tuple[int, str], str]) -> set[int]:
    """The lineages with a rule directly below a keyword heading in some release (and perhaps a few more): the
    only ones the keyword lists look through, not every rule of every release."""
    out: set[int] = set()
    for vid, head in heads:
        numbers, book = idx.heads[vid].get(head, []), idx.at[vid]
        out.update(book[n] for n in numbers)
        twice = {n for n, times in Counter(numbers).items() if times > 1}
        if twice:  # a number printed twice: ``at`` has the lineage of its first printing only
            out.update(row[0] for row in idx.rows[vid] if row[2] in twice)
    return out


_WORD_LIST = re.compile(
    r"(?:\bthe ability words are|\blist of ability words\b[^:.]*\bis as follows:)\s+([^.]+)\.", re.IGNORECASE
)


def ability_words_in(text: str) -> list[str]:
    """The ability words a rule or glossary entry lists ("The ability words are adamant, ..., and will of the
    council."), in lower case; [] when it lists none."""
    m = _WORD_LIST.search(text)
    if m is None:
        return []
    items = re.split(r",\s*(?:and\s+)?|\s+and\s+", m[1])
    return [w for w in (" ".join(i.replace("_", " ").split()).lower() for i in items) if w]


def _ability_words(arc: Archive, idx: RuleIndex) -> list[dict[str, Any]]:
    listed: dict[int, set[str]] = {}
    for vid, text in arc.texts.saying("ability words are", "list of ability words"):
        words = ability_words_in(text)
        if words and vid in idx.order:
            listed.setdefault(idx.order[vid], set()).update(words)
    if not listed:
        return []
    with_list = sorted(listed)
    seen: dict[str, list[int]] = {}
    for k in with_list:
        for word in listed[k]:
            seen.setdefault(word, []).append(k)
    out = []
    for word, ks in sorted(seen.items()):
        later = [k for k in with_list if k > ks[-1]]
        out.append(
            {
                "name": word,
                "first": idx.versions[ks[0]].label,
                "came_in": idx.versions[ks[0]].label if ks[0] > with_list[0] else None,
                "last": idx.versions[ks[-1]].label,
                "went_out": idx.versions[later[0]].label if later else None,
            }
        )
    return out


# The endpoints, as an OpenAPI paths table would list them (paths relative to the site's root).
_ENDPOINTS = (
    ("api/index.json", "api.schema.json", "this list: every endpoint and the schema its files follow"),
    ("api/releases.json", "releases.schema.json", "every release newest first: name, dates, counts, files"),
    ("api/latest.json", "latest.schema.json", "the newest release (as in releases.json) and its aliases"),
    ("api/releases/{slug}.json", "document.schema.json", "a whole release (rulediff.document/1)"),
    ("api/latest/release.json", "document.schema.json", "the newest release's document"),
    ("api/diffs/{old}--{new}.json", "diff.schema.json", "every change of a consecutive pair (rulediff.diff/1.1)"),
    ("api/latest/diff.json", "diff.schema.json", "the newest pair's diff"),
    ("api/notes/{old}--{new}.json", "notes.schema.json", "the release notes of a consecutive pair"),
    ("api/latest/notes.json", "notes.schema.json", "the newest pair's release notes"),
    ("api/rules/{number}.json", "history.schema.json", "a rule as it reads now and its whole lineage"),
    ("api/glossary.json", "glossary.schema.json", "every glossary term: names, first and last release, text"),
    ("api/keywords.json", "keywords.schema.json", "keyword abilities, keyword actions and ability words"),
)


def endpoints(schemas: dict[str, str]) -> dict[str, Any]:
    """api/index.json: each endpoint with its schema's id and file."""
    ids = {name: json.loads(text)["$id"] for name, text in schemas.items()}
    return {
        "schema": "rulediff.api/1",
        "paths_from": "the site's root: the folder that holds index.html and api/",
        "endpoints": [
            {"path": path, "schema": ids[file], "schema_file": f"api/schemas/{file}", "what": what}
            for path, file, what in _ENDPOINTS
        ],
        "schemas": {ids[name]: f"api/schemas/{name}" for name in sorted(schemas)},
    }
