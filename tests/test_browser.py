"""A real headless Chromium opens a real report: filters change what is visible, j/k move between
changes, the side-by-side toggle works. A screenshot is kept in tests/artifacts/ (git-ignored)."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from rulediff import align, parse
from rulediff.render.html import to_html

from .conftest import CORPUS, ROOT

ARTIFACTS = ROOT / "tests" / "artifacts"
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
DRIVER = shutil.which("chromedriver")

if not (CHROMIUM and DRIVER):
    if os.environ.get("CI"):
        raise RuntimeError("CI must provide chromium and chromedriver (see .ci/run)")
    pytest.skip("chromium and chromedriver are not installed here (CI installs them)", allow_module_level=True)

from selenium import webdriver  # noqa: E402
from selenium.common.exceptions import TimeoutException  # noqa: E402
from selenium.webdriver.chrome.service import Service  # noqa: E402
from selenium.webdriver.common.action_chains import ActionChains  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.support.ui import Select, WebDriverWait  # noqa: E402


@pytest.fixture(scope="module")
def browser(tmp_path_factory: pytest.TempPathFactory) -> Iterator[webdriver.Chrome]:
    opts = webdriver.ChromeOptions()
    opts.binary_location = CHROMIUM  # type: ignore[assignment]
    for flag in (
        "--headless=new",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--window-size=1200,1600",
        f"--user-data-dir={tmp_path_factory.mktemp('chrome-profile')}",
    ):
        opts.add_argument(flag)
    driver = webdriver.Chrome(service=Service(DRIVER), options=opts)
    try:
        yield driver
    finally:
        driver.quit()


@pytest.fixture(scope="module")
def report(tmp_path_factory: pytest.TempPathFactory) -> Path:
    al = align(parse(str(CORPUS / "003_8b50984e948ebee1.txt")), parse(str(CORPUS / "000_67b17b6c7d536d12.txt")))
    path = tmp_path_factory.mktemp("report") / "paste-2011--markdown-2022.html"
    path.write_text(to_html(al), encoding="utf-8")
    return path


def _screenshot(driver: webdriver.Chrome, url: str, path: Path) -> None:
    """Open ``url`` and save what it shows, once the page has loaded. A headless Chrome may still be
    attaching the page it navigated to ("aborted by navigation: not attached to an active page", seen on a
    busy machine): the shot is then taken again, a few times at most."""
    driver.get(url)
    for attempt in range(3):
        WebDriverWait(driver, 30).until(lambda d: d.execute_script("return document.readyState") == "complete")
        try:
            assert driver.save_screenshot(str(path))
            break
        except TimeoutException:
            if attempt == 2:
                raise
    assert path.stat().st_size > 10_000


def _visible(driver: webdriver.Chrome) -> list[str]:
    cards = driver.find_elements(By.CSS_SELECTOR, "main section.rules article.change")
    return [c.get_attribute("id") or "" for c in cards if c.is_displayed()]


def test_filters_keys_and_toggle_in_a_real_browser(browser: webdriver.Chrome, report: Path) -> None:
    browser.get(report.as_uri())
    assert "Comprehensive Rules" in browser.title
    everything = _visible(browser)
    assert len(everything) > 20
    assert browser.find_element(By.ID, "shown").text.startswith(f"{len(everything)} of")

    # Untick "added": the added rules disappear, the rest stay.
    box = browser.find_element(By.CSS_SELECTOR, "input[name=kind][value=added]")
    box.click()
    fewer = _visible(browser)
    added = browser.find_elements(By.CSS_SELECTOR, "article.change[data-kind=added]")
    assert added and len(fewer) == len(everything) - len(added)
    assert not any(a.is_displayed() for a in added)
    box.click()
    assert _visible(browser) == everything

    # The section filter keeps one section.
    Select(browser.find_element(By.CSS_SELECTOR, "select[name=section]")).select_by_value("7")
    assert all(
        c.get_attribute("data-section") == "7"
        for c in browser.find_elements(By.CSS_SELECTOR, "article.change")
        if c.is_displayed()
    )
    Select(browser.find_element(By.CSS_SELECTOR, "select[name=section]")).select_by_value("")

    # j moves to the next change.
    browser.find_element(By.TAG_NAME, "h1").click()  # leave the select: keys typed there are its own
    keys = ActionChains(browser)
    keys.send_keys("j").perform()
    first = browser.switch_to.active_element.get_attribute("id")
    keys.send_keys("j").perform()
    second = browser.switch_to.active_element.get_attribute("id")
    ActionChains(browser).send_keys("k").perform()
    back = browser.switch_to.active_element.get_attribute("id")
    assert (first, second, back) == (everything[0], everything[1], everything[0])

    # Side by side shows the old and new text in two columns.
    card = next(
        c
        for c in browser.find_elements(By.CSS_SELECTOR, "article.change")
        if c.find_elements(By.CSS_SELECTOR, "button.toggle")
    )
    old, new = card.find_element(By.CSS_SELECTOR, ".pair .old"), card.find_element(By.CSS_SELECTOR, ".pair .new")
    assert old.location["y"] < new.location["y"], "one above the other"
    card.find_element(By.CSS_SELECTOR, "button.toggle").click()
    assert old.location["y"] == new.location["y"] and old.location["x"] < new.location["x"], "side by side"

    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    _screenshot(browser, report.as_uri(), ARTIFACTS / "report.png")


def test_site_search_works_offline_from_file_urls(browser: webdriver.Chrome, tmp_path: Path) -> None:
    from rulediff.archive import Archive
    from rulediff.archive.manifest import entries
    from rulediff.site.build import build_site

    with Archive.open(tmp_path / "a.sqlite") as arc:
        arc.add_many(entries([str(CORPUS)]))
        build_site(arc, tmp_path / "site")
    browser.get((tmp_path / "site" / "search.html").as_uri())
    box = browser.find_element(By.CSS_SELECTOR, "#search input[name=q]")
    box.send_keys("lifelink is a static")
    results = browser.find_elements(By.CSS_SELECTOR, "#results li")
    assert results, browser.find_element(By.ID, "status").text
    first = results[0].find_element(By.TAG_NAME, "a")
    assert first.text in ("702.13a", "702.15a")
    first.click()
    assert "Lifelink" in browser.find_element(By.TAG_NAME, "h1").text or "702.1" in browser.page_source


@pytest.fixture(scope="module")
def linked_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The site of four real releases cut small (2009-05 .. 2014-02): renumbering, glossary renames."""
    from rulediff.archive import Archive
    from rulediff.site.build import build_site

    from .conftest import FIXTURES

    root = tmp_path_factory.mktemp("linked")
    releases = sorted((FIXTURES / "history" / "mana-burn-obsolete-2009").glob("cr-*.txt"))[:4]
    with Archive.open(root / "a.sqlite") as arc:
        for f in releases:
            arc.add_file(f)
        build_site(arc, root / "site")
    return root / "site"


def test_following_links_index_diff_history_and_back(browser: webdriver.Chrome, linked_site: Path) -> None:
    browser.get((linked_site / "index.html").as_uri())
    rows = browser.find_elements(By.CSS_SELECTOR, "table.versions-table tbody tr")
    assert rows[0].text.startswith("2014-02-01"), "newest release first"
    rows[0].find_element(By.CSS_SELECTOR, "td:nth-child(2) a").click()
    assert "2011-02-04 \u2192 2014-02-01" in browser.find_element(By.TAG_NAME, "h1").text
    newest = browser.current_url
    assert not browser.find_elements(By.CSS_SELECTOR, "a[rel=next]"), "the newest diff has no next"

    # A changed rule's history: the page is at the rule's number, and its last step is this release.
    card = browser.find_element(By.CSS_SELECTOR, "article.change a.history")
    heading = card.find_element(By.XPATH, "ancestor::article//h3").text.split()
    number = next(w for w in heading if w[0].isdigit())
    card.click()
    assert browser.current_url.endswith(f"/rules/{number}.html")
    assert number in browser.find_element(By.TAG_NAME, "h1").text
    steps = browser.find_elements(By.CSS_SELECTOR, "ol.timeline li.step")
    assert len(steps) >= 2
    # Back to an older release's diff from an earlier step of the history.
    older = steps[-2].find_element(By.CSS_SELECTOR, "a.release")
    older.click()
    assert browser.current_url.split("#")[0] != newest.split("#")[0]
    assert "/diff/" in browser.current_url
    fragment = browser.current_url.split("#", 1)[1] if "#" in browser.current_url else ""
    if fragment:
        assert browser.find_element(By.ID, fragment).is_displayed()
    # previous / next release from any diff page
    browser.find_element(By.CSS_SELECTOR, "a[rel=next]").click()
    assert "/diff/" in browser.current_url
    browser.find_element(By.CSS_SELECTOR, "a[rel=prev]").click()
    assert "/diff/" in browser.current_url

    # The glossary: a term followed through its rename.
    browser.find_element(By.LINK_TEXT, "Glossary").click()
    browser.find_element(By.PARTIAL_LINK_TEXT, "Mana Burn").click()
    assert browser.find_element(By.TAG_NAME, "h1").text == "Mana Burn (Obsolete)"
    page = browser.find_element(By.CSS_SELECTOR, "ol.timeline").text.lower()
    assert "renamed" in page and "from mana burn" in page and "no longer exists" in page
    ref = browser.find_element(By.CSS_SELECTOR, "ol.timeline a.ref")  # "See rule 300.3." leads to that rule
    assert ref.text == "300.3" and ref.get_attribute("href").endswith("/rules/300.3.html")

    # Search finds a glossary entry and leads to its page.
    browser.find_element(By.LINK_TEXT, "Search").click()
    browser.find_element(By.CSS_SELECTOR, "#search input[name=q]").send_keys("no longer exists")
    hit = browser.find_element(By.CSS_SELECTOR, "#results li.glossary a")
    assert hit.text == "Mana Burn (Obsolete)"
    hit.click()
    assert browser.current_url.endswith("/glossary/mana-burn.html")

    # What a reader sees: no matcher jargon outside the "why matched" toggles.
    browser.get((linked_site / "rules" / "702.15.html").as_uri())
    assert "lineage" not in browser.find_element(By.CSS_SELECTOR, "ol.timeline").text
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    _screenshot(browser, (linked_site / "index.html").as_uri(), ARTIFACTS / "site-index.png")
    _screenshot(browser, (linked_site / "rules" / "702.15.html").as_uri(), ARTIFACTS / "site-history.png")


def test_a_hand_link_is_visible_on_the_rule_page(browser: webdriver.Chrome, tmp_path: Path) -> None:
    from rulediff.archive import Archive
    from rulediff.site.build import build_site

    from .conftest import FIXTURES

    case = FIXTURES / "align" / "level-changes-2009"
    with Archive.open(tmp_path / "a.sqlite") as arc:
        arc.add_file(case / "old.txt")
        arc.add_file(case / "new.txt")
        arc.lineages.link("2009-05-01", "212.1", "2009-07-11", "300.1", "the general rule of card types moved to 300.1")
        build_site(arc, tmp_path / "site")
    browser.get((tmp_path / "site" / "rules" / "300.1.html").as_uri())
    badge = browser.find_element(By.CSS_SELECTOR, "ol.timeline li.step .badge.via")
    assert badge.is_displayed()
    assert badge.text == "linked by hand: the general rule of card types moved to 300.1"  # not upper-cased


def test_a_list_in_columns_keeps_its_bullets_inside_their_column(browser: webdriver.Chrome, linked_site: Path) -> None:
    """The rules index and a diff page's contents are lists in two columns: a bullet drawn outside its item
    lands in the gap after the other column's text (the index read "was 101•"). Every item of a list in
    columns keeps its bullet inside, or has none."""
    pages = [linked_site / "rules" / "index.html", *sorted((linked_site / "diff").glob("*.html"))[:2]]
    checked = 0
    for page in pages:
        browser.get(page.as_uri())
        WebDriverWait(browser, 30).until(lambda d: d.execute_script("return document.readyState") == "complete")
        found = browser.execute_script(
            """
            const out = [];
            for (const list of document.querySelectorAll("ul, ol")) {
              const s = getComputedStyle(list);
              if (s.columnCount === "auto" && s.columnWidth === "auto") continue;
              for (const li of list.querySelectorAll(":scope > li")) {
                const t = getComputedStyle(li);
                out.push([list.className || list.parentElement.id, t.listStylePosition, t.listStyleType]);
              }
            }
            return out;
            """
        )
        checked += len(found)
        outside = [f for f in found if f[1] == "outside" and f[2] != "none"]
        assert not outside, f"{page.name}: bullets outside their items in a list in columns: {outside[:3]}"
    assert checked > 10, "the pages have lists in columns to check"
