// Board-by-board entry on the TD's match page (issue 10, item 3). Each room's result of each
// board is a small form of its own (it works without this script: Enter posts it and the page
// comes back with a message). With the script a field is saved when the TD leaves it (Tab:
// open room -> closed room -> next board) or presses Enter, by a fetch POST answered in JSON;
// the answer fills in the NS score, the board's IMPs, the segment's IMPs and the running score,
// or marks the field (aria-invalid and the message next to it). A conflict (another TD saved the
// board meanwhile) shows both values; a change that would move a winner who played on asks
// first and is sent again with confirm=1.
(function () {
  "use strict";
  var root = document.getElementById("match-entry");
  if (!root || !window.fetch) { return; }
  var text = {
    saved: root.dataset.saved || "saved",
    saving: root.dataset.saving || "saving…",
    network: root.dataset.network || "Not saved.",
    confirm: root.dataset.confirmLabel || "Confirm?"
  };
  var forms = Array.prototype.slice.call(root.querySelectorAll("form.board-form"));
  var inputs = forms.map(function (f) { return f.querySelector("input[name=text]"); });

  function token(form) {
    var field = form.querySelector("input[name=csrfmiddlewaretoken]");
    return field ? field.value : "";
  }

  function setText(id, value) {
    var el = document.getElementById(id);
    if (el) { el.textContent = value === null || value === undefined ? "" : String(value); }
  }

  function message(input, msg, bad) {
    var out = document.getElementById(input.id + "-msg");
    if (bad) {
      input.setAttribute("aria-invalid", "true");
    } else {
      input.removeAttribute("aria-invalid");
    }
    if (out) {
      out.textContent = msg || "";
      out.className = "field-msg" + (bad ? " bad" : msg ? " ok" : "");
      out.setAttribute("role", bad ? "alert" : "status");
    }
  }

  function apply(form, input, data) {
    input.value = data.text;
    input.dataset.saved = data.text;
    form.querySelector("input[name=version]").value = data.version;
    setText(input.id + "-ns", data.ns_score);
    setText("imps-" + data.board, data.imps);
    if (data.segment && data.segment.number !== null) {
      setText("seg-" + data.segment.number + "-home", data.segment.home);
      setText("seg-" + data.segment.number + "-visitors", data.segment.visitors);
    }
    setText("running-home", data.running.home);
    setText("running-visitors", data.running.visitors);
    setText("match-status", data.status);
    message(input, text.saved, false);
    window.setTimeout(function () {
      if (input.getAttribute("aria-invalid") !== "true" && !input.hasAttribute("aria-busy")) {
        message(input, "", false);
      }
    }, 2500);
  }

  // One save at a time, in the order the fields were left: a fast typist's saves never overtake
  // each other (and the running score shown is the last one's).
  var queue = Promise.resolve(true);
  function enqueue(form, input, confirmed) {
    queue = queue.then(function () { return save(form, input, confirmed); },
                       function () { return save(form, input, confirmed); });
    return queue;
  }

  function save(form, input, confirmed) {
    var value = input.value.trim();
    if (!confirmed && value === (input.dataset.saved || "")) {
      return Promise.resolve(true);
    }
    var body = new FormData(form);
    if (confirmed) { body.set("confirm", "1"); }
    message(input, text.saving, false);
    input.setAttribute("aria-busy", "true");
    return fetch(form.action, {
      method: "POST",
      body: body,
      credentials: "same-origin",
      headers: { "X-CSRFToken": token(form), "Accept": "application/json" }
    }).then(function (response) {
      return response.json().then(function (data) { return { status: response.status, data: data }; });
    }).then(function (res) {
      input.removeAttribute("aria-busy");
      var data = res.data;
      if (data.ok) { apply(form, input, data); return true; }
      if (data.confirm) {
        var lines = [data.error].concat(data.affected || []).join("\n");
        if (window.confirm(lines + "\n\n" + text.confirm)) { return save(form, input, true); }
        message(input, data.error, true);
        return false;
      }
      if (data.conflict) {
        // another TD's value is stored: show both; saving again replaces it knowingly
        form.querySelector("input[name=version]").value = data.version;
        input.dataset.saved = data.theirs;
      }
      message(input, data.error, true);
      return false;
    }).catch(function () {
      input.removeAttribute("aria-busy");
      message(input, text.network, true);
      return false;
    });
  }

  forms.forEach(function (form, i) {
    var input = inputs[i];
    input.dataset.saved = input.value;
    input.addEventListener("change", function () { enqueue(form, input, false); });
    form.addEventListener("submit", function (event) {
      event.preventDefault();
      enqueue(form, input, false).then(function (ok) {
        if (ok && inputs[i + 1]) { inputs[i + 1].focus(); }
      });
    });
  });

  // Lateness (R12.9): the boards removed for the minutes typed, as the server computes them.
  var penalty = document.querySelector("#add-penalty form");
  if (penalty) {
    var minutes = penalty.querySelector("[name=minutes]");
    var out = document.getElementById("lateness-computed");
    var per = parseInt(penalty.dataset.minutesPerBoard, 10) || 7;
    var most = parseInt(penalty.dataset.segmentBoards, 10) || 16;
    var show = function () {
      var m = parseInt(minutes.value, 10);
      out.textContent = m >= 0 ? "→ " + Math.min(Math.ceil(m / per), most) : "";
    };
    if (minutes && out) { minutes.addEventListener("input", show); show(); }
  }
})();
