// The card picker (templates/_card_picker.html): a tap grid kept in sync with a text field of
// card notation. The field is what the form sends; the grid only writes into it and reads it back.
// Mirrors referee/engine/cards.py parse_card: rank then suit, jokers JK * 🃏 (JK=7H declared),
// local letters of the page's language (German D♣ is the queen of clubs, Dutch 7R the seven
// of diamonds).
(function () {
  "use strict";

  var SUITS = {
    C: "C", D: "D", H: "H", S: "S",
    "\u2663": "C", "\u2666": "D", "\u2665": "H", "\u2660": "S",
    "\u2667": "C", "\u2662": "D", "\u2661": "H", "\u2664": "S"
  };
  var SYMBOLS = { C: "\u2663", D: "\u2666", H: "\u2665", S: "\u2660" };
  var RANKS = {
    A: "A", "2": "2", "3": "3", "4": "4", "5": "5", "6": "6", "7": "7", "8": "8", "9": "9",
    "10": "10", T: "10", J: "J", Q: "Q", K: "K"
  };
  var JOKERS = { JK: true, "*": true, "\uD83C\uDCCF": true };
  var INVISIBLE = /[\uFE0E\uFE0F\u200B\u200D]/g;
  // A token, or a meld separator (a new line or a bar) in fields that hold several melds.
  var PIECES = /(\r?\n|\|)|([^\s,|]+)/g;
  var MAX_TOKEN = 16;

  function fill(template, card, count) {
    return String(template).split("{card}").join(card).split("{count}").join(count);
  }

  function Picker(root) {
    this.root = root;
    this.local = JSON.parse(root.getAttribute("data-ranks") || "{}");
    this.localSuits = JSON.parse(root.getAttribute("data-suits") || "{}");  // Dutch R, K
    this.texts = JSON.parse(root.getAttribute("data-texts") || "{}");
    this.decks = parseInt(root.getAttribute("data-decks"), 10) || 1;
    this.jokers = parseInt(root.getAttribute("data-jokers"), 10) || 0;
    this.letters = {}; // canonical rank -> the letter this language writes
    for (var letter in this.local) {
      if (Object.prototype.hasOwnProperty.call(this.local, letter)) {
        this.letters[this.local[letter]] = letter;
      }
    }
    this.fields = Array.prototype.slice.call(root.querySelectorAll("[data-cp-field]"));
    this.pad = root.querySelector("[data-cp-pad]");
    this.keys = Array.prototype.slice.call(this.pad.querySelectorAll("[data-card]"));
    var self = this;
    this.keys.forEach(function (key) {
      var code = key.getAttribute("data-card");
      key.cpText = code === "JK" ? "JK" : self.display(self.natural(code));
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

  Picker.prototype.natural = function (text) {
    var chars = Array.from(text);
    if (chars.length < 2) { return null; }
    var last = chars.pop();
    var suit = SUITS[last] ||
      (Object.prototype.hasOwnProperty.call(this.localSuits, last) ? this.localSuits[last] : null);
    var rankText = chars.join("");
    var rank = RANKS[rankText];
    if (Object.prototype.hasOwnProperty.call(this.local, rankText)) {
      rank = RANKS[this.local[rankText]];
    }
    if (!suit || !rank) { return null; }
    return { code: rank + suit, rank: rank, suit: suit };
  };

  // One token -> {code, text, suit} or null when it is not a card.
  Picker.prototype.parse = function (token) {
    var text = token.replace(INVISIBLE, "").toUpperCase();
    if (!text || Array.from(text).length > MAX_TOKEN) { return null; }
    var eq = text.indexOf("=");
    var head = eq < 0 ? text : text.slice(0, eq);
    if (JOKERS[head]) {
      if (eq < 0) { return { code: "JK", text: "JK", suit: null }; }
      var declared = this.natural(text.slice(eq + 1));
      if (!declared) { return null; }
      return { code: "JK", text: "JK=" + this.display(declared), suit: null };
    }
    if (eq >= 0) { return null; }
    var card = this.natural(text);
    if (!card) { return null; }
    return { code: card.code, text: this.display(card), suit: card.suit };
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
