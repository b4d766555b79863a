/* Dossier: tells a member when rolls they can see became checkable since their last visit to the
 * fair-dice page (issue 44). The server lists, by seed, how many of the reader's rolls can be
 * checked now and since when (campaigns.fairness.checkable_news: visible rolls only, sealed ones
 * left out); this browser keeps the newest "since" it showed on the fair-dice page, per campaign
 * and user, in localStorage. The dice page shows a badge; the fair-dice page says what is new,
 * marks those seeds in the table, and then remembers that it was shown.
 */
(function () {
  "use strict";

  function plural(n, one, many) { return n + " " + (n === 1 ? one : many); }

  function read() {
    var data = document.getElementById("fair-news");
    var holder = document.querySelector("[data-fair-news-key]");
    if (!data || !holder) { return null; }
    var key = holder.getAttribute("data-fair-news-key");
    var seen = 0;
    try { seen = Date.parse(window.localStorage.getItem(key) || "") || 0; } catch (e) { seen = 0; }
    var all = JSON.parse(data.textContent);
    var fresh = all.filter(function (n) { return Date.parse(n.since) > seen; });
    return { key: key, all: all, fresh: fresh };
  }

  function remember(news) {
    if (!news.all.length) { return; }
    var newest = news.all.reduce(function (a, n) { return Date.parse(n.since) > Date.parse(a) ? n.since : a; }, news.all[0].since);
    try { window.localStorage.setItem(news.key, newest); } catch (e) { /* private mode: no marker kept */ }
  }

  function bySeed(fresh) {
    var out = {};
    fresh.forEach(function (n) { out[n.seed] = (out[n.seed] || 0) + n.rolls; });
    return out;
  }

  function badge(news) {
    var link = document.querySelector("[data-fair-news-badge]");
    if (!link || !news.fresh.length) { return; }
    var count = news.fresh.reduce(function (t, n) { return t + n.rolls; }, 0);
    link.textContent = "New: " + plural(count, "roll", "rolls") + " you can check";
    link.hidden = false;
  }

  function panel(news) {
    var box = document.querySelector("[data-fair-news-panel]");
    if (!box) { return; }
    var seeds = bySeed(news.fresh);
    var numbers = Object.keys(seeds).map(Number).sort(function (a, b) { return b - a; });
    if (numbers.length) {
      var head = document.createElement("p");
      var strong = document.createElement("strong");
      strong.textContent = "New since your last visit: ";
      head.appendChild(strong);
      head.appendChild(document.createTextNode("rolls you can check now, by seed."));
      var list = document.createElement("ul");
      numbers.forEach(function (number) {
        var item = document.createElement("li");
        var link = document.createElement("a");
        link.href = "?seed=" + number;
        link.textContent = "Seed " + number;
        item.appendChild(link);
        item.appendChild(document.createTextNode(": " + plural(seeds[number], "roll", "rolls")));
        list.appendChild(item);
        var row = document.querySelector('tr[data-seed="' + number + '"] [data-fair-new]');
        if (row) { row.hidden = false; }
      });
      box.appendChild(head);
      box.appendChild(list);
      box.hidden = false;
    }
    remember(news);
  }

  document.addEventListener("DOMContentLoaded", function () {
    var news = read();
    if (!news) { return; }
    badge(news);
    panel(news);
  });
})();
