// Behaviour that used to sit in inline attributes (onsubmit, hx-on, hx-trigger filters): here it
// runs under the Content-Security-Policy, which allows scripts only from our own static files and
// forbids eval (settings.CONTENT_SECURITY_POLICY; htmx's allowEval is off in base.html).
"use strict";

// <form data-confirm="Question?" data-confirm-button="Delete">: ask in a modal <dialog> before
// submitting (showModal keeps the focus inside it; Escape cancels). Yes submits the same form with
// confirm=1, which the server wants (kernel/confirm.py); without JavaScript the server asks on a
// page of its own. The listener runs in the capture phase, before htmx's own submit handler.
var confirmDialog = null;

function askToConfirm(form) {
  if (!confirmDialog) {
    confirmDialog = document.createElement("dialog");
    confirmDialog.className = "confirm-dialog";
    confirmDialog.setAttribute("aria-labelledby", "confirm-dialog-question");
    var question = document.createElement("p");
    question.id = "confirm-dialog-question";
    var buttons = document.createElement("form");
    buttons.method = "dialog";
    buttons.className = "actions";
    var yes = document.createElement("button");
    yes.value = "yes";
    yes.className = "danger";
    var no = document.createElement("button");
    no.value = "no";
    no.className = "secondary";
    no.textContent = "Cancel";
    buttons.append(yes, no);
    confirmDialog.append(question, buttons);
    document.body.append(confirmDialog);
  }
  confirmDialog.querySelector("p").textContent = form.getAttribute("data-confirm");
  confirmDialog.querySelector("button.danger").textContent =
    form.getAttribute("data-confirm-button") || "Yes";
  confirmDialog.returnValue = "";
  confirmDialog.onclose = function () {
    if (confirmDialog.returnValue !== "yes" || !form.isConnected) {
      return;
    }
    var confirm = document.createElement("input");
    confirm.type = "hidden";
    confirm.name = "confirm";
    confirm.value = "1";
    form.append(confirm);
    form.requestSubmit();
    confirm.remove(); // the values were taken when the form was submitted
  };
  confirmDialog.showModal();
  confirmDialog.querySelector("button.secondary").focus();
}

document.addEventListener(
  "submit",
  function (event) {
    var form = event.target;
    if (!form.matches || !form.matches("form[data-confirm]")) {
      return;
    }
    if (form.querySelector("input[name=confirm]")) {
      return;
    }
    event.preventDefault();
    event.stopPropagation();
    askToConfirm(form);
  },
  true
);

// [data-poll-pauses]: its polling waits while the page is hidden, while someone is typing in a form
// inside it or has changed a field there, and for a while after it showed a message in answer to
// a click (role=alert), so a refresh never throws away what they were entering or reading.
var MESSAGE_KEEP_MS = 20000;
function changedField(box) {
  return Array.prototype.some.call(box.querySelectorAll("input, textarea, select"), function (field) {
    if (field.type === "hidden" || field.type === "submit") {
      return false;
    }
    if (field.type === "checkbox" || field.type === "radio") {
      return field.checked !== field.defaultChecked;
    }
    if (field.tagName === "SELECT") {
      // A select none of whose options is marked selected shows its first one (a single choice):
      // that is its default, not a change (issue 44: every tracker with such a select never
      // refreshed, neither on its topic in the live feed nor on its poll).
      var marked = Array.prototype.some.call(field.options, function (o) {
        return o.defaultSelected;
      });
      return Array.prototype.some.call(field.options, function (o, index) {
        var byDefault = marked ? o.defaultSelected : !field.multiple && field.size <= 1 && index === 0;
        return o.selected !== byDefault;
      });
    }
    return field.value !== field.defaultValue;
  });
}
document.addEventListener("htmx:afterRequest", function (event) {
  // a message in answer to the user's own click (not to a poll), swapped in or shown by
  // htmx-errors.js: keep it on screen a while
  if (!event.detail.requestConfig || event.detail.requestConfig.verb === "get") {
    return;
  }
  setTimeout(function () {
    document.querySelectorAll("[data-poll-pauses]").forEach(function (poller) {
      if (poller.querySelector("[role=alert]")) {
        poller.setAttribute("data-message-at", String(Date.now()));
      }
    });
  }, 0);
});
document.addEventListener("htmx:beforeRequest", function (event) {
  var poller = event.detail.elt;
  if (!poller || !poller.matches || !poller.matches("[data-poll-pauses]")) {
    return;
  }
  if (event.detail.requestConfig && event.detail.requestConfig.verb !== "get") {
    return; // the user's own action inside the panel, not the refresh
  }
  var focused = document.activeElement;
  var editing = focused && poller.contains(focused) && focused.closest("form");
  var shownAt = Number(poller.getAttribute("data-message-at") || 0);
  var reading = shownAt && Date.now() - shownAt < MESSAGE_KEEP_MS;
  if (document.visibilityState !== "visible" || editing || reading || changedField(poller)) {
    event.preventDefault();
  }
});

// A refresh asked for before someone started on a form of the panel can come back after: it is
// not swapped in over their choice (the next refresh, once they are done, brings the panel).
document.addEventListener("htmx:beforeSwap", function (event) {
  var poller = event.detail.elt;
  if (!poller || !poller.matches || !poller.matches("[data-poll-pauses]")) {
    return;
  }
  if (event.detail.requestConfig && event.detail.requestConfig.verb !== "get") {
    return; // the answer to the user's own action inside the panel
  }
  var focused = document.activeElement;
  var editing = focused && poller.contains(focused) && focused.closest("form");
  if (editing || changedField(poller)) {
    event.detail.shouldSwap = false;
  }
});

// On a phone the campaign tabs scroll sideways (app.css): show the current one.
document.addEventListener("DOMContentLoaded", function () {
  var current = document.querySelector("nav.tabs [aria-current=page]");
  var tabs = current && current.closest("nav.tabs");
  if (tabs && tabs.scrollWidth > tabs.clientWidth) {
    var offset = current.getBoundingClientRect().left - tabs.getBoundingClientRect().left;
    tabs.scrollLeft += offset - (tabs.clientWidth - current.offsetWidth) / 2;
  }
});

// A box that scrolls sideways (a wide table in a card on a phone) can be reached with the keyboard
// and scrolled with the arrow keys: it takes a tab stop while, and only while, it overflows.
function markScrollers() {
  document.querySelectorAll(".card, .table-wrap").forEach(function (box) {
    var style = getComputedStyle(box);
    var scrolls = /auto|scroll/.test(style.overflowX) && box.scrollWidth > box.clientWidth + 1;
    if (scrolls && !box.hasAttribute("tabindex")) {
      box.setAttribute("tabindex", "0");
      box.setAttribute("data-scroll-stop", "");
    } else if (!scrolls && box.hasAttribute("data-scroll-stop")) {
      box.removeAttribute("tabindex");
      box.removeAttribute("data-scroll-stop");
    }
  });
}
document.addEventListener("DOMContentLoaded", markScrollers);
document.addEventListener("htmx:afterSettle", markScrollers);
window.addEventListener("resize", markScrollers);

// Live panels (htmx) are swapped whole, so a live region inside them would be replaced with them:
// one region outside them (#announcer in base.html) says what an update brought, once: the
// refusal or message it shows, else the new result, else what the panel marks [data-announce].
var lastAnnounced = "";
document.addEventListener("htmx:afterSettle", function (event) {
  var announcer = document.getElementById("announcer");
  var panel = event.detail.elt;
  if (!announcer || !panel || !panel.querySelector) {
    return;
  }
  var news = panel.querySelector("[role=alert], .messages li, .result, [data-announce]");
  var text = news ? news.textContent.replace(/\s+/g, " ").trim() : "";
  if (text && text !== lastAnnounced) {
    lastAnnounced = text;
    announcer.textContent = text;
  }
});

// A roll's popover (campaigns/_sheet_roll_button.html): its answer is swapped in just above the
// Roll button; a refusal takes the focus there, so the keyboard and the screen reader are where
// the reason is, not below the fold of the popover.
document.addEventListener("htmx:afterSwap", function (event) {
  var target = event.detail.target;
  if (!target || !target.classList || !target.classList.contains("roll-result")) {
    return;
  }
  var refusal = target.querySelector("[role=alert]");
  if (refusal) {
    refusal.setAttribute("tabindex", "-1");
    refusal.focus();
  }
});

// A form in a panel that is swapped whole (the dice page's panels, hx-target="#dice-panel"): when
// the answer is the form again with its errors, the focus goes to its error summary, which is
// scrolled into view; without this the page stays where the swap left it, often far from the form
// (walk, point 2: a refused attack showed the log and nothing said it had failed).
document.addEventListener("htmx:afterSwap", function (event) {
  var config = event.detail.requestConfig;
  var sent = config && config.elt;
  if (!sent || !sent.id || config.verb === "get") {
    return;
  }
  var form = document.getElementById(sent.id);
  var summary = form && form.querySelector(".error-summary[role=alert], [role=alert]");
  if (summary && form !== sent) {
    summary.setAttribute("tabindex", "-1");
    summary.focus({ preventScroll: true });
    summary.scrollIntoView({ block: "start" });
  }
});

// <details data-open-wide>: open on a wide screen, folded on a phone (the character page's print
// box, issue 44: on a phone the sheet reads first). Only on load and when the width crosses the
// line, so a reader's own opening or closing stands.
(function () {
  var wide = window.matchMedia("(min-width: 48rem)");
  function apply() {
    document.querySelectorAll("details[data-open-wide]").forEach(function (details) {
      details.open = wide.matches;
    });
  }
  apply();
  wide.addEventListener("change", apply);
})();
// "/" anywhere outside a text field goes to the campaign's search box (issue 50); Escape in the
// box leaves it as it was typed (the browser clears a search field on Escape otherwise).
document.addEventListener("keydown", function (event) {
  if (event.key !== "/" || event.ctrlKey || event.metaKey || event.altKey) return;
  var target = event.target;
  if (target && (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName))) return;
  var box = document.getElementById("campaign-search-q");
  if (!box) return;
  event.preventDefault();
  box.focus();
  box.select();
});
