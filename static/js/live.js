// The campaign's live feed (campaigns/live.py, docs/live.md). base.html connects <main> to it with
// htmx's SSE extension. A play panel reloads itself on its topic's message (hx-trigger="sse:...",
// templates/_poll.html); a roll log ([data-live-log] sse-swap="roll") takes each roll line here:
// a line it already has (a secret roll now shared, the roller's own roll) is replaced in place, a
// new one goes on top. The line was rendered on the server for this reader, as the log page is.
"use strict";

var LIVE_LOG_SIZE = 50; // as many lines as the page draws (campaigns.views.ROLL_LOG_SIZE)

// A form sent the ordinary way (not by htmx) is taking the reader to its answer: a live reload now
// would cancel that navigation (the GM who starts a session stayed on the list, reloaded by the
// news of their own start, instead of landing on the session's page).
var leaving = false;
window.addEventListener("submit", function (event) { // on window: after any script on the document that stops the submit (a confirm)
  var form = event.target;
  if (!event.defaultPrevented && form && form.matches && !form.matches("[hx-post], [hx-get], [data-hx-post], [data-hx-get]")) {
    leaving = true;
    // a submit some other script stopped after this one ran: live again soon
    window.setTimeout(function () { leaving = false; }, 10000);
  }
});
window.addEventListener("pageshow", function () {
  leaving = false; // back on the page (the back button's cache): live again
});

document.addEventListener("htmx:sseBeforeMessage", function (event) {
  // A page that becomes another page when its record moves (a draft finalised: its page is now the
  // character's sheet, with its own scripts) reloads whole: <span hidden sse-swap="topic" data-live-reload>.
  if (event.target && event.target.matches && event.target.matches("[data-live-reload]")) {
    event.preventDefault();
    if (!leaving) {
      window.location.reload();
    }
    return;
  }
  var log = event.target;
  if (!log || !log.matches || !log.matches("[data-live-log]")) {
    return;
  }
  event.preventDefault(); // the extension's swap knows no "replace if present"
  var holder = document.createElement("template");
  holder.innerHTML = String(event.detail.data || "").trim();
  var line = holder.content.firstElementChild;
  if (!line || !line.id) {
    return;
  }
  var only = log.getAttribute("data-live-mission"); // a mission's page: that mission's rolls
  var filter = document.getElementById(log.getAttribute("data-live-filter") || ""); // the log's mission filter
  if (filter && filter.value) {
    only = filter.value;
  }
  if (only && line.getAttribute("data-mission") !== only) {
    return;
  }
  var present = document.getElementById(line.id);
  if (present) {
    present.replaceWith(line);
  } else {
    var list = log.querySelector("ol.log");
    if (!list) {
      list = document.createElement("ol");
      list.className = "log";
      log.replaceChildren(list);
    }
    list.prepend(line);
    var size = Number(log.getAttribute("data-live-size")) || LIVE_LOG_SIZE;
    while (list.children.length > size) {
      list.lastElementChild.remove();
    }
  }
  htmx.process(line);
  var announcer = document.getElementById("announcer");
  if (announcer) {
    announcer.textContent = line.textContent.replace(/\s+/g, " ").trim();
  }
});

// A stream refused (campaigns/live_guard.py: too many open pages of this campaign in one browser or
// for one account) closes the EventSource with no status the page can read: ask the feed once what
// it answers, and show its words while the extension keeps trying (it reconnects once a tab closes).
document.addEventListener("htmx:sseError", function (event) {
  var main = event.target;
  var source = event.detail && event.detail.source;
  if (!main || !main.getAttribute || !source || source.readyState !== EventSource.CLOSED) {
    return;
  }
  var url = main.getAttribute("sse-connect");
  if (!url || main.getAttribute("data-live-probing")) {
    return;
  }
  main.setAttribute("data-live-probing", "1");
  var stop = new AbortController();
  fetch(url, { credentials: "same-origin", signal: stop.signal, headers: { Accept: "text/event-stream" } })
    .then(function (response) {
      if (response.status !== 429) {
        stop.abort(); // a stream that opened: the extension's own reconnection reads it
        return null;
      }
      return response.text();
    })
    .then(function (text) {
      if (text) {
        liveNotice(main, text);
      }
    })
    .catch(function () {})
    .finally(function () {
      main.removeAttribute("data-live-probing");
    });
});

document.addEventListener("htmx:sseOpen", function () {
  var notice = document.getElementById("live-refused");
  if (notice) {
    notice.remove();
  }
});

function liveNotice(main, text) {
  var notice = document.getElementById("live-refused");
  if (!notice) {
    notice = document.createElement("p");
    notice.id = "live-refused";
    notice.className = "live-refused";
    notice.setAttribute("role", "status");
    main.prepend(notice);
  }
  notice.textContent = text;
}
