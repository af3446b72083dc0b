/* Rummy Referee's service worker (rendered by referee/web/offline.py; shell {{ version }}).
 *
 * - The app shell is kept at install and served from the cache.
 * - Every game and rule page a phone opens is kept, network first: without signal the page it
 *   saw last is shown, marked "offline" with the time it was last updated (app.js says so).
 * - The referee needs the server: without signal it answers a page that says so.
 * - Writes made without signal wait in the outbox (IndexedDB, outbox-core.js); a Background Sync
 *   sends them when the signal is back, even with the page closed.
 * - A page's stream (/games/<id>/stream, /clubs/<id>/stream) is never answered nor kept here.
 * - Under a sub-path (ROOT: "/rummy"), paths are read below it, and the caches are named with
 *   it: another app of the same origin keeps its own.
 */
"use strict";
importScripts({{ idb|tojson }}, {{ core|tojson }});

var ROOT = {{ root|tojson }};
var CACHE_PREFIX = ROOT ? ROOT + "/" : "";
var SHELL_CACHE = CACHE_PREFIX + "shell-{{ version }}";
var PAGES_CACHE = CACHE_PREFIX + "pages-v1";
var SHELL = {{ shell|safe }};
var OFFLINE = {{ offline|tojson }};
var NEEDS_SERVER = {{ needs_server|tojson }};
var KEPT_PAGES = /^\/(?:$|games\/[^/]+(?:\/edit\/[^/]+(?:\/rounds\/\d+)?)?$|rules(?:\/[^/.]+)?$)/;

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
    }).then(function () { return self.clients.claim(); })
  );
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

function offlinePage(request) {
  return caches.open(PAGES_CACHE).then(function (cache) {
    return cache.match(request.url, { ignoreVary: true });
  }).then(function (kept) {
    if (!kept) { return caches.match(OFFLINE); }
    return kept.text().then(function (html) {
      return new Response(html.replace("<html ", '<html data-offline="1" '), {
        headers: { "Content-Type": "text/html; charset=utf-8" }
      });
    });
  });
}

function navigate(event, path) {
  if (path === "/referee") {
    return fetch(event.request).catch(function () { return caches.match(NEEDS_SERVER); });
  }
  if (!KEPT_PAGES.test(path)) {
    return fetch(event.request).catch(function () { return offlinePage(event.request); });
  }
  return fetch(event.request).then(function (response) {
    if (response.ok && (response.headers.get("Content-Type") || "").indexOf("text/html") === 0) {
      event.waitUntil(keep(event.request, response));
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
    event.respondWith(caches.match(request, { ignoreSearch: true }).then(function (hit) {
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
