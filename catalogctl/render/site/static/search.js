// Client-side search over the index search-index.js defines (a script, since file:// forbids fetch()).
(function () {
  "use strict";
  var entries = window.CATALOGCTL_SEARCH || [];
  var input = document.getElementById("q");
  var list = document.getElementById("results");
  var count = document.getElementById("search-count");
  var root = "../";
  // An entry matches when every term is in its id, titles or the benchmarks using it; those
  // matching by id or title come first.
  function own(e) {
    var words = [e.id, e.kind, e.title.text];
    for (var lang in e.title.i18n) { words.push(e.title.i18n[lang]); }
    return words.join(" ").toLowerCase();
  }
  var prepared = entries.map(function (e) {
    var text = own(e);
    return { entry: e, own: text, all: text + " " + e.used_by.join(" ").toLowerCase() };
  });
  function item(e) {
    var li = document.createElement("li");
    var kind = document.createElement("span");
    kind.className = "kind";
    kind.textContent = e.kind;
    var link = document.createElement("a");
    link.href = root + e.url;
    var code = document.createElement("code");
    code.textContent = e.id;
    link.appendChild(code);
    li.appendChild(kind);
    li.appendChild(document.createTextNode(" "));
    li.appendChild(link);
    li.appendChild(document.createTextNode(" " + e.title.text));
    if (e.used_by.length) {
      var used = document.createElement("div");
      used.className = "note";
      used.appendChild(document.createTextNode("used by "));
      e.used_by.slice(0, 12).forEach(function (b, i) {
        if (i) { used.appendChild(document.createTextNode(", ")); }
        var a = document.createElement("a");
        a.href = root + "benchmarks/" + encodeURIComponent(b) + "/index.html";
        a.textContent = b;
        used.appendChild(a);
      });
      if (e.used_by.length > 12) { used.appendChild(document.createTextNode(" and " + (e.used_by.length - 12) + " more")); }
      li.appendChild(used);
    }
    return li;
  }
  function run() {
    var terms = input.value.toLowerCase().split(/\s+/).filter(Boolean);
    list.textContent = "";
    if (!terms.length) { count.textContent = "Type to search " + entries.length + " entries."; return; }
    function has(text) { return terms.every(function (t) { return text.indexOf(t) >= 0; }); }
    var found = prepared.filter(function (p) { return has(p.own); })
      .concat(prepared.filter(function (p) { return !has(p.own) && has(p.all); }));
    found.slice(0, 100).forEach(function (p) { list.appendChild(item(p.entry)); });
    count.textContent = found.length + (found.length === 1 ? " result" : " results") + (found.length > 100 ? " (first 100 shown)" : "");
  }
  var query = new URLSearchParams(window.location.search).get("q");
  if (query) { input.value = query; }
  input.addEventListener("input", run);
  run();
})();
