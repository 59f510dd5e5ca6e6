// The replay page: step forward and back through a finished game.
"use strict";
(function () {
  const { page, api, scoreSheet } = window.FT;
  const $ = (id) => document.getElementById(id);
  // frames come a page at a time (the server draws only the page asked for)
  const frames = [];
  let step = 0, total = 0;
  const tableId = page().table;
  async function fetchPage(start) {
    const data = await api("GET", "/api/tables/" + encodeURIComponent(tableId) + "/replay?start=" + start);
    total = data.total;
    data.frames.forEach((f) => { frames[f.step] = f; });
    return data;
  }
  const PAGE = 40;
  async function show() {
    const want = step;
    if (!frames[want]) await fetchPage(want - (want % PAGE));
    if (!frames[want]) await fetchPage(want);
    if (want !== step) return; // another step was asked for meanwhile: that one shows
    const f = frames[step];
    $("board").innerHTML = f.svg;
    $("step-text").textContent = f.text;
    $("counter").textContent = "step " + step + " of " + (total - 1);
    document.body.dataset.step = step;
    $("first").disabled = $("prev").disabled = step === 0;
    $("last").disabled = $("next").disabled = step === total - 1;
  }
  const go = (s) => {
    step = Math.max(0, Math.min(total - 1, s));
    show().catch((e) => { $("replay-error").textContent = e.message; });
  };
  $("first").addEventListener("click", () => go(0));
  $("prev").addEventListener("click", () => go(step - 1));
  $("next").addEventListener("click", () => go(step + 1));
  $("last").addEventListener("click", () => go(total - 1));
  document.addEventListener("keydown", (e) => { if (e.key === "ArrowLeft") go(step - 1); if (e.key === "ArrowRight") go(step + 1); });
  fetchPage(0).then((data) => {
    const labels = data.result.totals.map((_, p) => "Player " + p);
    $("score").replaceChildren(scoreSheet(data.result, labels));
    document.body.dataset.frames = total;
    go(0);
  }).catch((e) => { $("replay-error").textContent = e.message; $("step-text").textContent = ""; });
})();
