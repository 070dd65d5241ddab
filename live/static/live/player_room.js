/* The player's phone and its room's pushed state (live/broadcast.py); loaded after
   player.js and player_lost.js, whose helpers it takes from window.arbiterPhone. */
(function () {
  "use strict";

  /* -- pushed state (live/broadcast.py): where the page names its channels (data-push), the
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
  var phone = window.arbiterPhone;
  var $ = phone.$, SIZE = phone.SIZE, ROWS = phone.ROWS, refCell = phone.refCell;
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

  function language() {
    return (document.documentElement.getAttribute("lang") || "fr").slice(0, 2);
  }

  function onPushed(data) {
    var message;
    try { message = JSON.parse(data); } catch (e) { message = null; }
    if (message && typeof message === "object") onMessage(message);
  }

  function onMessage(message) {
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
    /* One tile per square: a tile of several letters is written in brackets (CO[CH]E). */
    var tiles = (receipt.dataset.slipWord || "").match(/\[[^\]]*\]|[^\[\]]/g) || [];
    for (var i = 0; i < tiles.length; i++) {
      var r = at.across ? at.row : at.row + i, c = at.across ? at.col + i : at.col;
      if (r >= SIZE || c >= SIZE) break;
      var ch = tiles[i].replace(/^\[|\]$/g, "");
      out[r * SIZE + c] = { letter: ch.toUpperCase(), joker: ch !== ch.toUpperCase() };
    }
    return out;
  }

  /* The board as pushed: 225 characters, or 225 texts where a set has tiles of several letters. */
  function squareText(b, sq) {
    return typeof b === "string" ? b.charAt(sq) : String(b[sq] || ".");
  }

  var PREMIUMS = ["tw", "dw", "star", "tl", "dl"];

  function paintBoard(message) {
    var board = $("player-board");
    var b = message.b;
    if (!board || !(typeof b === "string" || Array.isArray(b)) || b.length !== SIZE * SIZE) return;
    var words = {};
    try { words = JSON.parse(board.dataset.words || "{}"); } catch (e) { words = {}; }
    var last = {};
    (message.l || []).forEach(function (sq) { last[sq] = true; });
    var mine = message.pl ? {} : storedSlip();
    Array.prototype.forEach.call(board.querySelectorAll("[data-sq]"), function (cell) {
      var sq = +cell.dataset.sq, ch = squareText(b, sq), tile = ch !== ".";
      var letter = tile ? ch.toUpperCase() : "", blank = tile && ch !== letter, mark = "";
      var slip = mine[sq];
      if (slip && tile) mark = slip.letter === letter ? "over" : "clash";
      else if (slip) { letter = slip.letter; blank = slip.joker; mark = "mine"; }
      var premium = PREMIUMS.filter(function (p) { return cell.classList.contains(p); })[0] || "";
      var classes = "c " + premium + (letter ? (letter.length > 1 ? " t w2" : " t") : "") + (blank ? " b" : "") + (mark ? " " + mark : "") +
        (last[sq] ? " last" : "");
      var name = ROWS.charAt(Math.floor(sq / SIZE)) + (sq % SIZE + 1) + (premium ? ", " + (words[premium] || "") : "");
      var label = letter ? name + ", " + letter + (blank ? ", " + words.joker : "") +
        (mark === "mine" ? ", " + words.mine : "") + (last[sq] ? ", " + words.last : "") : name + ", " + words.empty;
      if (cell.className !== classes) cell.className = classes;
      if (cell.textContent !== letter) cell.textContent = letter;
      if (words.empty && cell.getAttribute("aria-label") !== label) cell.setAttribute("aria-label", label);
    });
  }

  /* A slip just stored: the answer is its receipt alone (live/slipgate.py), and the phone
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
    paintBoard({ b: letters, l: last, pl: false });
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
    // This script draws the room's messages: a changed state may be answered with them, in the
    // page's language (live/polled.py), rather than with a page drawn by the server.
    event.detail.parameters.d = language();
    if (pushed.key && pushed.key !== shownKey()) event.detail.parameters.k = pushed.key;
    // The name and table shown: another, and the server redraws them whatever the round.
    var status = $("player-status");
    if (status && status.getAttribute("data-key")) event.detail.parameters.p = status.getAttribute("data-key");
    // The board and the receipt shown: the server leaves them out of its answer if they are the same.
    var board = $("player-board"), receipt = $("player-receipt");
    if (board && board.getAttribute("data-key")) event.detail.parameters.b = board.getAttribute("data-key");
    if (receipt && receipt.getAttribute("data-key")) event.detail.parameters.r = receipt.getAttribute("data-key");
  });
  /* A poll answered with the room's messages (JSON: the phone's own result, then the room's state):
     drawn as if pushed; the status element is not swapped for the answer's text. */
  document.addEventListener("htmx:beforeSwap", function (event) {
    var xhr = event.detail.xhr;
    if (!isStatus(event) || !xhr || xhr.status !== 200) return;
    if ((xhr.getResponseHeader("Content-Type") || "").indexOf("application/json") !== 0) return;
    event.detail.shouldSwap = false;
    var messages;
    try { messages = JSON.parse(xhr.responseText); } catch (e) { messages = null; }
    if (!Array.isArray(messages)) return;
    messages.forEach(function (message) { if (message && typeof message === "object") onMessage(message); });
  });
  document.addEventListener("htmx:beforeRequest", function (event) {
    if (!isStatus(event)) return;
    if (!pushed.live || pushed.asked || phone.serverFailing() || Date.now() - pushed.lastAsked >= PUSH_SAFETY_MS) {
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

  document.addEventListener("DOMContentLoaded", listen);
})();
