// A rule's history page: the date form goes to the step that stood on that day (the last step that began on
// or before it; a release is named by its date, a re-release by the date it took effect).
(function () {
  "use strict";
  var form = document.getElementById("jump");
  if (!form) { return; }
  form.addEventListener("submit", function (e) {
    e.preventDefault();
    var day = form.elements.day.value, pick = null;
    var steps = document.querySelectorAll("ol.timeline li.step");
    for (var k = 0; k < steps.length; k += 1) {
      var when = steps[k].querySelector(".when strong");
      if (when && when.textContent.slice(0, 10) <= day) { pick = steps[k]; }
    }
    pick = pick || steps[0];
    if (pick) { location.hash = pick.id; }
  });
})();
