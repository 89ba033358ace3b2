"""The API's rule files: a rule as it reads now and its whole lineage, from the history pages' own steps."""

# The API's rule files (api/rules/<number>.json beside rules/<number>.html): the rule as it reads now with its whole
# lineage, a rulediff.history/1.1 that holds each text once per stretch it stood unchanged. Each is written with its
# history page, from the same steps (see steps.shown), and kept by the same key.

from __future__ import annotations

import json
from typing import Any

HISTORY_SCHEMA = "rulediff.history/1.1"


def api_path(page: str) -> str:
    """The API file of a rule page: "rules/702.15.html" -> "api/rules/702.15.json"."""
    return "api/" + page.removesuffix(".html") + ".json"


def compact(obj: Any) -> str:
    """JSON as every API file is written: compact, keys sorted, UTF-8 as it is."""
    return json.dumps(obj, ensure_ascii=False, separators=(",", ":"), sort_keys=True) + "\n"


class RuleFiles:
    """Keeps and writes the API files of the history pages through the site's writer ``w``."""

    def __init__(self, w: Any) -> None:
        self.w = w

    @staticmethod
    def _key(key: str) -> str:
        return "api " + key  # the page's key: what the page shows is what its file says

    def fresh(self, page: str, key: str) -> bool:
        """Is the API file of ``page`` (whose key is ``key``) written as that key says?"""
        want = self._key(key)
        return bool(self.w.fresh_if(api_path(page), lambda stamped: stamped == want))

    def write(self, page: str, key: str, context: dict[str, Any], said: list[str]) -> None:
        """The API file of ``page``: its header from the page's ``context``, its stretches as its steps say."""
        numbers = context["numbers"]
        head = {
            "children": [{"number": n, "rule": api_path(href.removeprefix("../"))} for n, href in context["children"]],
            "ended": context["ended"],
            "gone": context["gone"],
            "in_force": numbers[-1][2] is None,
            "number": context["latest"]["number"],
            "numbers": [{"number": n, "from": a, "until": b} for n, a, b in numbers],  # as history JSON says them
            "page": page,
            "schema": HISTORY_SCHEMA,
        }
        tail = {"title": context["latest"]["title"], "uncertain": context["uncertain"]}
        # Keys in order, and each stretch as its step wrote it (compact, its keys sorted): the file is the text
        # compact() would make of the whole, without reading every stretch back to write it again.
        text = compact(head)[:-2] + ',"stretches":[' + ",".join(said) + "]," + compact(tail)[1:]
        self.w.write(api_path(page), text, self._key(key))
