// Never lose a round: on a game's edit pages, saving a round, a correction or an undo goes
// through the outbox (outbox-core.js). With signal nothing changes: the write is sent at once
// and the page goes on as after a plain form. Without signal the write waits on the phone, the
// page says so, the score table shows the waiting round, and the form moves on to the next
// round; the outbox sends it when the signal is back (online event, Background Sync, retries).
// A write the server refuses stays on the phone, shown with its reason, to be fixed.
// Without JavaScript the forms post as they always did.
(function () {
  "use strict";

  var Outbox = window.RummyOutbox;
  var first = document.getElementById("outbox");
  if (!Outbox || !first || !window.indexedDB) { return; }
  var game = first.dataset.outboxGame;
  var texts = JSON.parse(first.dataset.texts || "{}");
  // htmx swaps the page's body after a save: the panel is looked up each time it is drawn.
  function panelOf() { return document.getElementById("outbox"); }
  var SEATS = ".player[data-seat]";  // the round form's rows, one per player
  var retry = null;
  var delay = 2000;

  function say(name, values) {
    var text = texts[name] || name;
    Object.keys(values || {}).forEach(function (key) {
      text = text.split("{" + key + "}").join(String(values[key]));
    });
    return text;
  }

  function uuid() {
    if (window.crypto && window.crypto.randomUUID) { return window.crypto.randomUUID(); }
    return "k" + Date.now().toString(36) + Math.random().toString(36).slice(2, 12);
  }

  function fieldsOf(form, submitter) {
    var data = new FormData(form);
    if (submitter && submitter.name) { data.append(submitter.name, submitter.value); }
    var fields = [];
    data.forEach(function (value, name) {
      if (typeof value === "string") { fields.push([name, value]); }
    });
    return fields;
  }

  function valueOf(fields, name) {
    var found = fields.filter(function (pair) { return pair[0] === name; })[0];
    return found ? found[1] : "";
  }

  // What a round's entry holds, for people: "Ann out · Bo 25 · Cy 30".
  function summaryOf(form, fields) {
    var out = valueOf(fields, "went_out");
    var parts = [];
    form.querySelectorAll(SEATS).forEach(function (seat) {
      var index = seat.dataset.seat;
      var name = seat.dataset.name;
      var points = valueOf(fields, "seats-" + index + "-penalty");
      parts.push(out === index ? say("out", { name: name }) : name + " " + (points || "?"));
    });
    return parts.join(" · ");
  }

  // -- showing the outbox ------------------------------------------------------------------

  function button(label, onClick) {
    var node = document.createElement("button");
    node.type = "button";
    node.className = "button";
    node.textContent = label;
    node.addEventListener("click", onClick);
    return node;
  }

  function render(all) {
    var mine = all.filter(function (entry) { return entry.game === game; });
    var panel = panelOf();
    if (!panel) { return; }
    var list = panel.querySelector("ol");
    list.textContent = "";
    var held = false;
    mine.forEach(function (entry) {
      var item = document.createElement("li");
      item.className = "outbox-entry is-" + entry.state;
      var title = document.createElement("strong");
      title.textContent = entry.label;
      var state = document.createElement("span");
      state.className = "outbox-state";
      if (entry.state === "saved") {
        state.textContent = say("saved");
      } else if (entry.state === "refused") {
        state.textContent = say("refused", { reason: entry.reason });
      } else {
        state.textContent = say(held ? "held" : "waiting");
      }
      item.appendChild(title);
      item.appendChild(document.createTextNode(" "));
      item.appendChild(state);
      if (entry.summary) {
        var what = document.createElement("small");
        what.textContent = entry.summary;
        item.appendChild(what);
      }
      if (entry.state === "refused") {
        item.appendChild(button(say("fix"), function () { fix(entry); }));
        item.appendChild(button(say("discard"), function () {
          Outbox.remove(entry.id).then(refresh);
        }));
      }
      if (entry.state !== "saved") { held = true; }
      list.appendChild(item);
    });
    panel.hidden = mine.length === 0;
    showWaitingRounds(mine);
  }

  // Before the first round is saved there is no score table: one is drawn for the waiting rounds.
  function scoreTable(names) {
    var body = document.querySelector(".score-table tbody");
    var scores = document.getElementById("scores");
    if (body || !scores || !names.length) { return body; }
    var table = document.createElement("table");
    table.className = names.length > 4 ? "score-table many" : "score-table";
    var head = table.createTHead().insertRow();
    [say("round")].concat(names).forEach(function (text, index) {
      var cell = document.createElement("th");
      cell.scope = "col";
      cell.textContent = text;
      if (!index) { cell.className = "round-col"; }
      head.appendChild(cell);
    });
    scores.appendChild(table);
    var empty = scores.querySelector(".empty");
    if (empty) { empty.hidden = true; }
    return table.createTBody();
  }

  // The score table shows each round still waiting, marked as such.
  function showWaitingRounds(mine) {
    document.querySelectorAll("tr.is-waiting").forEach(function (row) { row.remove(); });
    var waiting = mine.filter(function (entry) {
      return entry.action === "add" && entry.state !== "saved";
    });
    var form = document.querySelector("form[data-outbox=add]");
    var names = form ? Array.prototype.map.call(form.querySelectorAll(SEATS), function (seat) {
      return seat.dataset.name;
    }) : [];
    var body = waiting.length ? scoreTable(names) : null;
    if (!body) { return; }
    waiting.forEach(function (entry) {
      var row = document.createElement("tr");
      row.className = "is-waiting";
      var head = document.createElement("th");
      head.scope = "row";
      head.textContent = entry.round + " ⏳";
      var hidden = document.createElement("span");
      hidden.className = "visually-hidden";
      hidden.textContent = " " + say(entry.state === "refused" ? "refused_short" : "waiting");
      head.appendChild(hidden);
      row.appendChild(head);
      (entry.cells || []).forEach(function (text) {
        var cell = document.createElement("td");
        cell.textContent = text;
        row.appendChild(cell);
      });
      body.appendChild(row);
    });
  }

  function refresh() {
    return Outbox.entries(game).then(function (all) {
      render(all);
      catchUp(all);
    });
  }

  // A page opened again (from the cache, without signal) shows the form of the round after the
  // ones waiting on this phone, not a round already entered here.
  function catchUp(all) {
    var form = document.querySelector("form[data-outbox=add]");
    if (!form || form.dataset.outboxBusy) { return; }
    var pending = all.filter(function (entry) {
      return entry.game === game && entry.state === "waiting";
    });
    var adds = pending.filter(function (entry) { return entry.action === "add"; });
    if (!adds.length) { return; }
    var last = adds[adds.length - 1];
    if (Number(form.dataset.outboxRound) > last.round) { return; }
    var written = Number(valueOf(last.fields, "version") || "0");
    form.elements.version.value = String(written);  // moveOn counts the waiting one
    moveOn(form, last);
  }

  // -- sending -----------------------------------------------------------------------------

  function schedule() {
    window.clearTimeout(retry);
    retry = window.setTimeout(flush, delay);
    delay = Math.min(delay * 2, 60000);
  }

  function flush() {
    return Outbox.flush().then(function (all) {
      render(all);
      var mine = all.filter(function (entry) { return entry.game === game; });
      var waiting = mine.some(function (entry) { return entry.state === "waiting"; });
      var saved = mine.filter(function (entry) { return entry.state === "saved"; });
      if (waiting) {
        schedule();
      } else {
        delay = 2000;
      }
      if (saved.length) {
        // Shown as saved for a moment, then gone: the score table has them now.
        window.setTimeout(function () {
          Promise.all(saved.map(function (entry) { return Outbox.remove(entry.id); })).then(function () {
            if (!waiting && window.htmx && document.getElementById("live")) {
              window.htmx.trigger("#live", "refresh");
            }
            refresh();
          });
        }, 4000);
      }
      return all;
    });
  }

  function ask() {
    if (navigator.serviceWorker && window.SyncManager) {
      navigator.serviceWorker.ready.then(function (registration) {
        return registration.sync.register("outbox");
      }).catch(function () { /* no Background Sync: the online event and retries remain */ });
    }
  }

  // A refused write goes back to the server as a plain form: the page that answers shows why,
  // with everything typed kept, beside what is saved.
  function fix(entry) {
    var form = document.createElement("form");
    form.method = "post";
    form.action = entry.url;
    form.hidden = true;
    entry.fields.forEach(function (pair) {
      var input = document.createElement("input");
      input.type = "hidden";
      input.name = pair[0];
      input.value = pair[0] === "Idempotency-Key" ? uuid() : pair[1];
      form.appendChild(input);
    });
    document.body.appendChild(form);
    Outbox.remove(entry.id).then(function () { form.submit(); });
  }

  // -- the forms ---------------------------------------------------------------------------

  // Without signal the round form moves on to the next round (its number, contract and dealer
  // from the schedule the page carries); its version counts the waiting writes.
  function moveOn(form, entry) {
    var schedule = JSON.parse(form.dataset.schedule || "[]");
    var next = schedule.filter(function (row) { return row.round === entry.round + 1; })[0];
    if (!next) {
      form.hidden = true;
      return;
    }
    // What the server said of the last entry is not said of the next one.
    form.querySelectorAll(".error-summary, .notice, .repeat, .field-errors, #conflict")
      .forEach(function (node) { node.remove(); });
    form.querySelectorAll(".has-error").forEach(function (node) { node.classList.remove("has-error"); });
    form.querySelectorAll("[aria-invalid]").forEach(function (node) { node.removeAttribute("aria-invalid"); });
    form.querySelectorAll("[aria-expanded]").forEach(function (node) { node.setAttribute("aria-expanded", "false"); });
    form.querySelectorAll("input[type=radio], input[type=checkbox]").forEach(function (box) {
      box.defaultChecked = false;
      box.checked = false;
    });
    form.reset();
    form.querySelectorAll("input[type=text], input[inputmode], textarea").forEach(function (input) {
      if (input.type !== "hidden") {
        input.value = "";
        input.dispatchEvent(new Event("input", { bubbles: true }));  // the picker and sums follow
      }
    });
    form.querySelectorAll("details.hand[open]").forEach(function (hand) { hand.open = false; });
    var mark = form.querySelector(".dealer-mark");
    var dealer = form.querySelector(SEATS.replace("]", "=\"" + next.dealer + "\"]") + " .player-name");
    if (mark && dealer) { dealer.appendChild(mark); }
    form.elements.round.value = String(next.round);
    form.elements.version.value = String(Number(form.elements.version.value || "0") + 1);
    form.elements["Idempotency-Key"].value = uuid();
    var title = form.querySelector("[data-outbox-title]");
    if (title) { title.textContent = next.title; }
    showDeal(next);
    form.dataset.outboxRound = String(next.round);
    form.dataset.outboxFresh = "1";
    if (title) { title.focus(); }
  }

  // The pinned head and the deal's facts say the round the form moved on to.
  function showDeal(next) {
    var texts = {
      "#game-head .round-of": next.heading,
      "#game-head .contract": next.contract,
      "#game-head .dealer": next.dealer_text,
      "#deal-facts [data-fact=starter]": next.starter,
      "#deal-facts [data-fact=cards]": String(next.cards),
      "#deal-facts [data-fact=shoe]": next.shoe
    };
    Object.keys(texts).forEach(function (selector) {
      var node = document.querySelector(selector);
      if (node && texts[selector]) { node.textContent = texts[selector]; }
    });
  }

  function cellsOf(form, fields) {
    var out = valueOf(fields, "went_out");
    var cells = [];
    form.querySelectorAll(SEATS).forEach(function (seat) {
      var index = seat.dataset.seat;
      cells.push(out === index ? "★" : valueOf(fields, "seats-" + index + "-penalty") || "?");
    });
    return cells;
  }

  function entryOf(form, fields) {
    var action = form.dataset.outbox;
    var round = Number(form.dataset.outboxRound || valueOf(fields, "round") || "0");
    return {
      id: uuid(),
      game: game,
      url: form.action.split("#")[0],
      fields: fields,
      key: valueOf(fields, "Idempotency-Key") || uuid(),
      action: action,
      round: round,
      label: say(action, { number: round }),
      summary: action === "undo" ? "" : summaryOf(form, fields),
      cells: action === "add" ? cellsOf(form, fields) : [],
      created: Date.now(),
      state: "waiting",
      reason: ""
    };
  }

  // To a page after a save: the same page with another #part is loaded again (an assignment of
  // only a new fragment would just scroll).
  function go(url) {
    var target = new URL(url, window.location.href);
    var here = window.location;
    if (target.pathname === here.pathname && target.search === here.search) {
      here.hash = target.hash;
      here.reload();
    } else {
      here.assign(target.href);
    }
  }

  // An entry that could not reach the server waits in the outbox; the round form moves on.
  function waitFor(form, entry) {
    ask();
    schedule();
    if (entry.action === "add") {
      moveOn(form, entry);
    } else if (form.dataset.outboxBack) {
      go(form.dataset.outboxBack);
      return Promise.resolve();
    }
    return refresh();
  }

  // Online, a round form goes as htmx sends it (the page answers in place: problems under
  // their fields, the next round); what cannot reach the server goes into the outbox with the
  // same key (htmx:sendError below). Offline, and for undo, the outbox sends it.
  var sending = null;  // the round form htmx is sending: { form, path }

  function byHtmx(form) {
    return navigator.onLine && window.htmx && form.hasAttribute("hx-boost");
  }

  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (!form.matches || !form.matches("form[data-outbox]") || form.dataset.outboxOff) { return; }
    if (form.dataset.outboxBusy || form.dataset.outboxFresh) {
      // A double tap (the first one is on its way), or a tap on a form that just moved on to
      // the next round and holds nothing typed yet.
      event.preventDefault();
      event.stopImmediatePropagation();
      return;
    }
    var fields = fieldsOf(form, event.submitter);
    form.dataset.outboxBusy = "1";
    if (byHtmx(form)) {
      form.outboxFields = fields;
      sending = { form: form, path: new URL(form.action, window.location.href).pathname };
      return;
    }
    event.preventDefault();
    event.stopImmediatePropagation();
    var entry = entryOf(form, fields);
    Outbox.put(entry).then(function () {
      return Outbox.send(entry);
    }).then(function (outcome) {
      if (outcome.state === "saved") {
        return Outbox.remove(entry.id).then(function () {
          go(form.dataset.outboxBack || outcome.url);
        });
      }
      if (outcome.state === "refused") {
        // The server is there and says no: let it say so on its own page, as without us.
        return Outbox.remove(entry.id).then(function () {
          form.dataset.outboxOff = "1";
          if (event.submitter && event.submitter.name) {
            var pressed = document.createElement("input");
            pressed.type = "hidden";
            pressed.name = event.submitter.name;
            pressed.value = event.submitter.value;
            form.appendChild(pressed);
          }
          form.submit();
        });
      }
      return waitFor(form, entry);
    }).catch(function () {
      // IndexedDB refused the entry (private mode, a full disk): the plain form says the rest.
      form.dataset.outboxOff = "1";
      form.submit();
    }).then(function () {
      delete form.dataset.outboxBusy;
    });
  }, true);

  // htmx names the body as the element of a boosted form's request: the form is known by the
  // path it posts to.
  function queued(event) {
    var detail = event.detail || {};
    var path = ((detail.pathInfo && detail.pathInfo.requestPath) || "").split("#")[0];
    var verb = detail.requestConfig && detail.requestConfig.verb;
    if (!sending || verb !== "post" || path !== sending.path) { return null; }
    return sending.form.outboxFields ? sending.form : null;
  }

  document.addEventListener("htmx:afterRequest", function (event) {
    var form = queued(event);
    if (!form || event.detail.error) { return; }  // no answer: htmx:sendError or timeout next
    sending = null;
    form.outboxFields = null;
    if (!form.dataset.outboxKeeping) { delete form.dataset.outboxBusy; }
  });

  // What htmx could not bring to the server waits in the outbox with the same key: no answer
  // (htmx:sendError, htmx:timeout), or the server's 5xx (an app restarting behind its proxy),
  // which is not swapped in over what was typed.
  function keep(form) {
    var entry = entryOf(form, form.outboxFields);
    form.outboxFields = null;
    sending = null;
    form.dataset.outboxBusy = "1";
    form.dataset.outboxKeeping = "1";
    Outbox.put(entry).then(function () {
      return waitFor(form, entry);
    }).catch(function () { /* IndexedDB refused it: the form keeps what was typed */ }).then(function () {
      delete form.dataset.outboxKeeping;
      delete form.dataset.outboxBusy;
    });
  }

  document.addEventListener("htmx:sendError", function (event) {
    var form = queued(event);
    if (form) { keep(form); }
  });
  document.addEventListener("htmx:timeout", function (event) {
    var form = queued(event);
    if (form) { keep(form); }
  });
  document.addEventListener("htmx:beforeSwap", function (event) {
    var form = queued(event);
    var status = event.detail.xhr.status;
    if (form && (status >= 500 || status === 429)) {
      event.detail.shouldSwap = false;
      keep(form);
    }
  });

  document.addEventListener("input", function (event) {
    var form = event.target.form;
    if (form && form.dataset && event.isTrusted) { delete form.dataset.outboxFresh; }
  });
  document.addEventListener("change", function (event) {
    var form = event.target.form;
    if (form && form.dataset && event.isTrusted) { delete form.dataset.outboxFresh; }
  });
  document.addEventListener("click", function (event) {
    var form = event.target.closest && event.target.closest("form[data-outbox]");
    if (form && event.isTrusted && !event.target.closest("[type=submit]")) {
      delete form.dataset.outboxFresh;  // a card tapped on the picker, a count stepped
    }
  });

  window.addEventListener("online", function () {
    delay = 2000;
    flush();
  });
  if (navigator.serviceWorker) {
    navigator.serviceWorker.addEventListener("message", function (event) {
      if (event.data && event.data.outbox) { refresh(); }
    });
  }
  document.addEventListener("htmx:afterSwap", function () { refresh(); });
  // The game's stream (app.js) told a new version: another phone saved. What waits here goes
  // now, without waiting for its next retry: the server judges it against what was saved, and
  // a round entered meanwhile is refused to be fixed (the conflict view), never overwritten.
  document.addEventListener("rummy:live", function () {
    Outbox.entries(game).then(function (all) {
      var waiting = all.some(function (entry) { return entry.game === game && entry.state === "waiting"; });
      if (waiting) {
        delay = 2000;
        flush();
      }
    });
  });
  refresh().then(flush);
})();
