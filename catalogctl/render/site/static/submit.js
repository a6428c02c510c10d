// The submission file for the benchmark and seed set picked (the page is complete without it).
(function () {
  "use strict";
  var data = JSON.parse(document.getElementById("submit-data").textContent);
  var benchmark = document.getElementById("pick-benchmark");
  var set = document.getElementById("pick-set");
  var pre = document.getElementById("submission");
  if (!benchmark || !pre) { return; }
  var byId = {};
  data.forEach(function (b) { byId[b.id] = b; });
  function fill(name, value) {
    pre.querySelectorAll('[data-fill="' + name + '"]').forEach(function (el) { el.textContent = value; });
  }
  function update() {
    var b = byId[benchmark.value];
    fill("benchmark", b.id);
    fill("set", set.value);
    fill("api", b.api_type || "");
    pre.querySelectorAll(".part").forEach(function (el) {
      el.hidden = !el.classList.contains("part-" + b.kind);
    });
  }
  var wanted = new URLSearchParams(window.location.search).get("benchmark");
  if (wanted && byId[wanted]) { benchmark.value = wanted; }
  benchmark.addEventListener("change", update);
  set.addEventListener("change", update);
  update();
})();
