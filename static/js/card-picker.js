// Card notation and the card picker. RummyCards reads notation for every page's script (the
// picker, the round screen's sums): exactly what referee/engine/cards.py parse_card and
// parse_cards accept, with the local letters the page gives (web/vocabulary/picker.py:
// German D♣, Dutch 7R; tests/browser/test_card_notation_browser.py holds the two together).
(function () {
  "use strict";

  var SUITS = {}, RANKS = { T: "10" };  // C D H S and the suit symbols, full and outlined
  Array.from("CDHS\u2663\u2666\u2665\u2660\u2667\u2662\u2661\u2664").forEach(function (c, i) { SUITS[c] = "CDHS"[i % 4]; });
  "A 2 3 4 5 6 7 8 9 10 J Q K".split(" ").forEach(function (r) { RANKS[r] = r; });
  var JOKERS = { JK: true, "*": true, "\uD83C\uDCCF": true };
  var INVISIBLE = /[\uFE0E\uFE0F\u200B\u200D]/g;
  // Python's whitespace (str.isspace, re's \s), which is not quite JavaScript's \s.
  var SPACE = "\\t-\\r\\x1c-\\x20\\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000";
  var SEPARATORS = new RegExp("[" + SPACE + ",]+");
  var EDGES = new RegExp("^[" + SPACE + "]+|[" + SPACE + "]+$", "g");
  var MAX_TOKEN = 16, MAX_CARDS = 200;

  function own(table, key) { return Object.prototype.hasOwnProperty.call(table, key); }
  function pick(local, table, key) { return own(local, key) ? local[key] : (own(table, key) ? table[key] : null); }

  function natural(text, letters) {  // upper-case text: a natural card, or null
    var chars = Array.from(text);
    var suitText = chars.pop();
    var rank = chars.length ? pick(letters.ranks, RANKS, chars.join("")) : null;
    var suit = own(SUITS, suitText) ? SUITS[suitText] : pick(letters.suits, {}, suitText);
    return rank && suit ? { code: rank + suit, rank: rank, suit: suit } : null;
  }

  // One card, {code, rank, suit} or a joker {code: "JK", standsFor} (JK=7H: the card it stands
  // for, else null), or null where the engine would refuse it.
  function parse(token, letters) {
    letters = letters || { ranks: {}, suits: {} };
    var text = String(token).replace(EDGES, "").replace(INVISIBLE, "").toUpperCase();
    if (!text || Array.from(text).length > MAX_TOKEN) { return null; }
    var eq = text.indexOf("=");
    if (!own(JOKERS, eq < 0 ? text : text.slice(0, eq))) { return eq < 0 ? natural(text, letters) : null; }
    var standsFor = eq < 0 ? null : natural(text.slice(eq + 1), letters);
    return eq < 0 || standsFor ? { code: "JK", standsFor: standsFor } : null;
  }

  // Cards apart by spaces or commas: their list, or null when one is not a card or there are
  // more than a hand may hold.
  function parseAll(text, letters) {
    var cards = String(text).split(SEPARATORS).filter(Boolean).map(function (t) { return parse(t, letters); });
    return cards.length > MAX_CARDS || cards.indexOf(null) >= 0 ? null : cards;
  }

  function json(el, name) {
    try { return JSON.parse((el && el.getAttribute(name)) || "{}"); } catch (e) { return {}; }
  }

  // `self`: a page's window, or the service worker, which reads answers typed without signal
  // (static/js/training-offline.js).
  self.RummyCards = {
    parse: parse, parseAll: parseAll, json: json, SPACE: SPACE,
    lettersOf: function (el) { return { ranks: json(el, "data-ranks"), suits: json(el, "data-suits") }; }
  };
})();

// The picker (templates/_card_picker.html): a tap grid kept in sync with a text field of card
// notation. The field is what the form sends; the grid only writes into it and reads it back.
(function () {
  "use strict";
  if (typeof document === "undefined") { return; }  // the service worker: notation only

  var Cards = self.RummyCards;
  var SYMBOLS = { C: "\u2663", D: "\u2666", H: "\u2665", S: "\u2660" };
  // A token, or a meld separator (a new line or a bar) in fields that hold several melds.
  var PIECES = new RegExp("(\\r?\\n|\\|)|([^" + Cards.SPACE + ",|]+)", "g");

  function fill(template, card, count) {
    return String(template).split("{card}").join(card).split("{count}").join(count);
  }

  function Picker(root) {
    this.root = root;
    this.local = Cards.lettersOf(root);  // the language's rank letters, and Dutch R, K
    this.texts = JSON.parse(root.getAttribute("data-texts") || "{}");
    this.decks = parseInt(root.getAttribute("data-decks"), 10) || 1;
    this.jokers = parseInt(root.getAttribute("data-jokers"), 10) || 0;
    this.letters = {}; // canonical rank -> the letter this language writes
    for (var letter in this.local.ranks) {
      if (Object.prototype.hasOwnProperty.call(this.local.ranks, letter)) {
        this.letters[this.local.ranks[letter]] = letter;
      }
    }
    this.fields = Array.prototype.slice.call(root.querySelectorAll("[data-cp-field]"));
    this.pad = root.querySelector("[data-cp-pad]");
    this.keys = Array.prototype.slice.call(this.pad.querySelectorAll("[data-card]"));
    var self = this;
    this.keys.forEach(function (key) {
      var code = key.getAttribute("data-card");
      key.cpText = code === "JK" ? "JK" : self.display(Cards.parse(code));
      key.cpName = key.getAttribute("aria-label");
      key.cpBadge = document.createElement("span");
      key.cpBadge.className = "cp-badge";
      key.cpBadge.setAttribute("aria-hidden", "true");
      key.cpBadge.hidden = true;
      key.appendChild(key.cpBadge);
    });
    this.status = root.querySelector("[data-cp-status]");
    // Inline: no switch of fields; the grid moves to just under the field that has focus.
    this.inline = root.hasAttribute("data-cp-inline");
    this.active = this.fields[0];
    this.bind();
    if (!this.inline) { this.buildTargets(); }
    this.pad.hidden = false;
    this.fields.forEach(function (field) { self.renderChosen(field); });
    this.renderKeys();
  }

  Picker.prototype.input = function (field) {
    return field.querySelector("[data-cp-input]");
  };

  // One token -> {code, text, suit} or null when it is not a card.
  Picker.prototype.parse = function (token) {
    var card = Cards.parse(token, this.local);
    if (!card) { return null; }
    var text = card.suit ? this.display(card) : (card.standsFor ? "JK=" + this.display(card.standsFor) : "JK");
    return { code: card.code, text: text, suit: card.suit };
  };

  Picker.prototype.display = function (card) {
    return (this.letters[card.rank] || card.rank) + SYMBOLS[card.suit];
  };

  // The field's text as tokens with their places, grouped into melds for multi fields.
  Picker.prototype.read = function (field) {
    var value = this.input(field).value;
    var multi = field.hasAttribute("data-cp-multi");
    var tokens = [];
    var group = 0;
    var match;
    PIECES.lastIndex = 0;
    while ((match = PIECES.exec(value)) !== null) {
      if (match[1]) {
        if (multi && tokens.length && tokens[tokens.length - 1].group === group) { group += 1; }
        continue;
      }
      tokens.push({
        start: match.index,
        end: match.index + match[0].length,
        raw: match[0],
        card: this.parse(match[0]),
        group: group
      });
    }
    return tokens;
  };

  Picker.prototype.counts = function (field) {
    var counts = {};
    this.read(field).forEach(function (token) {
      if (token.card) { counts[token.card.code] = (counts[token.card.code] || 0) + 1; }
    });
    return counts;
  };

  Picker.prototype.capOf = function (code) {
    return code === "JK" ? this.jokers : this.decks;
  };

  Picker.prototype.bind = function () {
    var self = this;
    this.pad.addEventListener("click", function (event) {
      var key = event.target.closest("[data-card]");
      var action = event.target.closest("[data-cp-action]");
      var target = event.target.closest("[data-cp-target]");
      if (key) { self.add(key); }
      else if (action) { self[action.getAttribute("data-cp-action")](); }
      else if (target) { self.activate(self.fields[parseInt(target.getAttribute("data-cp-target"), 10)]); }
    });
    this.fields.forEach(function (field) {
      var input = self.input(field);
      input.addEventListener("input", function () {
        self.renderChosen(field);
        if (field === self.active) { self.renderKeys(); }
      });
      input.addEventListener("focus", function () { self.activate(field); });
      field.querySelector("[data-cp-chosen]").addEventListener("click", function (event) {
        var chip = event.target.closest("[data-cp-remove]");
        self.activate(field);
        if (chip) { self.remove(field, parseInt(chip.getAttribute("data-cp-remove"), 10)); }
      });
    });
  };

  Picker.prototype.buildTargets = function () {
    var box = this.root.querySelector("[data-cp-targets]");
    if (this.fields.length < 2) { return; }
    var self = this;
    this.fields.forEach(function (field, index) {
      var button = document.createElement("button");
      button.type = "button";
      button.className = "cp-target";
      button.setAttribute("data-cp-target", String(index));
      button.textContent = field.getAttribute("data-cp-short");
      box.appendChild(button);
      self.fields[index].targetButton = button;
    });
    box.hidden = false;
  };

  Picker.prototype.activate = function (field) {
    if (!field) { return; }
    this.active = field;
    var self = this;
    this.fields.forEach(function (each) {
      var on = each === self.active;
      each.classList.toggle("cp-active", on && self.fields.length > 1);
      if (each.targetButton) { each.targetButton.setAttribute("aria-pressed", on ? "true" : "false"); }
    });
    var next = this.pad.querySelector("[data-cp-action=next]");
    next.hidden = !field.hasAttribute("data-cp-multi");
    if (this.inline && this.pad.parentNode !== field.parentNode) {
      field.parentNode.appendChild(this.pad);
    }
    this.renderKeys();
  };

  Picker.prototype.say = function (text) {
    this.status.textContent = text;
  };

  Picker.prototype.write = function (field, value) {
    var input = this.input(field);
    input.value = value;
    input.dispatchEvent(new Event("input", { bubbles: true }));
    input.dispatchEvent(new Event("change", { bubbles: true }));
  };

  Picker.prototype.add = function (key) {
    var field = this.active;
    var code = key.getAttribute("data-card");
    var text = key.cpText;
    if ((this.counts(field)[code] || 0) >= this.capOf(code) && !field.hasAttribute("data-cp-single")) {
      this.say(fill(this.texts.full, text, ""));
      return;
    }
    var value = this.input(field).value;
    if (field.hasAttribute("data-cp-single")) {
      value = text;
    } else {
      if (value && !/[\s,|]$/.test(value)) { value += " "; }
      value += text;
    }
    this.say("");
    this.write(field, value);
  };

  Picker.prototype.remove = function (field, index) {
    var tokens = this.read(field);
    var token = tokens[index];
    if (!token) { return; }
    var value = this.input(field).value;
    var end = token.end;
    while (end < value.length && (value[end] === " " || value[end] === ",")) { end += 1; }
    var start = token.start;
    if (end === value.length) {
      while (start > 0 && (value[start - 1] === " " || value[start - 1] === ",")) { start -= 1; }
    }
    this.write(field, value.slice(0, start) + value.slice(end));
  };

  Picker.prototype.undo = function () {
    var tokens = this.read(this.active);
    if (tokens.length) { this.remove(this.active, tokens.length - 1); }
  };

  Picker.prototype.clear = function () {
    this.write(this.active, "");
  };

  Picker.prototype.next = function () {
    var value = this.input(this.active).value.replace(/[ \t,]+$/, "");
    if (value && !/(\n|\|)$/.test(value)) { this.write(this.active, value + "\n"); }
  };

  Picker.prototype.renderKeys = function () {
    var counts = this.counts(this.active);
    var self = this;
    var single = this.active.hasAttribute("data-cp-single");
    this.keys.forEach(function (key) {
      var code = key.getAttribute("data-card");
      var count = counts[code] || 0;
      var cap = self.capOf(code);
      // The count is drawn by CSS from data-count: it is not part of the key's words (its
      // name says "2 chosen"), so what the key shows stays what its name starts with.
      var badge = key.cpBadge;
      badge.setAttribute("data-count", String(count));
      badge.hidden = single || count === 0;
      key.classList.toggle("cp-has", count > 0);
      key.classList.toggle("cp-full", !single && count >= cap);
      key.classList.toggle("cp-over", count > cap);
      var name = key.cpName;
      key.setAttribute("aria-label", count ? fill(self.texts.count, name, count) : name);
    });
  };

  Picker.prototype.renderChosen = function (field) {
    var box = field.querySelector("[data-cp-chosen]");
    var tokens = this.read(field);
    var multi = field.hasAttribute("data-cp-multi");
    var self = this;
    box.textContent = "";
    box.hidden = !tokens.length;
    var list = null;
    var group = -1;
    tokens.forEach(function (token, index) {
      if (token.group !== group) {
        group = token.group;
        list = document.createElement("ul");
        list.className = "cp-chips";
        if (multi) {
          var title = document.createElement("li");
          title.className = "cp-group";
          title.textContent = fill(self.texts.meld, "", group + 1);
          list.appendChild(title);
        }
        box.appendChild(list);
      }
      var item = document.createElement("li");
      var chip = document.createElement("button");
      chip.type = "button";
      chip.setAttribute("data-cp-remove", String(index));
      if (token.card) {
        chip.className = "card cp-chip" + (token.card.suit ? " suit-" + token.card.suit.toLowerCase() : " joker");
        chip.textContent = token.card.text;
        chip.setAttribute("aria-label", fill(self.texts.remove, token.card.text, ""));
      } else {
        chip.className = "card cp-chip cp-bad";
        chip.textContent = token.raw + " ?";
        chip.title = fill(self.texts.unreadable, token.raw, "");
        chip.setAttribute("aria-label", fill(self.texts.remove, token.raw, ""));
      }
      item.appendChild(chip);
      list.appendChild(item);
    });
  };

  function start(scope) {
    (scope || document).querySelectorAll("[data-card-picker]").forEach(function (root) {
      if (root.cardPicker) { return; }
      root.cardPicker = new Picker(root);
      root.cardPicker.activate(root.cardPicker.active);
    });
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", function () { start(document); });
  } else {
    start(document);
  }
  // Pickers that htmx swaps in later.
  document.addEventListener("htmx:load", function (event) { start(event.target); });

  window.CardPicker = { start: start };
})();
