// The check-in link: what is typed into the name field also finds the name in the list
// (data-filters names the list): a long club list shrinks to the names that fit.
(function () {
  "use strict";
  function fold(text) {
    return text.normalize("NFD").replace(/[\u0300-\u036f]/g, "").toLowerCase().trim();
  }
  document.addEventListener("input", function (event) {
    var field = event.target;
    if (!field.dataset || !field.dataset.filters) { return; }
    var list = document.getElementById(field.dataset.filters);
    if (!list) { return; }
    var typed = fold(field.value);
    list.querySelectorAll("li").forEach(function (item) {
      item.hidden = typed !== "" && fold(item.textContent).indexOf(typed) === -1;
    });
  });
})();
