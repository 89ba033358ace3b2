// Filters by kind and section, next/previous change keys, side-by-side toggles. No network, no state.
(function () {
  "use strict";
  var form = document.getElementById("filters");
  var cards = Array.prototype.slice.call(document.querySelectorAll("main section.rules article.change"));
  var shown = document.getElementById("shown");

  function apply() {
    var kinds = {};
    Array.prototype.forEach.call(form.querySelectorAll("input[name=kind]"), function (box) { kinds[box.value] = box.checked; });
    var section = form.querySelector("select[name=section]").value;
    var visible = 0;
    cards.forEach(function (card) {
      var ok = kinds[card.dataset.kind] !== false && (!section || card.dataset.section === section);
      card.hidden = !ok;
      if (ok) { visible += 1; }
    });
    // A section with none of its cards left (the new rules gather cards of every section) hides too.
    Array.prototype.forEach.call(document.querySelectorAll("main section.rules"), function (sec) {
      var left = sec.querySelectorAll("article.change:not([hidden])").length;
      sec.hidden = section !== "" && left === 0;
    });
    shown.textContent = visible + " of " + cards.length + " changes shown";
  }

  function step(delta) {
    var visible = cards.filter(function (c) { return !c.hidden; });
    if (!visible.length) { return; }
    var at = visible.indexOf(document.activeElement);
    var next = visible[Math.max(0, Math.min(visible.length - 1, at + delta))];
    if (at < 0) { next = visible[delta > 0 ? 0 : visible.length - 1]; }
    next.focus();
    next.scrollIntoView({ block: "start" });
    if (history.replaceState) { history.replaceState(null, "", "#" + next.id); }
  }

  form.addEventListener("change", apply);
  document.addEventListener("keydown", function (e) {
    if (e.target && /INPUT|SELECT|TEXTAREA/.test(e.target.tagName)) { return; }
    if (e.key === "j" || e.key === "n") { step(1); }
    if (e.key === "k" || e.key === "p") { step(-1); }
  });
  Array.prototype.forEach.call(document.querySelectorAll("button.toggle"), function (btn) {
    btn.addEventListener("click", function () {
      var card = btn.closest("article");
      var on = !card.classList.contains("sbs");
      card.classList.toggle("sbs", on);
      btn.textContent = on ? "one above the other" : "side by side";
    });
  });
  // Printing shows everything: open the collapsed lists and the side-by-side views, then restore.
  var opened = [];
  window.addEventListener("beforeprint", function () {
    Array.prototype.forEach.call(document.querySelectorAll("details:not([open])"), function (d) {
      d.open = true;
      opened.push(d);
    });
  });
  window.addEventListener("afterprint", function () {
    opened.forEach(function (d) { d.open = false; });
    opened = [];
  });
  apply();
})();
