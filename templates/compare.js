// Any two releases compared in the page: their rules paired by lineage (as the history pages follow a rule, one
// release to the next), each pair's words diffed with diff-match-patch as rulediff diffs them (words and marks
// as tokens, semantic cleanup, no deadline), after the typography rulediff ignores is made plain.
(function () {
  "use strict";
  var CR = window.RULEDIFF_CR;
  var form = document.getElementById("pick");
  var out = document.getElementById("result");
  var status = document.getElementById("status");

  var TOKEN = /[1-9]\d{2}\.\d{1,3}[a-z]{0,2}(?:[\u2013-](?:\d{1,3}[a-z]{0,2}|[a-z]{1,2})\b)?|[\p{L}\p{N}_]+(?:['\u2019][\p{L}\p{N}_]+)*|\s+|[^\p{L}\p{N}_\s]/gu;
  var NUMBER = /^[1-9]\d{2}(?:\.\d{1,3}[a-z]{0,2})?$/;

  // The word diff rulediff makes (words/diff.py, before it mutes what is no edit): [[op, text], ...].
  function wordDiff(a, b) {
    if (!a || !b) { return b ? [[1, b]] : a ? [[-1, a]] : []; }
    var ta = a.match(TOKEN) || [], tb = b.match(TOKEN) || [], code = {}, n = 0;
    function enc(tokens) {
      return tokens.map(function (t) {
        if (!Object.prototype.hasOwnProperty.call(code, t)) { code[t] = String.fromCharCode(0xe000 + n); n += 1; }
        return code[t];
      }).join("");
    }
    var ea = enc(ta), eb = enc(tb);
    if (n > 6400) { return [[-1, a], [1, b]]; }  // more distinct words than one character each can spell
    var dmp = new diff_match_patch();
    dmp.Diff_Timeout = 0;
    var diffs = dmp.diff_main(ea, eb, false);
    dmp.diff_cleanupSemantic(diffs);
    var i = 0, j = 0;
    return diffs.map(function (d) {
      var len = d[1].length, text;
      if (d[0] === 1) { text = tb.slice(j, j + len).join(""); j += len; } else {
        text = ta.slice(i, i + len).join("");
        i += len;
        if (d[0] === 0) { j += len; }
      }
      return [d[0], text];
    });
  }

  // Typography compared away, as rulediff's text.normalize does for the most of it.
  function plain(s) {
    return s.replace(/[\u2018\u2019\u201a\u201b\u2032\u00b4`]/g, "'").replace(/[\u201c\u201d\u201e\u201f\u2033]/g, "\"")
      .replace(/[\u200b\ufeff\u00ad\u2122\u00ae]/g, "").replace(/\u2026/g, "...")
      .replace(/[\u2212\u2010-\u2015]/g, "-").replace(/\u00c6/g, "Ae").replace(/\u00e6/g, "ae")
      .replace(/\((?:tm|TM|Tm|R|r)\)/g, "").replace(/(^|[^\w_])_([^_\n]+?)_(?![\w_])/g, "$1$2")
      .replace(/<((?:https?:\/\/)?[\w.-]+\.(?:com|net|org)\b[^<>\s]*)>/g, "$1")
      .split("\n").map(function (line) { return line.replace(/\s+/g, " ").trim().replace(/ ?-+ ?/g, "-"); })
      .join("\n").replace(/ ([.,;:)])/g, "$1");
  }

  // Pairs by lineage: [old index, new index], an unpaired side -1.
  function pairs(a, b) {
    var where = {}, used = {}, out = [], k;
    for (k = 0; k < b.l.length; k += 1) { if (b.l[k]) { (where[b.l[k]] = where[b.l[k]] || []).push(k); } }
    for (k = 0; k < a.l.length; k += 1) {
      var at = a.l[k] ? where[a.l[k]] : null, j = at && at.length ? at.shift() : -1;
      if (j >= 0) { used[j] = true; }
      out.push([k, j]);
    }
    for (k = 0; k < b.l.length; k += 1) { if (!used[k]) { out.push([-1, k]); } }
    return out;
  }

  // A rule the newer release added by splitting one of the older (the lineage of the new part starts with a split
  // from the old rule's), and one the older release had that was merged into a rule of the newer: [kind, index].
  function edges(ps, a, b) {
    var inA = {}, inB = {}, from = {}, into = {};
    a.l.forEach(function (l, k) { if (l && !(l in inA)) { inA[l] = k; } });
    b.l.forEach(function (l, k) { if (l && !(l in inB)) { inB[l] = k; } });
    CR.edges().forEach(function (e) { if (e[2] === "split") { from[e[1]] = e[0]; } else { into[e[0]] = e[1]; } });
    ps.forEach(function (p) {
      if (p[0] < 0 && from[b.l[p[1]]] in inA) { p.push("split", inA[from[b.l[p[1]]]]); }
      if (p[1] < 0 && into[a.l[p[0]]] in inB) { p.push("merged", inB[into[a.l[p[0]]]]); }
    });
    return ps;
  }

  function refsOnly(diff, map) {
    var gone = [], came = [], ok = true;
    function close() {
      if (!gone.length && !came.length) { return; }
      var x = gone.join("").trim(), y = came.join("").trim();
      if (!(NUMBER.test(x) && NUMBER.test(y) && map[x] === y)) { ok = false; }
      gone = []; came = [];
    }
    diff.forEach(function (d) { if (d[0] === 0) { close(); } else { (d[0] < 0 ? gone : came).push(d[1]); } });
    close();
    return ok;
  }

  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) { e.className = cls; }
    if (text !== undefined) { e.textContent = text; }
    return e;
  }

  function link(rel, number, nth) {
    var a = el("a", "num", number || "(unnumbered)");
    if (number) { a.href = "cr/" + rel.s + "/" + number.charAt(0) + ".html#R" + number.replace(".", "") + (nth > 1 ? "-" + nth : ""); }
    return a;
  }

  function nths(rules) {
    var seen = {};
    return rules.n.map(function (n) { seen[n] = (seen[n] || 0) + 1; return seen[n]; });
  }

  // Every pair as the page classes it: {kind, old, new, diff}; what the browser tests read too.
  function compare(ra, rb) {
    var a = CR.rules(ra.s), b = CR.rules(rb.s), na = nths(a), nb = nths(b), map = {}, rows = [];
    var ps = edges(pairs(a, b), a, b);
    ps.forEach(function (p) { if (p[0] >= 0 && p[1] >= 0 && na[p[0]] === 1) { map[a.n[p[0]]] = b.n[p[1]]; } });
    ps.forEach(function (p) {
      var row = { old: p[0] >= 0 ? [a.n[p[0]], na[p[0]]] : null, new: p[1] >= 0 ? [b.n[p[1]], nb[p[1]]] : null };
      if (p[2] === "split") { row.from = [a.n[p[3]], na[p[3]]]; }
      if (p[2] === "merged") { row.into = [b.n[p[3]], nb[p[3]]]; }
      if (p[1] < 0) {
        row.kind = row.into ? "merged" : "removed";
        row.diff = [[-1, plain(CR.text(a.t[p[0]]))]];
      } else if (p[0] < 0) {
        row.kind = row.from ? "split" : "added";
        row.diff = [[1, plain(CR.text(b.t[p[1]]))]];
      } else {
        var moved = a.n[p[0]] !== b.n[p[1]], x = a.t[p[0]], y = b.t[p[1]];
        var px = x === y ? null : plain(CR.text(x)), py = x === y ? null : plain(CR.text(y));
        if (x === y || px === py) {
          row.kind = x === y ? (moved ? "renumbered" : "unchanged") : (moved ? "renumbered" : "typography");
        } else {
          row.diff = wordDiff(px, py);
          row.kind = refsOnly(row.diff, map) ? (moved ? "renumbered" : "references") : "edited";
        }
      }
      rows.push(row);
    });
    return rows;
  }

  var KINDS = [
    ["edited", "Edited", true], ["added", "Added", true], ["removed", "Removed", true],
    ["split", "Split off an older rule", true], ["merged", "Merged into a newer rule", true],
    ["renumbered", "Renumbered (words unchanged, or only following the renumbering)", false],
    ["references", "Only references following the renumbering", false],
    ["typography", "Only typography", false]
  ];

  function show(ra, rb, rows) {
    var counts = {}, lists = {};
    rows.forEach(function (r) { counts[r.kind] = (counts[r.kind] || 0) + 1; });
    var box = el("div"), head = el("h2", "", ra.l + " \u2192 " + rb.l);
    box.appendChild(head);
    var sum = el("ul", "totals");
    KINDS.concat([["unchanged", "Unchanged"]]).forEach(function (k) {
      var li = el("li");
      li.appendChild(el("span", "count", String(counts[k[0]] || 0)));
      li.appendChild(document.createTextNode(" " + k[1].split(" (")[0].toLowerCase()));
      sum.appendChild(li);
    });
    box.appendChild(sum);
    KINDS.forEach(function (k) {
      if (!counts[k[0]]) { return; }
      var sec = el(k[2] ? "section" : "details", "group");
      sec.appendChild(el(k[2] ? "h3" : "summary", "group-label", k[1] + " (" + counts[k[0]] + ")"));
      lists[k[0]] = sec;
      box.appendChild(sec);
    });
    rows.forEach(function (r) {
      var sec = lists[r.kind];
      if (!sec) { return; }
      var card = el("article", "change kind-" + r.kind);
      var top = el("header");
      if (r.old) { top.appendChild(link(ra, r.old[0], r.old[1])); }
      if (r.old && r.new) { top.appendChild(document.createTextNode(" \u2192 ")); }
      if (r.new) { top.appendChild(link(rb, r.new[0], r.new[1])); }
      if (r.from) { top.appendChild(document.createTextNode(", split off ")); top.appendChild(link(ra, r.from[0], r.from[1])); }
      if (r.into) { top.appendChild(document.createTextNode(", merged into ")); top.appendChild(link(rb, r.into[0], r.into[1])); }
      card.setAttribute("data-old", r.old ? r.old[0] : "");
      card.setAttribute("data-new", r.new ? r.new[0] : "");
      card.appendChild(top);
      if (r.diff) {
        var p = el("p", "diff");
        r.diff.forEach(function (d) { p.appendChild(d[0] === 0 ? document.createTextNode(d[1]) : el(d[0] < 0 ? "del" : "ins", "", d[1])); });
        card.appendChild(p);
      }
      sec.appendChild(card);
    });
    out.textContent = "";
    out.appendChild(box);
  }

  function run() {
    var rows = CR.list(), a = form.elements.old.value, b = form.elements.new.value;
    var ra = rows[CR.at(a)], rb = rows[CR.at(b)];
    if (!ra || !rb) { return; }
    status.textContent = "reading " + ra.l + " and " + rb.l + "\u2026";
    CR.need("cr/", [ra.s, rb.s], true, function (err) {
      if (err) { status.textContent = err.message; return; }
      var result = compare(ra, rb);
      window.RULEDIFF_COMPARED = { old: ra.s, new: rb.s, rows: result };
      show(ra, rb, result);
      status.textContent = "";
      history.replaceState(null, "", "#" + ra.s + ".." + rb.s);
    });
  }

  window.RULEDIFF_WORDDIFF = wordDiff;
  form.addEventListener("submit", function (e) { e.preventDefault(); run(); });
  // The address names what is compared (compare.html#2011-02-04..2026-01-16): opened, or changed, it compares that.
  function asked() {
    var m = /^#(.+)\.\.(.+)$/.exec(decodeURIComponent(location.hash));
    if (m && CR.at(m[1]) >= 0 && CR.at(m[2]) >= 0) {
      form.elements.old.value = m[1];
      form.elements.new.value = m[2];
    }
  }
  window.addEventListener("hashchange", function () { asked(); run(); });
  asked();
  run();
})();
