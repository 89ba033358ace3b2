// The whole-rules pages: "earlier" and "later" open the rule in view in the release before or after, followed
// by its lineage as the history pages follow it (702.15 Lifelink of 2014 is 702.13 in 2011); an address naming a
// rule on a release's index goes to the rule's page; cr/index.html opens the rules in force on a day.
window.RULEDIFF_CR.ready(function () {
  "use strict";
  var CR = window.RULEDIFF_CR;
  var body = document.body;
  var slug = body.getAttribute("data-release");
  var page = body.getAttribute("data-page");
  var say = document.getElementById("say");

  function tell(html) {
    if (!say) { return; }
    say.innerHTML = html;
    say.hidden = false;
  }

  // "R70215a-2" -> ["702.15a", 2]; null for an id that names no rule
  function parse(id) {
    var m = /^R(\d+)([a-z]*)(?:-(\d+))?$/.exec(id || "");
    if (!m || m[1].length === 2) { return null; }
    var d = m[1], number = d.length <= 3 ? d : d.slice(0, 3) + "." + d.slice(3);
    if (m[2] && d.length <= 3) { return null; }
    return [number + m[2], m[3] ? parseInt(m[3], 10) : 1];
  }

  function idOf(number, nth) { return "R" + number.replace(".", "") + (nth > 1 ? "-" + nth : ""); }

  function pageOf(number) { return number ? number.charAt(0) + ".html" : "unnumbered.html"; }

  // An address naming a rule lands on the release's index (cr/latest/#R70215a, bots' links): go to its page.
  if (slug && page === "index.html" && location.hash.length > 1) {
    var named = decodeURIComponent(location.hash.slice(1));
    var asked = parse(named.charAt(0) === "r" ? idOf(named.slice(1).split("-")[0], 1) : named);
    if (asked && !document.getElementById(named)) { location.replace(pageOf(asked[0]) + location.hash); }
  }

  // The rules in force on a day (cr/index.html).
  var on = document.getElementById("on");
  if (on) {
    on.addEventListener("submit", function (e) {
      e.preventDefault();
      var day = on.elements.day.value, rows = CR.list(), pick = null;
      rows.forEach(function (r) { if (r.d <= day) { pick = r; } });
      if (pick) { location.href = pick.s + "/index.html"; } else { tell("No archived release was in force on " + day + "."); }
    });
  }
  if (!slug) { return; }

  var rows = CR.list(), here = CR.at(slug);

  // Which rule the reader is at: the one the address names, else the first one in view under the bar.
  function current() {
    var id = decodeURIComponent(location.hash.slice(1)), el = id && document.getElementById(id);
    if (el && el.tagName === "A" && el.parentNode.id) { el = el.parentNode; }
    if (el && (parse(el.id) || el.tagName === "DT" || el.id.slice(0, 2) === "u-")) { return el.id; }
    var bar = document.getElementById("bar").getBoundingClientRect().bottom;
    var all = document.querySelectorAll("main [id^='R'], main [id^='u-'], main dt[id]");
    for (var k = 0; k < all.length; k += 1) {
      if (all[k].getBoundingClientRect().bottom > bar + 4) { return all[k].id; }
    }
    return null;
  }

  function follow(other, id) {
    var rule = parse(id);
    if (!rule) { location.href = "../" + other.s + "/" + page + (id ? "#" + id : ""); return; }
    CR.need("../", [slug, other.s], false, function (err) {
      if (err) { location.href = "../" + other.s + "/" + pageOf(rule[0]) + "#" + id; return; }
      var mine = CR.rules(slug), theirs = CR.rules(other.s), seen = 0, lin = 0, k, j;
      for (k = 0; k < mine.n.length; k += 1) {
        if (mine.n[k] === rule[0]) { seen += 1; if (seen === rule[1]) { lin = mine.l[k]; break; } }
      }
      for (j = 0; lin && j < theirs.l.length; j += 1) { if (theirs.l[j] === lin) { break; } }
      if (!lin || j >= theirs.l.length) {
        tell(rule[0] + " has no counterpart in " + other.l + ": no rule there continues it. " +
          "<a href=\"../" + other.s + "/index.html\">Open " + other.l + "</a>");
        return;
      }
      var number = theirs.n[j], nth = 0;
      for (k = 0; k <= j; k += 1) { if (theirs.n[k] === number) { nth += 1; } }
      location.href = "../" + other.s + "/" + pageOf(number) + "#" + idOf(number, nth);
    });
  }

  [["earlier", here - 1], ["later", here + 1]].forEach(function (pair) {
    var a = document.getElementById(pair[0]), other = here >= 0 ? rows[pair[1]] : null;
    if (!a) { return; }
    if (!other) { a.setAttribute("aria-disabled", "true"); a.removeAttribute("href"); return; }
    var has = page.charAt(0) >= "1" && page.charAt(0) <= "9" ? other.p.indexOf(page.charAt(0)) >= 0 : true;
    a.href = "../" + other.s + "/" + (has ? page : "index.html");
    a.title = other.l;
    a.addEventListener("click", function (e) {
      e.preventDefault();
      var id = current();
      if (id && id.slice(0, 2) === "u-") { location.href = "../" + other.s + "/index.html"; return; }
      if (id && !parse(id)) { location.href = "../" + other.s + "/glossary.html#" + id; return; }
      if (!id) { location.href = a.href; return; }
      follow(other, id);
    });
  });
});
