// The evening's results for the club's chat (templates/events/event.html): the text is in a
// read-only field anyone can select; here its button hands it to the phone's share sheet, or
// to the clipboard where there is none, and says which beside the button (a status).
(function () {
  "use strict";

  function offer() {
    document.querySelectorAll("[data-share-actions][hidden]").forEach(function (actions) {
      if (navigator.share || (navigator.clipboard && window.isSecureContext)) {
        actions.hidden = false;
      }
    });
  }

  function say(button, text) {
    var status = button.parentNode.querySelector("[data-share-said]");
    if (status) { status.textContent = text; }
  }

  document.addEventListener("click", function (event) {
    var button = event.target.closest ? event.target.closest("[data-share]") : null;
    if (!button) { return; }
    var field = document.getElementById(button.getAttribute("data-share"));
    if (!field) { return; }
    var text = field.value;
    if (navigator.share) {
      navigator.share({ text: text }).then(function () {
        say(button, button.getAttribute("data-shared"));
      }).catch(function () { /* the phone's sheet closed: nothing to say */ });
      return;
    }
    navigator.clipboard.writeText(text).then(function () {
      say(button, button.getAttribute("data-copied"));
    }, function () {
      field.focus();
      field.select();
    });
  });

  document.addEventListener("DOMContentLoaded", offer);
  document.addEventListener("htmx:afterSettle", offer);  // the live part came in again
})();
