// The projector: the ranking shown a page at a time, and the optional voice (speechSynthesis,
// in the letter set's language).  Every sentence comes from the server (the rack announced the arbiter's way, §3.3.1, the
// 30-second call and "terminé"): this file only decides when to speak.  Browsers speak only after
// a click, hence the toggle; the choice is remembered by the browser (localStorage).
(function () {
  "use strict";

  /* -- a ranking longer than the window: pages of at most ten rows, as many as fit between the
        ranking's top and the voice buttons, turned every few seconds, or by a presenter's remote
        (PageDown / PageUp, the arrows) -- */
  var PAGE_SECONDS = 8;
  var page = 0;
  var pages = [];
  var turning = null;

  function rankingBox() { return document.querySelector(".projection-ranking[data-page-size]"); }

  // Where the rows end: above the voice buttons when they stand under the ranking, else above the
  // window's bottom edge (the main's padding).
  function bottomEdge(box) {
    var edge = window.innerHeight - 16;
    var controls = document.getElementById("voice-controls");
    if (controls) {
      var c = controls.getBoundingClientRect(), b = box.getBoundingClientRect();
      if (c.height > 0 && c.left < b.right && c.right > b.left) edge = Math.min(edge, c.top - 8);
    }
    return edge;
  }

  // The pages measured with every row shown: the columns are of fixed widths (arbiter.css), so a row
  // is as high on its page as now.
  function paginate() {
    var box = rankingBox();
    pages = [];
    if (!box) return;
    var most = parseInt(box.dataset.pageSize, 10) || 10;
    var rows = box.querySelectorAll("tbody tr");
    var body = box.querySelector("tbody");
    rows.forEach(function (row) { row.hidden = false; });
    box.dataset.page = "1 / 1";  // the page's number takes its line under the rows
    var under = box.getBoundingClientRect().bottom - body.getBoundingClientRect().bottom;
    var room = bottomEdge(box) - under - body.getBoundingClientRect().top;
    // A window too small for a projector (the ranking under the board): pages of ten, scrolled to.
    if (rows.length && room < 3 * rows[0].getBoundingClientRect().height) room = Infinity;
    var start = 0, used = 0;
    rows.forEach(function (row, i) {
      var height = row.getBoundingClientRect().height;
      if (i > start && (used + height > room || i - start >= most)) {
        pages.push([start, i]);
        start = i;
        used = 0;
      }
      used += height;
    });
    if (rows.length) pages.push([start, rows.length]);
  }

  function show(number) {
    var box = rankingBox();
    if (!box) return;
    page = pages.length ? (number + pages.length) % pages.length : 0;
    var shown = pages[page] || [0, 0];
    box.querySelectorAll("tbody tr").forEach(function (row, i) {
      row.hidden = pages.length > 0 && (i < shown[0] || i >= shown[1]);
    });
    box.dataset.page = pages.length > 1 ? (page + 1) + " / " + pages.length : "";
  }

  function turnEvery() {
    clearInterval(turning);
    turning = setInterval(function () { show(page + 1); }, PAGE_SECONDS * 1000);
  }

  function layOut(number) {
    paginate();
    show(number);
    turnEvery();
  }

  var resizing = null;
  window.addEventListener("resize", function () {
    clearTimeout(resizing);
    resizing = setTimeout(function () { layOut(0); }, 150);
  });
  document.addEventListener("keydown", function (event) {
    var step = { PageDown: 1, ArrowDown: 1, ArrowRight: 1, PageUp: -1, ArrowUp: -1, ArrowLeft: -1 }[event.key];
    if (!step || !rankingBox() || pages.length < 2) return;
    event.preventDefault();
    show(page + step);
    turnEvery();
  });
  layOut(0);
  document.addEventListener("htmx:afterSettle", function () { layOut(0); });

  var synth = window.speechSynthesis;
  var controls = document.getElementById("voice-controls");
  var toggle = document.getElementById("voice-toggle");
  var repeat = document.getElementById("voice-repeat");
  // The voice chosen, remembered by this browser: a projector reopened speaks as it did.
  var VOICE_KEY = "projector.voice";
  var on = false;
  try { on = window.localStorage.getItem(VOICE_KEY) === "on"; } catch (e) { /* storage refused */ }
  var announced = {};
  var game = null;
  // A browser may speak only once the page was clicked or typed into: a page reopened with the
  // voice on keeps the rack it has to announce until then (a "30 secondes" would come too late).
  var held = [];
  // §3.3.1: at least 20 s between the previous top's announcement and the next rack.
  var PAUSE_MS = 20000;
  var topShownAt = null;
  var waiting = null;

  // The voice speaks the letter set's language (fr-FR, es-ES, ca-ES, en-GB): a voice of that
  // language if the browser has one.
  var speech = (controls && controls.getAttribute("data-speech")) || "fr-FR";

  function setVoice() {
    var wanted = speech.slice(0, 2).toLowerCase();
    return synth.getVoices().find(function (v) { return (v.lang || "").toLowerCase().indexOf(wanted) === 0; });
  }

  function say(sentences, rack) {
    if (!on || !synth) return;
    if (window.navigator.userActivation && !window.navigator.userActivation.hasBeenActive) {
      if (rack) held = sentences;
      return;
    }
    var voice = setVoice();
    sentences.forEach(function (text) {
      var u = new SpeechSynthesisUtterance(text);
      u.lang = speech;
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
      game: box.dataset.game, key: box.dataset.key, status: box.dataset.status,
      topShown: !!box.dataset.topShown, sentences: JSON.parse(data.textContent)
    };
  }

  // A rack is announced once, when it appears (drawn, or already running if the arbiter started
  // the clock at once), no sooner than 20 s after the previous top was shown (§3.3.1) when it is
  // the same game's (the projector follows the tournament to its next game).
  function announceNew() {
    var a = current();
    if (!a) return;
    if (a.game !== game) topShownAt = null;
    game = a.game;
    if (a.topShown) {
      if (topShownAt === null) topShownAt = performance.now();
      return;
    }
    if ((a.status !== "drawn" && a.status !== "running") || announced[a.key]) return;
    announced[a.key] = true;
    var wait = topShownAt === null ? 0 : Math.max(0, PAUSE_MS - (performance.now() - topShownAt));
    topShownAt = null;
    clearTimeout(waiting);
    waiting = setTimeout(function () { say(a.sentences, true); }, wait);
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
    try { window.localStorage.setItem(VOICE_KEY, on ? "on" : "off"); } catch (e) { /* not kept */ }
    if (!on) { synth.cancel(); held = []; }
    label();
    announceNew();
  });
  function release() {
    var sentences = held;
    held = [];
    if (sentences.length) say(sentences);
  }
  document.addEventListener("pointerdown", release, true);
  document.addEventListener("keydown", release, true);
  repeat.addEventListener("click", function () {
    var a = current();
    if (a) { synth.cancel(); say(a.sentences); }
  });
  document.addEventListener("htmx:afterSettle", announceNew);
  document.addEventListener("countdown:thirty", function () { say([controls.dataset.thirty]); });
  document.addEventListener("countdown:end", function () { say([controls.dataset.timeUp]); });
  // Reopened with the voice on: the rack on screen was announced already, and a top shown starts
  // its pause now.
  var shown = current();
  if (on && shown && !shown.topShown) announced[shown.key] = true;
  if (on) announceNew();
  label();
})();
