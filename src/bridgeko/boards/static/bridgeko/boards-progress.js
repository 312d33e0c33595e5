// The analysis' progress on a set's page (boards app): polls the JSON progress URL every two
// seconds and reloads the page when the analysis has finished, failed or stopped.
(function () {
  "use strict";
  const section = document.getElementById("analysis");
  if (!section) return;
  const url = section.dataset.progressUrl;
  const bar = document.getElementById("analysis-bar");
  const count = document.getElementById("analysis-count");
  function poll() {
    fetch(url, { headers: { Accept: "application/json" }, credentials: "same-origin" })
      .then((r) => r.json())
      .then((p) => {
        if (bar) { bar.max = p.total; bar.value = p.done; }
        if (count) count.textContent = count.textContent.replace(/\d+(\D+)\d+/, p.done + "$1" + p.total);
        if (p.running) { setTimeout(poll, 2000); } else { window.location.reload(); }
      })
      .catch(() => setTimeout(poll, 5000));
  }
  setTimeout(poll, 2000);
})();
