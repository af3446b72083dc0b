/* Rummy Referee's service worker (rendered by referee/web/plumbing/offline.py; shell {{ version }}).
 *
 * - The app shell is kept at install and served from the cache.
 * - Every game, rule and club page a phone opens is kept, network first: without signal the page
 *   it saw last is shown, marked "offline" with the time it was last updated (app.js says so).
 *   The visit that installs the worker is kept too: the worker keeps the pages open when it
 *   activates, before it takes them over (a page it does not control yet asks it the same).
 * - Pages are kept and found by their address alone, whatever the request's headers; static
 *   files by their path (their Vary is not theirs to decide: a phone's language header must
 *   not make a kept stylesheet a miss).
 * - The referee needs the server: without signal it answers a page that says so.
 * - Writes made without signal wait in the outbox (IndexedDB, outbox-core.js); a Background Sync
 *   sends them when the signal is back, even with the page closed.
 * - A page's stream (/games/<id>/stream, /clubs/<id>/stream) is never answered nor kept here.
 * - Under a sub-path (ROOT: "/rummy"), paths are read below it, and the caches are named with
 *   it: another app of the same origin keeps its own.
 * - Kept pages do not stay forever: forgetPages() below.
 * - The trainer (/training) is kept as a pack of sessions per variant, level and house rules,
 *   and answered from it without signal: static/js/training-offline.js.
 */
"use strict";
importScripts({{ idb|tojson }}, {{ core|tojson }}, {{ cards|tojson }}, {{ trainer|tojson }});

var ROOT = {{ root|tojson }};
var CACHE_PREFIX = ROOT ? ROOT + "/" : "";
var SHELL_CACHE = CACHE_PREFIX + "shell-{{ version }}";
var PAGES_CACHE = CACHE_PREFIX + "pages-v1";
var SHELL = {{ shell|safe }};
var OFFLINE = {{ offline|tojson }};
var NEEDS_SERVER = {{ needs_server|tojson }};
var Trainer = self.RummyTrainerOffline;
Trainer.init(ROOT);
var KEPT_PAGES = new RegExp(
  "^/(?:$|games/[^/]+(?:/edit/[^/]+(?:/rounds/\\d+)?)?$|rules(?:/[^/.]+)?$" +
  "|clubs/[^/.]+(?:/edit/[^/]+)?$)");

self.addEventListener("install", function (event) {
  event.waitUntil(
    caches.open(SHELL_CACHE).then(function (cache) { return cache.addAll(SHELL); })
      .then(function () { return self.skipWaiting(); })
  );
});

self.addEventListener("activate", function (event) {
  event.waitUntil(
    caches.keys().then(function (names) {
      return Promise.all(names.filter(function (name) {
        return name.indexOf(CACHE_PREFIX + "shell-") === 0 && name !== SHELL_CACHE;
      }).map(function (name) { return caches.delete(name); }));
    }).then(keepOpenPages).then(function () { return self.clients.claim(); })
      .then(function () { return forgetPages(); })
  );
});

// The pages open while the worker was installed never went through it: each is fetched once
// more and kept, so that the visit that installed the worker is there without signal.
function keepOpenPages() {
  return self.clients.matchAll({ type: "window", includeUncontrolled: true }).then(function (open) {
    return Promise.all(open.map(function (client) { return keepAddress(client.url); }));
  });
}

function keepAddress(address) {
  var url = new URL(address);
  if (url.origin !== self.location.origin || url.pathname.indexOf(ROOT + "/") !== 0) {
    return Promise.resolve();
  }
  var path = url.pathname.slice(ROOT.length);
  var trainer = Trainer.TRAINER.test(path);
  if (!trainer && !KEPT_PAGES.test(path)) { return Promise.resolve(); }
  var request = new Request(url.href, { credentials: "same-origin" });
  return fetch(request).then(function (response) {
    if (!isPage(response)) { return null; }
    return trainer ? keepTrainer(request, response) : keep(request, response);
  }).catch(function () { /* no signal any more: nothing to keep */ });
}

// A trainer page: its start page is kept as a page, and every trainer page has its pack kept
// (in the page's language: the <html lang> it was answered in).
function keepTrainer(request, response) {
  var url = new URL(response.url || request.url);
  var start = Trainer.TRAINER.exec(url.pathname.slice(ROOT.length));
  return response.clone().text().then(function (html) {
    var lang = (/<html[^>]* lang="([^"]+)"/.exec(html) || [])[1] || "";
    return Promise.all([
      start && !start[1] ? keep(request, response) : null,
      Trainer.refresh(url, lang)
    ]);
  });
}

function isPage(response) {
  return response.ok && (response.headers.get("Content-Type") || "").indexOf("text/html") === 0;
}

// An edit page holds the game's edit token in its address: kept on the phone a few days after
// it was last opened (a game lasts an evening), other pages a month, and every page of a game
// the server no longer has (`gone`: "/games/<id>") forgotten at once. Run when the worker
// starts, at most hourly on the way to a page, and when a page asks ("forget-pages").
var KEPT_DAYS = { edit: 3, other: 30 };
var forgotAt = 0;
function forgetPages(gone) {
  forgotAt = Date.now();
  Trainer.forget().catch(function () { /* the trainer's packs are only a copy */ });
  return caches.open(PAGES_CACHE).then(function (cache) {
    return cache.keys().then(function (requests) {
      return Promise.all(requests.map(function (request) {
        var path = new URL(request.url).pathname;
        if (gone && (path === gone || path.indexOf(gone + "/") === 0)) {
          return cache.delete(request);
        }
        return cache.match(request).then(function (kept) {
          return kept ? kept.text() : "";
        }).then(function (html) {
          var fetched = /data-fetched="([^"]+)"/.exec(html);
          var days = path.indexOf("/edit/") >= 0 ? KEPT_DAYS.edit : KEPT_DAYS.other;
          if (!fetched || Date.now() - Date.parse(fetched[1]) > days * 864e5) {
            return cache.delete(request);
          }
        });
      }));
    });
  });
}

// A page asks to forget ("forget-pages"), or, when the worker does not control it yet (a
// reload that bypassed it), to be kept ({keep: its address}).
self.addEventListener("message", function (event) {
  var done;
  if (event.data === "forget-pages") {
    done = forgetPages();
  } else if (event.data && typeof event.data.keep === "string") {
    var address = event.data.keep;
    done = keepAddress(address).then(function () {
      if (event.ports && event.ports[0]) { event.ports[0].postMessage({ kept: address }); }
    });
  } else {
    return;
  }
  if (event.waitUntil) { event.waitUntil(done); }
});

// A kept page says when it was fetched, so that offline it can say "last updated 21:14".
function keep(request, response) {
  return response.clone().text().then(function (html) {
    var marked = html.replace("<html ", '<html data-fetched="' + new Date().toISOString() + '" ');
    var copy = new Response(marked, {
      status: response.status,
      headers: { "Content-Type": response.headers.get("Content-Type") || "text/html" }
    });
    return caches.open(PAGES_CACHE).then(function (cache) { return cache.put(request.url, copy); });
  });
}

// The page kept at `address`, marked as seen without signal; null when none is.
function keptPage(address) {
  return caches.open(PAGES_CACHE).then(function (cache) {
    return cache.match(address, { ignoreVary: true });
  }).then(function (kept) {
    if (!kept) { return null; }
    return kept.text().then(function (html) {
      return new Response(html.replace("<html ", '<html data-offline="1" '), {
        headers: { "Content-Type": "text/html; charset=utf-8" }
      });
    });
  });
}

function offlinePage(request) {
  return keptPage(request.url).then(function (page) {
    return page || caches.match(OFFLINE, { ignoreVary: true });
  });
}

function navigate(event, path) {
  if (path === "/referee") {
    return fetch(event.request).catch(function () {
      return caches.match(NEEDS_SERVER, { ignoreVary: true });
    });
  }
  if (Trainer.TRAINER.test(path)) {
    return fetch(event.request).then(function (response) {
      if (isPage(response)) { event.waitUntil(keepTrainer(event.request, response.clone())); }
      return response;
    }).catch(function () {
      return Trainer.answer(new URL(event.request.url), keptPage).then(function (answer) {
        return answer || offlinePage(event.request);
      });
    });
  }
  if (!KEPT_PAGES.test(path)) {
    return fetch(event.request).catch(function () { return offlinePage(event.request); });
  }
  return fetch(event.request).then(function (response) {
    if (isPage(response)) {
      event.waitUntil(keep(event.request, response));
    }
    var game = /^\/games\/[^/]+/.exec(path);
    if (game && (response.status === 404 || response.status === 410)) {
      event.waitUntil(forgetPages(ROOT + game[0]));  // the game is gone: so are its pages
    } else if (Date.now() - forgotAt > 36e5) {
      event.waitUntil(forgetPages());
    }
    return response;
  }).catch(function () { return offlinePage(event.request); });
}

self.addEventListener("fetch", function (event) {
  var request = event.request;
  var url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== self.location.origin) { return; }
  // A page's stream (text/event-stream) goes straight to the network, never into a cache.
  if (/\/stream$/.test(url.pathname) || request.headers.get("Accept") === "text/event-stream") { return; }
  if (url.pathname.indexOf(ROOT + "/") !== 0) { return; }  // not this app's
  var path = url.pathname.slice(ROOT.length);  // "/games/..." under any sub-path
  if (request.mode === "navigate") {
    event.respondWith(navigate(event, path));
    return;
  }
  if (path.indexOf("/static/") === 0) {
    event.respondWith(caches.match(request, { ignoreSearch: true, ignoreVary: true }).then(function (hit) {
      return hit || fetch(request);
    }));
    return;
  }
  if (/^\/games\/[^/]+(\/edit\/[^/]+)?\/live$/.test(path)) {
    // The score table polled every few seconds: without signal, "nothing new" keeps the page.
    event.respondWith(fetch(request).catch(function () { return new Response(null, { status: 204 }); }));
  }
});

self.addEventListener("sync", function (event) {
  if (event.tag === "outbox") {
    event.waitUntil(RummyOutbox.flush().then(function () {
      return self.clients.matchAll({ includeUncontrolled: true });
    }).then(function (clients) {
      clients.forEach(function (client) { client.postMessage({ outbox: "changed" }); });
    }));
  }
});
