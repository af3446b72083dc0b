/* The trainer (templates/training/): what a player gets wrong, remembered on this phone.
 *
 * A Leitner box per rule (the referee's reason code), per variant, in localStorage (no account):
 * a rule missed goes into box 1; answered right again, it moves up a box; right in box 3, it
 * leaves. A rule in box 1 comes back in the next session, box 2 two sessions on, box 3 four:
 * the start form asks the session for the kinds of question those rules came from (`due`), and
 * the server puts a near miss of each kind first (referee/web/training/session.py). The "my
 * rules" list shows the rules in the boxes and links to the rule card of just those rules.
 * Without JavaScript (or storage) the trainer works the same and remembers nothing.
 */
(function () {
  "use strict";

  var KEY = "rummy-trainer";
  var GAPS = { 1: 1, 2: 2, 3: 4 }; // sessions until a rule in each box comes back
  var KEPT_ANSWERS = 200;

  function load() {
    try {
      var state = JSON.parse(window.localStorage.getItem(KEY) || "{}");
      if (state && typeof state === "object") {
        state.sessions = state.sessions || 0;
        state.rules = state.rules || {};
        state.answered = state.answered || [];
        return state;
      }
    } catch (error) { /* storage off or spoilt: start afresh */ }
    return { sessions: 0, rules: {}, answered: [] };
  }

  function save(state) {
    try { window.localStorage.setItem(KEY, JSON.stringify(state)); } catch (error) { /* full or off */ }
  }

  function boxOf(state, variant) {
    if (!state.rules[variant]) { state.rules[variant] = {}; }
    return state.rules[variant];
  }

  /* An answer judged on this page: the rules it was about move down to box 1 or up a box. */
  function record(element) {
    var answer;
    try { answer = JSON.parse(element.getAttribute("data-trainer-record")); } catch (error) { return; }
    if (!answer || !answer.key) { return; }
    var state = load();
    if (state.answered.indexOf(answer.key) !== -1) { return; } // the page again (back, reload)
    state.answered.push(answer.key);
    state.answered = state.answered.slice(-KEPT_ANSWERS);
    var box = boxOf(state, answer.variant);
    (answer.rules || []).forEach(function (rule) {
      var held = box[rule.code];
      if (!answer.right) {
        box[rule.code] = { box: 1, kind: answer.kind, message: rule.message, last: state.sessions };
      } else if (held) {
        held.box += 1;
        held.last = state.sessions;
        if (held.box > 3) { delete box[rule.code]; }
      }
    });
    save(state);
  }

  /* The kinds whose rules are due in the session about to start, the lowest box first. */
  function dueKinds(state, variant, kinds, most) {
    var box = boxOf(state, variant);
    var due = Object.keys(box).map(function (code) { return box[code]; }).filter(function (rule) {
      return state.sessions - rule.last >= GAPS[rule.box] && kinds.indexOf(rule.kind) !== -1;
    });
    due.sort(function (a, b) { return a.box - b.box; });
    var chosen = [];
    due.forEach(function (rule) {
      if (chosen.indexOf(rule.kind) === -1 && chosen.length < most) { chosen.push(rule.kind); }
    });
    return chosen;
  }

  function start(form) {
    var kinds = (form.getAttribute("data-kinds") || "").split(",");
    var variant = form.querySelector("[data-trainer-variant]");
    form.addEventListener("submit", function () {
      var state = load();
      state.sessions += 1;
      save(state);
      var most = parseInt(form.getAttribute("data-max-due"), 10) || 0; // session.MAX_DUE
      var due = dueKinds(state, variant.value, kinds, most);
      var field = form.querySelector("[data-trainer-due]");
      field.value = due.join(",");
      field.disabled = due.length === 0;
    });
    variant.addEventListener("change", function () {
      // The house rules the page came with are that table's variant's: another variant is
      // asked for by its own rules.
      var rules = form.querySelector("[data-trainer-house-rules]");
      if (rules) {
        var same = rules.getAttribute("data-trainer-house-rules") === variant.value;
        rules.disabled = !same;
        form.querySelector("[data-trainer-house-rules-words]").hidden = !same;
      }
      document.querySelectorAll("[data-trainer-my-rules]").forEach(function (section) {
        section.setAttribute("data-variant", variant.value);
        section.removeAttribute("data-house-rules");
        showMyRules(section);
      });
    });
  }

  function showMyRules(section) {
    var variant = section.getAttribute("data-variant");
    var box = boxOf(load(), variant);
    var codes = Object.keys(box).sort(function (a, b) { return box[a].box - box[b].box; });
    var list = section.querySelector("[data-trainer-rule-list]");
    list.textContent = "";
    codes.forEach(function (code) {
      var item = document.createElement("li");
      item.setAttribute("data-code", code);
      item.textContent = box[code].message + " ";
      var mark = document.createElement("span");
      mark.className = "field-hint";
      mark.textContent = "(" + section.getAttribute("data-box-text").replace("{box}", box[code].box) + ")";
      item.appendChild(mark);
      list.appendChild(item);
    });
    var pdf = section.getAttribute("data-pdf").replace(/\/[^/]*\/my-rules\.pdf$/, "/" + encodeURIComponent(variant) + "/my-rules.pdf");
    var query = "?lang=" + encodeURIComponent(section.getAttribute("data-lang")) + "&codes=" + codes.map(encodeURIComponent).join(",");
    var houseRules = section.getAttribute("data-house-rules");
    if (houseRules) { query += "&house_rules=" + encodeURIComponent(houseRules); }
    section.querySelector("[data-trainer-pdf]").setAttribute("href", pdf + query);
    section.hidden = codes.length === 0;
  }

  function init() {
    document.querySelectorAll("[data-trainer-record]").forEach(record);
    document.querySelectorAll("[data-trainer-start]").forEach(start);
    document.querySelectorAll("[data-trainer-my-rules]").forEach(showMyRules);
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", init);
  } else {
    init();
  }
}());
