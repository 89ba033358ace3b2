"""'rulediff update' against the recorded official rules page served on 127.0.0.1, its links pointed there."""

from __future__ import annotations

import hashlib
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
from click.testing import CliRunner

from rulediff.cli import main

from .conftest import FIXTURES, ROOT, cr_file, needs_cr_corpus
from .test_editions import _docx_of, _texts

PAGE = ROOT.parent / "shared" / "official-page" / "rules-page.html"
PAGE_CUT = FIXTURES / "update" / "rules-page-cut.html"  # see its first line for where it was cut from
MEDIA = "https://media.wizards.com/2024/downloads/"
# A real release cut short (2014-05-01: see its SOURCE), served as the linked TXT in the tests without ../shared.
TXT = FIXTURES / "parsers" / "official-text" / "curly-quotes-utf8" / "input.txt"
FAST = ["--timeout", "0.5", "--retries", "1", "--backoff", "0"]


class Site:
    """What the loopback server serves: path -> (status, body, headers); ``slow`` paths answer after a second."""

    def __init__(self) -> None:
        self.files: dict[str, tuple[int, bytes, dict[str, str]]] = {}
        self.slow: set[str] = set()
        self.short: set[str] = set()  # sent with a Content-Length larger than the body
        self.hits: list[tuple[str, int]] = []
        self.base = ""

    def put(self, path: str, body: bytes, status: int = 200, **headers: str) -> None:
        etag = '"' + hashlib.sha1(body).hexdigest() + '"'
        self.files[path] = (status, body, {"ETag": etag, **headers})

    def page(self, html: bytes) -> None:
        self.put("/en/rules", html.replace(MEDIA.encode(), f"{self.base}/files/".encode()))


def _handler(site: Site) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *args: object) -> None:
            pass

        def do_GET(self) -> None:  # noqa: N802 (the name http.server calls)
            from urllib.parse import unquote

            path = unquote(self.path)
            status, body, headers = site.files.get(path, (404, b"<html>Not Found</html>", {}))
            if path in site.slow:
                time.sleep(1.5)
            if status == 200 and headers.get("ETag") and self.headers.get("If-None-Match") == headers["ETag"]:
                status, body = 304, b""
            site.hits.append((path, status))
            self.send_response(status)
            for k, v in headers.items():
                self.send_header(k, v)
            self.send_header("Content-Length", str(len(body) * 2 if path in site.short else len(body)))
            self.end_headers()
            self.wfile.write(body)

    return Handler


@pytest.fixture
def site() -> Iterator[Site]:
    s = Site()
    server = ThreadingHTTPServer(("127.0.0.1", 0), _handler(s))
    s.base = f"http://127.0.0.1:{server.server_address[1]}"
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield s
    server.shutdown()
    server.server_close()


def _update(tmp_path: Path, site: Site, *more: str) -> tuple[int, str, str]:
    args = ["update", "--source", f"{site.base}/en/rules", "--archive", str(tmp_path / "a.sqlite"), *FAST, *more]
    r = CliRunner().invoke(main, args)
    return r.exit_code, r.stdout, r.stderr


def _archive_bytes(tmp_path: Path) -> bytes:
    from rulediff.archive import Archive

    with Archive.open(tmp_path / "a.sqlite") as arc:
        return repr([(v.label, v.sha256) for v in arc.versions.all()]).encode()


def _serve_release(site: Site, txt: bytes, docx: bytes | None = None) -> None:
    site.page(PAGE_CUT.read_bytes())
    site.put("/files/MagicCompRules 20240607.txt", txt)
    if docx is not None:
        site.put("/files/MagicCompRules 20240607.docx", docx)


def test_a_new_release_is_found_dated_archived_and_the_site_built_then_a_second_run_is_a_no_op(
    tmp_path: Path, site: Site
) -> None:
    text = TXT.read_bytes()
    _serve_release(site, text, _docx_of(text.decode("utf-8")))  # no PDF: the page links one, the server has none
    code, out, err = _update(tmp_path, site, "-o", str(tmp_path / "site"))
    assert code == 0, err
    assert "new release 2014-05-01: MagicCompRules 20240607.txt" in out  # dated by its text, not its name
    assert "added             2014-05-01  (official-text" in out and "edition           2014-05-01 (docx)" in out
    assert err.count("\n") == 1 and "MagicCompRules%2020240607.pdf: the server answered HTTP 404" in err
    assert (tmp_path / "site" / "index.html").is_file() and (tmp_path / "site" / "feed.xml").is_file()
    site.hits.clear()
    code, out, err = _update(tmp_path, site, "-o", str(tmp_path / "site"))
    assert site.hits == [("/en/rules", 304)]
    assert code == 0 and out == "no new release\n" and err == ""


def test_check_says_a_new_release_with_exit_10_and_changes_nothing(tmp_path: Path, site: Site) -> None:
    _serve_release(site, TXT.read_bytes())
    code, out, _ = _update(tmp_path, site, "--check")
    assert code == 10 and out == "new release 2014-05-01\n"
    assert _archive_bytes(tmp_path) == b"[]"
    assert _update(tmp_path, site)[0] == 0
    code, out, _ = _update(tmp_path, site, "--check")
    assert code == 0 and out.startswith("no new release")


def _one_line_and_nothing_archived(tmp_path: Path, site: Site, needle: str) -> None:
    before = _archive_bytes(tmp_path)
    code, out, err = _update(tmp_path, site, "-o", str(tmp_path / "site"))
    assert code == 2, out + err
    assert len(err.splitlines()) == 1 and err.startswith("rulediff: error: ") and needle in err, err
    assert "Traceback" not in out + err
    assert _archive_bytes(tmp_path) == before
    assert not (tmp_path / "site").exists()


def test_a_changed_page_layout(tmp_path: Path, site: Site) -> None:
    site.put("/en/rules", PAGE_CUT.read_bytes().replace(b"Comprehensive Rules</h2>", b"Full Rules</h2>"))
    _one_line_and_nothing_archived(tmp_path, site, 'rules:1: no heading "Comprehensive Rules" on the page')


def test_a_404(tmp_path: Path, site: Site) -> None:
    site.page(PAGE_CUT.read_bytes())
    _one_line_and_nothing_archived(tmp_path, site, "20240607.txt: the server answered HTTP 404")


def test_a_timeout(tmp_path: Path, site: Site) -> None:
    _serve_release(site, TXT.read_bytes())
    site.slow.add("/files/MagicCompRules 20240607.txt")
    _one_line_and_nothing_archived(tmp_path, site, "no answer in time (timed out)")


def test_a_truncated_download(tmp_path: Path, site: Site) -> None:
    _serve_release(site, TXT.read_bytes())
    site.short.add("/files/MagicCompRules 20240607.txt")
    _one_line_and_nothing_archived(tmp_path, site, "the download was cut short")


def test_an_html_error_page_served_as_txt(tmp_path: Path, site: Site) -> None:
    _serve_release(site, b"<!DOCTYPE html><html><body><h1>Service Unavailable</h1></body></html>")
    _one_line_and_nothing_archived(tmp_path, site, "an HTML page, not the TXT edition of the rules")


def test_a_redirect_loop(tmp_path: Path, site: Site) -> None:
    site.page(PAGE_CUT.read_bytes())
    site.put("/files/MagicCompRules 20240607.txt", b"", status=302, Location="/files/MagicCompRules 20240607.txt")
    _one_line_and_nothing_archived(tmp_path, site, "too many redirects")


@pytest.mark.parametrize("asked", ["/old/rules", "/en/rules"])
def test_the_pages_relative_links_resolve_where_it_ends_and_it_is_remembered_where_asked(
    tmp_path: Path, site: Site, asked: str
) -> None:
    # The page moved (the old address redirects there), and its links are relative: "files/..." under /en/.
    site.put("/old/rules", b"", status=301, Location=f"{site.base}/en/rules")
    site.put("/en/rules", PAGE_CUT.read_bytes().replace(MEDIA.encode(), b"files/"))
    site.put("/en/files/MagicCompRules 20240607.txt", TXT.read_bytes())
    args = ["update", "--source", f"{site.base}{asked}", "--archive", str(tmp_path / "a.sqlite"), *FAST]
    r = CliRunner().invoke(main, args)
    assert r.exit_code == 0 and "new release 2014-05-01" in r.stdout, r.stderr
    site.hits.clear()
    r = CliRunner().invoke(main, args)
    assert r.exit_code == 0 and r.stdout == "no new release\n"
    assert site.hits == [("/old/rules", 301)] * (asked == "/old/rules") + [("/en/rules", 304)]


def test_editions_that_disagree_with_the_text_say_where_and_the_text_stays_the_reference(
    tmp_path: Path, site: Site
) -> None:
    text, changed = _texts()
    _serve_release(site, text.encode("utf-8"), _docx_of(changed))
    code, out, err = _update(tmp_path, site)
    assert code == 0 and "edition           2014-05-01 (docx)" in out, err
    said = [line for line in err.splitlines() if "disagrees" in line]
    assert said == [line for line in said if "MagicCompRules 20240607.docx" in line and "rule 100.2:" in line] != []
    assert "every" in said[0]
    from rulediff.archive import Archive

    with Archive.open(tmp_path / "a.sqlite") as a:
        (now,) = a.versions.timeline()  # the edition stands beside it, not in the timeline
        assert now.format == "official-text" and "each player" in a.versions.document(now.id).get("100.2").text  # type: ignore[union-attr]


@needs_cr_corpus
def test_a_release_older_than_the_newest_archived_is_refused(tmp_path: Path, site: Site) -> None:
    assert (
        CliRunner()
        .invoke(main, ["archive", "add", str(cr_file("2026-01-16")), "--archive", str(tmp_path / "a.sqlite")])
        .exit_code
        == 0
    )
    _serve_release(site, cr_file("2024-06-07").read_bytes())
    _one_line_and_nothing_archived(
        tmp_path, site, "older than the newest archived (2026-01-16): a stale page or mirror"
    )


@needs_cr_corpus
def test_the_real_recorded_page_and_its_release(tmp_path: Path, site: Site) -> None:
    """The page as served in June 2024, its links pointed here, and the TXT it links (the corpus has no DOCX or
    PDF of 2024-06-07: the server answers 404 for them, and update says so and archives the TXT)."""
    if not PAGE.is_file():
        pytest.skip(f"{PAGE} not found")
    site.page(PAGE.read_bytes())
    site.put("/files/MagicCompRules 20240607.txt", cr_file("2024-06-07").read_bytes())
    code, out, err = _update(tmp_path, site)
    assert code == 0, err
    assert "new release 2024-06-07" in out and "added             2024-06-07  (official-text" in out
    assert len(err.splitlines()) == 2 and "DOCX edition is not archived" in err and "PDF edition is not archived" in err
