"""The Jinja environments over the shipped templates, and the digest of what made a page."""

# The Jinja environments over the shipped templates: HTML with autoescape and StrictUndefined, Markdown with its own
# escaping; and the digest that names the code and templates a page was made by.

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

from ..support.code_digest import package_digest
from ..support.shipped import shipped
from ..words.agreement import forms

if TYPE_CHECKING:
    import jinja2


def template_dir() -> Path:
    return shipped("templates", "diff.html.j2")


@lru_cache(maxsize=1)
def made_by() -> str:
    """Names the code and templates that make the site's pages: in every page's key (see support/code_digest.py)."""
    return package_digest(template_dir())[:16]


_MD_SPECIAL = re.compile(r"([\\`*_~\[\]<>#|])")


def md_escape(text: object) -> str:
    """Escape what Markdown would read as markup; rule text is data, not formatting."""
    return _MD_SPECIAL.sub(r"\\\1", str(text))


@lru_cache(maxsize=2)
def environment(markdown: bool = False) -> jinja2.Environment:
    import jinja2  # here, not at the top: `rulediff diff --format json` renders no template

    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(template_dir())),
        autoescape=not markdown,
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )
    env.filters["md"] = md_escape
    env.filters["forms"] = lambda r: forms(r.spellings, r.old)  # (a rename's inflected forms, named beside it)
    env.globals["asset"] = asset
    return env


def asset(name: str) -> str:
    """The text of a CSS or JS file to inline (reports are single self-contained files)."""
    return (template_dir() / name).read_text(encoding="utf-8")
