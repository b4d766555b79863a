// Behaviour that used to sit in inline attributes (onsubmit, hx-on, hx-trigger filters): here it
// runs under the Content-Security-Policy, which allows scripts only from our own static files and
// forbids eval (settings.CONTENT_SECURITY_POLICY; htmx's allowEval is off in base.html).
"use strict";

// <form data-confirm="Question?">: ask before submitting.
document.addEventListener("submit", function (event) {
  var form = event.target.closest("[data-confirm]");
  if (form && !window.confirm(form.getAttribute("data-confirm"))) {
    event.preventDefault();
  }
});

// [data-poll-pauses]: its polling waits while the page is hidden or someone is typing in a form
// inside it, so a refresh never throws away what they were entering.
document.addEventListener("htmx:beforeRequest", function (event) {
  var poller = event.detail.elt;
  if (!poller || !poller.matches || !poller.matches("[data-poll-pauses]")) {
    return;
  }
  var focused = document.activeElement;
  var editing = focused && poller.contains(focused) && focused.closest("form");
  if (document.visibilityState !== "visible" || editing) {
    event.preventDefault();
  }
});
