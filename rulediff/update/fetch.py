"""Fetching a page or a file by URL (urllib3) or from a local path: capped, timed, retried, conditional."""

# Fetching a page or a file by URL or from a local path. HTTP goes through urllib3: a connect and read timeout, a
# few retries with exponential backoff on connection errors and 429/5xx answers, a bounded number of redirects, a
# size cap enforced while reading, a User-Agent naming rulediff, and If-None-Match / If-Modified-Since from the
# validators of the last fetch (a 304 answer is "unchanged"). Every failure is one FetchError naming the URL.

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

from .._version import __version__
from ..errors import RulediffError
from ..support.bounded_read import MAX_BYTES, read_input

USER_AGENT = f"rulediff/{__version__} (Comprehensive Rules archive; polls the rules page at most daily)"


class FetchError(RulediffError):
    """A page or file that could not be fetched, or not as a whole: the network, the server, or the size."""


@dataclass(frozen=True, slots=True)
class Settings:
    """How patiently to fetch: seconds per connect and per read, retries and the backoff between them (seconds,
    doubled each time), redirects followed, and the largest body read."""

    timeout: float = 30.0
    retries: int = 3
    backoff: float = 2.0
    redirects: int = 5
    max_bytes: int = MAX_BYTES


@dataclass(frozen=True, slots=True)
class Fetched:
    """What a fetch brought: the body (None when the server said it is unchanged), the URL it came from after
    redirects, and the validators to send next time."""

    url: str
    body: bytes | None
    validators: dict[str, str] = field(default_factory=dict)


def is_local(url: str) -> bool:
    """A path on this machine (no scheme, or file:), rather than an address to ask a server for."""
    scheme = urlsplit(url).scheme.lower()
    return scheme in ("", "file") or (len(scheme) == 1 and os.name == "nt")


def local_path(url: str) -> Path:
    parts = urlsplit(url)
    return Path(unquote(parts.path)) if parts.scheme.lower() == "file" else Path(url)


def fetch(url: str, settings: Settings, validators: dict[str, str] | None = None) -> Fetched:
    """The body of ``url`` (a local path, file: or http(s):), or None for it when ``validators`` show it has
    not changed since (HTTP 304)."""
    if is_local(url):
        path = local_path(url)
        if not path.is_file():
            raise FetchError("no such file", source=url)
        return Fetched(url, read_input(path))
    if urlsplit(url).scheme.lower() not in ("http", "https"):
        raise FetchError("not an http, https or file address", source=url)
    return _http(_quoted(url), settings, validators or {})


def _quoted(url: str) -> str:
    """``url`` with what a URL cannot hold as it is escaped (the rules page links "MagicCompRules 20240607.txt")."""
    from urllib.parse import quote, urlunsplit

    p = urlsplit(url)
    return urlunsplit((p.scheme, p.netloc, quote(p.path, safe="/%:@!$&'()*+,;=~"), quote(p.query, safe="=&%+/:;,"), ""))


def _pool() -> Any:
    import urllib3

    return urllib3.PoolManager(headers={"User-Agent": USER_AGENT})


def _http(url: str, settings: Settings, validators: dict[str, str]) -> Fetched:
    import urllib3
    from urllib3.exceptions import HTTPError, MaxRetryError

    headers = {"Accept-Encoding": "identity"}
    if validators.get("etag"):
        headers["If-None-Match"] = validators["etag"]
    if validators.get("last_modified"):
        headers["If-Modified-Since"] = validators["last_modified"]
    retry = urllib3.Retry(
        total=settings.retries,
        redirect=settings.redirects,
        backoff_factor=settings.backoff,
        backoff_max=max(settings.backoff * 8, 0.0),
        status_forcelist=(429, 500, 502, 503, 504),
        raise_on_redirect=True,
        raise_on_status=False,
        respect_retry_after_header=False,  # a Retry-After of hours would hold a daily job: the backoff decides
    )
    timeout = urllib3.Timeout(connect=settings.timeout, read=settings.timeout)
    try:
        r = _pool().request("GET", url, headers=headers, retries=retry, timeout=timeout, preload_content=False)
    except MaxRetryError as e:
        raise FetchError(_why(e.reason), source=url) from None
    except HTTPError as e:
        raise FetchError(_why(e), source=url) from None
    try:
        final = _final_url(url, r)
        if r.status == 304:
            return Fetched(final, None, validators)
        if r.status != 200:
            raise FetchError(f"the server answered HTTP {r.status} {r.reason or ''}".rstrip(), source=url)
        body = _read_capped(r, settings.max_bytes, url)
        kept = {
            k: v for k, v in (("etag", r.headers.get("ETag")), ("last_modified", r.headers.get("Last-Modified"))) if v
        }
        return Fetched(final, body, kept)
    except HTTPError as e:
        raise FetchError(_why(e), source=url) from None
    finally:
        r.release_conn()


def _final_url(url: str, r: Any) -> str:
    """The whole URL the answer came from, after redirects (the page's relative links resolve against it).
    urllib3's own ``geturl()`` is only the path it last asked for; the retry history keeps each redirect's
    target whole (resolved against the address that redirected)."""
    hops = [h.redirect_location for h in (r.retries.history if r.retries is not None else ()) if h.redirect_location]
    return str(hops[-1]) if hops else url


def _read_capped(r: Any, cap: int, url: str) -> bytes:
    """The whole body, or FetchError past ``cap`` bytes or when it ends before its stated length."""
    from urllib3.exceptions import ProtocolError

    length = r.headers.get("Content-Length")
    if length is not None and length.isdigit() and int(length) > cap:
        raise FetchError(f"{int(length):,} bytes, more than the {cap:,} a release can be", source=url)
    chunks: list[bytes] = []
    got = 0
    try:
        for chunk in r.stream(65536):
            got += len(chunk)
            if got > cap:
                raise FetchError(f"more than the {cap:,} bytes a release can be", source=url)
            chunks.append(chunk)
    except ProtocolError as e:
        raise FetchError(f"the download was cut short ({_why(e)})", source=url) from None
    return b"".join(chunks)


def _why(e: BaseException | None) -> str:
    """A urllib3 failure as the words a user needs (the URL is said beside it)."""
    from urllib3.exceptions import (
        ConnectTimeoutError,
        NameResolutionError,
        NewConnectionError,
        ProtocolError,
        ReadTimeoutError,
        ResponseError,
        SSLError,
    )

    if isinstance(e, ReadTimeoutError | ConnectTimeoutError):
        return "no answer in time (timed out)"
    if isinstance(e, NameResolutionError):
        return "the host name does not resolve"
    if isinstance(e, NewConnectionError):
        return "cannot connect to the server"
    if isinstance(e, SSLError):
        return "the secure connection failed"
    if isinstance(e, ResponseError):
        text = str(e)
        if "redirect" in text:
            return "too many redirects (a redirect loop?)"
        return "the server kept failing (" + text.split(":", 1)[-1].strip() + ")"
    if isinstance(e, ProtocolError):
        return "the connection broke off"
    return " ".join(str(e).split()) or type(e).__name__
