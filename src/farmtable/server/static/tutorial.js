// A tutorial's start page: open a seeded table against an easy AI and turn the coach on there.
"use strict";
(function () {
  const { page, api, rememberTable } = window.FT;
  const { game, seed } = page();
  const button = document.getElementById("start-tutorial");
  button.addEventListener("click", async () => {
    button.disabled = true;
    try {
      const made = await api("POST", "/api/tables", { game, players: 2, variants: [], seats: [{ kind: "you" }, { kind: "ai", agent: "easy" }], seed });
      const mine = made.seats.find((s) => s.kind === "you");
      localStorage.setItem("farmtable:token:" + made.id, mine.token);
      localStorage.setItem("farmtable:tutorial:" + made.id, "1");
      localStorage.setItem("farmtable:howto-seen:" + game, "1"); // the coach explains instead
      rememberTable(made.id, "Tutorial");
      location.href = made.url;
    } catch (e) {
      document.getElementById("tutorial-error").textContent = e.message;
      button.disabled = false;
    }
  });
})();
