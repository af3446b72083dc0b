// Small comforts on top of pages that work without JavaScript (the CSP allows no inline script).
(function () {
  "use strict";

  // The language picker is a <details>: close it on a tap elsewhere or on Escape.
  document.addEventListener("click", function (event) {
    document.querySelectorAll("details.lang-picker[open]").forEach(function (picker) {
      if (!picker.contains(event.target)) {
        picker.open = false;
      }
    });
  });
  document.addEventListener("keydown", function (event) {
    if (event.key !== "Escape") {
      return;
    }
    document.querySelectorAll("details.lang-picker[open]").forEach(function (picker) {
      picker.open = false;
      picker.querySelector("summary").focus();
    });
  });

  // Installable and usable without signal: the service worker keeps the pages a phone opened.
  if ("serviceWorker" in navigator) {
    window.addEventListener("load", function () {
      // Its address (and so its scope) is the app's root: "/sw.js", or "/rummy/sw.js" under a sub-path.
      navigator.serviceWorker.register(document.body.dataset.serviceWorker)
        .catch(function () { /* plain pages still work */ });
    });
  }

  // "Offline · last updated 21:14": on a page the service worker kept, or when the signal goes.
  var root = document.documentElement;
  var updated = root.dataset.fetched ? new Date(root.dataset.fetched) : new Date();
  document.addEventListener("htmx:afterSwap", function () { updated = new Date(); });

  function offlineBanner(show) {
    var banner = document.getElementById("offline-banner");
    if (!show) {
      if (banner) { banner.remove(); }
      return;
    }
    if (!banner) {
      banner = document.createElement("p");
      banner.id = "offline-banner";
      banner.className = "offline-banner";
      banner.setAttribute("role", "status");
      var main = document.getElementById("main");
      main.parentNode.insertBefore(banner, main);
    }
    var time = new Intl.DateTimeFormat(root.lang || undefined, { timeStyle: "short" }).format(updated);
    banner.textContent = (document.body.dataset.offlineText || "{time}").split("{time}").join(time);
  }
  if (root.dataset.offline || !navigator.onLine) { offlineBanner(true); }
  window.addEventListener("offline", function () { offlineBanner(true); });
  window.addEventListener("online", function () { offlineBanner(false); });
})();
