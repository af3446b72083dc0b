// Small comforts on top of pages that work without JavaScript (the CSP allows no inline script).
(function () {
  "use strict";

  // The language picker is a <details>: close it on a tap elsewhere or on Escape.
  document.addEventListener("click", function (event) {
    document.querySelectorAll("details.lang-picker[open]").forEach(function (picker) {
      if (!picker.contains(event.target)) {
        picker.open = false;
      }
    });
  });
  document.addEventListener("keydown", function (event) {
    if (event.key !== "Escape") {
      return;
    }
    document.querySelectorAll("details.lang-picker[open]").forEach(function (picker) {
      picker.open = false;
      picker.querySelector("summary").focus();
    });
  });
})();
