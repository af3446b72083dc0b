// A club's new game: before Start, the table the chosen variant is played by ("Shanghai: 3 to
// 6 players.") and how many are at the table now, members ticked and new names typed, said
// when it is too few or too many (once something is ticked or typed: a new club's page opens
// without a word against it). The form works without it (the server says the same after).
(function () {
  "use strict";

  function fill(text, values) {
    Object.keys(values).forEach(function (key) {
      text = text.split("{" + key + "}").join(String(values[key]));
    });
    return text;
  }

  function update(form) {
    var hint = form.querySelector("#player-limit");
    var count = form.querySelector("#players-count");
    var select = form.querySelector("select[name=variant]");
    if (!hint || !count || !select) { return; }
    var limits = JSON.parse(hint.dataset.limits || "{}")[select.value];
    if (!limits) { return; }
    var variant = select.options[select.selectedIndex].textContent.trim();
    hint.textContent = fill(hint.dataset.text, { variant: variant, low: limits[0], high: limits[1] });
    var at = form.querySelectorAll(".member-picks input:checked").length;
    form.querySelectorAll(".new-names input").forEach(function (input) {
      if (input.value.trim()) { at += 1; }
    });
    // Nobody at the table yet, before anything is ticked or typed: nothing is wrong yet.
    var untouched = at === 0 && !form.dataset.touched;
    var text = untouched ? count.dataset.text : at < limits[0] ? count.dataset.few : at > limits[1] ? count.dataset.many : count.dataset.text;
    count.textContent = fill(text, { num: at, variant: variant });
    count.classList.toggle("is-off", !untouched && (at < limits[0] || at > limits[1]));
  }

  function touched(form) {
    form.dataset.touched = "1";
    update(form);
  }

  function formOf(target) { return target.closest && target.closest(".club-new-game form"); }

  document.addEventListener("change", function (event) {
    var form = formOf(event.target);
    if (form) { touched(form); }
  });
  document.addEventListener("input", function (event) {
    var form = formOf(event.target);
    if (form) { touched(form); }
  });
  document.addEventListener("DOMContentLoaded", function () {
    document.querySelectorAll(".club-new-game form").forEach(update);
  });
})();
