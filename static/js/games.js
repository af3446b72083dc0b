// Games: the round screen by thumb (Next, the picker and the count under a player's row, sums as
// cards are tapped or counted), the error summary, the first dealer by name, sharing a result.
// Everything here is an extra: the forms work and are checked on the server without it.
(function () {
  "use strict";

  function playerOf(el) { return el.closest(".player"); }
  function seatNumber(player) { return player ? player.getAttribute("data-seat") : null; }

  // -- points: counted by value, or added up from the cards tapped ------------------------

  // A count that is not a whole number ("1x7") adds up to nothing: the points box keeps what it
  // has, and the server says what is wrong with the count, in the game's language.
  var WHOLE = /^\s*[0-9]{0,6}\s*$/;

  function sumClasses(player) {
    var total = 0, any = false, unread = false;
    player.querySelectorAll("input.class-input").forEach(function (input) {
      if (!WHOLE.test(input.value)) { unread = true; return; }
      var n = parseInt(input.value, 10);
      if (n > 0) { any = true; total += n * parseInt(input.dataset.points, 10); }
    });
    var penalty = player.querySelector("input.penalty-input");
    if (penalty && any && !unread) { penalty.value = String(total); }
  }

  // What the cards typed add up to with this game's values (RummyCards in card-picker.js reads
  // them, with the local letters of the picker's language), or null while one is not a card.
  function handPoints(text, form, picker) {
    var Cards = window.RummyCards;
    var points = Cards.json(form, "data-card-points");
    return (Cards.parseAll(text, Cards.lettersOf(picker)) || [null]).reduce(function (total, card) {
      var value = card && points[card.rank || "JK"];
      return total === null || typeof value !== "number" ? null : total + value;
    }, 0);
  }

  // The cards decide: the points box shows what they add up to with this game's values, and the
  // line over the picker says it (empty while a token is not a card yet: the server says which).
  function showCardPoints(input) {
    var form = input.closest("form");
    var seat = input.dataset.seat;
    var penalty = form && form.querySelector('input.penalty-input[data-seat="' + seat + '"]');
    var sum = document.getElementById("seat-" + seat + "-sum");
    var total = input.value.trim() ? handPoints(input.value, form, input.closest("[data-card-picker]")) : null;
    if (penalty && input.value.trim()) { penalty.value = total === null ? "" : String(total); }
    if (sum) { sum.textContent = total === null ? "" : sum.dataset.text.split("{points}").join(String(total)); }
  }

  function addSteppers(root) {
    root.querySelectorAll("input.class-input:not([data-stepper]), input.buys-input:not([data-stepper])").forEach(function (input) {
      input.setAttribute("data-stepper", "");
      var box = document.createElement("div");
      box.className = "stepper";
      var minus = document.createElement("button");
      minus.type = "button"; minus.textContent = "\u2212"; minus.setAttribute("aria-label", "\u22121");
      var plus = document.createElement("button");
      plus.type = "button"; plus.textContent = "+"; plus.setAttribute("aria-label", "+1");
      input.parentNode.insertBefore(box, input);
      box.appendChild(minus); box.appendChild(input); box.appendChild(plus);
      function step(by) {
        if (!WHOLE.test(input.value)) { return; }  // what was typed is not changed behind it
        var n = Math.max(0, (parseInt(input.value, 10) || 0) + by);
        var max = parseInt(input.getAttribute("data-high"), 10);
        if (!isNaN(max)) { n = Math.min(n, max); }
        input.value = n ? String(n) : "";
        input.dispatchEvent(new Event("input", { bubbles: true }));
      }
      minus.addEventListener("click", function () { step(-1); });
      plus.addEventListener("click", function () { step(1); });
    });
  }

  // Buys are limited per player and round: the box beside the field says how many are left.
  function showBuysLeft(input) {
    var output = document.getElementById(input.id + "-left");
    if (!output) { return; }
    var limit = parseInt(output.dataset.limit, 10) || 0;
    var left = Math.max(0, limit - (parseInt(input.value, 10) || 0));
    output.textContent = output.dataset.text.split("{left}").join(String(left));
    output.classList.toggle("is-none", left === 0);
  }

  // -- a player's hand under the row: the cards on the picker, or the count by value ------------

  function pickerOf(form) {
    var root = form.querySelector("[data-card-picker]");
    return root && root.cardPicker;
  }

  function showHand(player, what) {
    var hand = player.querySelector("details.hand");
    if (!hand) { return; }
    var stood = player.getBoundingClientRect().top;
    var closing = hand.open && hand.getAttribute("data-show") === what;
    hand.open = !closing;
    hand.setAttribute("data-show", what);
    player.querySelectorAll(".row-tool").forEach(function (tool) {
      tool.setAttribute("aria-expanded", String(hand.open && tool.getAttribute("data-open") === what));
    });
    if (closing) { return; }
    // One hand open at a time: the rows below stay in reach (what was counted stays in them).
    player.closest("form").querySelectorAll("details.hand[open]").forEach(function (other) {
      if (other !== hand) { showHand(playerOf(other), other.getAttribute("data-show")); }
    });
    if (what === "cards") {
      var picker = pickerOf(player.closest("form"));
      var field = hand.querySelector("[data-cp-field]");
      if (picker && field) { picker.activate(field); }
    }
    lastSeat = seatNumber(player);
    // Another player's picker closed above this row: the page got shorter above it. The row
    // stays where the thumb tapped it (else what was opened ends above the screen).
    window.scrollBy(0, player.getBoundingClientRect().top - stood);
    bringIntoReach(player);
  }

  // An opened hand (the picker is tall) goes up under the pinned head when its foot would be
  // under the save bar: the thumb reaches every key without scrolling.
  function bringIntoReach(player) {
    var bar = document.getElementById("save-bar");
    var floor = window.innerHeight - (bar ? bar.getBoundingClientRect().height : 0);
    if (player.getBoundingClientRect().bottom > floor) {
      player.scrollIntoView({ block: "start" });
    }
  }

  // The seat marked as gone out holds no hand: its row has nothing to type, its hand is closed.
  function outSeat(form) {
    var radio = form.querySelector('input[name="went_out"]:checked');
    return radio ? radio.value : null;
  }

  function closeOutHand(form) {
    var out = outSeat(form);
    form.querySelectorAll(".player").forEach(function (player) {
      if (seatNumber(player) !== out) { return; }
      var hand = player.querySelector("details.hand");
      if (hand && hand.open) { showHand(player, hand.getAttribute("data-show")); }
    });
  }

  // -- Next: from player to player (the number pad's Next key does the same) --------------------

  var lastSeat = null;

  function nextPlayer(form) {
    var players = Array.prototype.slice.call(form.querySelectorAll(".player"));
    var out = outSeat(form);
    var active = document.activeElement;
    var here = (active && active !== document.body && playerOf(active)) ||
      players.filter(function (p) { return seatNumber(p) === lastSeat; })[0];
    var start = here ? players.indexOf(here) : -1;
    // Tapping cards or counting: the next player's hand opens the same way.
    var open = here && here.querySelector("details.hand[open]");
    var picking = open && open.getAttribute("data-show");
    for (var i = start + 1; i < players.length; i++) {
      if (seatNumber(players[i]) === out) { continue; }
      if (picking) {
        showHand(players[i], picking);
      } else {
        players[i].querySelector("input.penalty-input").focus();
      }
      lastSeat = seatNumber(players[i]);
      return;
    }
    if (picking) { showHand(here, picking); }
    var save = form.querySelector("button[name=save]");
    if (save) { save.focus(); }
  }

  document.addEventListener("click", function (event) {
    var tool = event.target.closest(".round-form .row-tool");
    if (tool) { showHand(playerOf(tool), tool.getAttribute("data-open")); return; }
    if (event.target.closest("#next-player")) { nextPlayer(event.target.closest("form")); return; }
    var link = event.target.closest("#error-summary a[href^='#']");
    if (link) { event.preventDefault(); goToProblem(link.getAttribute("href").slice(1)); return; }
    if (event.target.closest("#share-result")) { share(event.target.closest("#share-result")); }
  });

  // Tapping Next must not close the number pad: the focus stays in the field until Next moves it.
  document.addEventListener("pointerdown", function (event) {
    if (event.target.closest("#next-player")) { event.preventDefault(); }
  });

  document.addEventListener("keydown", function (event) {
    var input = event.target;
    if (event.key === "Enter" && input.matches && input.matches(".round-form input.penalty-input")) {
      event.preventDefault();
      nextPlayer(input.closest("form"));
    }
  });

  document.addEventListener("focusin", function (event) {
    var player = event.target.closest && event.target.closest(".round-form .player");
    if (player) { lastSeat = seatNumber(player); }
  });

  document.addEventListener("input", function (event) {
    var target = event.target;
    if (target.matches("input.buys-input")) {
      showBuysLeft(target);
    } else if (target.matches("input.class-input")) {
      var player = playerOf(target);
      if (player) { sumClasses(player); }
    } else if (target.matches(".round-form .cards-input")) {
      showCardPoints(target);
    } else if (target.matches("input[data-player-name]")) {
      nameDealers(target.form);
    }
  });

  document.addEventListener("change", function (event) {
    if (event.target.name === "went_out") {
      var form = event.target.closest("form");
      if (form) { closeOutHand(form); }
    }
  });

  // -- problems: the summary is focused; its links go to the field and open what hides it -------

  function goToProblem(id) {
    var target = document.getElementById(id);
    if (!target) { return; }
    var hand = target.closest("details.hand");
    if (hand && !hand.open) {
      showHand(playerOf(hand), target.closest(".by-class") ? "count" : "cards");
    }
    target.focus();
    target.scrollIntoView({ block: "center" });
  }

  function focusProblems(root) {
    var summary = (root.querySelector ? root : document).querySelector("#error-summary");
    if (summary && document.activeElement !== summary) {
      summary.focus();
    }
  }

  // -- the first dealer, chosen by name as the names are typed --------------------------------

  function nameDealers(form) {
    var select = form && form.querySelector("select[data-first-dealer]");
    if (!select) { return; }
    var inputs = form.querySelectorAll("input[data-player-name]");
    var firstNamed = null;
    Array.prototype.forEach.call(select.options, function (option) {
      var input = inputs[parseInt(option.value, 10)];
      var name = input ? input.value.trim() : "";
      option.textContent = name || option.getAttribute("data-label") || option.textContent;
      option.hidden = option.disabled = !name;
      if (name && firstNamed === null) { firstNamed = option; }
    });
    var chosen = select.options[select.selectedIndex];
    if ((!chosen || chosen.disabled) && firstNamed) { select.value = firstNamed.value; }
  }

  function startDealers(root) {
    root.querySelectorAll("select[data-first-dealer]").forEach(function (select) {
      Array.prototype.forEach.call(select.options, function (option) {
        option.setAttribute("data-label", option.textContent);
      });
      select.disabled = false;
      nameDealers(select.form);
    });
  }

  // -- sharing a result: the phone's own sheet where there is one, else the link copied -------

  function share(button) {
    var url = button.getAttribute("data-share-url");
    var text = button.getAttribute("data-share-text");
    var status = button.parentNode.querySelector(".share-status");
    if (navigator.share) {
      navigator.share({ title: document.title, text: text, url: url }).catch(function () {});
      return;
    }
    if (navigator.clipboard) {
      navigator.clipboard.writeText(text + " " + url).then(function () {
        if (status) { status.textContent = button.getAttribute("data-copied"); }
      });
    }
  }

  // -- the score table's names pin under the game's head: as far down as the head reaches ---

  function measureHead() {
    var head = document.getElementById("game-head");
    var height = head ? head.getBoundingClientRect().height : 0;
    document.documentElement.style.setProperty("--game-head-height", height + "px");
  }

  var headWatch = window.ResizeObserver ? new ResizeObserver(measureHead) : null;

  function watchHead() {
    var head = document.getElementById("game-head");
    if (head && headWatch && !head.dataset.watched) {
      head.dataset.watched = "1";
      headWatch.observe(head);
    }
    measureHead();
  }

  // -- another phone moved the game on under this form ---------------------------------------
  // The polled score table says the game's version and the round it is at. Where that is past
  // what the round form was made from, the form says so at once (in the save bar, where the
  // thumb is) and offers to go on with the round the game is at, keeping what was typed.

  function fill(text, number) { return (text || "").split("{number}").join(String(number)); }

  function gameMoved() {
    var live = document.getElementById("live");
    var form = document.querySelector("form.round-form[data-outbox=add]");
    var box = document.getElementById("form-moved");
    if (!live || !form || !box || !live.dataset.version || form.dataset.outboxBusy) { return; }
    var moved = Number(live.dataset.version) > Number(form.elements.version.value || "0");
    if (!moved) { box.hidden = true; return; }
    var mine = Number(form.elements.round.value || form.dataset.outboxRound || "0");
    var next = Number(live.dataset.nextRound || "0");
    var said;
    if (!next) {
      said = fill(box.dataset.forward, mine);
    } else if (next > mine) {
      said = fill(box.dataset.forward, mine);
    } else if (next < mine) {
      said = fill(box.dataset.back, next);
    } else {
      said = box.dataset.changed;
    }
    var text = box.querySelector(".form-moved-text");
    var button = box.querySelector("#form-move-on");
    var line = said + ". " + box.dataset.kept;
    if (box.hidden || text.textContent !== line) {
      text.textContent = line;
      button.textContent = next ? fill(box.dataset.go, next) : box.dataset.over;
      box.hidden = false;
      if (window.RummySay) { window.RummySay(line); }
    }
  }

  // Go on with the round the game is at: the form's round, version and title follow it, the
  // dealer's mark moves; every field keeps what was typed.
  function goOn(form) {
    var live = document.getElementById("live");
    var box = document.getElementById("form-moved");
    if (!live || !live.dataset.nextRound) { window.location.reload(); return; }
    form.elements.version.value = live.dataset.version;
    form.elements.round.value = live.dataset.nextRound;
    form.dataset.outboxRound = live.dataset.nextRound;
    if (form.elements["Idempotency-Key"] && window.crypto && window.crypto.randomUUID) {
      form.elements["Idempotency-Key"].value = window.crypto.randomUUID();
    }
    var title = document.getElementById("form-title");
    if (title) { title.textContent = live.dataset.nextTitle; }
    var mark = form.querySelector(".dealer-mark");
    var dealer = form.querySelector('.player[data-seat="' + live.dataset.nextDealer + '"] .player-name');
    if (mark && dealer) { dealer.appendChild(mark); }
    form.querySelectorAll("#conflict, .notice").forEach(function (node) { node.remove(); });
    if (box) { box.hidden = true; }
    var first = form.querySelector("input.penalty-input");
    if (title) { title.focus({ preventScroll: true }); } else if (first) { first.focus(); }
  }

  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest("#form-move-on");
    if (button) { goOn(button.closest("form")); }
  });

  function init(root) {
    root = root || document;
    watchHead();
    gameMoved();
    addSteppers(root);
    // The picker may not be started yet (htmx:load reaches this script first): start it here.
    if (window.CardPicker) { window.CardPicker.start(root); }
    startDealers(root);
    root.querySelectorAll(".round-form .cards-input").forEach(function (input) {
      if (input.value.trim()) { showCardPoints(input); }
    });
    focusProblems(root);
  }
  document.addEventListener("DOMContentLoaded", function () { init(document); });
  document.addEventListener("htmx:load", function (event) { init(event.target); });
})();

// Keep the screen on while a game is open, where the phone can (Screen Wake Lock): a switch on
// the game's pages, remembered on this phone; silently absent where unsupported. htmx may swap
// the page's body: each new switch is shown and wired as it comes (htmx:load).
(function () {
  "use strict";
  if (!("wakeLock" in navigator)) { return; }
  var lock = null;

  function wanted() { return window.localStorage.getItem("rummy-wake-lock") === "on"; }

  function hold() {
    if (!wanted() || lock || document.visibilityState !== "visible") { return; }
    if (!document.querySelector("input[data-wake-lock]")) { return; }
    navigator.wakeLock.request("screen").then(function (sentinel) {
      lock = sentinel;
      lock.addEventListener("release", function () { lock = null; });
    }).catch(function () { /* refused (battery saver): the switch stays as chosen */ });
  }

  function wire(root) {
    root.querySelectorAll("input[data-wake-lock]").forEach(function (box) {
      if (box.dataset.wired) { return; }
      box.dataset.wired = "1";
      box.closest("label").hidden = false;
      box.checked = wanted();
      box.addEventListener("change", function () {
        window.localStorage.setItem("rummy-wake-lock", box.checked ? "on" : "off");
        if (box.checked) {
          hold();
        } else if (lock) {
          lock.release();
        }
      });
    });
    hold();
  }

  wire(document);
  document.addEventListener("htmx:load", function (event) { wire(event.target); });
  // A lock ends when the page is hidden: take it again when the game is back in view.
  document.addEventListener("visibilitychange", hold);
})();
