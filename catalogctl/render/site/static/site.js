// The language switch: shows the catalog's display copy in the language picked, and remembers it.
(function () {
  "use strict";
  var root = document.documentElement;
  var select = document.getElementById("lang-switch");
  var saved = null;
  try { saved = window.localStorage.getItem("catalogctl-lang"); } catch (e) { saved = null; }
  function apply(lang) {
    root.setAttribute("data-lang", lang);
    if (select) { select.value = lang; }
  }
  if (select) {
    var known = Array.prototype.map.call(select.options, function (o) { return o.value; });
    if (saved && known.indexOf(saved) >= 0) { apply(saved); }
    select.addEventListener("change", function () {
      apply(select.value);
      try { window.localStorage.setItem("catalogctl-lang", select.value); } catch (e) { /* file:// may refuse */ }
    });
  }
})();
