// The training's clock: counts down from the server's seconds left, and when the time (and its
// two seconds of grace) is over, asks the page again: the server ends the round by its own clock.
(function () {
  "use strict";
  var clock = document.querySelector(".clock[data-remaining]");
  if (!clock) return;
  var end = Date.now() + parseFloat(clock.getAttribute("data-remaining")) * 1000;
  function tick() {
    var left = Math.max(0, Math.ceil((end - Date.now()) / 1000));
    clock.textContent = Math.floor(left / 60) + ":" + String(left % 60).padStart(2, "0");
    clock.classList.toggle("warn", left <= 30);
    if (Date.now() > end + 2500) { window.location.reload(); return; }
    window.setTimeout(tick, 250);
  }
  tick();
})();
