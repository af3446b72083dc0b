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

  // Live: the part of a page that follows a game or a club (data-live-stream: its stream;
  // data-version: what it shows). One EventSource a page: each event is the version now, and a
  // newer one asks htmx for the part again ("refresh"); "rummy:live" tells the other scripts
  // (the outbox). Where no stream comes through (no EventSource, an
  // answer that ends it, or nothing within LIVE_TIMEOUT: a proxy that buffers), the part is
  // polled as before, each poll sending the ETag it shows so the server answers 304 at once.
  var LIVE_TIMEOUT = 10000;
  function livePart() { return document.querySelector("[data-live-stream]"); }
  // A page on its way in (a boosted link or form: htmx swaps the body) is not refreshed: an
  // answer for the part it replaces would land on it, out of band, after the swap.
  function navigating() { return !!document.querySelector("body.htmx-request, form.htmx-request"); }

  var followed = null;  // the stream followed: { url, source, newest, silent }
  var polling = null;

  function poll() {
    if (polling) { return; }
    var part = livePart();
    var seconds = Number((part && part.dataset.pollSeconds) || "3");
    polling = window.setInterval(function () {
      var now = livePart();
      if (now && !navigating()) { window.htmx.trigger(now, "refresh"); }
    }, seconds * 1000);
  }

  function catchUp() {
    var part = livePart();
    if (followed && part && !navigating() && followed.newest > Number(part.dataset.version || "0")) {
      window.htmx.trigger(part, "refresh");
    }
  }

  function unfollow() {
    if (!followed) { return; }
    window.clearTimeout(followed.silent);
    if (followed.source) { followed.source.close(); }
    followed = null;
  }

  function follow(part) {
    var url = part.dataset.liveStream;
    if (followed && followed.url === url) { return; }
    unfollow();  // another page came in by htmx: another game's stream, or none
    if (!window.EventSource) { poll(); return; }
    var source = new EventSource(url);
    var state = { url: url, source: source, newest: 0, silent: null };
    followed = state;
    state.silent = window.setTimeout(function () { source.close(); poll(); }, LIVE_TIMEOUT);
    source.addEventListener("message", function (event) {
      window.clearTimeout(state.silent);
      var version = Number(event.data);
      state.newest = Math.max(state.newest, version);
      document.dispatchEvent(new CustomEvent("rummy:live", { detail: { version: version } }));
      catchUp();
    });
    source.addEventListener("error", function () {
      // CONNECTING: the browser opens it again by itself (Last-Event-ID says what it saw).
      if (source.readyState === window.EventSource.CLOSED) {
        window.clearTimeout(state.silent);
        poll();
      }
    });
  }

  // htmx drops a refresh asked while one is on its way: once the part is swapped in, it is
  // asked again if a newer version was told meanwhile. A page swapped in whole follows its own.
  document.addEventListener("htmx:afterSettle", function () {
    var part = livePart();
    if (!part) { unfollow(); return; }
    if (window.htmx) { follow(part); }
    catchUp();
  });

  document.addEventListener("htmx:configRequest", function (event) {
    var part = event.detail.elt;
    if (part && part.dataset && part.dataset.liveStream && part.dataset.etag) {
      event.detail.headers["If-None-Match"] = '"' + part.dataset.etag + '"';
    }
  });
  document.addEventListener("htmx:beforeSwap", function (event) {
    if (event.detail.xhr.status === 304) { event.detail.shouldSwap = false; }  // nothing new
  });
  var first = livePart();
  if (first && window.htmx) { follow(first); }

  // A series' clock ([data-clock-ends]: the deadline, UTC; data-clock-now: the server's time
  // when the part was drawn). Each part measures the phone's offset from the server once, so a
  // phone whose own clock is wrong still counts the server's time; a sleeping phone counts on
  // from the real time when it wakes. At zero the part is asked for again ("refresh"): the
  // server says the time is up. Pages without a clock start nothing.
  var ticking = null;
  function clockText(seconds) {
    var h = Math.floor(seconds / 3600), m = Math.floor(seconds % 3600 / 60), s = seconds % 60;
    var mm = h ? (m < 10 ? "0" : "") + m : String(m);
    return (h ? h + ":" : "") + mm + ":" + (s < 10 ? "0" : "") + s;
  }
  function tick() {
    var clocks = document.querySelectorAll("[data-clock-ends]");
    if (!clocks.length) { window.clearInterval(ticking); ticking = null; return; }
    clocks.forEach(function (clock) {
      if (!clock.dataset.clockOffset) {
        clock.dataset.clockOffset = String(Date.parse(clock.dataset.clockNow) - Date.now());
      }
      var now = Date.now() + Number(clock.dataset.clockOffset);
      var left = Math.max(0, Math.floor((Date.parse(clock.dataset.clockEnds) - now) / 1000));
      var shown = clock.querySelector("[data-clock-left]");
      if (shown) { shown.textContent = clockText(left); }
      if (left === 0 && !clock.hasAttribute("data-clock-asked") && window.htmx) {
        clock.setAttribute("data-clock-asked", "");
        window.htmx.trigger(clock, "refresh");
      }
    });
  }
  function clocks() {
    if (ticking || !document.querySelector("[data-clock-ends]")) { return; }
    tick();
    ticking = window.setInterval(tick, 1000);
  }
  clocks();
  document.addEventListener("htmx:load", clocks);
  document.addEventListener("visibilitychange", function () { if (ticking) { tick(); } });
})();
