// StoreKeeper support console: small conveniences only; every page works without it.
(function () {
  "use strict";
  document.addEventListener("DOMContentLoaded", function () {
    // "/" focuses the search box, as in many consoles (not while typing in a field).
    var search = document.getElementById("home-q") || document.getElementById("search-q");
    document.addEventListener("keydown", function (event) {
      var target = event.target;
      var typing = target && (target.tagName === "INPUT" || target.tagName === "TEXTAREA" || target.tagName === "SELECT");
      if (event.key === "/" && !typing && search) {
        event.preventDefault();
        search.focus();
        search.select();
      }
    });
    // A form submitted once is not submitted again by a double click.
    Array.prototype.forEach.call(document.querySelectorAll("form[method=post]"), function (form) {
      form.addEventListener("submit", function () {
        Array.prototype.forEach.call(form.querySelectorAll("button[type=submit]"), function (button) {
          window.setTimeout(function () { button.disabled = true; }, 0);
        });
      });
    });
  });
})();
