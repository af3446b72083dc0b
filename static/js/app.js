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
      // Its address (and so its scope) is the app's root: "/sw.js", or "/rummy/sw.js" under a sub-path.
      navigator.serviceWorker.register(document.body.dataset.serviceWorker).then(function () {
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

  // One live region says what happened, once: a round saved, refused or in conflict. What is
  // said just before the page is left (a correction's save loads the game's page) is said on
  // the page that comes next.
  var SAY_LATER = "rummy-say";

  function say(text) {
    var region = document.getElementById("announcer");
    text = (text || "").replace(/\s+/g, " ").trim();
    if (!region || !text) { return; }
    region.textContent = "";
    window.setTimeout(function () { region.textContent = text; }, 60);
  }
  say.later = function (text) {
    try { window.sessionStorage.setItem(SAY_LATER, text); } catch (e) { say(text); }
  };
  window.RummySay = say;

  // What the server rendered to be said (`data-say`: its text, or the element's own), as a page
  // or an htmx swap brings it.
  function sayRendered(root) {
    var found = root.matches && root.matches("[data-say]") ? [root] : [];
    root.querySelectorAll("[data-say]").forEach(function (node) { found.push(node); });
    found.forEach(function (node) {
      if (node.hasAttribute("data-said")) { return; }  // once, whichever event saw it first
      node.setAttribute("data-said", "");
      say(node.dataset.say || node.innerText);
    });
  }
  document.addEventListener("DOMContentLoaded", function () {
    var waiting = null;
    try {
      waiting = window.sessionStorage.getItem(SAY_LATER);
      window.sessionStorage.removeItem(SAY_LATER);
    } catch (e) { /* no storage: nothing waits */ }
    if (waiting) { say(waiting); }
    sayRendered(document);
  });
  document.addEventListener("htmx:load", function (event) { sayRendered(event.target); });
  window.addEventListener("offline", function () { offlineBanner(true); });
  window.addEventListener("online", function () { offlineBanner(false); });
})();
