// The projector: the ranking shown ten rows at a time, and the optional voice (speechSynthesis,
// fr-FR).  Every sentence comes from the server (the rack announced the arbiter's way, §3.3.1, the
// 30-second call and "terminé"): this file only decides when to speak.  Browsers speak only after
// a click, hence the toggle.
(function () {
  "use strict";

  /* -- a ranking longer than the screen: pages of ten rows, turned every few seconds -- */
  var PAGE_SECONDS = 8;
  var page = 0;

  function turnPage() {
    var box = document.querySelector(".projection-ranking[data-page-size]");
    if (!box) return;
    var size = parseInt(box.dataset.pageSize, 10) || 10;
    var rows = box.querySelectorAll("tbody tr");
    var pages = Math.max(1, Math.ceil(rows.length / size));
    page = page % pages;
    rows.forEach(function (row, i) { row.hidden = Math.floor(i / size) !== page; });
    box.dataset.page = pages > 1 ? (page + 1) + " / " + pages : "";
    page += 1;
  }
  setInterval(turnPage, PAGE_SECONDS * 1000);
  document.addEventListener("DOMContentLoaded", function () { page = 0; turnPage(); });
  document.addEventListener("htmx:afterSettle", function () { page = 0; turnPage(); });

  var synth = window.speechSynthesis;
  var controls = document.getElementById("voice-controls");
  var toggle = document.getElementById("voice-toggle");
  var repeat = document.getElementById("voice-repeat");
  var on = false;
  var announced = {};
  // §3.3.1: at least 20 s between the previous top's announcement and the next rack.
  var PAUSE_MS = 20000;
  var topShownAt = null;
  var waiting = null;

  function frenchVoice() {
    return synth.getVoices().find(function (v) { return (v.lang || "").toLowerCase().indexOf("fr") === 0; });
  }

  function say(sentences) {
    if (!on || !synth) return;
    var voice = frenchVoice();
    sentences.forEach(function (text) {
      var u = new SpeechSynthesisUtterance(text);
      u.lang = "fr-FR";
      u.rate = 0.85;
      if (voice) u.voice = voice;
      synth.speak(u);
    });
  }

  function current() {
    var box = document.querySelector(".announcement");
    var data = box && box.querySelector("script");
    if (!box || !data || !box.dataset.key) return null;
    return {
      key: box.dataset.key, status: box.dataset.status, topShown: !!box.dataset.topShown,
      sentences: JSON.parse(data.textContent)
    };
  }

  // A rack is announced once, when it appears (drawn, or already running if the arbiter started
  // the clock at once), no sooner than 20 s after the previous top was shown (§3.3.1).
  function announceNew() {
    var a = current();
    if (!a) return;
    if (a.topShown) {
      if (topShownAt === null) topShownAt = performance.now();
      return;
    }
    if ((a.status !== "drawn" && a.status !== "running") || announced[a.key]) return;
    announced[a.key] = true;
    var wait = topShownAt === null ? 0 : Math.max(0, PAUSE_MS - (performance.now() - topShownAt));
    topShownAt = null;
    clearTimeout(waiting);
    waiting = setTimeout(function () { say(a.sentences); }, wait);
  }

  function label() {
    toggle.textContent = on ? toggle.dataset.on : toggle.dataset.off;
    toggle.setAttribute("aria-pressed", on ? "true" : "false");
  }

  if (!synth) {
    document.addEventListener("htmx:afterSettle", announceNew);
    toggle.disabled = true;
    repeat.disabled = true;
    toggle.textContent = toggle.dataset.unavailable;
    return;
  }
  toggle.addEventListener("click", function () {
    on = !on;
    if (!on) synth.cancel();
    label();
    announceNew();
  });
  repeat.addEventListener("click", function () {
    var a = current();
    if (a) { synth.cancel(); say(a.sentences); }
  });
  document.addEventListener("htmx:afterSettle", announceNew);
  document.addEventListener("countdown:thirty", function () { say([controls.dataset.thirty]); });
  document.addEventListener("countdown:end", function () { say([controls.dataset.timeUp]); });
  label();
})();
