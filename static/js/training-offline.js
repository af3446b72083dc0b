/* The trainer without signal, in the service worker (imported by templates/offline/sw.js).
 *
 * A trainer page opened with signal has the worker keep a pack for its variant, level and house
 * rules (referee/web/training/offline.py: two sessions, each question's pages as the server
 * renders them and what judges an answer; the start page keeps one for every level). Without
 * signal the worker answers the session's addresses from the pack: the start form goes on to
 * one of its sessions, a question is shown, an answer judged and its verdict shown, the session
 * ends, from the same drills and with the server's own pages. A pack is asked for again when
 * it is an hour old, when the phone's language changed, or when a session started with signal
 * is not in it (then that session comes first, so that it goes on without signal); it is kept
 * under the variant, level and house rules the pack itself names (the server's canonical
 * text), and forgotten a month after it was made. What differs from the server: a question
 * number out of range shows the first question (the server refuses it), and a session started
 * without signal is one of the pack's, the kinds due asked for only when the pack has them.
 *
 * A solve answer is checked as far as it can be without the engine: cards from the hand that
 * leave what the referee's answer leaves, in the referee's own melds (a joker left undeclared,
 * or standing for the card the referee's stands for), are right; other melds that leave as
 * little, or a joker declared as another card, say that they could not be checked.
 */
(function () {
  "use strict";

  var FRESH_MS = 36e5, KEPT_MS = 30 * 864e5;
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
    var number = /^\d{1,12}$/.test(seed) ? parseInt(seed, 10) : -1;
    return pack.sessions.filter(function (s) { return s.seed === number && s.due === due; })[0];
  }

  // House rules as the server writes them in an address (vocabulary/house_rules.py,
  // canonical_rules: keys sorted, no spaces), so that a game's link finds the pack its start
  // page kept; a text that is not JSON is left as it is.
  function canonical(houseRules) {
    var rules;
    try { rules = JSON.parse(houseRules); } catch (error) { return houseRules; }
    if (!rules || typeof rules !== "object" || Array.isArray(rules)) { return houseRules; }
    var names = Object.keys(rules).sort();
    if (!names.length) { return ""; }
    return "{" + names.map(function (name) {
      return JSON.stringify(name) + ":" + JSON.stringify(rules[name]);
    }).join(",") + "}";
  }

  // Keep (or renew) the pack a trainer page opened with signal needs. `url` is where the page
  // ended up (after a redirect), `lang` its language.
  function refresh(url, lang) {
    var found = TRAINER.exec(url.pathname.slice(root.length));
    if (!found) { return Promise.resolve(); }
    var params = url.searchParams;
    var houseRules = canonical(params.get("house_rules") || "");
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
        var type = response.headers.get("Content-Type") || "";
        if (!response.ok || type.indexOf("application/json") !== 0) { return null; }  // a portal's page
        return response.clone().json().then(function (fetched) {
          // Kept where the pack says it belongs, whatever the address that asked for it.
          var own = packAddress(fetched.variant, String(fetched.level), fetched.house_rules);
          return caches.open(cacheName).then(function (cache) { return cache.put(own, response); });
        });
      });
    }).catch(function () { /* no signal any more, or not a pack: the pack kept stays */ });
  }

  // Packs made more than a month ago are forgotten (the worker's forgetPages asks).
  function forget() {
    return caches.open(cacheName).then(function (cache) {
      return cache.keys().then(function (requests) {
        return Promise.all(requests.map(function (request) {
          return cache.match(request).then(function (kept) { return kept ? kept.json() : null; })
            .catch(function () { return null; })
            .then(function (pack) {
              if (!pack || !(Date.now() - Date.parse(pack.made) < KEPT_MS)) { return cache.delete(request); }
            });
        }));
      });
    });
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
    var due = params.get("due") || "";
    return keptPack(packAddress(variant, level, canonical(params.get("house_rules") || ""))).then(function (pack) {
      if (!pack) { return null; }
      var session = findSession(pack, params.get("seed") || "", due);
      if (!found[1] || !session) {  // a new session: one of the pack's, the kinds due if it has them
        var asked = pack.sessions.filter(function (s) { return s.due === due; });
        var from = asked.length ? asked : pack.sessions;
        var chosen = from[Math.floor(Math.random() * from.length)];
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
      melds.push(cards);
    }
    var given = melds.map(function (meld) {
      return meld.map(function (card) { return label(pack.labels, card); }).join(" ");
    }).join(" | ");
    if (!rule.can) { return { page: "wrong", given: given }; }
    var left = rule.hand.slice();
    var fromHand = melds.every(function (meld) {
      return meld.every(function (card) {
        var at = left.indexOf(card.code);
        if (at < 0) { return false; }
        left.splice(at, 1);
        return true;
      });
    });
    var leftover = left.reduce(function (sum, code) { return sum + (rule.points[code] || 0); }, 0);
    if (!fromHand || leftover !== rule.least) { return { page: "wrong", given: given }; }
    return { page: theReferees(melds, rule.melds) ? "right" : "unsure", given: given };
  }

  // A card in words as the server's verdict says it (words.card_label).
  function label(labels, card) {
    if (card.code !== "JK") { return (labels.ranks[card.rank] || card.rank) + SYMBOLS[card.suit]; }
    if (!card.standsFor) { return labels.joker; }
    return labels.joker_as.split("{card}").join(label(labels, card.standsFor));
  }

  var SYMBOLS = { C: "\u2663", D: "\u2666", H: "\u2665", S: "\u2660" };

  // Whether the typed melds are the referee's own: the same cards in each (a joker as "JK"),
  // and each joker left undeclared or standing for what the referee's stands for.
  function theReferees(typed, referee) {
    var left = referee.map(function (meld) { return meld.slice(); });
    return typed.length === referee.length && typed.every(function (meld) {
      var at = left.findIndex(function (theirs) { return matches(meld, theirs); });
      if (at < 0) { return false; }
      left.splice(at, 1);
      return true;
    });
  }

  function matches(meld, theirs) {
    function plain(code) { return code.indexOf("JK") === 0 ? "JK" : code; }
    var mine = meld.map(function (card) { return card.code; }).sort().join(" ");
    if (mine !== theirs.map(plain).sort().join(" ")) { return false; }
    var standing = theirs.filter(function (code) { return code.indexOf("JK=") === 0; });
    return meld.every(function (card) {
      if (card.code !== "JK" || !card.standsFor) { return true; }
      var at = standing.indexOf("JK=" + card.standsFor.code);
      if (at < 0) { return false; }
      standing.splice(at, 1);
      return true;
    });
  }

  self.RummyTrainerOffline = {
    init: init, TRAINER: TRAINER, refresh: refresh, answer: answer, forget: forget, judge: judge,
    canonical: canonical
  };
}());
