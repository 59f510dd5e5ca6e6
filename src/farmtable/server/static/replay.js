// The replay page: step forward and back through a finished game.
"use strict";
(function () {
  const { page, api, scoreSheet } = window.FT;
  const $ = (id) => document.getElementById(id);
  let frames = [], step = 0;
  function show() {
    const f = frames[step];
    $("board").innerHTML = f.svg;
    $("step-text").textContent = f.text;
    $("counter").textContent = "step " + step + " of " + (frames.length - 1);
    document.body.dataset.step = step;
    $("first").disabled = $("prev").disabled = step === 0;
    $("last").disabled = $("next").disabled = step === frames.length - 1;
  }
  const go = (s) => { step = Math.max(0, Math.min(frames.length - 1, s)); show(); };
  $("first").addEventListener("click", () => go(0));
  $("prev").addEventListener("click", () => go(step - 1));
  $("next").addEventListener("click", () => go(step + 1));
  $("last").addEventListener("click", () => go(frames.length - 1));
  document.addEventListener("keydown", (e) => { if (e.key === "ArrowLeft") go(step - 1); if (e.key === "ArrowRight") go(step + 1); });
  api("GET", "/api/tables/" + encodeURIComponent(page().table) + "/replay").then((data) => {
    frames = data.frames;
    const labels = data.result.totals.map((_, p) => "Player " + p);
    $("score").replaceChildren(scoreSheet(data.result, labels));
    document.body.dataset.frames = frames.length;
    go(0);
  }).catch((e) => { $("replay-error").textContent = e.message; $("step-text").textContent = ""; });
})();
