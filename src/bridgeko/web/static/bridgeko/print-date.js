// The date and time of printing on the print-only header of every page. Written by the browser
// (when the page loads and again just before printing), not by the server: the pages stay the
// same bytes from one minute to the next, so proxies can cache them (ETag), and a cached page
// still prints today's date.
(function () {
  "use strict";
  function fill() {
    var lang = document.documentElement.lang || undefined;
    var text = new Intl.DateTimeFormat(lang, { dateStyle: "medium", timeStyle: "short" }).format(new Date());
    document.querySelectorAll(".print-date").forEach(function (el) { el.textContent = text; });
  }
  fill();
  window.addEventListener("beforeprint", fill);
})();
