// A redraw the page asks for (htmx.ajax) that a newer request replaces is aborted (hx-sync) and its
// promise rejected with nothing: no fault, the screen's poll draws it a second later.
function quiet() {}

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
// Opened in a tab of its own (its link middle-clicked), the history is a page whose close is a link
// back to the game screen: the tab closes if the browser lets the page close it, else the link is
// followed.
document.addEventListener("click", function (event) {
  if (!event.target.closest("[data-close-history]")) return;
  var panel = document.getElementById("slip-history");
  if (panel) {
    event.preventDefault();
    panel.textContent = "";
    return;
  }
  window.close();
});

// The table cards' "Imprimer" button (no inline handler: the Content-Security-Policy forbids them).
document.addEventListener("click", function (event) {
  if (event.target.closest("[data-print]")) window.print();
});

// A slip the arbiter types (a paper slip, a correction) shown as it will be read, before Enter:
// letters in upper case whatever the keyboard, a letter followed by "?" a joker (shown in
// lower case and marked, the record's notation), accents dropped except on the letters the set
// keeps as tiles (Ñ, Ç: the output's data-kept) -- as the server reads it (live/phone.py
// slip_text).  After Enter the screen says how it was read and stored.
(function () {
  "use strict";
  var FIELDS = "#paper-text, .slips-table .correct input[name=text]";

  function letter(ch) { return /\p{L}/u.test(ch); }

  function plain(typed, kept) {
    return Array.from(typed.normalize("NFC")).map(function (ch) {
      return kept.indexOf(ch.toUpperCase()) >= 0 ? ch : ch.normalize("NFD").replace(/[\u0300-\u036f]/g, "");
    }).join("");
  }

  function read(typed, kept) {
    var chars = Array.from(plain(typed, kept).replace(/\s+/g, " ").trim());
    var parts = [];
    for (var i = 0; i < chars.length; i++) {
      if (letter(chars[i]) && chars[i + 1] === "?") {
        parts.push({ text: chars[i].toLowerCase(), joker: true });
        i += 1;
      } else {
        parts.push({ text: chars[i].toUpperCase(), joker: false });
      }
    }
    return parts;
  }

  function outputFor(field) {
    if (field.id === "paper-text") return document.getElementById("paper-read");
    var next = field.nextElementSibling;
    if (next && next.classList.contains("slip-read-live")) return next;
    var output = document.createElement("output");
    output.className = "slip-read-live";
    field.after(output);
    return output;
  }

  function show(field) {
    var output = outputFor(field);
    if (!output) return;
    var paper = document.getElementById("paper-read");
    var label = (paper && paper.getAttribute("data-label")) || "";
    var joker = (paper && paper.getAttribute("data-joker")) || "";
    output.textContent = "";
    var parts = read(field.value, (paper && paper.getAttribute("data-kept")) || "");
    if (!parts.length) return;
    output.append(label + " ");
    parts.forEach(function (part) {
      if (!part.joker) { output.append(part.text); return; }
      var mark = document.createElement("mark");
      mark.className = "joker";
      mark.title = joker;
      mark.textContent = part.text;
      output.append(mark);
    });
  }

  document.addEventListener("input", function (event) {
    if (event.target.matches && event.target.matches(FIELDS)) show(event.target);
  });
})();

// The slips panel (#slips): one graded round's slips, paper slips, corrections, undo and log, drawn
// apart from the live region (#live), which redraws every second while a round runs: the arbiter
// types round N's paper slips while round N+1 runs (ux.md).  The live region carries the picker
// (each graded round with its version); after each of its polls the panel is drawn again when it
// is behind: its round's slips changed (a deputy's correction, a late slip), or it showed the last
// graded round and a newer one closed.  Never while a field of the panel holds something typed.
(function () {
  "use strict";
  var loading = false;

  function typed(holder) {
    return Array.prototype.some.call(holder.querySelectorAll("input[type=text], input[type=number]"),
      function (field) { return field.value !== field.defaultValue; });
  }

  function behind(panel, picker) {
    var latest = picker.querySelector("a[data-latest]");
    if (!panel) return latest;
    var shown = picker.querySelector('a[data-round="' + panel.dataset.round + '"]');
    if (!shown) {
      // Its round was cancelled (or the picker is older than the panel): the last graded round.
      var newer = latest && Number(latest.dataset.number) >= Number(panel.dataset.number);
      return newer ? latest : null;
    }
    if (panel.hasAttribute("data-latest") && latest && latest !== shown) return latest;
    return Number(shown.dataset.version) > Number(panel.dataset.version) ? shown : null;
  }

  function check() {
    var holder = document.getElementById("slips");
    var picker = document.querySelector("#live .slips-picker");
    if (!holder || !picker) return;
    var panel = holder.querySelector("section.slips");
    picker.querySelectorAll("a[data-round]").forEach(function (link) {
      var on = panel !== null && link.dataset.round === panel.dataset.round;
      if (on) link.setAttribute("aria-current", "true"); else link.removeAttribute("aria-current");
    });
    var want = behind(panel, picker);
    if (!want || loading || typed(holder) || holder.querySelector(".htmx-request")) return;
    var address = want.getAttribute("hx-get");
    // A hall's panel shows a hundred tables: the same round drawn again stays on the same ones.
    if (panel && panel.dataset.page && want.dataset.round === panel.dataset.round) address += "&tranche=" + panel.dataset.page;
    loading = true;
    htmx.ajax("GET", address, { source: holder, target: "#slips", swap: "innerHTML" })
      .finally(function () { loading = false; })
      .catch(quiet);
  }

  // A slip stored, corrected or restored: the live region (its ranking) drawn again at once, even
  // while a round runs and its key has not moved.
  // Once the panel's own request is over (it is synced on the live region).
  document.addEventListener("slips-changed", function () {
    setTimeout(function () {
      var live = document.getElementById("live");
      if (!live) return;
      var poll = live.getAttribute("hx-get").split("?")[0];
      htmx.ajax("GET", poll, { source: live, target: "#live", swap: "outerHTML" }).catch(quiet);
    }, 0);
  });
  document.addEventListener("DOMContentLoaded", check);
  document.addEventListener("htmx:afterSettle", check);
  document.addEventListener("htmx:afterRequest", check);
})();

/* A hall's tables not heard from, listed on demand: each time the list is opened it is asked for
   as it is then.  The live region redraws every second while slips come; the list (preserved over
   the redraws) stays as it was opened. */
document.addEventListener("toggle", function (event) {
  var details = event.target;
  if (!details.matches || !details.matches("details.missing-list") || !details.open) return;
  htmx.ajax("GET", details.dataset.list, { source: details, target: details.querySelector(".missing-body"), swap: "innerHTML" }).catch(quiet);
}, true);

/* The new address after a resume: hidden by its button, and stays hidden on this laptop for that
   resume (a later resume shows its own). */
(function () {
  "use strict";
  var KEY = "arbiter.resumedHidden";

  function stored() {
    try { return localStorage.getItem(KEY) || ""; } catch (e) { return ""; }
  }

  function apply() {
    var card = document.querySelector(".resumed-address");
    if (card && card.dataset.resumedAt && stored() === card.dataset.resumedAt) card.hidden = true;
  }

  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest("[data-hide-resumed]");
    if (!button) return;
    var card = button.closest(".resumed-address");
    card.hidden = true;
    try { localStorage.setItem(KEY, card.dataset.resumedAt || ""); } catch (e) { /* this page only */ }
  });
  document.addEventListener("DOMContentLoaded", apply);
})();

/* The new tournament's form: the word lists offered and the sheets' language follow the letter set chosen.  A list of
   another set is hidden; when the one selected is, the set's shipped list is chosen in its place
   (the server does the same on sending, script or not). */
(function () {
  function follow() {
    var letters = document.getElementById("id_letters"), lexicon = document.getElementById("id_lexicon");
    if (!letters || !lexicon) return;
    var chosen = letters.value || "fr", selected = lexicon.options[lexicon.selectedIndex], shipped = null;
    Array.prototype.forEach.call(lexicon.options, function (option) {
      var mine = !option.dataset.letters || option.dataset.letters === chosen;
      option.hidden = !mine;
      if (mine && option.dataset.shipped !== undefined && !shipped) shipped = option;
    });
    if (selected && selected.hidden) {
      if (shipped) shipped.selected = true;
      else lexicon.value = "";
    }
  }
  // The sheets' language follows the set too until the arbiter chooses one (a Spanish bag, Spanish
  // sheets): the server applies the same rule to a new tournament sent without a choice.
  var sheetsChosen = false;
  function followSheets() {
    var letters = document.getElementById("id_letters"), sheets = document.getElementById("id_sheet_language");
    if (!letters || !sheets || sheetsChosen || sheets.dataset.follow === undefined) return;
    if (Array.prototype.some.call(sheets.options, function (o) { return o.value === letters.value; })) {
      sheets.value = letters.value;
    }
  }
  // The notice under the set says what the shipped list of that set is not (the ODS in French).
  function followNotice() {
    var letters = document.getElementById("id_letters");
    if (!letters) return;
    document.querySelectorAll("[data-notice-letters]").forEach(function (part) {
      var french = (letters.value || "fr") === "fr";
      part.hidden = part.dataset.noticeLetters === "fr" ? !french : french;
    });
  }
  document.addEventListener("change", function (event) {
    if (event.target && event.target.id === "id_letters") { follow(); followSheets(); followNotice(); }
    if (event.target && event.target.id === "id_sheet_language") sheetsChosen = true;
  });
  document.addEventListener("DOMContentLoaded", follow);
})();
