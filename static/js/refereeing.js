// The referee page: the verdict follows every tap (htmx asks for _verdict.html), and a change
// of variant or round (or going out, which may ask for the last discard) reloads the page,
// whose fields and grid depend on them.
(function () {
  "use strict";

  function form() {
    return document.getElementById("referee-form");
  }

  document.addEventListener("input", function (event) {
    var f = form();
    if (f && f.contains(event.target) && event.target.matches("textarea, input[type=text]")) {
      f.dispatchEvent(new CustomEvent("referee-changed", { bubbles: true }));
    }
  });

  document.addEventListener("change", function (event) {
    var f = form();
    if (!f || !f.contains(event.target)) { return; }
    if (event.target.hasAttribute("data-ref-reload")) {
      // A plain submit (not htmx): the whole page is drawn for the new variant or round.
      // Another variant has other rounds: let it start from its first (or the game's) round.
      if (event.target.name === "variant" && f.elements.round) {
        f.elements.round.disabled = true;
      }
      f.submit();
    } else if (event.target.matches("input[type=checkbox], input[type=radio]")) {
      f.dispatchEvent(new CustomEvent("referee-changed", { bubbles: true }));
    }
  });
})();
