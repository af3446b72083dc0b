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

  // Live: the part of a page that follows a game or a club (data-live-stream: its stream;
  // data-version: what it shows). One EventSource a page: each event is the version now, and a
  // newer one asks htmx for the part again ("refresh"); "rummy:live" tells the other scripts
  // (the round form's notice, the outbox). Where no stream comes through (no EventSource, an
  // answer that ends it, or nothing within LIVE_TIMEOUT: a proxy that buffers), the part is
  // polled as before, each poll sending the ETag it shows so the server answers 304 at once.
  var LIVE_TIMEOUT = 10000;
  function livePart() { return document.querySelector("[data-live-stream]"); }

  function follow(first) {
    var polling = null;
    function poll() {
      if (polling) { return; }
      var seconds = Number(first.dataset.pollSeconds || "3");
      polling = window.setInterval(function () {
        var part = livePart();
        if (part) { window.htmx.trigger(part, "refresh"); }
      }, seconds * 1000);
    }
    var newest = 0;
    function catchUp() {
      var part = livePart();
      if (part && newest > Number(part.dataset.version || "0")) { window.htmx.trigger(part, "refresh"); }
    }
    function heard(version) {
      newest = Math.max(newest, version);
      document.dispatchEvent(new CustomEvent("rummy:live", { detail: { version: version } }));
      catchUp();
    }
    // htmx drops a refresh asked while one is on its way: once the part is swapped in, it is
    // asked again if a newer version was told meanwhile.
    document.addEventListener("htmx:afterSettle", catchUp);
    if (!window.EventSource) { poll(); return; }
    var source = new EventSource(first.dataset.liveStream);
    var silent = window.setTimeout(function () { source.close(); poll(); }, LIVE_TIMEOUT);
    source.addEventListener("message", function (event) {
      window.clearTimeout(silent);
      heard(Number(event.data));
    });
    source.addEventListener("error", function () {
      // CONNECTING: the browser opens it again by itself (Last-Event-ID says what it saw).
      if (source.readyState === window.EventSource.CLOSED) {
        window.clearTimeout(silent);
        poll();
      }
    });
  }

  document.addEventListener("htmx:configRequest", function (event) {
    var part = event.detail.elt;
    if (part && part.dataset && part.dataset.liveStream && part.dataset.etag) {
      event.detail.headers["If-None-Match"] = '"' + part.dataset.etag + '"';
    }
  });
  document.addEventListener("htmx:beforeSwap", function (event) {
    if (event.detail.xhr.status === 304) { event.detail.shouldSwap = false; }  // nothing new
  });
  var followed = livePart();
  if (followed && window.htmx) { follow(followed); }
})();
