"""The official rules page read with lxml: the current release's TXT, DOCX and PDF links, by structure and name."""

# The official rules page read with lxml's HTML parser (never regular expressions over HTML): the heading that
# names the Comprehensive Rules, then the links that follow it up to the next heading of its rank or higher; of
# those, the one whose file name ends in .txt (.docx, .pdf). A page whose layout no longer has that heading, or
# whose section links no text file, is an error naming the page and the line it looked at.

from __future__ import annotations

from dataclasses import dataclass
from typing import Any
from urllib.parse import unquote, urljoin, urlsplit

from .fetch import FetchError

EDITIONS = ("txt", "docx", "pdf")
_HEADINGS = ("h1", "h2", "h3", "h4", "h5", "h6")
_TITLE = "comprehensive rules"
# Words that make a link of the section the rules themselves rather than another document beside them.
_RULES_WORDS = ("comprules", "comprehensive")


@dataclass(frozen=True, slots=True)
class Links:
    """The current release's files as the page links them (absolute URLs), by edition."""

    page: str
    line: int  # the heading's line on the page
    urls: dict[str, str]


def file_name(url: str) -> str:
    """The file name a URL ends in, its escapes read ("MagicCompRules%2020240607.txt" -> "... 20240607.txt")."""
    return unquote(urlsplit(url).path.rsplit("/", 1)[-1])


def read_links(html: bytes, page: str) -> Links:
    """The TXT (required), DOCX and PDF links of the Comprehensive Rules section of the rules page ``html``."""
    from lxml import etree
    from lxml import html as lhtml

    try:
        root = lhtml.document_fromstring(html)
    except (etree.ParserError, ValueError) as e:
        raise FetchError(f"not an HTML page ({e})", source=page, line=1) from None
    heading = next((h for h in root.iter(*_HEADINGS) if _TITLE in " ".join(h.text_content().split()).casefold()), None)
    if heading is None:
        raise FetchError(
            'no heading "Comprehensive Rules" on the page: its layout changed, or this is not the rules page',
            source=page,
            line=1,
        )
    line = heading.sourceline or 1
    found: dict[str, list[str]] = {}
    for el in _after(heading):
        href = el.get("href")
        if not href:
            continue
        url = urljoin(page, href.strip())
        kind = file_name(url).rsplit(".", 1)[-1].casefold() if "." in file_name(url) else ""
        if kind in EDITIONS:
            found.setdefault(kind, []).append(url)
    if "txt" not in found:
        raise FetchError(
            "the Comprehensive Rules section links no .txt file: the page's layout changed", source=page, line=line
        )
    return Links(page, line, {kind: _best(urls) for kind, urls in found.items()})


def _after(heading: Any) -> list[Any]:
    """The links after ``heading`` in document order, up to the next heading of its rank or a higher one."""
    rank = int(heading.tag[1])
    links: list[Any] = []
    seen = False
    for el in heading.getroottree().getroot().iter():
        if el is heading:
            seen = True
            continue
        if not seen or not isinstance(el.tag, str):
            continue
        if el.tag in _HEADINGS and int(el.tag[1]) <= rank:
            break
        if el.tag == "a":
            links.append(el)
    return links


def _best(urls: list[str]) -> str:
    """Of several links to one edition, the one whose name says it is the rules (else the first)."""
    named = [u for u in urls if any(w in file_name(u).casefold().replace(" ", "") for w in _RULES_WORDS)]
    return (named or urls)[0]
