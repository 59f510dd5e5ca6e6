// The scoring helper: type the end position of a physical game and get its score sheet.
"use strict";
(function () {
  const { page, el, api, scoreSheet } = window.FT;
  const { games } = page();
  const $ = (id) => document.getElementById(id);
  const wanted = location.hash.slice(1);
  $("game").replaceChildren(...games.map((g) => el("option", { value: g.id, selected: g.id === wanted, text: g.title })));
  function fmt() { const g = games.find((x) => x.id === $("game").value); $("format").textContent = g ? g.scoring_helper : ""; }
  $("game").addEventListener("change", () => { fmt(); $("score-panel").hidden = true; $("score-error").textContent = ""; });
  fmt();
  $("score-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    $("score-error").textContent = "";
    try {
      const result = await api("POST", "/api/score/" + encodeURIComponent($("game").value), { text: $("text").value });
      const labels = result.totals.map((_, p) => result.totals.length === 1 ? "You" : "Player " + p);
      $("score").replaceChildren(scoreSheet(result, labels));
      $("score-panel").hidden = false;
    } catch (e) {
      $("score-panel").hidden = true;
      $("score-error").textContent = e.message;
    }
  });
})();
