/* The player's phone: countdown from the server's seconds, the slip typed or tapped on the board
   (letters in upper case whatever the keyboard types; a joker is the letter followed by "?", toggled
   by tapping the letter in the preview), the rack's tiles the slip uses dimmed, the screen kept
   awake while a round runs, a slip sent again while the server or the network fails.
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
  var wakeLock = null; // the Screen Wake Lock (secure contexts: HTTPS, localhost); true while asked
  var noSleep = null; // NoSleep.js's silent video, where that API is missing (the club's plain HTTP)
  var videoAsked = false;

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
    // A status just swapped in for an ended round keeps its own word ("terminé") until onStatus runs.
    if (!el || clockEnd === null || el.closest("#player-status").dataset.phase !== "running") return;
    var left = Math.max(0, (clockEnd - performance.now()) / 1000);
    var whole = Math.ceil(left);
    el.textContent = Math.floor(whole / 60) + ":" + String(whole % 60).padStart(2, "0");
    el.classList.toggle("warn", left <= WARNING);
  }

  /* -- the screen stays awake during a round: the Screen Wake Lock API where the browser has it;
        on the club's plain-HTTP Wi-Fi (not a secure context, so no navigator.wakeLock) a silent
        looping video (vendor/NoSleep.min.js), which a browser plays only after a tap or a key:
        the player's first one while a round runs, or any earlier one on this page. -- */

  function keepAwake() {
    if (document.visibilityState !== "visible") return;
    if ("wakeLock" in navigator) lockScreen();
    else if (navigator.userActivation && navigator.userActivation.hasBeenActive) gesture();
  }

  function lockScreen() {
    if (wakeLock) return;
    wakeLock = true; // a request is under way
    navigator.wakeLock.request("screen").then(function (lock) {
      wakeLock = lock;
      document.body.dataset.awake = "lock";
      lock.addEventListener("release", function () {
        if (wakeLock !== lock) return;
        wakeLock = null;
        delete document.body.dataset.awake;
      });
      if (phase() !== "running") letSleep();
    }, function () { wakeLock = null; });
  }

  function playVideo() {
    if (typeof NoSleep === "undefined" || videoAsked) return;
    if (!noSleep) noSleep = new NoSleep();
    videoAsked = true;
    // Asked again when the page comes back into view: the browser may have paused the video.
    noSleep.enable().then(function () {
      videoAsked = false;
      if (phase() === "running") document.body.dataset.awake = "video"; else letSleep();
    }, function () { videoAsked = false; });
  }

  function letSleep() {
    if (wakeLock && wakeLock !== true) wakeLock.release().catch(function () {});
    if (wakeLock !== true) wakeLock = null;
    if (noSleep && noSleep.isEnabled) noSleep.disable();
    delete document.body.dataset.awake;
  }

  function gesture() {
    if (phase() === "running" && !("wakeLock" in navigator) && document.body.dataset.awake !== "video") {
      playVideo();
    }
  }

  ["click", "keydown", "touchend"].forEach(function (type) {
    document.addEventListener(type, gesture, true);
  });

  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState !== "visible" || phase() !== "running") return;
    if (document.body.dataset.awake === "video") delete document.body.dataset.awake;
    keepAwake();
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

  /* -- the slip: reference and word, drawn on the board as typed; the rack's tiles it uses dimmed;
        jokers marked by "?" after their letter, toggled by tapping the letter in the preview -- */

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

  /* The word's letters as the server reads them (live/phone.py slip_text): accents dropped,
     any case taken as upper case, "?" right after a letter marks it played with the joker.  Each
     letter knows where its "?" goes in the word.  Null for a character the preview cannot show:
     the server's sentence will explain it. */
  function wordLetters(word) {
    var long = setTiles(), out = [], last = null, i = 0;
    while (i < word.length) {
      var ch = word.charAt(i), hit = null;
      if (long.length && ch === "[") { // a tile written in brackets: [CH]
        var close = word.indexOf("]", i), inner = close > i ? word.slice(i + 1, close).toUpperCase() : "";
        var named = tileOf(long, inner) || (/^[A-Z]$/.test(inner) ? inner : null);
        if (!named) return null;
        last = { letter: named, joker: false, end: close + 1 };
        out.push(last);
        i = close + 1;
        continue;
      }
      var rest = word.slice(i).toUpperCase();
      for (var k = 0; k < long.length && !hit; k++) if (rest.indexOf(long[k].typed) === 0) hit = long[k];
      if (hit) { // a tile of several letters, or a letter the set keeps (Ñ): cut as the server cuts
        last = { letter: hit.tile, joker: false, end: i + hit.typed.length };
        out.push(last);
        i += hit.typed.length;
        continue;
      }
      var base = ch.normalize("NFD").replace(/[\u0300-\u036f]/g, "").toUpperCase();
      if (/^[A-Z]$/.test(base)) {
        last = { letter: base, joker: false, end: i + 1 };
        out.push(last);
      } else if (base === "" && last && last.end === i) {
        last.end = i + 1; // a combining accent typed after its letter
      } else if (ch === "?" && last && !last.joker && last.end === i) {
        last.joker = true;
      } else {
        return null;
      }
      i++;
    }
    return out;
  }

  /* The tournament's tiles that are not one plain letter (CH, LL, Ñ), longest first: the slip
     field carries them (live/phone.py tile_names); none in the French set. */
  // What the set reads as one tile: "CH", "Ñ", and other spellings as "L.L=L·L" (typed=tile).
  function setTiles() {
    var field = $("slip-text"), listed = [];
    try { listed = JSON.parse((field && field.dataset.tiles) || "[]"); } catch (e) { listed = []; }
    return listed.map(function (entry) {
      var at = entry.indexOf("=");
      return at > 0 ? { typed: entry.slice(0, at), tile: entry.slice(at + 1) } : { typed: entry, tile: entry };
    });
  }

  function tileOf(long, typed) {
    for (var k = 0; k < long.length; k++) if (long[k].typed === typed) return long[k].tile;
    return null;
  }

  function cellAt(board, at, i) {
    var r = at.across ? at.row : at.row + i, c = at.across ? at.col + i : at.col;
    if (r >= SIZE || c >= SIZE) return null;
    return board.querySelector('[data-sq="' + (r * SIZE + c) + '"]');
  }

  /* A square holding a tile of the game (not the player's own slip, drawn in their colour). */
  function onBoard(cell) {
    return cell.classList.contains("t") && !cell.classList.contains("mine");
  }

  function drawSlip() {
    var board = $("player-board"), field = $("slip-text");
    if (!board || !field) return;
    Array.prototype.forEach.call(board.querySelectorAll("[data-ghost], [data-dir]"), function (c) {
      c.removeAttribute("data-ghost");
      c.removeAttribute("data-dir");
      c.removeAttribute("data-joker");
    });
    var slip = splitSlip(field.value);
    var letters = wordLetters(slip.word) || [];
    var at = slip.ref ? refCell(slip.ref) : null;
    if (at && field.value !== sentText) {
      var first = cellAt(board, at, 0);
      if (first) first.dataset.dir = at.across ? "→" : "↓";
      for (var i = 0; i < letters.length; i++) {
        var cell = cellAt(board, at, i);
        if (!cell) break;
        if (onBoard(cell)) continue; // over the slip last sent, the one being typed shows
        cell.dataset.ghost = letters[i].letter;
        if (letters[i].joker) cell.dataset.joker = "";
      }
    }
    drawRack(phase() === "running" || phase() === "drawn" ? letters : [], at, board);
    drawLetters(slip);
  }

  /* The rack's tiles the slip takes, dimmed as if taken off a real rack: each letter not already
     on the board takes its tile, a joker takes the blank. */
  function drawRack(letters, at, board) {
    var tiles = Array.prototype.slice.call(document.querySelectorAll("#player-status .rack .tile"));
    tiles.forEach(function (tile) {
      tile.classList.remove("used");
      var note = tile.querySelector(".used-note");
      if (note) tile.removeChild(note);
    });
    var missing = null;
    letters.forEach(function (letter, i) {
      var cell = at ? cellAt(board, at, i) : null;
      if (at && (!cell || onBoard(cell))) return;
      var wanted = letter.joker ? "?" : letter.letter;
      var tile = tiles.filter(function (t) {
        return !t.classList.contains("used") && tileLetter(t) === wanted;
      })[0];
      if (!tile) {
        if (at && missing === null) missing = wanted;
        return;
      }
      tile.classList.add("used");
      var note = document.createElement("span");
      note.className = "sr used-note";
      note.textContent = ", " + text("tileUsed");
      tile.appendChild(note);
    });
    sayMissing(missing);
  }

  /* Said under the slip before it goes: the word takes a tile the rack does not hold (a joker it has
     not, a letter it has not or has used already), in the region a screen reader reads out. */
  function sayMissing(wanted) {
    var box = $("slip-missing");
    if (!box) return;
    var said = wanted === null ? "" : wanted === "?" ? text("rackNoBlank")
      : text("rackNoLetter").replace("{letter}", wanted);
    if (box.textContent !== said) box.textContent = said;
  }

  function tileLetter(tile) {
    return tile.classList.contains("joker") ? "?" : (tile.firstChild.nodeValue || "").trim();
  }

  function drawLetters(slip) {
    var box = $("slip-letters");
    if (!box) return;
    var focused = document.activeElement && box.contains(document.activeElement)
      ? document.activeElement.dataset.index : null;
    box.textContent = "";
    var letters = wordLetters(slip.word);
    if (!letters) return;
    letters.forEach(function (letter, i) {
      var b = document.createElement("button");
      b.type = "button";
      b.textContent = letter.letter;
      b.dataset.index = i;
      b.setAttribute("aria-pressed", letter.joker ? "true" : "false");
      if (letter.joker) b.className = "joker";
      box.appendChild(b);
      if (String(i) === focused) b.focus();
    });
  }

  function toggleJoker(index) {
    var field = $("slip-text");
    var slip = splitSlip(field.value);
    var letters = wordLetters(slip.word);
    if (!letters || !letters[index]) return;
    var pos = slip.head.length + slip.rest.indexOf(slip.word) + letters[index].end;
    var value = field.value;
    field.value = letters[index].joker ? value.slice(0, pos) + value.slice(pos + 1)
      : value.slice(0, pos) + "?" + value.slice(pos);
    changed();
  }

  /* A tap on a square, or Enter on it (``stay``: the keyboard's way keeps the focus on the square,
     where a second Enter turns the direction and the word's first letter goes to the slip). */
  function tapCell(sq, stay) {
    var field = $("slip-text");
    var row = ROWS.charAt(Math.floor(sq / SIZE)), col = String(sq % SIZE + 1);
    var across = row + col, down = col + row;
    var slip = splitSlip(field.value);
    // Tap a new cell: it is the reference, across; tap it again: turn the direction.
    var ref = slip.ref === across ? down : across;
    var rest = slip.ref ? slip.rest : field.value.trim();
    field.value = ref + " " + rest.replace(/^\s+/, "");
    changed();
    if (stay) return;
    field.focus();
    field.setSelectionRange(field.value.length, field.value.length);
  }

  function changed() {
    newRequestId(); // a different slip is a new request; the same one sent twice is stored once
    drawSlip();
  }

  /* Letters in upper case as they are typed, whatever the keyboard does (the server does it too);
     not in the middle of a keyboard's composition, which would garble the word. */
  function upperCase(field) {
    var value = field.value, upper = value.toUpperCase();
    if (upper === value) return;
    var start = field.selectionStart, end = field.selectionEnd;
    field.value = upper;
    if (upper.length === value.length && start !== null) field.setSelectionRange(start, end);
  }

  document.addEventListener("click", function (event) {
    var cell = event.target.closest("#player-board [data-sq]");
    // A click the keyboard made (Enter or Space on the square: no pointer, detail 0) keeps the focus.
    if (cell && (phase() === "running" || phase() === "drawn")) return tapCell(+cell.dataset.sq, event.detail === 0);
    var letter = event.target.closest("#slip-letters button");
    if (letter) toggleJoker(+letter.dataset.index);
  });

  document.addEventListener("input", function (event) {
    if (event.target.id === "slip-text" && !event.isComposing) upperCase(event.target);
    if (event.target.closest("#player-slip")) changed();
  });

  document.addEventListener("compositionend", function (event) {
    if (event.target.id !== "slip-text") return;
    upperCase(event.target);
    changed();
  });

  /* -- a slip the server could not store (503: its database was busy) or that got no answer from
        the server (the network dropped; a proxy's 502, 503 or 504; a captive portal's page: any
        answer without the application's mark) is sent again, the same request (same request_id:
        stored once even if the lost answer was a success), after a growing pause with some chance
        in it (a hall's phones that failed together do not come back together), until the round's
        time is up.  "Received" is shown only from the server's own answer. -- */

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

  /* The application marks each of its answers (X-Arbiter, server/answers.py). */
  function fromServer(xhr) {
    return !!xhr && xhr.status !== 0 && xhr.getResponseHeader("X-Arbiter") === "1";
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
    var xhr = event.detail.xhr, status = fromServer(xhr) ? xhr.status : 0;
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
    }, retryDelay / 2 + Math.random() * retryDelay / 2);
  }

  function cancelRetry() {
    if (retryTimer !== null) clearTimeout(retryTimer);
    retryTimer = null;
    retryDelay = 0;
  }

  document.addEventListener("htmx:sendError", sendFailed);
  document.addEventListener("htmx:responseError", sendFailed);
  document.addEventListener("htmx:beforeSwap", function (event) {
    // An answer that is not the server's, even a 200 (a captive portal's page): nothing of it is
    // shown; taken as no answer (htmx:responseError follows), the slip is sent again.
    var config = event.detail.requestConfig;
    if (!config || !config.elt || config.elt.id !== "player-slip" || fromServer(event.detail.xhr)) return;
    event.detail.shouldSwap = false;
    event.detail.isError = true;
  });
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

  /* What the phone's other scripts share with this one (player_lost.js, player_room.js). */
  window.arbiterPhone = {
    $: $, text: text, fromServer: fromServer, fromSlip: fromSlip, refCell: refCell, SIZE: SIZE, ROWS: ROWS,
    countdownRunning: function () { return clockEnd !== null && performance.now() <= clockEnd; },
    retrying: function () { return retryTimer !== null; }
  };

  // At the swap, not only at the settle (20 ms later): the new round's heading, its phase and the
  // slip emptied for it all change in the same instant; a slip typed in between would be lost.
  document.addEventListener("htmx:afterSwap", onStatus);
  document.addEventListener("htmx:afterSettle", onStatus);
  document.addEventListener("DOMContentLoaded", onStatus);
  setInterval(tick, 250);
})();
