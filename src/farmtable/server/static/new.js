// The new-table form: game, players, variants, and who sits in each seat.
"use strict";
(function () {
  const { page, el, api, checkName, rememberTable } = window.FT;
  const { games, levels } = page();
  const $ = (id) => document.getElementById(id);
  const wanted = new URLSearchParams(location.search).get("game");
  const defaultAi = (levels.find((l) => l.spec === "normal") || levels[0] || { spec: "random" }).spec;

  $("game").replaceChildren(...games.map((g) => el("option", { value: g.id, selected: g.id === wanted, text: g.title })));

  function game() { return games.find((g) => g.id === $("game").value); }
  function fillPlayers() {
    const g = game();
    if (!g) return;
    $("game-summary").textContent = g.summary || "";
    const options = [];
    for (let n = g.min_players; n <= g.max_players; n++) options.push(el("option", { value: n, selected: n === Math.min(Math.max(2, g.min_players), g.max_players), text: n === 1 ? "1 (solo)" : String(n) }));
    $("players").replaceChildren(...options);
    const vars = Object.entries(g.variants || {});
    $("variants").replaceChildren(el("legend", { text: "Variants" }), ...(vars.length ? vars.map(([name, desc]) =>
      el("label", {}, el("input", { type: "checkbox", name: "variant", value: name }), el("span", {}, el("b", { text: name }), " — " + desc))) : [el("p", { class: "meta", text: "This game has no variants." })]));
    fillSeats();
  }
  function fillSeats() {
    const n = Number($("players").value);
    const rows = [el("legend", { text: "Seats" })];
    for (let p = 0; p < n; p++) {
      const select = el("select", { id: "seat-" + p, "aria-label": "Player " + p });
      select.append(el("option", { value: "you", selected: p === 0, text: "You" }));
      select.append(el("option", { value: "invite", text: "Invite a friend (link)" }));
      for (const l of levels) select.append(el("option", { value: "ai:" + l.spec, selected: p > 0 && l.spec === defaultAi, title: l.description || null, text: "AI — " + l.label }));
      rows.push(el("div", { class: "seat-row" }, el("span", { text: "Player " + p }), select));
    }
    $("seats").replaceChildren(...rows);
  }
  $("your-name").value = localStorage.getItem("farmtable:name") || "";
  $("game").addEventListener("change", fillPlayers);
  $("players").addEventListener("change", fillSeats);
  fillPlayers();

  $("new-table").addEventListener("submit", async (event) => {
    event.preventDefault();
    $("form-error").textContent = "";
    const n = Number($("players").value);
    const seats = [];
    for (let p = 0; p < n; p++) {
      const v = $("seat-" + p).value;
      seats.push(v.startsWith("ai:") ? { kind: "ai", agent: v.slice(3) } : { kind: v });
    }
    const variants = [...document.querySelectorAll("input[name=variant]:checked")].map((i) => i.value);
    const name = $("your-name").value.trim();
    if (name && checkName(name)) { $("form-error").textContent = "Your name: " + checkName(name); return; }
    if (name) localStorage.setItem("farmtable:name", name);
    $("create").disabled = true;
    try {
      const body = { game: $("game").value, players: n, variants, seats };
      if (name) body.name = name;
      const made = await api("POST", "/api/tables", body);
      rememberTable(made.id, $("game").selectedOptions[0].textContent);
      const invites = made.seats.filter((s) => s.kind === "invite");
      const mine = made.seats.find((s) => s.kind === "you");
      if (mine) localStorage.setItem("farmtable:token:" + made.id, mine.token);
      localStorage.setItem("farmtable:invites:" + made.id, JSON.stringify(invites.map((s) => ({ seat: s.seat, link: s.link, code: s.code || null }))));
      if (!invites.length) { location.href = made.url; return; }
      $("invite-links").replaceChildren(...invites.map((s) => el("li", {}, "Player " + s.seat + ": ", el("a", { href: s.link, class: "invite", "data-seat": s.seat, text: location.origin + s.link }),
        s.code ? el("span", { class: "join-code" }, " — or the code ", el("b", { class: "code", "data-seat": s.seat, text: s.code }), " at " + location.origin + "/join") : "")));
      $("go-table").href = made.url;
      $("invites").hidden = false;
      $("new-table").hidden = true;
    } catch (e) {
      $("form-error").textContent = e.message;
    } finally {
      $("create").disabled = false;
    }
  });
})();
