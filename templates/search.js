// Offline phrase search over the prebuilt index: rule texts and glossary entries that contain it, first and
// last seen, each leading to its history page.
(function () {
  "use strict";
  var data = window.RULEDIFF_INDEX || { versions: [], entries: [] };
  var input = document.querySelector("#search input[name=q]");
  var out = document.getElementById("results");
  var status = document.getElementById("status");
  // Texts and queries compared alike: case, quote styles and spacing aside, every dash or hyphen a space
  // ("actions\u2014untapping", "turn-based" and "turn based" are found by either spelling).
  function fold(s) {
    return s.toLowerCase().replace(/[\u2018\u2019`]/g, "'").replace(/[\u201c\u201d]/g, '"')
      .replace(/[-\u2010-\u2015\u2212]+/g, " ").replace(/\s+/g, " ").trim();
  }
  var lower = data.entries.map(function (e) { return fold((e[5] === "g" ? e[1] + " " : "") + e[0]); });
  function run() {
    var q = fold(input.value);
    out.textContent = "";
    if (q.length < 2) { status.textContent = ""; return; }
    var hits = 0;
    for (var i = 0; i < lower.length && hits < 200; i += 1) {
      if (lower[i].indexOf(q) < 0) { continue; }
      var e = data.entries[i];
      var li = document.createElement("li");
      li.className = e[5] === "g" ? "hit glossary" : "hit rule";
      var a = document.createElement("a");
      a.href = e[2];
      a.textContent = e[1] || "(unnumbered)";
      var span = document.createElement("span");
      span.className = "counts";
      span.textContent = (e[5] === "g" ? " glossary, " : " ") + data.versions[e[3]] +
        (e[4] !== e[3] ? " \u2013 " + data.versions[e[4]] : "");
      var p = document.createElement("p");
      p.textContent = e[0];
      li.appendChild(a);
      li.appendChild(span);
      li.appendChild(p);
      out.appendChild(li);
      hits += 1;
    }
    status.textContent = hits + (hits === 200 ? "+" : "") + " texts";
  }
  input.addEventListener("input", run);
  if (location.hash.length > 1) { input.value = decodeURIComponent(location.hash.slice(1)); run(); }
})();
