/* The player's phone when the server is gone; loaded after player.js, whose helpers it
   takes from window.arbiterPhone. */
(function () {
  "use strict";

  /* -- the server gone: a phone whose requests get no answer from the application for a
        few seconds says so plainly, with the time it lost it and what to do if the arbiter moves to
        another laptop, and says when the server is back.  A slip it could not deliver while its
        countdown ran is kept on the phone with the moment of its first try, and sent as soon as the
        server answers to /j/<token>/essai/: the server never counts it as in time by itself (a
        phone's clock is not trusted); the arbiter accepts or refuses it (live/tried.py). -- */

  var LOST_AFTER_MS = 4000, BACK_SHOWN_MS = 6000;
  var lost = { firstFail: null, shown: false, backTimer: null };
  var kept = { sending: false };
  var phone = window.arbiterPhone;
  var $ = phone.$, text = phone.text, fromServer = phone.fromServer, fromSlip = phone.fromSlip;

  function keptKey() { return "arbiter-tried:" + location.pathname; }

  function readKept() {
    try { return JSON.parse(localStorage.getItem(keptKey()) || "null"); } catch (e) { return null; }
  }

  function writeKept(value) {
    try {
      if (value) localStorage.setItem(keptKey(), JSON.stringify(value));
      else localStorage.removeItem(keptKey());
    } catch (e) { /* private mode: kept in this page only */ }
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
    if (!phone.countdownRunning()) return;
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
    if (!value || kept.sending || !status || phone.retrying()) return;
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


  /* Whether the application has failed to answer since its last answer (player_room.js polls then). */
  window.arbiterPhone.serverFailing = function () { return lost.firstFail !== null; };
})();
