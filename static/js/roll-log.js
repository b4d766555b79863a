/* Dossier: the campaign's roll log, checked by this browser on every visit to the dice page and
 * the fair-dice page and on every roll the live feed brings there (issue 48, docs/fair-dice.md
 * "The roll log").
 *
 * The browser keeps the last signed tree head it saw of each of the reader's logs, per user, in
 * localStorage. On each check it asks the API for the reader's document with ?since=<log>:<size>
 * of each kept head, and checks (static/js/fair-dice.js checkLogs): every head signed by the
 * server's key (WebCrypto's Ed25519, else static/js/ed25519-verify.js on plain http), the key the same as the one kept, and the new tree an
 * append-only extension of the kept one (RFC 9162's consistency proof). A deleted, re-ordered or
 * rewritten roll breaks that proof: the page says so in plain words, and keeps the old head (the
 * proof of what the log said) instead of the new one.
 */
(function () {
  "use strict";

  var box, running = false, again = false;

  function storeKey(holder, log) { return "dossier-roll-log:" + holder.getAttribute("data-user") + ":" + log; }

  function kept(holder, logs) {
    var out = {};
    logs.forEach(function (log) {
      var name = log.head.log;
      try {
        var saved = JSON.parse(window.localStorage.getItem(storeKey(holder, name)) || "null");
        if (saved && saved.head && saved.head.log === name) { out[name] = saved; }
      } catch (e) { /* nothing kept */ }
    });
    return out;
  }

  function say(kind, lines) {
    box.hidden = false;
    box.className = "roll-log-status";
    box.setAttribute("role", kind === "broken" ? "alert" : "status");
    box.dataset.state = kind;
    box.textContent = "";
    lines.forEach(function (text, i) {
      var p = document.createElement("p");
      if (i === 0) {
        var strong = document.createElement("strong");
        strong.textContent = text;
        p.appendChild(strong);
      } else {
        p.textContent = text;
      }
      box.appendChild(p);
    });
  }

  // The logs of this campaign this browser kept a head of (the dice page embeds no document).
  function keptLogs(holder) {
    var prefix = storeKey(holder, "campaign-" + holder.getAttribute("data-campaign") + "/"), out = [];
    try {
      for (var i = 0; i < window.localStorage.length; i++) {
        var key = window.localStorage.key(i);
        if (key && key.indexOf(prefix) === 0) {
          var name = key.slice(storeKey(holder, "").length);
          out.push({ audience: name.slice(name.indexOf("/") + 1), head: { log: name } });
        }
      }
    } catch (e) { /* nothing kept */ }
    return out;
  }

  function fetchDocument(holder, logs, saved) {
    var url = holder.getAttribute("data-api");
    var params = new URLSearchParams();
    if (holder.getAttribute("data-seed")) { params.append("seed", holder.getAttribute("data-seed")); }
    logs.forEach(function (log) {
      var old = saved[log.head.log];
      if (old) { params.append("since", log.audience + ":" + old.head.size); }
    });
    return fetch(url + "?" + params.toString(), { credentials: "same-origin", headers: { Accept: "application/json" } })
      .then(function (r) { if (!r.ok) { throw new Error("the server answered " + r.status); } return r.json(); });
  }

  function check() {
    var holder = document.querySelector("[data-roll-log]");
    if (!holder || !window.dossierFairDice) { return; }
    if (running) { again = true; return; }
    running = true;
    var source = document.getElementById("fair-document");
    var logs = keptLogs(holder);
    if (source) {
      var names = logs.map(function (log) { return log.head.log; });
      (JSON.parse(source.textContent).logs || []).forEach(function (log) {
        if (names.indexOf(log.head.log) < 0) { logs.push(log); }
      });
    }
    var saved = kept(holder, logs);
    fetchDocument(holder, logs, saved).then(function (doc) {
      var heads = {};
      Object.keys(saved).forEach(function (name) { heads[name] = saved[name].head; });
      var key = (doc.log_key || {}).public_key;
      var changedKey = Object.keys(saved).filter(function (name) { return saved[name].key !== key; });
      return window.dossierFairDice.checkLogs(doc, heads).then(function (result) {
        var offlog = window.dossierFairDice.verify(doc).filter(function (v) {
          return v.verdict === "failed" && /roll log/.test(v.reason);
        });
        var problems = result.problems.slice();
        changedKey.forEach(function (name) { problems.push(name + ": the server's signing key is not the one this browser kept"); });
        offlog.forEach(function (v) { problems.push("a roll " + v.reason); });
        if (problems.length) {
          say("broken", ["Broken log: the roll log the server shows now is not the one this browser saw before."]
            .concat(["Rolls may have been deleted, re-ordered or rewritten. Tell your table; keep this page's address and the time."])
            .concat(problems));
          return;
        }
        (doc.logs || []).forEach(function (log) {
          try {
            window.localStorage.setItem(storeKey(holder, log.head.log), JSON.stringify({ head: log.head, key: key }));
          } catch (e) { /* private mode: nothing kept */ }
        });
        var total = (doc.logs || []).map(function (log) { return log.head.size; }).reduce(function (a, b) { return a + b; }, 0);
        var sizes = total + (total === 1 ? " entry" : " entries");
        var lines = [
          Object.keys(saved).length
            ? "Roll log checked: it only grew since your last visit (" + sizes + " now)."
            : "Roll log checked: this browser now keeps its head (" + sizes + "), to check it on your next visit."
        ];
        if (!result.signed) {
          lines.push("This browser could not check the head's signature; the log's consistency was checked.");
        }
        say("ok", lines);
      });
    }).catch(function (error) {
      say("error", ["The roll log could not be checked: " + error.message]);
    }).then(function () {
      running = false;
      if (again) { again = false; check(); }
    });
  }

  document.addEventListener("htmx:sseBeforeMessage", function (event) {
    if (event.target && event.target.matches && event.target.matches("[data-roll-log-live]")) {
      event.preventDefault();
      check();
    }
  });
  document.addEventListener("DOMContentLoaded", function () {
    box = document.getElementById("roll-log-status");
    if (box) { check(); }
  });
})();
