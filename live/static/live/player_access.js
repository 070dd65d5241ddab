/* The player's phone for every player: the board as a grid a screen reader and a keyboard walk with
   the arrow keys (one square in the tab order at a time; Enter or Space on a square does what a tap
   does: it sets the reference, a second time turns the direction, the focus staying on the square;
   the word's first letter typed there begins the word in the slip, and Enter sends), polite
   announcements of a new rack, the 30-second call, the end of the round and the player's result,
   the rack spoken the arbiter's way on demand, and a large-print, high-contrast setting kept on
   this phone.
   The sentences come from the server in the page's language (data-text-* on main.screen). */
(function () {
  "use strict";

  var SIZE = 15;
  var CENTRE = 112; // H8
  var LARGE_KEY = "arbiter.largePrint";
  var focusSq = CENTRE;
  var refocus = null;
  var heard = { round: null, phase: null, thirty: null, results: null };

  function $(id) { return document.getElementById(id); }

  function text(key) {
    var screen = document.querySelector("main.screen");
    return (screen && screen.dataset["text" + key.charAt(0).toUpperCase() + key.slice(1)]) || "";
  }

  /* -- polite announcements: one live region that stays on the page (the polled parts are
        replaced whole, which a screen reader would not read) -- */

  function announce(sentence) {
    var box = $("player-announce");
    if (!box || !sentence) return;
    // Emptied first: the same sentence said again (a second rack alike) is still read.
    box.textContent = "";
    setTimeout(function () { box.textContent = sentence; }, 50);
  }

  function spokenText(el) {
    return el ? el.textContent.replace(/\s+/g, " ").trim() : "";
  }

  function rackText() {
    var tiles = document.querySelectorAll("#player-status .rack .tile");
    return Array.prototype.map.call(tiles, function (tile) {
      var clone = tile.cloneNode(true);
      Array.prototype.forEach.call(clone.querySelectorAll("[aria-hidden], .used-note"), function (n) {
        n.parentNode.removeChild(n);
      });
      return spokenText(clone);
    }).join(" ; ");
  }

  function listen() {
    var status = $("player-status");
    if (!status) return;
    var phase = status.dataset.phase, round = status.dataset.round || "";
    var first = heard.phase === null;
    if (!first && round && round !== heard.round && (phase === "drawn" || phase === "running")) {
      announce(spokenText(status.querySelector(".who")) + ". " + text("newRack") + " " + rackText());
    } else if (!first && phase === "closed" && heard.phase === "running") {
      announce(text("timeUp"));
    }
    var results = spokenText(status.querySelector(".results"));
    if (!first && results && results !== heard.results) {
      setTimeout(function () { announce(results); }, heard.phase === "running" ? 1500 : 0);
    }
    heard.round = round;
    heard.phase = phase;
    heard.results = results;
    var hear = $("hear-rack");
    if (hear) hear.disabled = !status.dataset.spoken;
    drawGrid();
  }

  function watchClock() {
    var clock = document.querySelector("#player-status .clock");
    var status = $("player-status");
    if (!clock || !status || status.dataset.phase !== "running") return;
    var round = status.dataset.round;
    if (clock.classList.contains("warn") && heard.thirty !== round) {
      heard.thirty = round;
      announce(text("thirty"));
    }
  }

  /* -- the board: a grid with one square in the tab order (roving tabindex) -- */

  function cells() { return document.querySelectorAll("#player-board [data-sq]"); }

  function drawGrid() {
    Array.prototype.forEach.call(cells(), function (cell) {
      cell.tabIndex = +cell.dataset.sq === focusSq ? 0 : -1;
    });
    if (refocus !== null) {
      var cell = document.querySelector('#player-board [data-sq="' + refocus + '"]');
      refocus = null;
      if (cell) cell.focus();
    }
  }

  function moveTo(sq) {
    var cell = document.querySelector('#player-board [data-sq="' + sq + '"]');
    if (!cell) return;
    var old = document.querySelector('#player-board [data-sq="' + focusSq + '"]');
    if (old) old.tabIndex = -1;
    focusSq = sq;
    cell.tabIndex = 0;
    cell.focus();
  }

  document.addEventListener("keydown", function (event) {
    var cell = event.target.closest && event.target.closest("#player-board [data-sq]");
    if (!cell) return;
    var sq = +cell.dataset.sq, row = Math.floor(sq / SIZE), col = sq % SIZE;
    var next = null;
    switch (event.key) {
      case "ArrowLeft": next = col > 0 ? sq - 1 : sq; break;
      case "ArrowRight": next = col < SIZE - 1 ? sq + 1 : sq; break;
      case "ArrowUp": next = row > 0 ? sq - SIZE : sq; break;
      case "ArrowDown": next = row < SIZE - 1 ? sq + SIZE : sq; break;
      case "Home": next = event.ctrlKey ? 0 : row * SIZE; break;
      case "End": next = event.ctrlKey ? SIZE * SIZE - 1 : row * SIZE + SIZE - 1; break;
      case "Enter": case " ":
        event.preventDefault();
        choose(cell);
        return;
      default:
        if (typeLetter(event)) event.preventDefault();
        return;
    }
    event.preventDefault();
    moveTo(next);
  });

  /* Enter or Space: a tap (player.js sets the reference and moves to the slip); the reference
     chosen is said with its direction. */
  function choose(cell) {
    focusSq = +cell.dataset.sq;
    cell.click();
    var field = $("slip-text");
    var m = field && field.value.match(/^\s*([A-O](?:1[0-5]|[1-9])|(?:1[0-5]|[1-9])[A-O])\b/);
    if (m) announce(m[1] + " " + text(/^[A-O]/.test(m[1]) ? "across" : "down"));
  }

  /* A letter typed on the board once a reference is chosen begins the word in the slip (the word
     typed before, if any, makes way), where the rest of it is typed and Enter sends it. */
  function typeLetter(event) {
    var field = $("slip-text");
    if (!field || field.disabled || event.ctrlKey || event.altKey || event.metaKey) return false;
    if (event.key.length !== 1 || !/[A-Za-z\u00C0-\u017F]/.test(event.key)) return false;
    var ref = field.value.match(/^\s*([A-O](?:1[0-5]|[1-9])|(?:1[0-5]|[1-9])[A-O])\s/);
    if (!ref) return false;
    field.focus();
    field.value = ref[1] + " " + event.key.toUpperCase();
    field.setSelectionRange(field.value.length, field.value.length);
    field.dispatchEvent(new Event("input", { bubbles: true }));
    return true;
  }

  document.addEventListener("focusin", function (event) {
    var cell = event.target.closest && event.target.closest("#player-board [data-sq]");
    if (cell && +cell.dataset.sq !== focusSq) {
      var old = document.querySelector('#player-board [data-sq="' + focusSq + '"]');
      if (old) old.tabIndex = -1;
      focusSq = +cell.dataset.sq;
      cell.tabIndex = 0;
    }
  });

  // A redrawn board keeps the square that had the focus.
  document.addEventListener("htmx:beforeSwap", function () {
    var active = document.activeElement;
    var cell = active && active.closest && active.closest("#player-board [data-sq]");
    if (cell) refocus = cell.dataset.sq;
  });

  /* -- the rack spoken the arbiter's way (the projector's sentences: live/announce.py) -- */

  var synth = window.speechSynthesis;

  function hearRack() {
    var status = $("player-status");
    var spoken = status && status.dataset.spoken;
    if (!synth || !spoken) return;
    synth.cancel();
    var voice = synth.getVoices().filter(function (v) {
      return (v.lang || "").toLowerCase().indexOf("fr") === 0;
    })[0];
    spoken.split("\n").forEach(function (sentence) {
      var u = new SpeechSynthesisUtterance(sentence);
      u.lang = "fr-FR";
      u.rate = 0.85;
      if (voice) u.voice = voice;
      synth.speak(u);
    });
  }

  /* -- large print and high contrast, remembered on this phone -- */

  function setLarge(on) {
    document.body.classList.toggle("large", on);
    var button = $("large-print");
    if (button) button.setAttribute("aria-pressed", on ? "true" : "false");
    try {
      if (on) localStorage.setItem(LARGE_KEY, "1"); else localStorage.removeItem(LARGE_KEY);
    } catch (e) { /* private browsing: for this page only */ }
  }

  function storedLarge() {
    try { return localStorage.getItem(LARGE_KEY) === "1"; } catch (e) { return false; }
  }

  document.addEventListener("click", function (event) {
    if (event.target.closest("#large-print")) setLarge(!document.body.classList.contains("large"));
    else if (event.target.closest("#hear-rack")) hearRack();
  });

  document.addEventListener("DOMContentLoaded", function () {
    setLarge(storedLarge());
    var hear = $("hear-rack");
    if (hear && synth && typeof SpeechSynthesisUtterance !== "undefined") hear.hidden = false;
    listen();
  });
  document.addEventListener("htmx:afterSettle", listen);
  setInterval(watchClock, 500);
})();
