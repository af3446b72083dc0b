// Names typed (a new game's players, a club's newcomers, an evening's check-in): a name has at
// most so many letters (data-max-letters). How many are over is said under the field as it is
// typed (a maxlength would cut the name without a word), and the field is marked; the server
// refuses such a name and keeps what was typed. Loaded only where names are typed.
(function () {
  "use strict";

  function lettersOver(input) {
    var most = Number(input.dataset.maxLetters);
    var over = Array.from(input.value.trim().replace(/\s+/g, " ")).length - most;
    var out = document.getElementById(input.id + "-over");
    if (!out) {
      out = document.createElement("span");
      out.id = input.id + "-over";
      out.className = "letters-over";
      out.setAttribute("aria-live", "polite");
      input.insertAdjacentElement("afterend", out);
      var described = input.getAttribute("aria-describedby");
      input.setAttribute("aria-describedby", (described ? described + " " : "") + out.id);
    }
    var text = over === 1 ? input.dataset.overOne : (input.dataset.overText || "").split("{num}").join(String(over));
    out.textContent = over > 0 ? text : "";
    if (over > 0) {
      input.setAttribute("aria-invalid", "true");
      input.dataset.overMarked = "1";
    } else if (input.dataset.overMarked) {
      input.removeAttribute("aria-invalid");
      delete input.dataset.overMarked;
    }
  }
  document.addEventListener("input", function (event) {
    var input = event.target;
    if (input && input.matches && input.matches("input[data-max-letters]") && input.id) { lettersOver(input); }
  });
})();
