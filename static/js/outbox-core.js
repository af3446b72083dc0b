// The outbox: writes to a game (a round entered or corrected, an undo) kept on the phone in
// IndexedDB until the server has them, each with its Idempotency-Key so that a write sent twice
// counts once. Shared by the pages (outbox.js) and the service worker (Background Sync).
//
// An entry: { id, game, url, fields: [[name, value], ...], key, action ("add" | "edit" |
// "undo"), round, label, created, state ("waiting" | "saved" | "refused"), reason }.
(function (global) {
  "use strict";

  var DB = "rummy-outbox";
  var STORE = "entries";

  function open() {
    return global.idb.openDB(DB, 1, {
      upgrade: function (db) {
        var store = db.createObjectStore(STORE, { keyPath: "id" });
        store.createIndex("game", "game");
      }
    });
  }

  function byAge(a, b) { return a.created - b.created; }

  function entries(game) {
    return open().then(function (db) {
      return game ? db.getAllFromIndex(STORE, "game", game) : db.getAll(STORE);
    }).then(function (all) { return all.sort(byAge); });
  }

  function put(entry) {
    return open().then(function (db) { return db.put(STORE, entry); }).then(function () { return entry; });
  }

  function remove(id) {
    return open().then(function (db) { return db.delete(STORE, id); });
  }

  // The reasons of a refusal, as the server says them when asked for JSON (the API's shape:
  // `error`, the first reason, and `errors`, every one, each with its `message`).
  function reasonsOf(answer) {
    var said = (answer && (answer.errors || (answer.error && [answer.error]))) || [];
    return said.map(function (reason) { return reason.message; }).filter(Boolean).join(" ");
  }

  // Send one entry: its new state ("saved", "waiting" without signal or with the server
  // down, "refused" with the server's reason), and the address the server went on to.
  // A saved entry is answered as a plain form would be (on to the game's page); a refusal,
  // asked for as JSON, says its reasons.
  function send(entry) {
    var body = new URLSearchParams();
    entry.fields.forEach(function (pair) { body.append(pair[0], pair[1]); });
    return global.fetch(entry.url, {
      method: "POST",
      body: body,
      headers: { "Idempotency-Key": entry.key, "Accept": "application/json" },
      credentials: "same-origin",
      redirect: "follow"
    }).then(function (response) {
      if (response.ok) {
        return { state: "saved", url: response.url };
      }
      // A server down or restarting (5xx), or one asking to slow down (429): sent again later.
      if (response.status >= 500 || response.status === 429) {
        return { state: "waiting" };
      }
      return response.json().then(reasonsOf, function () { return ""; }).then(function (reason) {
        return { state: "refused", reason: reason || String(response.status) };
      });
    }, function () {
      return { state: "waiting" };
    });
  }

  // Send what waits, oldest first, game by game; a refused entry holds back the ones after it
  // (they were typed on top of it). Resolves to the entries as they are now.
  var running = null;
  function flush() {
    if (running) { return running; }
    running = entries().then(function (all) {
      var blocked = {};
      var chain = Promise.resolve();
      all.forEach(function (entry) {
        chain = chain.then(function () {
          if (blocked[entry.game] || entry.state === "saved") { return; }
          if (entry.state === "refused") { blocked[entry.game] = true; return; }
          return send(entry).then(function (outcome) {
            entry.state = outcome.state;
            entry.reason = outcome.reason || "";
            entry.sentTo = outcome.url || "";
            if (outcome.state !== "saved") { blocked[entry.game] = true; }
            return put(entry);
          });
        });
      });
      return chain.then(function () { return entries(); });
    }).then(function (all) {
      running = null;
      return all;
    }, function (error) {
      running = null;
      throw error;
    });
    return running;
  }

  global.RummyOutbox = {
    entries: entries,
    put: put,
    remove: remove,
    send: send,
    flush: flush,
    reasonsOf: reasonsOf
  };
})(typeof self !== "undefined" ? self : window);
