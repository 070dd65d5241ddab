/* The player's phone: countdown from the server's seconds, the slip typed or tapped on the board,
   blanks toggled in the letters' preview, the screen kept awake while a round runs, a slip sent
   again while the server or the network fails.
   The page works without this file; htmx does the talking to the server. */
(function () {
  "use strict";

  var SIZE = 15;
  var ROWS = "ABCDEFGHIJKLMNO";
  var WARNING = 30;
  // A reference at the start of the slip: H4 (across) or 4H (down).
  var REF = /^\s*([A-Oa-o](?:1[0-5]|[1-9])|(?:1[0-5]|[1-9])[A-Oa-o])(?=\s|$)\s*/;

  var clockEnd = null;
  var sentText = null;
  var lastRound = null;
  var wakeLock = null;

  function $(id) { return document.getElementById(id); }
  function phase() { return document.body.dataset.phase || ""; }

  /* -- countdown: the server says how many seconds are left; the phone only measures time
        elapsed since (performance.now is monotonic), never trusts its own clock. */

  function syncClock(seconds) {
    clockEnd = (seconds === null || isNaN(seconds)) ? null : performance.now() + seconds * 1000;
    tick();
  }

  function tick() {
    var el = document.querySelector("#player-status .clock");
    if (!el || clockEnd === null) return;
    var left = Math.max(0, (clockEnd - performance.now()) / 1000);
    var whole = Math.ceil(left);
    el.textContent = Math.floor(whole / 60) + ":" + String(whole % 60).padStart(2, "0");
    el.classList.toggle("warn", left <= WARNING);
  }

  /* -- the screen stays awake during a round (Screen Wake Lock API, where available) -- */

  function keepAwake() {
    if (!("wakeLock" in navigator) || wakeLock || document.visibilityState !== "visible") return;
    wakeLock = true; // a request is under way
    navigator.wakeLock.request("screen").then(function (lock) {
      wakeLock = lock;
      lock.addEventListener("release", function () { if (wakeLock === lock) wakeLock = null; });
      if (phase() !== "running") letSleep();
    }, function () { wakeLock = null; });
  }

  function letSleep() {
    if (wakeLock && wakeLock !== true) wakeLock.release().catch(function () {});
    if (wakeLock !== true) wakeLock = null;
  }

  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState === "visible" && phase() === "running") keepAwake();
  });

  /* -- the status area: phase, round, seconds left -- */

  function newRequestId() {
    var form = $("player-slip");
    if (!form) return;
    var bytes = new Uint8Array(16);
    (window.crypto || window.msCrypto).getRandomValues(bytes);
    form.elements.request_id.value = Array.prototype.map.call(bytes, function (b) {
      return (b + 256).toString(16).slice(1);
    }).join("");
  }

  function onStatus() {
    var status = $("player-status");
    if (!status) return;
    var current = status.dataset.phase;
    document.body.dataset.phase = current;
    if (status.hasAttribute("data-remaining")) {
      // Read once: this event also fires for other swaps, after the status has aged.
      syncClock(parseFloat(status.dataset.remaining));
      status.removeAttribute("data-remaining");
    } else if (current !== "running") {
      syncClock(null);
    }
    var round = status.dataset.round || "";
    var form = $("player-slip");
    if (form) {
      if (lastRound !== null && round !== lastRound) {
        // A new rack: the slip typed for the previous one means nothing now.
        $("slip-text").value = "";
        sentText = null;
        if (form.elements.claimed) form.elements.claimed.value = "";
        newRequestId();
        cancelRetry();
      }
      form.elements.round.value = round;
      form.querySelector("fieldset").disabled = current !== "running" && current !== "drawn";
    }
    lastRound = round;
    var receipt = $("player-receipt");
    if (receipt && receipt.hasAttribute("data-fresh") && $("slip-text")) {
      // Stored: the server's board now shows this slip in the player's colour.
      sentText = $("slip-text").value;
      receipt.removeAttribute("data-fresh");
    }
    if (current === "running") keepAwake(); else letSleep();
    drawSlip();
  }

  /* -- the slip: reference and word, drawn on the board as typed; blanks toggled by tapping -- */

  function splitSlip(text) {
    var m = text.match(REF);
    var rest = m ? text.slice(m[0].length) : text;
    var word = (rest.trim().split(/\s+/)[0] || "");
    return { ref: m ? m[1].toUpperCase() : "", word: word, head: m ? m[0] : "", rest: rest };
  }

  function refCell(ref) {
    var m = ref.match(/^([A-O])(\d+)$/);
    if (m) return { row: ROWS.indexOf(m[1]), col: +m[2] - 1, across: true };
    m = ref.match(/^(\d+)([A-O])$/);
    if (m) return { row: ROWS.indexOf(m[2]), col: +m[1] - 1, across: false };
    return null;
  }

  function letters(word) {
    return word.normalize("NFD").replace(/[\u0300-\u036f]/g, "").replace(/[^A-Za-z]/g, "");
  }

  function drawSlip() {
    var board = $("player-board"), field = $("slip-text");
    if (!board || !field) return;
    Array.prototype.forEach.call(board.querySelectorAll("[data-ghost], [data-dir]"), function (c) {
      c.removeAttribute("data-ghost");
      c.removeAttribute("data-dir");
    });
    var slip = splitSlip(field.value);
    var at = slip.ref && field.value !== sentText ? refCell(slip.ref) : null;
    if (at) {
      var first = board.querySelector('[data-sq="' + (at.row * SIZE + at.col) + '"]');
      if (first) first.dataset.dir = at.across ? "→" : "↓";
      var word = letters(slip.word);
      for (var i = 0; i < word.length; i++) {
        var r = at.across ? at.row : at.row + i, c = at.across ? at.col + i : at.col;
        if (r >= SIZE || c >= SIZE) break;
        var cell = board.querySelector('[data-sq="' + (r * SIZE + c) + '"]');
        if (cell && !cell.classList.contains("t")) cell.dataset.ghost = word[i];
      }
    }
    drawLetters(slip);
  }

  function drawLetters(slip) {
    var box = $("slip-letters");
    if (!box) return;
    box.textContent = "";
    var word = letters(slip.word);
    if (word !== slip.word) return; // accents or symbols: let the server's sentence explain
    for (var i = 0; i < word.length; i++) {
      var b = document.createElement("button");
      b.type = "button";
      b.textContent = word[i].toUpperCase();
      b.dataset.index = i;
      if (word[i] !== word[i].toUpperCase()) b.className = "blank";
      box.appendChild(b);
    }
  }

  function toggleBlank(index) {
    var field = $("slip-text");
    var slip = splitSlip(field.value);
    var start = slip.head.length + slip.rest.indexOf(slip.word);
    var pos = start + index, ch = field.value.charAt(pos);
    var flipped = ch === ch.toUpperCase() ? ch.toLowerCase() : ch.toUpperCase();
    field.value = field.value.slice(0, pos) + flipped + field.value.slice(pos + 1);
    changed();
  }

  function tapCell(sq) {
    var field = $("slip-text");
    var row = ROWS.charAt(Math.floor(sq / SIZE)), col = String(sq % SIZE + 1);
    var across = row + col, down = col + row;
    var slip = splitSlip(field.value);
    // Tap a new cell: it is the reference, across; tap it again: turn the direction.
    var ref = slip.ref === across ? down : across;
    var rest = slip.ref ? slip.rest : field.value.trim();
    field.value = ref + " " + rest.replace(/^\s+/, "");
    changed();
    field.focus();
    field.setSelectionRange(field.value.length, field.value.length);
  }

  function changed() {
    newRequestId(); // a different slip is a new request; the same one sent twice is stored once
    drawSlip();
  }

  document.addEventListener("click", function (event) {
    var cell = event.target.closest("#player-board [data-sq]");
    if (cell && (phase() === "running" || phase() === "drawn")) return tapCell(+cell.dataset.sq);
    var letter = event.target.closest("#slip-letters button");
    if (letter) toggleBlank(+letter.dataset.index);
  });

  document.addEventListener("input", function (event) {
    if (event.target.closest("#player-slip")) changed();
  });

  /* -- a slip the server could not store (503: its database was busy) or that got no answer (the
        network dropped) is sent again, the same request (same request_id: stored once even if the
        lost answer was a success), after a growing pause, until the round's time is up. -- */

  var RETRY_FIRST = 500, RETRY_MAX = 4000; // ms
  var RETRY_AFTER_END = 5000; // ms past the phone's countdown: the server's grace window, roughly
  var retryTimer = null, retryDelay = 0;

  /* The sentences come from the server's catalogue, in the page's language (data-text-*). */
  function text(key) {
    var screen = document.querySelector("main.screen");
    return (screen && screen.dataset["text" + key.charAt(0).toUpperCase() + key.slice(1)]) || "";
  }

  function fromSlip(event) {
    var elt = event.detail && event.detail.elt;
    return elt && elt.id === "player-slip" ? elt : null;
  }

  function mayRetry() {
    if (phase() !== "running") return false;
    return clockEnd === null || performance.now() < clockEnd + RETRY_AFTER_END;
  }

  function serverSentence(xhr) {
    // Parsed as an inert document: nothing in it loads or runs.
    var answer = new DOMParser().parseFromString(xhr.responseText || "", "text/html");
    var error = answer.querySelector(".error");
    return error ? error.textContent : "";
  }

  function showSendError(sentence) {
    var receipt = $("player-receipt");
    if (!receipt) return;
    var line = receipt.querySelector(".retrying");
    if (!line) {
      line = document.createElement("p");
      line.className = "error retrying";
      line.setAttribute("role", "alert");
      receipt.insertBefore(line, receipt.firstChild);
    }
    line.textContent = sentence;
  }

  function sendFailed(event) {
    var form = fromSlip(event);
    if (!form) return;
    var xhr = event.detail.xhr, status = xhr ? xhr.status : 0;
    if (status !== 0 && status !== 503) {
      // A refusal that sending again would not change (a page expired: reload it): say so.
      cancelRetry();
      showSendError(serverSentence(xhr) || text("refused"));
      return;
    }
    if (!mayRetry()) {
      retryDelay = 0;
      showSendError(text("givenUp"));
      return;
    }
    retryDelay = retryDelay ? Math.min(retryDelay * 2, RETRY_MAX) : RETRY_FIRST;
    showSendError((status === 503 && serverSentence(xhr)) || text("noAnswer"));
    retryTimer = setTimeout(function () {
      retryTimer = null;
      if (mayRetry()) htmx.trigger(form, "submit");
    }, retryDelay);
  }

  function cancelRetry() {
    if (retryTimer !== null) clearTimeout(retryTimer);
    retryTimer = null;
    retryDelay = 0;
  }

  document.addEventListener("htmx:sendError", sendFailed);
  document.addEventListener("htmx:responseError", sendFailed);
  document.addEventListener("htmx:beforeRequest", function (event) {
    // Sent by hand meanwhile: that sending replaces the one waiting.
    if (fromSlip(event) && retryTimer !== null) {
      clearTimeout(retryTimer);
      retryTimer = null;
    }
  });
  document.addEventListener("htmx:afterRequest", function (event) {
    if (fromSlip(event) && event.detail.successful) retryDelay = 0;
  });

  /* -- htmx: a 204 poll still carries the seconds left; a swap brings a new status or board -- */

  document.addEventListener("htmx:afterRequest", function (event) {
    var xhr = event.detail.xhr;
    if (!xhr || xhr.status !== 204 || event.detail.elt.id !== "player-status") return;
    var left = xhr.getResponseHeader("X-Remaining");
    if (left !== null) syncClock(parseFloat(left));
  });

  document.addEventListener("htmx:afterSettle", onStatus);
  document.addEventListener("DOMContentLoaded", onStatus);
  setInterval(tick, 250);
})();
