/* The trainer without signal, in the service worker (imported by templates/offline/sw.js).
 *
 * A trainer page opened with signal has the worker keep a pack for its variant, level and house
 * rules (referee/web/training/offline.py: two sessions, each question's pages as the server
 * renders them and what judges an answer; the start page keeps one for every level). Without
 * signal the worker answers the session's addresses from the pack: the start form goes on to
 * one of its sessions, a question is shown, an answer judged and its verdict shown, the session
 * ends, exactly as the server would, from the same drills. A pack is asked for again when it is
 * an hour old, when the phone's language changed, or when a session started with signal is not
 * in it (then that session comes first, so that it goes on without signal).
 *
 * A solve answer is checked as far as it can be without the engine: cards from the hand that
 * leave what the referee's answer leaves, in the referee's own melds, are right; other melds
 * that leave as little say that they could not be checked.
 */
(function () {
  "use strict";

  var FRESH_MS = 36e5;
  var LEVELS = ["1", "2", "3"];
  var TRAINER = /^\/training(?:\/([^/.]+))?$/;
  var root = "", cacheName = "trainer-v1";

  function init(appRoot) {
    root = appRoot;
    cacheName = (appRoot ? appRoot + "/" : "") + "trainer-v1";
    return cacheName;
  }

  function packAddress(variant, level, houseRules, extra) {
    var query = new URLSearchParams({ level: level });
    if (houseRules) { query.set("house_rules", houseRules); }
    Object.keys(extra || {}).forEach(function (name) { if (extra[name]) { query.set(name, extra[name]); } });
    return self.location.origin + root + "/training/" + encodeURIComponent(variant) + "/offline.json?" + query;
  }

  function keptPack(address) {
    return caches.open(cacheName).then(function (cache) {
      return cache.match(address, { ignoreVary: true });
    }).then(function (kept) { return kept ? kept.json() : null; }).catch(function () { return null; });
  }

  function findSession(pack, seed, due) {
    return pack.sessions.filter(function (s) { return String(s.seed) === seed && s.due === due; })[0];
  }

  // Keep (or renew) the pack a trainer page opened with signal needs. `url` is where the page
  // ended up (after a redirect), `lang` its language.
  function refresh(url, lang) {
    var found = TRAINER.exec(url.pathname.slice(root.length));
    if (!found) { return Promise.resolve(); }
    var params = url.searchParams;
    var houseRules = params.get("house_rules") || "";
    if (!found[1]) {  // the start page: a pack for each level of its variant
      var variant = params.get("variant") || "contract";
      return Promise.all(LEVELS.map(function (level) {
        return renew(packAddress(variant, level, houseRules), null, null, lang);
      }));
    }
    var seed = params.get("seed");
    if (!seed) { return Promise.resolve(); }
    var due = params.get("due") || "";
    var address = packAddress(found[1], params.get("level") || "1", houseRules);
    return renew(address, seed, due, lang);
  }

  function renew(address, seed, due, lang) {
    return keptPack(address).then(function (pack) {
      var fresh = pack && pack.lang === lang && Date.now() - Date.parse(pack.made) < FRESH_MS;
      if (fresh && (seed === null || findSession(pack, seed, due))) { return null; }
      var asked = seed === null ? address : address + "&" + new URLSearchParams({ seed: seed, due: due });
      return fetch(asked, { credentials: "same-origin" }).then(function (response) {
        if (!response.ok) { return null; }
        return caches.open(cacheName).then(function (cache) { return cache.put(address, response); });
      });
    }).catch(function () { /* no signal any more: the pack kept stays */ });
  }

  // The answer to a trainer address without signal, or null (then the worker's offline page).
  function answer(url, keptPage) {
    var path = url.pathname.slice(root.length);
    var found = TRAINER.exec(path);
    var params = url.searchParams;
    if (!found) { return Promise.resolve(null); }
    if (!found[1] && !params.get("level")) {  // the start page as it was last seen
      return keptPage(url.href).then(function (page) { return page || keptPage(self.location.origin + root + "/training"); });
    }
    var variant = found[1] || params.get("variant") || "contract";
    var level = params.get("level") || "1";
    return keptPack(packAddress(variant, level, params.get("house_rules") || "")).then(function (pack) {
      if (!pack) { return null; }
      var session = findSession(pack, params.get("seed") || "", params.get("due") || "");
      if (!found[1] || !session) {  // a new session: one of the pack's
        var chosen = pack.sessions[Math.floor(Math.random() * pack.sessions.length)];
        var query = new URLSearchParams({ level: String(pack.level), seed: String(chosen.seed) });
        if (chosen.due) { query.set("due", chosen.due); }
        if (pack.house_rules) { query.set("house_rules", pack.house_rules); }
        return Response.redirect(self.location.origin + root + "/training/" + encodeURIComponent(pack.variant) + "?" + query, 303);
      }
      return page(pack, session, params);
    });
  }

  function whole(text, low, high, fallback) {
    var number = /^\d{1,3}$/.test(text || "") ? parseInt(text, 10) : fallback;
    return number >= low && number <= high ? number : fallback;
  }

  function page(pack, session, params) {
    var count = session.questions.length;
    var number = whole(params.get("q"), 1, count + 1, 1);
    var right = whole(params.get("right"), 0, count, 0);
    if (number > count) { return html(pack, fill(session.done, right, right, ""), 200); }
    var question = session.questions[number - 1];
    var answered = ["answer", "down", "melds"].some(function (name) { return params.has(name); });
    if (!answered) { return html(pack, fill(question.ask, right, right, "", ""), 200); }
    var judged = judge(pack, question.judge, params);
    if (judged.error) { return html(pack, fill(question.ask, right, right, "", judged.error), 400); }
    var next = right + (judged.page === "right" ? 1 : 0);
    return html(pack, fill(question[judged.page], right, next, judged.given), 200);
  }

  function escape(text) {
    return String(text).replace(/[&<>"']/g, function (c) {
      return { "&": "&amp;", "<": "&lt;", ">": "&gt;", "\"": "&quot;", "'": "&#39;" }[c];
    });
  }

  // The placeholders offline.py renders the pages with, filled in; an empty `error` takes the
  // error's line out.
  function fill(template, right, nextRight, given, error) {
    var text = template
      .split("%7Bnext_right%7D").join(nextRight).split("{next_right}").join(nextRight)
      .split("%7Bright%7D").join(right).split("{right}").join(right)
      .split("{given}").join(escape(given));
    if (error) { return text.split("{error}").join(escape(error)); }
    return text.replace(/<div class="form-errors" role="alert"><p>\{error\}<\/p><\/div>/, "");
  }

  function html(pack, text, status) {
    var marked = text.replace("<html ", '<html data-offline="1" data-fetched="' + pack.made + '" ');
    return new Response(marked, { status: status, headers: { "Content-Type": "text/html; charset=utf-8" } });
  }

  // An answer judged as referee/web/training/session.py judges it: {page, given} or {error}.
  function judge(pack, rule, params) {
    var words = pack.words;
    if (rule.form === "choices") {
      var text = (params.get("answer") || "").trim();
      var index = /^\d{1,3}$/.test(text) ? parseInt(text, 10) : -1;
      if (index < 0 || index >= rule.labels.length) { return { error: words.no_answer_chosen }; }
      return { page: index === rule.answer ? "right" : "wrong", given: rule.labels[index] };
    }
    if (rule.form === "points") {
      var typed = (params.get("answer") || "").trim();
      if (!/^\d{1,5}$/.test(typed)) { return { error: words.points_not_a_number }; }
      var points = parseInt(typed, 10);
      return { page: points === rule.answer ? "right" : "wrong", given: String(points) };
    }
    return judgeSolve(pack, rule, params);
  }

  function judgeSolve(pack, rule, params) {
    var words = pack.words;
    var down = (params.get("down") || "").trim();
    if (down !== "yes" && down !== "no") { return { error: words.no_answer_chosen }; }
    if (down === "no") { return { page: rule.can ? "wrong" : "right", given: words.no }; }
    var lines = (params.get("melds") || "").split(/\r?\n|\|/).filter(function (line) { return line.trim(); });
    if (!lines.length || lines.length > pack.max_melds) { return { error: words.no_melds_typed }; }
    var melds = [];
    for (var i = 0; i < lines.length; i += 1) {
      var cards = self.RummyCards.parseAll(lines[i], pack.letters);
      if (!cards) {
        var bad = lines[i].split(/[\s,]+/).filter(function (token) {
          return token && !self.RummyCards.parse(token, pack.letters);
        })[0] || lines[i].trim();
        return { error: words.bad_card.split("{card}").join(bad) };
      }
      melds.push(cards.map(function (card) { return card.code; }));
    }
    var given = lines.map(function (line) { return line.trim(); }).join(" | ");
    if (!rule.can) { return { page: "wrong", given: given }; }
    var left = rule.hand.slice();
    var fromHand = melds.every(function (meld) {
      return meld.every(function (code) {
        var at = left.indexOf(code);
        if (at < 0) { return false; }
        left.splice(at, 1);
        return true;
      });
    });
    var leftover = left.reduce(function (sum, code) { return sum + (rule.points[code] || 0); }, 0);
    if (!fromHand || leftover !== rule.least) { return { page: "wrong", given: given }; }
    return { page: sameMelds(melds, rule.melds) ? "right" : "unsure", given: given };
  }

  function sameMelds(a, b) {
    function key(melds) { return melds.map(function (meld) { return meld.slice().sort().join(" "); }).sort().join("|"); }
    return a.length === b.length && key(a) === key(b);
  }

  self.RummyTrainerOffline = { init: init, TRAINER: TRAINER, refresh: refresh, answer: answer, judge: judge };
}());
