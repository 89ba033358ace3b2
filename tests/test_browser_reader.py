"""The whole-rules pages, history dates and the compare page in a real headless Chromium, from file:// URLs: open
cr/latest/, follow a reference, switch release on a rule (702.15 of 2014 is 702.13 in 2011), jump to a date on a
history page, compare two releases; no page shifts its layout, and each page's weight is reported (and kept in
tests/artifacts/reader-weights.json). With ../shared, the compare page's pairs are held to `rulediff diff`."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlparse

import pytest
from selenium import webdriver
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select, WebDriverWait

from rulediff.archive import Archive
from rulediff.site.build import build_site

from .conftest import FIXTURES, OfficialSite
from .test_browser import ARTIFACTS, _screenshot, browser  # noqa: F401  (the module's browser fixture)

MANA_BURN = sorted((FIXTURES / "history" / "mana-burn-obsolete-2009").glob("cr-*.txt"))
WEIGHTS: dict[str, int] = {}


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    root = tmp_path_factory.mktemp("reader")
    with Archive.open(root / "a.sqlite") as arc:
        for f in MANA_BURN:
            arc.add_file(f)
        build_site(arc, root / "site")
    yield root / "site"
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    (ARTIFACTS / "reader-weights.json").write_text(json.dumps(WEIGHTS, indent=1, sort_keys=True) + "\n", "utf-8")


def _loaded(b: webdriver.Chrome) -> None:
    WebDriverWait(b, 30).until(lambda d: d.execute_script("return document.readyState") == "complete")


def _settled(b: webdriver.Chrome, name: str) -> None:
    """The page in the browser shifted nothing (every layout-shift entry the browser kept for it, after its
    scripts ran), and its weight: the bytes of the page and of everything it loaded, from the disk."""
    _loaded(b)
    shifts = b.execute_async_script(
        """var done = arguments[arguments.length - 1], seen = [];
        new PerformanceObserver(function (list) { seen = seen.concat(list.getEntries()); })
          .observe({type: "layout-shift", buffered: true});
        setTimeout(function () { done(seen.map(function (e) { return e.value; })); }, 300);"""
    )
    assert shifts == [], f"{name}: layout shifts {shifts}"
    urls = b.execute_script(  # (a file:// page's resource timing leaves its files out: they are read off the page)
        "return [location.href].concat(Array.from(document.querySelectorAll('link[rel=stylesheet], script[src]'))"
        ".map(function (e) { return e.href || e.src; }))"
    )
    files = {Path(unquote(urlparse(u).path)) for u in urls if u.startswith("file:")}
    WEIGHTS[name] = sum(f.stat().st_size for f in files if f.is_file())
    print(f"{name}: {WEIGHTS[name]:,} bytes ({len(files)} files), no layout shift")


def test_read_follow_switch_and_land_on_the_earlier_number(browser: webdriver.Chrome, site: Path) -> None:  # noqa: F811
    browser.get((site / "cr" / "latest" / "index.html").as_uri())
    _loaded(browser)
    assert browser.current_url.endswith("/cr/2014-05-01/index.html"), "latest is the newest release"
    assert "2014-05-01" in browser.find_element(By.TAG_NAME, "h1").text
    _settled(browser, "cr/2014-05-01/index.html")

    # the contents lead to a section; a reference leads to the rule it names in this release
    browser.find_element(By.PARTIAL_LINK_TEXT, "100. General").click()
    _settled(browser, "cr/2014-05-01/1.html")
    ref = browser.find_element(By.CSS_SELECTOR, "#R1004a a[href='#R1002a']")
    ref.click()
    assert browser.current_url.endswith("/cr/2014-05-01/1.html#R1002a")
    assert browser.find_element(By.ID, "R1002a").is_displayed()
    assert browser.execute_script("return document.querySelector(':target').id") == "R1002a"

    # a glossary term leads to its entry, whose "See rule 702.15" leads to Lifelink on its own page
    browser.get((site / "cr" / "2014-05-01" / "7.html").as_uri())
    browser.find_element(By.CSS_SELECTOR, "#R70215a a.g").click()
    assert browser.current_url.endswith("/cr/2014-05-01/glossary.html#lifelink")
    _settled(browser, "cr/2014-05-01/glossary.html")
    browser.find_element(By.CSS_SELECTOR, "#lifelink + dd a").click()
    assert browser.current_url.endswith("/cr/2014-05-01/7.html#R70215")

    # the same rule in the releases before: 702.15 until 2014-02-01, 702.13 in 2011, 502.68 before the rewrite
    landed = []
    for _ in range(4):
        before = browser.current_url
        browser.find_element(By.ID, "earlier").click()
        WebDriverWait(browser, 10).until(lambda d, before=before: d.current_url != before)
        _loaded(browser)
        landed.append(browser.current_url.split("/cr/", 1)[1])
    assert landed == [
        "2014-02-01/7.html#R70215",
        "2011-02-04/7.html#R70213",
        "2009-07-11/7.html#R70213",
        "2009-05-01/5.html#R50268",
    ]
    assert "Lifelink" in browser.find_element(By.ID, "R50268").text
    _settled(browser, "cr/2009-05-01/5.html")
    browser.find_element(By.ID, "later").click()
    WebDriverWait(browser, 10).until(lambda d: "/2009-07-11/" in d.current_url)
    assert browser.current_url.endswith("/cr/2009-07-11/7.html#R70213")
    # the oldest release has nothing earlier
    browser.get((site / "cr" / "2009-05-01" / "index.html").as_uri())
    assert browser.find_element(By.ID, "earlier").get_attribute("aria-disabled") == "true"
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    _screenshot(browser, (site / "cr" / "2011-02-04" / "7.html").as_uri() + "#R70213", ARTIFACTS / "reader-rule.png")


def test_a_rule_with_no_counterpart_says_so_and_stays(browser: webdriver.Chrome, site: Path) -> None:  # noqa: F811
    """100.3 of 2009-07-11 continues no rule of 2009-05-01, which prints another rule as 100.3: the page says so
    instead of opening that other rule."""
    browser.get((site / "cr" / "2009-07-11" / "1.html").as_uri() + "#R1003")
    _loaded(browser)
    here = browser.current_url
    browser.find_element(By.ID, "earlier").click()
    say = browser.find_element(By.ID, "say")
    WebDriverWait(browser, 20).until(lambda d: say.is_displayed() or d.current_url != here, "no notice, no move")
    assert "100.3 has no counterpart in 2009-05-01" in say.text
    assert browser.current_url == here
    _settled(browser, "cr/2009-07-11/1.html (with the notice)")


def test_a_history_page_jumps_to_a_date(browser: webdriver.Chrome, site: Path) -> None:  # noqa: F811
    browser.get((site / "rules" / "702.15.html").as_uri())
    _settled(browser, "rules/702.15.html")
    box = browser.find_element(By.CSS_SELECTOR, "#jump input[name=day]")
    browser.execute_script("arguments[0].value = '2012-06-01'", box)
    browser.find_element(By.CSS_SELECTOR, "#jump button").click()
    assert browser.current_url.endswith("/rules/702.15.html#s3")  # the step of 2011-02-04, in force then
    assert browser.find_element(By.ID, "s3").is_displayed()
    browser.execute_script("arguments[0].value = '2009-06-01'", box)
    browser.find_element(By.CSS_SELECTOR, "#jump button").click()
    assert browser.current_url.endswith("#s1")
    browser.find_element(By.LINK_TEXT, "2014-02-01").click()
    assert browser.current_url.endswith("#s4")


def test_compare_two_releases(browser: webdriver.Chrome, site: Path) -> None:  # noqa: F811
    browser.get((site / "compare.html").as_uri())
    WebDriverWait(browser, 20).until(lambda d: d.execute_script("return !!window.RULEDIFF_COMPARED"))
    _settled(browser, "compare.html (2014-02-01 -> 2014-05-01)")
    Select(browser.find_element(By.NAME, "old")).select_by_visible_text("2011-02-04")
    Select(browser.find_element(By.NAME, "new")).select_by_visible_text("2014-05-01")
    browser.find_element(By.CSS_SELECTOR, "#pick button").click()
    WebDriverWait(browser, 20).until(lambda d: d.execute_script("return window.RULEDIFF_COMPARED.old") == "2011-02-04")
    assert browser.current_url.endswith("compare.html#2011-02-04..2014-05-01")
    lifelink = browser.find_element(By.CSS_SELECTOR, "article[data-old='702.13'][data-new='702.15']")
    assert "kind-renumbered" in lifelink.get_attribute("class")
    edited = browser.find_element(By.CSS_SELECTOR, "article.kind-edited[data-old='100.4a']")
    assert edited.find_element(By.TAG_NAME, "ins").text and edited.find_element(By.TAG_NAME, "del").text
    assert edited.find_element(By.CSS_SELECTOR, "a.num").get_attribute("href").endswith("/cr/2011-02-04/1.html#R1004a")
    assert "assumption" in browser.find_element(By.ID, "top").text and "rulediff diff OLD NEW" in browser.page_source
    # the address says what is compared: opened again, it compares the same releases
    browser.get((site / "compare.html").as_uri() + "#2009-05-01..2011-02-04")
    WebDriverWait(browser, 20).until(lambda d: d.execute_script("return window.RULEDIFF_COMPARED.old") == "2009-05-01")
    rows = browser.execute_script("return window.RULEDIFF_COMPARED.rows")
    assert {"old": ["502.68", 1], "new": ["702.13", 1]} in [{"old": r["old"], "new": r["new"]} for r in rows]
    _settled(browser, "compare.html (2009-05-01 -> 2011-02-04, taller than the window)")
    assert browser.execute_script("return document.documentElement.scrollHeight > innerHeight")
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    _screenshot(browser, browser.current_url, ARTIFACTS / "compare.png")


def test_the_pages_word_diff_is_rulediffs(browser: webdriver.Chrome, site: Path) -> None:  # noqa: F811
    """The compare page diffs words as rulediff does: on every pair of texts a real alignment edits, the
    JavaScript port answers what the word diff answers (before rulediff mutes what is no edit)."""
    from rulediff import align, parse
    from rulediff.words.diff import _raw_diff

    from .conftest import CORPUS

    al = align(parse(str(CORPUS / "003_8b50984e948ebee1.txt")), parse(str(CORPUS / "000_67b17b6c7d536d12.txt")))
    pairs = [
        (al.old.rules[c.old[0]].text, al.new.rules[c.new[0]].text)
        for c in al.changes
        if len(c.old) == 1 and len(c.new) == 1 and al.old.rules[c.old[0]].text != al.new.rules[c.new[0]].text
    ]
    pairs += [("", "new text"), ("gone", ""), ("Lifelink is a static ability.", "Lifelink is a static ability")]
    assert len(pairs) > 40
    browser.get((site / "compare.html").as_uri())
    got = browser.execute_script(
        "return arguments[0].map(function (p) { return window.RULEDIFF_WORDDIFF(p[0], p[1]); })", pairs
    )
    want: list[Any] = [[[int(p.op), p.text] for p in _raw_diff(a, b)] for a, b in pairs]
    assert got == want


def test_compare_pairs_agree_with_the_direct_alignment(
    browser: webdriver.Chrome,  # noqa: F811
    official_site: OfficialSite,
) -> None:
    """On five pairs spanning 2009 -> 2026 (releases some three and a half years apart, from the 2009 rewrite to
    the newest), the compare page (pairs by lineage, with its splits and merges) pairs at least 99% of the rules
    of both releases as `rulediff diff OLD NEW` (the direct alignment) does; what differs is printed."""
    from rulediff.render.links import slug

    pairs = [
        ("2009-07-11", "2013-02-01"),
        ("2013-02-01", "2016-08-26"),
        ("2016-08-26", "2020-01-24"),
        ("2020-01-24", "2023-06-16"),
        ("2023-06-16", "2026-08-07"),
    ]
    with Archive.open(official_site.archive) as arc:
        for old, new in pairs:
            a, b = arc.versions.resolve(old), arc.versions.resolve(new)
            browser.get((official_site.site / "compare.html").as_uri() + f"#{slug(a.label)}..{slug(b.label)}")
            WebDriverWait(browser, 60).until(
                lambda d, a=a: d.execute_script("return (window.RULEDIFF_COMPARED || {}).old") == slug(a.label)
            )
            rows = browser.execute_script("return window.RULEDIFF_COMPARED.rows")
            al = arc.alignments.get(f"#{a.id}", f"#{b.id}")
            agree, differ = _agreement(rows, al)
            share = agree / (agree + len(differ))
            said = f"{a.label} -> {b.label}: {agree} of {agree + len(differ)} rules pair alike ({share:.2%})"
            print(f"{said}; the others: {differ}")
            assert share >= 0.99, (a.label, b.label, share, differ[:40])


def _agreement(rows: list[dict[str, Any]], al: Any) -> tuple[int, list[str]]:
    """How many rules of either release the page pairs as the alignment does (an old rule with the same new
    number, or none on both sides), and the others as "old -> page / alignment"."""
    direct: dict[str, str | None] = {}
    for c in al.changes:
        olds = [str(al.old.rules[i].number) for i in c.old if al.old.rules[i].number]
        news = [str(al.new.rules[j].number) for j in c.new if al.new.rules[j].number]
        for o in olds:
            direct.setdefault(o, news[0] if len(news) == 1 else ("|".join(news) or None))
        for n in news:
            direct.setdefault("new:" + n, olds[0] if len(olds) == 1 else ("|".join(olds) or None))
    agree, differ = 0, []
    for r in rows:
        old = r["old"][0] if r["old"] and r["old"][1] == 1 else None
        new = r["new"][0] if r["new"] and r["new"][1] == 1 else None
        into = r["into"][0] if r.get("into") else new  # merged into a rule of the newer release
        split = r["from"][0] if r.get("from") else old  # split off a rule of the older release
        for side, mine, theirs in (
            (old, into, direct.get(old or "")),
            ("new:" + new if new else None, split, direct.get("new:" + (new or ""))),
        ):
            if not side:
                continue
            if mine == theirs or (theirs and mine and mine in theirs.split("|")):
                agree += 1
            else:
                differ.append(f"{side} -> {mine} / {theirs}")
    return agree, differ
