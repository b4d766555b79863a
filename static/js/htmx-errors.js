/* Dossier: what a live panel (htmx) does with a refusal, in one place.
 *
 * - A 4xx answer that is the panel itself (the views send the panel again, with its error
 *   messages, and a 4xx status) is swapped in like any other answer: the panel shows why and
 *   keeps working.
 * - A 4xx answer marked "X-Dossier-Refusal" (the site's error handler: not allowed, not found ...)
 *   is not a panel: its message is shown at the top of the panel, and nothing else changes.
 * - A server error or an unreachable server shows a short message in the panel too.
 * This runs before django-htmx's debug helper (capture phase on window), which would otherwise
 * replace the whole page with the raw answer in development.
 */
(function () {
  "use strict";

  function isRefusal(xhr) {
    return xhr.status >= 400 && xhr.status < 500;
  }

  function errorArea(target) {
    let area = target.querySelector(":scope > [data-htmx-error]");
    if (!area) {
      area = document.createElement("div");
      area.className = "alert error htmx-error";
      area.setAttribute("role", "alert");
      area.setAttribute("data-htmx-error", "");
      target.prepend(area);
    }
    return area;
  }

  function show(target, message) {
    if (!target || !document.body.contains(target)) target = document.querySelector("main") || document.body;
    const area = errorArea(target);
    area.textContent = message;
  }

  function messageOf(xhr) {
    const doc = new DOMParser().parseFromString(xhr.responseText || "", "text/html");
    const text = doc.querySelector("[data-refusal-message]");
    return (text && text.textContent.trim()) || "That was refused (error " + xhr.status + ").";
  }

  window.addEventListener(
    "htmx:beforeOnLoad",
    function (event) {
      // Keep 4xx answers away from django-htmx's debug helper: they are ours to show.
      if (isRefusal(event.detail.xhr)) event.stopPropagation();
    },
    true
  );

  document.addEventListener("htmx:beforeSwap", function (event) {
    const xhr = event.detail.xhr;
    if (!isRefusal(xhr)) return; // a panel that swaps in replaces any message shown before
    if (xhr.getResponseHeader("X-Dossier-Refusal")) {
      event.detail.shouldSwap = false;
      event.detail.isError = false;
      show(event.detail.target, messageOf(xhr));
    } else {
      event.detail.shouldSwap = true; // the panel, with the reasons inside it
      event.detail.isError = false;
    }
  });

  document.addEventListener("htmx:responseError", function (event) {
    const xhr = event.detail.xhr;
    if (!isRefusal(xhr)) {
      show(event.detail.target, "Something went wrong on the server (error " + xhr.status + "). Try again.");
    }
  });

  document.addEventListener("htmx:sendError", function (event) {
    show(event.detail.target, "Dossier could not be reached. Check the connection and try again.");
  });
})();
