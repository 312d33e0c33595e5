// Live public pages (issue 12): every second the page asks for the edition's small version file
// (body data-live, a conditional request answered 304 while nothing changed); when the version
// has moved it fetches itself again and swaps in the new content of <main>, so a result saved
// by a TD shows without a reload. "Updated" shows when the data last changed, in the reader's
// time zone. Nothing runs while the tab is hidden; opened from a file (an export), it stays put.
(function () {
  "use strict";
  var body = document.body;
  var url = body.getAttribute("data-live");
  var lang = document.documentElement.lang || undefined;

  function showTimes(root) {
    root.querySelectorAll("time.updated-at[datetime]").forEach(function (el) {
      var when = new Date(el.getAttribute("datetime"));
      if (!isNaN(when)) {
        el.textContent = new Intl.DateTimeFormat(lang, { dateStyle: "medium", timeStyle: "medium" }).format(when);
      }
    });
  }
  showTimes(document);
  if (!url || location.protocol === "file:" || !window.fetch) { return; }
  var version = body.getAttribute("data-version");
  var busy = false;
  var period = parseInt(body.getAttribute("data-live-period") || "1000", 10);

  function refresh(next) {
    return fetch(location.href, { cache: "no-cache", credentials: "omit" }).then(function (r) {
      if (!r.ok) { throw new Error(r.status); }
      return r.text();
    }).then(function (html) {
      var doc = new DOMParser().parseFromString(html, "text/html");
      var fresh = doc.querySelector("main");
      var main = document.querySelector("main");
      if (fresh && main) {
        main.innerHTML = fresh.innerHTML;
        showTimes(main);
      }
      var stamp = doc.querySelector(".live-status");
      var mine = document.querySelector(".live-status");
      if (stamp && mine) { mine.innerHTML = stamp.innerHTML; showTimes(mine); }
      version = doc.body.getAttribute("data-version") || next;
      body.setAttribute("data-version", version);
      document.dispatchEvent(new CustomEvent("bridgeko:updated", { detail: { version: version } }));
    });
  }

  function poll() {
    if (busy || document.hidden) { return; }
    busy = true;
    fetch(url, { cache: "no-cache", credentials: "omit" }).then(function (r) {
      return r.ok ? r.json() : null;
    }).then(function (data) {
      if (data && data.version && data.version !== version) { return refresh(data.version); }
    }).catch(function () { /* offline for a moment: the next poll tries again */ })
      .then(function () { busy = false; });
  }
  setInterval(poll, period);
  document.addEventListener("visibilitychange", poll);
})();
