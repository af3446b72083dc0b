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

  // On the card picker the verdict stays in view above the keys: once the verdict above the pad
  // has scrolled out of sight, a line pinned to the top of the pad repeats its mark and headline
  // (a screen reader hears the verdict itself: the line is hidden from it).
  var verdictSeen = true;

  function padVerdict() {
    var pad = document.querySelector("#referee-form [data-cp-pad]");
    if (!pad) { return; }
    var line = pad.querySelector(".ref-pad-verdict");
    if (!line) {
      line = document.createElement("p");
      line.setAttribute("aria-hidden", "true");
      pad.insertBefore(line, pad.firstChild);
    }
    var verdict = document.querySelector(".ref-verdict .verdict");
    line.hidden = !verdict || verdictSeen;
    if (!verdict) { return; }
    line.className = "ref-pad-verdict " + (verdict.dataset.valid === "true" ? "is-valid" : "is-invalid");
    var parts = [".ref-mark", ".ref-headline"].map(function (selector) {
      var part = verdict.querySelector(selector);
      return part ? part.textContent.trim() : "";
    });
    line.textContent = parts.join(" · ");
  }

  // The verdict's own box (its mark and headline): each answer brings a new one to watch.
  var watcher = window.IntersectionObserver ? new IntersectionObserver(function (seen) {
    verdictSeen = seen[seen.length - 1].isIntersecting;
    padVerdict();
  }) : null;
  var watching = null;

  function watchVerdict() {
    var box = document.querySelector(".ref-verdict .verdict");
    if (!watcher || box === watching) { return; }
    if (watching) { watcher.unobserve(watching); }
    watching = box;
    verdictSeen = true;
    if (box) { watcher.observe(box); }
  }

  document.addEventListener("DOMContentLoaded", function () { watchVerdict(); padVerdict(); });
  document.addEventListener("htmx:afterSwap", function () { watchVerdict(); padVerdict(); });
})();
