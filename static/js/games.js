// Games: live sums while counting a hand by value class, and +/- steppers for thumbs.
// Everything here is an extra: the forms work and are checked on the server without it.
(function () {
  "use strict";

  function seatOf(el) { return el.closest("fieldset.seat"); }

  function sumClasses(seat) {
    var total = 0, any = false;
    seat.querySelectorAll("input.class-input").forEach(function (input) {
      var n = parseInt(input.value, 10);
      if (n > 0) { any = true; total += n * parseInt(input.dataset.points, 10); }
    });
    var penalty = seat.querySelector("input.penalty-input");
    if (penalty && any) { penalty.value = String(total); }
  }

  // Mirrors referee/engine/cards.py (as static/js/card-picker.js does): rank then suit, jokers
  // JK * 🃏 with an optional "=7H", local rank letters from the picker of the page's language.
  var SUITS = "CDHS\u2663\u2666\u2665\u2660\u2667\u2662\u2661\u2664";
  var RANKS = { A: "A", T: "10", J: "J", Q: "Q", K: "K" };
  var JOKERS = { JK: true, "*": true, "\uD83C\uDCCF": true };

  function jsonData(el, name) {
    try { return JSON.parse((el && el.getAttribute(name)) || "{}"); } catch (e) { return {}; }
  }

  function handPoints(text, form, picker) {
    var points = jsonData(form, "data-card-points");
    var local = jsonData(picker, "data-ranks");
    var tokens = text.replace(/[\uFE0E\uFE0F\u200B\u200D]/g, "").toUpperCase()
      .split(/[\s,|]+/).filter(Boolean);
    var total = 0;
    for (var i = 0; i < tokens.length; i++) {
      var head = tokens[i].split("=")[0];
      if (JOKERS[head]) { total += points.JK || 0; continue; }
      var chars = Array.from(head);
      if (chars.length < 2 || SUITS.indexOf(chars.pop()) < 0) { return null; }
      var rankText = chars.join("");
      var rank = /^([2-9]|10)$/.test(rankText) ? rankText : RANKS[rankText];
      if (Object.prototype.hasOwnProperty.call(local, rankText)) { rank = local[rankText]; }
      if (!rank || points[rank] === undefined) { return null; }
      total += points[rank];
    }
    return total;
  }

  function addSteppers(root) {
    root.querySelectorAll("input.class-input:not([data-stepper]), input.buys-input:not([data-stepper])").forEach(function (input) {
      input.setAttribute("data-stepper", "");
      var box = document.createElement("div");
      box.className = "stepper";
      var minus = document.createElement("button");
      minus.type = "button"; minus.textContent = "−"; minus.setAttribute("aria-label", "−1");
      var plus = document.createElement("button");
      plus.type = "button"; plus.textContent = "+"; plus.setAttribute("aria-label", "+1");
      input.parentNode.insertBefore(box, input);
      box.appendChild(minus); box.appendChild(input); box.appendChild(plus);
      function step(by) {
        var n = Math.max(0, (parseInt(input.value, 10) || 0) + by);
        var max = parseInt(input.getAttribute("max"), 10);
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

  // The shared card picker taps into one seat's field at a time: never into the seat marked as
  // gone out (its hand is not counted), neither at first nor when that seat is marked later.
  function outSeat(form) {
    var radio = form.querySelector('input[name="went_out"]:checked');
    return radio ? radio.value : null;
  }

  function retarget(form) {
    var root = form.querySelector("[data-card-picker]");
    var picker = root && root.cardPicker;
    if (!picker || !picker.fields.length) { return; }
    var out = outSeat(form);
    var seatOfField = function (field) {
      var input = field.querySelector("[data-seat]");
      return input ? input.dataset.seat : null;
    };
    picker.fields.forEach(function (field, index) {
      var isOut = out !== null && seatOfField(field) === out;
      field.hidden = isOut;
      var button = root.querySelector('[data-cp-target="' + index + '"]');
      if (button) { button.hidden = isOut; }
    });
    var start = picker.fields.indexOf(picker.active);
    if (start < 0) { start = 0; }
    if (out === null || seatOfField(picker.fields[start]) !== out) { return; }
    for (var step = 1; step < picker.fields.length; step++) {
      var field = picker.fields[(start + step) % picker.fields.length];
      if (seatOfField(field) !== out) { picker.activate(field); return; }
    }
  }

  document.addEventListener("input", function (event) {
    var target = event.target;
    if (target.matches("input.buys-input")) {
      showBuysLeft(target);
    } else if (target.matches("input.class-input")) {
      var seat = seatOf(target);
      if (seat) { sumClasses(seat); }
    } else if (target.matches(".cards-input, textarea[data-seat], input[data-seat]") &&
               !target.matches(".penalty-input")) {
      // The cards decide: the points box shows what they add up to with this game's values
      // (empty while a token is not a card yet: the server then says which one).
      var form = target.closest("form");
      var penalty = form && form.querySelector('input.penalty-input[data-seat="' + target.dataset.seat + '"]');
      if (penalty && target.value.trim()) {
        var total = handPoints(target.value, form, target.closest("[data-card-picker]"));
        penalty.value = total === null ? "" : String(total);
      }
    }
  });

  // The round form tells which seat went out: its own penalty box is not needed then.
  document.addEventListener("change", function (event) {
    if (event.target.name === "went_out") {
      document.querySelectorAll("fieldset.seat").forEach(function (seat) {
        var radio = seat.querySelector('input[name="went_out"]');
        seat.classList.toggle("is-out", !!(radio && radio.checked));
      });
      var form = event.target.closest("form");
      if (form) { retarget(form); }
    }
  });

  function init(root) {
    root = root || document;
    addSteppers(root);
    // The picker may not be started yet (htmx:load reaches this script first): start it here.
    if (window.CardPicker) { window.CardPicker.start(root); }
    var forms = root.matches && root.matches("form.round-form") ? [root] : [];
    root.querySelectorAll("form.round-form").forEach(function (form) { forms.push(form); });
    forms.forEach(retarget);
  }
  document.addEventListener("DOMContentLoaded", function () { init(document); });
  document.addEventListener("htmx:load", function (event) { init(event.target); });
})();

// Keep the screen on while a game is open, where the phone can (Screen Wake Lock): a switch in
// the game's header, remembered on this phone; silently absent where unsupported.
(function () {
  "use strict";
  var box = document.querySelector("input[data-wake-lock]");
  if (!box || !("wakeLock" in navigator)) { return; }
  var lock = null;
  box.closest("label").hidden = false;
  box.checked = window.localStorage.getItem("rummy-wake-lock") === "on";

  function hold() {
    if (!box.checked || lock || document.visibilityState !== "visible") { return; }
    navigator.wakeLock.request("screen").then(function (sentinel) {
      lock = sentinel;
      lock.addEventListener("release", function () { lock = null; });
    }).catch(function () { /* refused (battery saver): the switch stays as chosen */ });
  }

  box.addEventListener("change", function () {
    window.localStorage.setItem("rummy-wake-lock", box.checked ? "on" : "off");
    if (box.checked) {
      hold();
    } else if (lock) {
      lock.release();
    }
  });
  // A lock ends when the page is hidden: take it again when the game is back in view.
  document.addEventListener("visibilitychange", hold);
  hold();
})();
