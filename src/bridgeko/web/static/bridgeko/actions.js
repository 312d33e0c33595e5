// Page actions without inline script (the Content-Security-Policy allows this site's script
// files only, bridgeko.core.security): a button marked data-print prints the page; a select
// marked data-submit sends its form when changed (the language switcher).
(function () {
  "use strict";
  document.addEventListener("click", function (event) {
    if (event.target.closest && event.target.closest("[data-print]")) {
      window.print();
    }
  });
  document.addEventListener("change", function (event) {
    var el = event.target;
    if (el.matches && el.matches("select[data-submit]") && el.form) {
      el.form.submit();
    }
  });
})();
