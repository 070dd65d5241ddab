// The projector's optional voice (speechSynthesis, fr-FR).  Every sentence comes from the server
// (the rack announced the arbiter's way, §3.3.1, the 30-second call and "terminé"): this file only
// decides when to speak.  Browsers speak only after a click, hence the toggle.
(function () {
  "use strict";
  var synth = window.speechSynthesis;
  var controls = document.getElementById("voice-controls");
  var toggle = document.getElementById("voice-toggle");
  var repeat = document.getElementById("voice-repeat");
  var on = false;
  var announced = {};

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
    return { key: box.dataset.key, status: box.dataset.status, sentences: JSON.parse(data.textContent) };
  }

  // A rack is announced once, when it appears drawn (before the clock starts).
  function announceNew() {
    var a = current();
    if (!a || a.status !== "drawn" || announced[a.key]) return;
    announced[a.key] = true;
    say(a.sentences);
  }

  function label() {
    toggle.textContent = on ? toggle.dataset.on : toggle.dataset.off;
    toggle.setAttribute("aria-pressed", on ? "true" : "false");
  }

  if (!synth) {
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
