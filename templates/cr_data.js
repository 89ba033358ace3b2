// The whole-rules data as script files (they load from file:// with no server): cr/releases.js names every
// release, cr/<slug>/nodes.js its rules in order (number, lineage, text id), cr/<slug>/texts.js texts by id
// (every text of a keyframe release, else those the release before did not print). Each file calls this registry; a page asks for what it needs and is called back once it is read.
var RULEDIFF_CR = (function () {
  "use strict";
  var list = [], where = {}, nodes = {}, texts = [], files = {}, waiting = [], known = false, links = [];

  function load(src, done) {
    var got = files[src];
    if (got === true) { done(null); return; }
    if (got) { got.push(done); return; }
    files[src] = [done];
    var s = document.createElement("script");
    s.src = src;
    s.onload = function () { var wait = files[src]; files[src] = true; wait.forEach(function (f) { f(null); }); };
    s.onerror = function () {
      var wait = files[src];
      delete files[src];
      wait.forEach(function (f) { f(new Error("cannot read " + src)); });
    };
    document.head.appendChild(s);
  }

  function all(srcs, done) {
    var left = srcs.length, failed = null;
    if (!left) { done(null); return; }
    srcs.forEach(function (src) {
      load(src, function (err) {
        failed = failed || err;
        left -= 1;
        if (!left) { done(failed); }
      });
    });
  }

  // The texts.js files the releases read: each names those of its keyframe and of the releases since.
  function textFiles(base, slugs) {
    var want = {};
    slugs.forEach(function (slug) { list[where[slug]].t.forEach(function (k) { want[list[k].s] = true; }); });
    return Object.keys(want).map(function (s) { return base + s + "/texts.js"; });
  }

  return {
    releases: function (rows, edges) {
      list = rows;
      links = edges || [];
      rows.forEach(function (r, k) { where[r.s] = k; });
      known = true;
      waiting.splice(0).forEach(function (f) { f(); });
    },
    // f() once cr/releases.js is read (a page loads this script before it)
    ready: function (f) { if (known) { f(); } else { waiting.push(f); } },
    nodes: function (slug, data) { nodes[slug] = data; },
    texts: function (ids, rows) { ids.forEach(function (id, k) { texts[id] = rows[k]; }); },
    list: function () { return list; },
    // [from lineage, to lineage, "split" or "merged"]: where a lineage starts off another, or ends in another
    edges: function () { return links; },
    at: function (slug) { return Object.prototype.hasOwnProperty.call(where, slug) ? where[slug] : -1; },
    rules: function (slug) { return nodes[slug]; },
    text: function (id) { return texts[id]; },
    // done(err) once the rules of every release in ``slugs`` are read (and their texts, with ``withTexts``)
    need: function (base, slugs, withTexts, done) {
      all(slugs.map(function (s) { return base + s + "/nodes.js"; }), function (err) {
        if (err || !withTexts) { done(err); return; }
        all(textFiles(base, slugs), done);
      });
    }
  };
})();
