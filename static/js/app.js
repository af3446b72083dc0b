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
  // The worker keeps the pages open when it first activates; a page it does not control (a
  // reload that went past it) asks to be kept.
  if ("serviceWorker" in navigator) {
    window.addEventListener("load", function () {
      navigator.serviceWorker.register("/sw.js").then(function () {
        return navigator.serviceWorker.ready;
      }).then(function (registration) {
        var worker = registration.active;
        if (!navigator.serviceWorker.controller && worker && worker.state === "activated") {
          worker.postMessage({ keep: window.location.href });
        }
      }).catch(function () { /* plain pages still work */ });
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
