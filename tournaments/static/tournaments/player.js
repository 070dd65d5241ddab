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

  /* The word's letters as the server reads them (tournaments/phone.py slip_text): accents dropped,
     any case taken as upper case, "?" right after a letter marks it played with the joker.  Each
     letter knows where its "?" goes in the word.  Null for a character the preview cannot show:
     the server's sentence will explain it. */
  function wordLetters(word) {
    var out = [], last = null;
    for (var i = 0; i < word.length; i++) {
      var ch = word.charAt(i);
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
    }
    return out;
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
    letters.forEach(function (letter, i) {
      var cell = at ? cellAt(board, at, i) : null;
      if (at && (!cell || onBoard(cell))) return;
      var wanted = letter.joker ? "?" : letter.letter;
      var tile = tiles.filter(function (t) {
        return !t.classList.contains("used") && tileLetter(t) === wanted;
      })[0];
      if (!tile) return;
      tile.classList.add("used");
      var note = document.createElement("span");
      note.className = "sr used-note";
      note.textContent = ", " + text("tileUsed");
      tile.appendChild(note);
    });
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
    if (cell && (phase() === "running" || phase() === "drawn")) return tapCell(+cell.dataset.sq);
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

  /* -- the server gone (issue 25): a phone whose requests get no answer from the application for a
        few seconds says so plainly, with the time it lost it and what to do if the arbiter moves to
        another laptop, and says when the server is back.  A slip it could not deliver while its
        countdown ran is kept on the phone with the moment of its first try, and sent as soon as the
        server answers to /j/<token>/essai/: the server never counts it as in time by itself (a
        phone's clock is not trusted); the arbiter accepts or refuses it (tournaments/tried.py). -- */

  var LOST_AFTER_MS = 4000, BACK_SHOWN_MS = 6000;
  var lost = { firstFail: null, shown: false, backTimer: null };
  var kept = { sending: false };

  function keptKey() { return "arbiter-tried:" + location.pathname; }

  function readKept() {
    try { return JSON.parse(localStorage.getItem(keptKey()) || "null"); } catch (e) { return null; }
  }

  function writeKept(value) {
    try {
      if (value) localStorage.setItem(keptKey(), JSON.stringify(value));
      else localStorage.removeItem(keptKey());
    } catch (e) { /* private mode: kept in this page only */ }
    kept.value = value;
  }

  function twoDigits(n) { return String(n).padStart(2, "0"); }

  function banner() {
    var box = $("server-lost");
    if (!box) {
      box = document.createElement("p");
      box.id = "server-lost";
      var screen = document.querySelector("main.screen");
      if (!screen) return null;
      screen.insertBefore(box, screen.firstChild);
    }
    return box;
  }

  function showLost() {
    var box = banner();
    if (!box) return;
    lost.shown = true;
    clearTimeout(lost.backTimer);
    var at = new Date(lost.firstFail);
    var code = document.querySelector(".join-code strong");
    box.className = "server-lost";
    box.setAttribute("role", "alert");
    box.textContent = text("serverLost").replace("{time}", clockText(at)).replace("{code}", code ? code.textContent : "");
    // A slip kept here stays with this address: said, so that it is handed in on paper elsewhere.
    var slip = readKept();
    if (slip && text("keptSlip")) {
      var line = document.createElement("span");
      line.className = "kept-slip";
      line.textContent = " " + text("keptSlip")
        .replace("{slip}", (slip.slip + " " + (slip.claimed || "")).trim())
        .replace("{time}", clockText(new Date(slip.tried_at)));
      box.appendChild(line);
    }
    document.body.dataset.server = "lost";
  }

  function clockText(at) {
    return twoDigits(at.getHours()) + ":" + twoDigits(at.getMinutes()) + ":" + twoDigits(at.getSeconds());
  }

  function showBack() {
    var box = banner();
    lost.shown = false;
    document.body.dataset.server = "back";
    if (!box) return;
    box.className = "server-back";
    box.setAttribute("role", "status");
    box.textContent = text("serverBack");
    lost.backTimer = setTimeout(function () {
      if (box.parentNode && !lost.shown) box.parentNode.removeChild(box);
      delete document.body.dataset.server;
    }, BACK_SHOWN_MS);
  }

  function serverFailed() {
    if (lost.firstFail === null) lost.firstFail = Date.now();
    if (!lost.shown && Date.now() - lost.firstFail >= LOST_AFTER_MS) showLost();
  }

  function serverAnswered() {
    lost.firstFail = null;
    if (lost.shown) showBack();
    sendKept();
  }

  document.addEventListener("htmx:afterRequest", function (event) {
    var xhr = event.detail.xhr;
    if (!xhr) return;
    if (fromServer(xhr)) serverAnswered(); else serverFailed();
  });
  document.addEventListener("htmx:sendError", function () { serverFailed(); });
  // Nothing asked meanwhile (the push connection up, the server gone behind it): the clock checks.
  setInterval(function () {
    if (lost.firstFail !== null && !lost.shown && Date.now() - lost.firstFail >= LOST_AFTER_MS) showLost();
  }, 1000);

  /* A slip whose sending got no answer while the countdown ran: kept with its first try's moment. */
  function keepTried(form) {
    if (clockEnd === null || performance.now() > clockEnd) return;
    var request = form.elements.request_id.value, old = readKept();
    if (old && old.request_id === request) return; // the same slip retried: its first try stays
    writeKept({
      round: form.elements.round.value,
      slip: form.elements.slip ? form.elements.slip.value : "",
      claimed: form.elements.claimed ? form.elements.claimed.value : "",
      request_id: request,
      tried_at: Date.now()
    });
    if (lost.shown) showLost();
  }

  document.addEventListener("htmx:afterRequest", function (event) {
    var form = fromSlip(event);
    if (!form) return;
    var xhr = event.detail.xhr;
    if (!fromServer(xhr)) return keepTried(form);
    // The server answered: a slip it stored is no longer only on the phone.
    var receipt = $("player-receipt");
    var old = readKept();
    if (old && receipt && receipt.querySelector(".sent") && !receipt.querySelector(".error")) writeKept(null);
  });

  function sendKept() {
    var value = readKept(), status = $("player-status");
    if (!value || kept.sending || !status || retryTimer !== null) return;
    var url = new URL(status.getAttribute("hx-get"), location.href).pathname.replace(/etat\/$/, "essai/");
    var headers = {};
    try { headers = JSON.parse(document.body.getAttribute("hx-headers") || "{}"); } catch (e) { headers = {}; }
    headers["Content-Type"] = "application/x-www-form-urlencoded";
    kept.sending = true;
    fetch(url, { method: "POST", headers: headers, credentials: "same-origin", body: new URLSearchParams(value) })
      .then(function (answer) {
        if (answer.headers.get("X-Arbiter") !== "1") throw new Error("not the server");
        return answer.text().then(function (body) { keptAnswered(answer.status, body); });
      })
      .catch(function () { /* no answer: sent again when the server next answers */ })
      .then(function () { kept.sending = false; });
  }

  function keptAnswered(status, body) {
    if (status === 503) return; // busy: sent again at the next answer
    writeKept(null);
    var receipt = $("player-receipt");
    if (!receipt) return;
    var answer = new DOMParser().parseFromString(body || "", "text/html");
    var fresh = answer.getElementById("player-receipt");
    if (fresh && status < 300) {
      receipt.parentNode.replaceChild(document.importNode(fresh, true), receipt);
      return;
    }
    var said = answer.querySelector(".tried, .error, p");
    var line = document.createElement("p");
    line.className = status < 300 ? "tried" : "error";
    line.textContent = said ? said.textContent : "";
    var retrying = receipt.querySelector(".retrying");
    if (retrying) retrying.parentNode.removeChild(retrying);
    if (line.textContent) receipt.insertBefore(line, receipt.firstChild);
  }

  document.addEventListener("DOMContentLoaded", function () { kept.value = readKept(); });

  /* -- htmx: a 204 poll still carries the seconds left; a swap brings a new status or board -- */

  document.addEventListener("htmx:afterRequest", function (event) {
    var xhr = event.detail.xhr;
    if (!xhr || xhr.status !== 204 || event.detail.elt.id !== "player-status") return;
    var left = xhr.getResponseHeader("X-Remaining");
    if (left !== null) syncClock(parseFloat(left));
  });

  /* -- pushed state (tournaments/broadcast.py): where the page names its channels (data-push), the
        room's common state comes as one message the phone draws itself (the status, the board), and
        at a round's close its own result comes on its own channel, on the same connection: no
        request per change.  The phone asks the server only when it (re)connects (the seconds left,
        anything missed), when its own result is late, every 20 s in case a message was lost, and
        every 2 s while it is not connected (the laptop, a proxy that drops server-sent events). */

  var PUSH_SAFETY_MS = 20000;
  var PUSH_CHECKS = 5;
  // A result that has not come within this after its round's state: asked of the server, each phone
  // within a spread (not the whole hall in the same instant).
  var OWN_WAIT_MS = 3000, PUSH_SPREAD_MS = 2000;
  var OWN_SLOT = '<div class="own"></div>';
  var pushed = {
    live: false, key: "", asked: false, lastAsked: Date.now(), checks: 0, timer: null,
    room: null, own: null, ownTimer: null
  };

  function shownKey() {
    var status = $("player-status");
    var url = status && status.getAttribute("hx-get");
    return url ? new URL(url, location.href).searchParams.get("s") : null;
  }

  function cancelAsk() {
    clearTimeout(pushed.timer);
    pushed.timer = null;
  }

  function askNow(key) {
    if (key) { pushed.key = key; pushed.checks = 0; }
    cancelAsk();
    var status = $("player-status");
    if (!status) return;
    pushed.asked = true;
    htmx.trigger(status, "push");
  }

  function askSoon(key) {
    if (key) { pushed.key = key; pushed.checks = 0; }
    if (key && key === shownKey()) { cancelAsk(); return; }
    if (pushed.timer) return; // one ask for changes that come close together
    pushed.timer = setTimeout(function () { askNow(""); }, Math.random() * PUSH_SPREAD_MS);
  }

  function language() {
    return (document.documentElement.getAttribute("lang") || "fr").slice(0, 2);
  }

  function onPushed(data) {
    var message;
    try { message = JSON.parse(data); } catch (e) { message = null; }
    if (!message || typeof message !== "object") return askSoon(String(data)); // a bare state key
    if (message.ph === undefined) return onOwn(message);
    cancelAsk();
    pushed.key = message.k;
    pushed.checks = 0;
    pushed.room = message;
    if (message.k === shownKey()) return; // nginx's first message, when nothing was missed
    if (message.o && !(pushed.own && pushed.own.o === message.o)) {
      // The round's state without this phone's result yet: it follows on the own channel.
      clearTimeout(pushed.ownTimer);
      pushed.ownTimer = setTimeout(function () {
        pushed.ownTimer = null;
        if (shownKey() !== message.k) askNow(message.k);
      }, OWN_WAIT_MS + Math.random() * PUSH_SPREAD_MS);
      return;
    }
    draw(message);
  }

  /* A player's own result, named by the digest of the room's results (message.o): a round's
     state that names the same digest (a top placed) is drawn with it, with no new one sent. */
  function onOwn(message) {
    pushed.own = message;
    var room = pushed.room;
    if (room && room.o && room.o === message.o && shownKey() !== room.k) {
      clearTimeout(pushed.ownTimer);
      pushed.ownTimer = null;
      draw(room);
    }
  }

  /* The pushed state drawn: a new status element (htmx takes it as its own), the receipt emptied for
     a new round and said past at the close, the board's squares redrawn. */
  function draw(message) {
    var status = $("player-status");
    if (!status) return;
    var round = status.dataset.round || "";
    var fresh = status.cloneNode(false);
    var url = new URL(status.getAttribute("hx-get"), location.href);
    url.searchParams.set("s", message.k);
    fresh.setAttribute("hx-get", url.pathname + url.search);
    fresh.dataset.phase = message.ph;
    fresh.dataset.round = message.r;
    fresh.dataset.spoken = message.sp || "";
    if (message.rem !== null && message.rem !== undefined) fresh.dataset.remaining = message.rem;
    else fresh.removeAttribute("data-remaining");
    var heading = status.querySelector(".who");
    if (heading) {
      heading = heading.cloneNode(true);
      var number = heading.querySelector(".round-no");
      if (number) number.textContent = message.rn || "";
      fresh.appendChild(heading);
    }
    var own = (message.o && pushed.own && pushed.own.o === message.o && pushed.own[language()]) || "";
    var body = document.createElement("div");
    body.innerHTML = own ? message.html.replace(OWN_SLOT, '<div class="own">' + own + "</div>") : message.html;
    while (body.firstChild) fresh.appendChild(body.firstChild);
    status.parentNode.replaceChild(fresh, status);
    htmx.process(fresh);
    drawReceipt(round, message);
    paintBoard(message);
    htmx.trigger(fresh, "htmx:afterSettle", { elt: fresh });
  }

  function drawReceipt(round, message) {
    var receipt = $("player-receipt");
    if (!receipt) return;
    if (message.r !== round) {
      // Another round: nothing was sent for it yet.
      receipt.textContent = "";
      ["data-key", "data-slip-ref", "data-slip-word", "data-fresh"].forEach(function (name) {
        receipt.removeAttribute(name);
      });
      return;
    }
    if (message.ph === "running") return;
    var sent = receipt.querySelector(".sent");
    if (sent && !sent.classList.contains("past")) {
      sent.classList.add("past");
      var when = sent.querySelector(".when");
      if (when && sent.dataset.past) when.textContent = sent.dataset.past;
    }
    var retrying = receipt.querySelector(".retrying");
    if (retrying) retrying.parentNode.removeChild(retrying);
  }

  /* The player's stored slip on the board (the receipt's data-slip-*), as the server draws it
     (tournaments/boards.py slip_preview): square -> letter, joker. */
  function storedSlip() {
    var receipt = $("player-receipt"), out = {};
    var at = receipt && receipt.dataset.slipRef ? refCell(receipt.dataset.slipRef) : null;
    if (!at) return out;
    var word = receipt.dataset.slipWord || "";
    for (var i = 0; i < word.length; i++) {
      var r = at.across ? at.row : at.row + i, c = at.across ? at.col + i : at.col;
      if (r >= SIZE || c >= SIZE) break;
      var ch = word.charAt(i);
      out[r * SIZE + c] = { letter: ch.toUpperCase(), joker: ch !== ch.toUpperCase() };
    }
    return out;
  }

  var PREMIUMS = ["tw", "dw", "star", "tl", "dl"];

  function paintBoard(message) {
    var board = $("player-board");
    if (!board || typeof message.b !== "string" || message.b.length !== SIZE * SIZE) return;
    var words = {};
    try { words = JSON.parse(board.dataset.words || "{}"); } catch (e) { words = {}; }
    var last = {};
    (message.l || []).forEach(function (sq) { last[sq] = true; });
    var mine = message.pl ? {} : storedSlip();
    Array.prototype.forEach.call(board.querySelectorAll("[data-sq]"), function (cell) {
      var sq = +cell.dataset.sq, ch = message.b.charAt(sq), tile = ch !== ".";
      var letter = tile ? ch.toUpperCase() : "", blank = tile && ch !== letter, mark = "";
      var slip = mine[sq];
      if (slip && tile) mark = slip.letter === letter ? "over" : "clash";
      else if (slip) { letter = slip.letter; blank = slip.joker; mark = "mine"; }
      var premium = PREMIUMS.filter(function (p) { return cell.classList.contains(p); })[0] || "";
      var classes = "c " + premium + (letter ? " t" : "") + (blank ? " b" : "") + (mark ? " " + mark : "") +
        (last[sq] ? " last" : "");
      var name = ROWS.charAt(Math.floor(sq / SIZE)) + (sq % SIZE + 1) + (premium ? ", " + (words[premium] || "") : "");
      var label = letter ? name + ", " + letter + (blank ? ", " + words.joker : "") +
        (mark === "mine" ? ", " + words.mine : "") + (last[sq] ? ", " + words.last : "") : name + ", " + words.empty;
      if (cell.className !== classes) cell.className = classes;
      if (cell.textContent !== letter) cell.textContent = letter;
      if (words.empty && cell.getAttribute("aria-label") !== label) cell.setAttribute("aria-label", label);
    });
  }

  /* A slip just stored: the answer is its receipt alone (tournaments/slipgate.py), and the phone
     draws the slip on the board in the player's colour itself, over the game's tiles as shown. */
  function paintMine() {
    var board = $("player-board");
    if (!board) return;
    var letters = [], last = [];
    Array.prototype.forEach.call(board.querySelectorAll("[data-sq]"), function (cell) {
      var game = cell.classList.contains("t") && !cell.classList.contains("mine");
      var letter = game ? (cell.textContent || "").trim() : "";
      letters[+cell.dataset.sq] = letter ? (cell.classList.contains("b") ? letter.toLowerCase() : letter) : ".";
      if (cell.classList.contains("last")) last.push(+cell.dataset.sq);
    });
    paintBoard({ b: letters.join(""), l: last, pl: false });
  }

  document.addEventListener("htmx:afterSettle", function (event) {
    var config = event.detail.requestConfig;
    if (config && config.elt && config.elt.id === "player-slip" && $("player-receipt")) paintMine();
  });

  function setLive(live) {
    pushed.live = live;
    document.body.setAttribute("data-push-state", live ? "live" : "lost");
  }

  function listen() {
    var path = document.body.getAttribute("data-push");
    if (!path || !window.EventSource) return;
    var source = new EventSource(path);
    // (Re)connected: nginx sends the room's last message now, which the phone draws if it shows an
    // older state.
    source.onopen = function () {
      setLive(true);
      // nginx's first message comes at once; none (nginx restarted, or the room never changed):
      // the phone asks once, later.
      cancelAsk();
      pushed.timer = setTimeout(function () { askNow(""); }, OWN_WAIT_MS + Math.random() * PUSH_SPREAD_MS);
    };
    source.onmessage = function (event) { onPushed(event.data); };
    source.onerror = function () { setLive(false); }; // the browser reconnects by itself
  }

  function isStatus(event) { return event.detail.elt && event.detail.elt.id === "player-status"; }

  document.addEventListener("htmx:configRequest", function (event) {
    if (!isStatus(event)) return;
    if (pushed.key && pushed.key !== shownKey()) event.detail.parameters.k = pushed.key;
    // The name and table shown (issue 23): another, and the server redraws them whatever the round.
    var status = $("player-status");
    if (status && status.getAttribute("data-key")) event.detail.parameters.p = status.getAttribute("data-key");
    // The board and the receipt shown: the server leaves them out of its answer if they are the same.
    var board = $("player-board"), receipt = $("player-receipt");
    if (board && board.getAttribute("data-key")) event.detail.parameters.b = board.getAttribute("data-key");
    if (receipt && receipt.getAttribute("data-key")) event.detail.parameters.r = receipt.getAttribute("data-key");
  });
  document.addEventListener("htmx:beforeRequest", function (event) {
    if (!isStatus(event)) return;
    if (!pushed.live || pushed.asked || lost.firstFail !== null || Date.now() - pushed.lastAsked >= PUSH_SAFETY_MS) {
      pushed.asked = false;
      pushed.lastAsked = Date.now();
      return;
    }
    event.preventDefault(); // connected: the 2-second timer asks nothing
  });
  document.addEventListener("htmx:afterRequest", function (event) {
    // A change that came while a request was under way: ask again until the screen shows it.
    if (!isStatus(event) || !pushed.key) return;
    setTimeout(function () {
      if (shownKey() !== pushed.key && pushed.checks < PUSH_CHECKS && !pushed.ownTimer) {
        pushed.checks += 1;
        askNow("");
      }
    }, 300);
  });

  document.addEventListener("htmx:afterSettle", onStatus);
  document.addEventListener("DOMContentLoaded", onStatus);
  document.addEventListener("DOMContentLoaded", listen);
  setInterval(tick, 250);
})();
