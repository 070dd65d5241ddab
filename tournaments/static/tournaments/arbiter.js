// Countdowns follow the server.  Each [data-countdown] element carries the seconds left when the
// server rendered it (and the server's time); the browser's clock only measures the time elapsed
// since then, so a laptop or phone whose clock is wrong still shows the right time left.
// Crossing 30 s and reaching 0 fire "countdown:thirty" and "countdown:end" once per round.
(function () {
  "use strict";
  var seenAbove = {};
  var seenRunning = {};
  var fired = {};

  function format(seconds) {
    var whole = Math.ceil(seconds);
    return Math.floor(whole / 60) + ":" + String(whole % 60).padStart(2, "0");
  }

  function emit(name, key) {
    document.dispatchEvent(new CustomEvent(name, { detail: { key: key } }));
  }

  function once(name, key) {
    if (fired[name + key]) return;
    fired[name + key] = true;
    emit(name, key);
  }

  function update(el, now) {
    if (el._start === undefined) {
      el._start = now;
      el._left = parseFloat(el.dataset.secondsLeft) || 0;
    }
    var left = Math.max(0, el._left - (now - el._start) / 1000);
    var key = el.dataset.countdown;
    el.textContent = format(left);
    el.classList.toggle("warning", left <= 30);
    el.classList.toggle("over", left <= 0);
    if (left > 30) seenAbove[key] = true;
    if (left > 0) seenRunning[key] = true;
    if (left <= 30 && left > 0 && seenAbove[key]) once("countdown:thirty", key);
    if (left <= 0 && seenRunning[key]) once("countdown:end", key);
  }

  function tick() {
    var now = performance.now();
    document.querySelectorAll("[data-countdown]").forEach(function (el) { update(el, now); });
  }

  setInterval(tick, 200);
  document.addEventListener("DOMContentLoaded", tick);
  document.addEventListener("htmx:afterSettle", tick);
})();

// The slip history panel of the game screen (loaded by htmx into #slip-history) closes on its button.
document.addEventListener("click", function (event) {
  if (!event.target.closest("[data-close-history]")) return;
  var panel = document.getElementById("slip-history");
  if (panel) panel.textContent = "";
});

// The table cards' "Imprimer" button (no inline handler: the Content-Security-Policy forbids them).
document.addEventListener("click", function (event) {
  if (event.target.closest("[data-print]")) window.print();
});
