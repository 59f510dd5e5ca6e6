// The table page: live board over a WebSocket, clickable legal moves, log, score sheet, undo, rematch.
"use strict";
(function () {
  const { page, el, api, scoreSheet } = window.FT;
  const tableId = page().table;
  const key = "farmtable:token:" + tableId;
  const params = new URLSearchParams(location.hash.slice(1));
  if (params.get("token")) {
    localStorage.setItem(key, params.get("token"));
    history.replaceState(null, "", location.pathname); // keep the secret out of the address bar
  }
  const token = localStorage.getItem(key) || "";
  const $ = (id) => document.getElementById(id);
  let ws = null, state = null, pending = false, msgId = 0, retry = 0, tokenRefused = false;

  function send(msg) {
    if (!ws || ws.readyState !== WebSocket.OPEN) { showError("not connected — reconnecting…"); return; }
    msg.id = ++msgId;
    ws.send(JSON.stringify(msg));
  }
  function showError(text) { $("move-error").textContent = text || ""; }
  // every move carries the version it was made at: a repeat (a retry, a second tab) is refused, never applied twice
  function act(notation) {
    if (pending || !state || !state.legal.includes(notation)) return;
    coachDone(notation);
    pending = true;
    document.body.dataset.pending = "1";
    showError("");
    send({ type: "move", action: notation, version: state.version });
  }

  // a seat's name on the page: the name they chose (when the server has names), else the server's label
  function seatName(s, me) {
    if (!s.name) return s.label;
    const who = s.seat === me ? "you" : s.kind === "ai" ? (s.agent || "AI") : null;
    return s.name + (who ? " (" + who + ")" : "");
  }
  // the last move of each player, outlined on the board: the squares whose content changed since the
  // board before, remembered per player's board until that board changes again
  const lastCells = new Map(); // board -> Set of cells
  let shownCells = null; // "board|cell" -> content, of the board shown before
  function markLastMoves(board, actedBy) {
    const now = new Map();
    const changed = new Map();
    board.querySelectorAll("[data-board] [data-cell]").forEach((node) => {
      const owner = node.closest("[data-board]").getAttribute("data-board");
      const key = owner + "|" + node.getAttribute("data-cell");
      const content = node.getAttribute("data-content");
      now.set(key, content);
      if (shownCells && shownCells.has(key) && shownCells.get(key) !== content) {
        if (!changed.has(owner)) changed.set(owner, new Set());
        changed.get(owner).add(node.getAttribute("data-cell"));
      }
    });
    if (shownCells) for (const [owner, cells] of changed) lastCells.set(owner, cells);
    const fresh = new Set();
    for (const [owner, cells] of changed) for (const cell of cells) fresh.add(owner + "|" + cell);
    shownCells = now;
    board.querySelectorAll("[data-board] [data-cell]").forEach((node) => {
      const owner = node.closest("[data-board]").getAttribute("data-board");
      const cells = lastCells.get(owner);
      if (cells && cells.has(node.getAttribute("data-cell"))) {
        node.classList.add("ft-last");
        if (fresh.has(owner + "|" + node.getAttribute("data-cell"))) node.classList.add("ft-fresh");
        node.setAttribute("role", "img");
        node.setAttribute("aria-label", "changed by the last move: " + node.getAttribute("data-cell"));
      }
    });
    document.body.dataset.lastMarked = String(board.querySelectorAll(".ft-last").length);
  }

  // building on the board (Tiny Towns): click the cubes of a pattern, then a building it allows,
  // then the square it goes on. The board marks the squares that can take part with data-pick.
  let picked = new Set(), chosen = null, builds = [];
  function parseBuild(action) {
    const at = action.lastIndexOf(" at ");
    const words = action.slice(6, at).split(" ");
    const squares = words.filter((w) => /^[A-D][1-4]$/.test(w));
    return { action, name: words.filter((w) => !/^[A-D][1-4]$/.test(w)).join(" "), squares, key: [...squares].sort().join(" "), target: action.slice(at + 4) };
  }
  function setUpBuilder(board, legal) {
    builds = legal.filter((a) => a.startsWith("build ")).map(parseBuild);
    picked = new Set(); chosen = null;
    const picks = board.querySelectorAll("[data-pick]");
    picks.forEach((node) => {
      const sq = node.getAttribute("data-pick");
      node.setAttribute("role", "button");
      node.setAttribute("tabindex", "0");
      node.setAttribute("aria-pressed", "false");
      node.setAttribute("aria-label", "pick " + (node.getAttribute("data-content") || "") + " on " + sq);
      const click = () => {
        hidePicker();
        if (chosen && chosen.targets.has(sq)) { act(chosen.targets.get(sq)); return; }
        if (!builds.some((b) => b.squares.includes(sq))) return; // only a place to build on, not a cube
        if (picked.has(sq)) picked.delete(sq); else picked.add(sq);
        chosen = null;
        drawBuilder();
      };
      node.addEventListener("click", click);
      node.ftClick = click;
      node.addEventListener("keydown", (e) => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); click(); } });
    });
    drawBuilder();
  }
  function drawBuilder() {
    const box = $("builder");
    if (!box) return;
    const board = $("board");
    const key = [...picked].sort().join(" ");
    const exact = builds.filter((b) => b.key === key);
    const names = [...new Set(exact.map((b) => b.name))];
    const partial = builds.filter((b) => [...picked].every((sq) => b.squares.includes(sq)));
    board.querySelectorAll("[data-pick]").forEach((node) => {
      const sq = node.getAttribute("data-pick");
      const on = picked.has(sq);
      node.classList.toggle("ft-picked", on);
      node.setAttribute("aria-pressed", on ? "true" : "false");
      const target = chosen && chosen.targets.has(sq);
      node.classList.toggle("ft-target", Boolean(target));
      if (target) node.setAttribute("aria-label", "build " + chosen.name + " on " + sq);
    });
    if (!builds.length) { box.hidden = true; box.replaceChildren(); return; }
    box.hidden = false;
    const clear = el("button", { type: "button", class: "secondary", id: "builder-clear", onclick: () => { picked.clear(); chosen = null; drawBuilder(); } , text: "Clear" });
    const parts = [el("h2", { text: "Build" })];
    if (!picked.size) {
      parts.push(el("p", { text: "Click the cubes of a building's pattern in your town (outlined squares)." }));
    } else if (chosen) {
      parts.push(el("p", { text: chosen.name + " from " + key + ": click the square to build it on (outlined), or here:" }));
      parts.push(el("p", { class: "row" }, ...[...chosen.targets].map(([sq, action]) =>
        el("button", { type: "button", class: "build-target", "data-build": action, onclick: () => act(action), text: sq })), clear));
    } else if (names.length) {
      parts.push(el("p", { text: "Cubes " + key + " make:" }));
      parts.push(el("p", { class: "row" }, ...names.map((name) => el("button", { type: "button", class: "build-name", "data-building": name, text: name, onclick: () => {
        chosen = { name, targets: new Map(exact.filter((b) => b.name === name).map((b) => [b.target, b.action])) };
        drawBuilder();
      } })), clear));
    } else if (partial.length) {
      parts.push(el("p", { text: "Picked " + key + ": keep picking (" + new Set(partial.map((b) => b.name)).size + " building(s) use these cubes)." }), el("p", {}, clear));
    } else {
      parts.push(el("p", { class: "error", text: "No building uses the cubes on " + key + "." }), el("p", {}, clear));
    }
    box.replaceChildren(...parts);
  }

  // Fingers on a scaled-down board: a tap counts for the board buttons within 22 px of it (so each
  // button is a target of at least 44 px); when several are that close, a menu of big buttons asks which.
  const PAD = 22;
  const fingers = () => window.matchMedia("(pointer: coarse)").matches || window.innerWidth <= 820;
  function hidePicker() { const m = $("tap-picker"); if (m) m.remove(); }
  function boardTargets() {
    return [...$("board").querySelectorAll(".ft-legal, [data-pick]")].map((node) => {
      const notation = node.getAttribute("data-action");
      const label = notation || node.getAttribute("aria-label") || "";
      return { node, label, run: notation ? () => act(notation) : () => node.ftClick && node.ftClick() };
    });
  }
  function onBoardTap(e) {
    if (!fingers() || e.detail === 0) return; // keyboard and scripted clicks go to the element itself
    const x = e.clientX, y = e.clientY;
    const all = boardTargets();
    const within = (t, pad) => { const r = t.node.getBoundingClientRect();
      return x >= r.left - pad && x <= r.right + pad && y >= r.top - pad && y <= r.bottom + pad; };
    const hits = all.filter((t) => within(t, 0));
    const near = hits.length ? hits : all.filter((t) => within(t, PAD));
    if (!near.length) return;
    e.stopPropagation();
    e.preventDefault();
    if (near.length === 1) { hidePicker(); near[0].run(); return; }
    showPicker(near, y);
  }
  function showPicker(targets, y) {
    hidePicker();
    const menu = el("div", { id: "tap-picker", class: "tap-picker", role: "menu", "aria-label": "which one?" },
      el("p", { class: "meta", text: "Which one?" }),
      ...targets.map((t) => el("button", { type: "button", role: "menuitem", class: "picker-item", text: t.label,
        onclick: () => { hidePicker(); t.run(); } })),
      el("button", { type: "button", class: "secondary", text: "Cancel", onclick: hidePicker }));
    document.body.append(menu);
    const top = Math.min(window.innerHeight - menu.offsetHeight - 8, Math.max(8, y + 12));
    menu.style.top = top + "px";
    menu.querySelector("button").focus();
  }
  $("board").addEventListener("click", onBoardTap, true);

  function render(p) {
    state = p;
    hidePicker();
    window.FTstate = p; // for tests and the curious: the update the page shows
    pending = false;
    delete document.body.dataset.pending;
    const me = p.seat;
    const labels = p.seats.map((s) => seatName(s, me));
    // board: the game's SVG; its data-action elements that are legal become buttons. An update whose
    // board is the one shown ("svg_same": the server leaves the picture out) keeps it, buttons and all.
    const board = $("board");
    if (!p.svg_same) board.innerHTML = p.svg;
    const legal = new Set(p.legal);
    if (!p.svg_same) board.querySelectorAll("[data-action]").forEach((node) => {
      const notation = node.getAttribute("data-action");
      if (!legal.has(notation)) return;
      node.classList.add("ft-legal");
      node.setAttribute("tabindex", "0");
      node.setAttribute("role", "button");
      node.setAttribute("aria-label", notation);
      node.addEventListener("click", () => act(notation));
      node.addEventListener("keydown", (e) => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); act(notation); } });
    });
    if (!p.svg_same) { markLastMoves(board); setUpBuilder(board, p.legal); }
    if (firstLook) { firstLook(p); firstLook = null; }
    drawCoach(p);
    // whose turn
    const status = $("status");
    status.className = "status";
    if (p.over) {
      status.classList.add("over");
      const w = (p.result.winners || []).map((q) => labels[q]);
      status.textContent = p.players === 1 ? "Game over — score " + p.result.totals[0]
        : "Game over — " + (w.length > 1 ? "shared win: " : "winner: ") + w.join(", ");
    } else if (me !== null && p.actors.includes(me)) {
      status.classList.add("your-turn");
      const others = p.actors.filter((q) => q !== me);
      status.textContent = "Your turn" + (others.length ? " (everyone decides at once)" : "");
    } else {
      status.textContent = "Waiting for " + p.actors.map((q) => labels[q]).join(", ");
    }
    // the tab title says when it is your turn (seen from another tab)
    const myTurn = !p.over && me !== null && p.actors.includes(me);
    document.title = (myTurn ? "▶ Your turn · " : "") + baseTitle;
    if (myTurn && !wasMyTurn && document.hidden && window.Notification && Notification.permission === "granted") {
      try { new Notification("farmtable: your turn", { body: p.title }); } catch (e) { /* not allowed here */ }
    }
    wasMyTurn = myTurn;
    drawScores(p, labels);
    document.body.dataset.version = p.version;
    document.body.dataset.over = p.over ? "1" : "0";
    document.body.dataset.myturn = p.legal.length ? "1" : "0";
    // notation list
    const moves = $("moves");
    moves.replaceChildren(...p.legal.map((n) => el("li", {}, el("button", { type: "button", class: "move", "data-notation": n, onclick: () => act(n), text: n }))));
    $("moves-hint").textContent = me === null ? "You are watching (open your seat's link to play)."
      : p.legal.length ? p.legal.length + " legal move" + (p.legal.length > 1 ? "s" : "") + ": click one, or a highlighted part of the board."
      : p.over ? "" : "Not your decision now.";
    const filter = $("move-filter");
    filter.hidden = p.legal.length <= 12;
    applyFilter();
    // undo / rematch / replay
    const undo = $("undo");
    undo.disabled = !p.can_undo;
    undo.title = p.undo_reason || "Take back your last decision";
    undo.hidden = me === null;
    const why = $("undo-why");
    why.hidden = me === null || p.over || !p.undo_reason;
    why.textContent = p.undo_reason ? "Undo: " + p.undo_reason : "";
    $("rematch").hidden = !(p.over && me !== null && !p.rematch);
    const to = $("to-rematch");
    to.hidden = !p.rematch;
    if (p.rematch) to.href = "/t/" + p.rematch;
    $("to-replay").hidden = !p.over;
    // seats
    // log (newest last): updates carry the latest lines; older ones are fetched once
    for (const line of p.log) { logLines.set(line.seq, line.text); logPlayers.set(line.seq, line.player); }
    $("seats").replaceChildren(...p.seats.map((s) => {
      const last = lastLineOf(s.seat);
      return el("li", { class: [p.actors.includes(s.seat) ? "acting" : "", s.seat === me ? "me" : ""].join(" ").trim() || null, "data-seat": s.seat },
        el("span", { class: "seat-name", text: labels[s.seat] }),
        last ? el("span", { class: "seat-last", text: "last: " + last }) : "");
    }));
    if (me !== null && !p.over) askName(p);
    if (p.log.length && p.log[0].seq > 1 && !logLines.has(p.log[0].seq - 1)) fetchLog();
    drawLog();
    // score sheet at the end
    $("score-panel").hidden = !p.over;
    if (p.over) $("score").replaceChildren(scoreSheet(p.result, labels));
    const notice = $("notice");
    notice.hidden = !p.notice;
    notice.textContent = p.notice || "";
    const seeded = $("seeded");
    seeded.hidden = !p.seeded;
    seeded.textContent = p.seeded ? "Seeded game: the table's creator chose the deal (seed " + p.seeded + "), so they may know the hidden cards." : "";
  }

  const logLines = new Map();
  const logPlayers = new Map();
  let fetchingLog = false;
  const baseTitle = document.title;
  let wasMyTurn = false;
  // a log line with the player's name in place of "Player N"
  function named(seq) {
    const text = logLines.get(seq);
    const player = logPlayers.get(seq);
    if (!state || player === undefined || player === null) return text;
    const prefix = "Player " + player;
    const seat = state.seats[player];
    if (!seat || !text.startsWith(prefix + " ")) return text;
    return (seat.name || prefix) + text.slice(prefix.length);
  }
  function lastLineOf(player) {
    let best = null;
    for (const [seq, p] of logPlayers) if (p === player && (best === null || seq > best)) best = seq;
    if (best === null) return "";
    const text = named(best);
    const name = state && state.seats[player] && state.seats[player].name;
    const prefix = name || "Player " + player;
    return text.startsWith(prefix + " ") ? text.slice(prefix.length + 1) : text;
  }
  function drawLog() {
    const log = $("log");
    const seqs = [...logLines.keys()].sort((a, b) => a - b);
    log.replaceChildren(...seqs.map((seq) => el("li", { value: seq, class: seq === seqs[seqs.length - 1] ? "newest" : null, text: named(seq) })));
    log.scrollTop = log.scrollHeight;
  }
  // the live score (the server's extras, from this seat's view only)
  function drawScores(p, labels) {
    const box = $("scores");
    const score = p.extras && p.extras.score;
    if (!score || p.over) { box.hidden = true; box.replaceChildren(); return; }
    box.hidden = false;
    const best = Math.max(...score.totals);
    box.replaceChildren(
      el("h2", { class: "visually-hidden", text: "Score now" }),
      el("ul", {}, ...score.totals.map((t, q) => el("li", { class: [q === p.seat ? "me" : "", t === best && score.totals.length > 1 ? "leading" : ""].join(" ").trim() || null, "data-seat": q },
        el("span", { class: "who", text: labels[q] || "Player " + q }), " ", el("b", { class: "pts", text: t + " " + score.unit })))),
      el("p", { class: "meta", text: "Score now: " + score.note }));
  }
  // names: a seat without a name is asked once for one (works when the server knows names)
  let askedName = false;
  function askName(p) {
    const mine = p.seats[p.seat];
    const box = $("name-box");
    if (!box || askedName || !token || tokenRefused || !("name" in mine) || mine.name) return;
    askedName = true;
    box.hidden = false;
  }
  const nameForm = $("name-box");
  if ($("name-input")) $("name-input").value = localStorage.getItem("farmtable:name") || "";
  if (nameForm) nameForm.addEventListener("submit", async (e) => {
    e.preventDefault();
    const value = $("name-input").value.trim();
    const problem = FT.checkName(value);
    if (problem) { $("name-error").textContent = problem; return; }
    try {
      await api("POST", "/api/tables/" + encodeURIComponent(tableId) + "/name", { name: value }, { "X-Seat-Token": token });
      localStorage.setItem("farmtable:name", value);
      $("name-box").hidden = true;
    } catch (err) { $("name-error").textContent = err.message; }
  });
  const nameSkip = $("name-skip");
  if (nameSkip) nameSkip.addEventListener("click", () => { $("name-box").hidden = true; });
  // the "how to play" card: shown on the first visit to a table of this game, then only when asked
  // the tutorial's coach: explains each kind of decision the first time it comes up
  const coach = page().coach;
  const tutorialKey = "farmtable:tutorial:" + tableId;
  let coachSteps = null, coachShown = -1;
  if (coach && localStorage.getItem(tutorialKey)) {
    try { coachSteps = JSON.parse(localStorage.getItem(tutorialKey)); } catch (e) { coachSteps = null; }
    if (!Array.isArray(coachSteps)) coachSteps = [];
  }
  function saveCoach() { localStorage.setItem(tutorialKey, JSON.stringify(coachSteps)); }
  function coachComplete() { return coach.steps.every((step, i) => step.optional || coachSteps.includes(i)); }
  function coachDone(notation) {
    if (!coachSteps) return;
    const verb = notation.split(" ")[0];
    // the step shown, else the first step about this kind of decision, is done
    let i = coachShown >= 0 && coach.steps[coachShown].verbs.includes(verb) ? coachShown : -1;
    if (i < 0) i = coach.steps.findIndex((step, k) => !coachSteps.includes(k) && step.verbs.includes(verb));
    if (i >= 0 && !coachSteps.includes(i)) { coachSteps.push(i); saveCoach(); }
  }
  function drawCoach(p) {
    const box = $("coach");
    if (!coachSteps) return;
    box.hidden = false;
    const verbs = new Set(p.legal.map((n) => n.split(" ")[0]));
    coachShown = coach.steps.findIndex((step, i) => !coachSteps.includes(i) && step.verbs.some((v) => verbs.has(v)));
    const stop = el("button", { type: "button", class: "secondary", id: "coach-stop", text: "Stop the tutorial",
      onclick: () => { localStorage.removeItem(tutorialKey); coachSteps = null; box.hidden = true; } });
    const required = coach.steps.filter((s) => !s.optional).length;
    const doneCount = coach.steps.filter((s, i) => !s.optional && coachSteps.includes(i)).length;
    if (coachComplete()) {
      document.body.dataset.tutorial = "complete";
      box.replaceChildren(el("h2", { text: "Tutorial complete" }), el("p", { text: coach.end }), el("p", { class: "row" }, stop));
      stop.textContent = "Close";
    } else if (coachShown >= 0) {
      const step = coach.steps[coachShown];
      document.body.dataset.tutorial = "step-" + coachShown;
      box.replaceChildren(el("h2", { text: "Tutorial · " + step.title }), el("p", { text: step.text }),
        el("p", { class: "meta", text: doneCount + " of " + required + " steps done" }), el("p", { class: "row" }, stop));
    } else {
      document.body.dataset.tutorial = "waiting";
      box.replaceChildren(el("h2", { text: "Tutorial" }), el("p", { text: p.legal.length ? "Make your decision: the highlighted parts of the board are your choices." : "The other player is deciding…" }),
        el("p", { class: "meta", text: doneCount + " of " + required + " steps done" }), el("p", { class: "row" }, stop));
    }
  }
  let firstLook = null;
  const howTo = $("how-to");
  if (howTo) {
    const seenKey = "farmtable:howto-seen:" + (page().game || "");
    const close = () => { howTo.hidden = true; localStorage.setItem(seenKey, "1"); $("how-to-open").focus(); };
    const open = () => { howTo.hidden = false; $("how-to-close").focus(); };
    $("how-to-close").addEventListener("click", close);
    $("how-to-open").addEventListener("click", open);
    howTo.addEventListener("keydown", (e) => { if (e.key === "Escape") close(); });
    howTo.addEventListener("click", (e) => { if (e.target === howTo) close(); });
    // first visit: shown with the first update to a player who has a seat at a game still going
    firstLook = (p) => { if (p.seat !== null && !p.over && !localStorage.getItem(seenKey)) open(); };
  }
  // this table in "your tables" on the home page (kept in this browser only)
  FT.rememberTable(tableId, document.querySelector("h1").textContent);
  function fetchLog() {
    if (fetchingLog) return;
    fetchingLog = true;
    const headers = token && !tokenRefused ? { "X-Seat-Token": token } : {};
    api("GET", "/api/tables/" + encodeURIComponent(tableId) + "/log", null, headers)
      .then((data) => { for (const line of data.log) logLines.set(line.seq, line.text); drawLog(); })
      .catch(() => {})
      .finally(() => { fetchingLog = false; });
  }

  function applyFilter() {
    const q = $("move-filter").value.trim().toLowerCase();
    $("moves").querySelectorAll("li").forEach((li) => { li.hidden = q && !li.textContent.toLowerCase().includes(q); });
  }
  $("move-filter").addEventListener("input", applyFilter);
  $("undo").addEventListener("click", () => { showError(""); if (state) send({ type: "undo", version: state.version }); });
  $("rematch").addEventListener("click", () => send({ type: "rematch" }));
  // a seat claims its own new token for the rematch (the old one does not act there)
  $("to-rematch").addEventListener("click", (e) => { if (token && !tokenRefused) { e.preventDefault(); send({ type: "rematch" }); } });

  const invites = JSON.parse(localStorage.getItem("farmtable:invites:" + tableId) || "[]");
  if (invites.length) {
    $("invites").hidden = false;
    $("invite-links").replaceChildren(...invites.map((i) => el("li", {}, "Player " + i.seat + ": ", el("a", { href: i.link, class: "invite", "data-seat": i.seat, text: location.origin + i.link }))));
  }

  function connect() {
    const proto = location.protocol === "https:" ? "wss:" : "ws:";
    const useToken = tokenRefused ? "" : token;
    ws = new WebSocket(proto + "//" + location.host + "/ws/tables/" + encodeURIComponent(tableId));
    // the token goes in the first message, never in the address (addresses end up in logs)
    ws.onopen = () => { retry = 0; document.body.dataset.connected = "1"; ws.send(JSON.stringify({ type: "hello", token: useToken || null })); };
    ws.onmessage = (event) => {
      const msg = JSON.parse(event.data);
      if (msg.type === "update") { render(msg); showError(""); }
      else if (msg.type === "error") {
        pending = false; delete document.body.dataset.pending;
        if ((msg.status === 403 || msg.status === 401) && msg.id === undefined) { tokenRefused = true; $("notice").hidden = false; $("notice").textContent = msg.error + " — watching as a spectator."; }
        else if (msg.status === 409 && msg.version !== undefined && state && msg.version !== state.version) showError("The table changed meanwhile: look again and decide.");
        else showError(msg.error);
      } else if (msg.type === "rematch") {
        if (msg.token) localStorage.setItem("farmtable:token:" + msg.table, msg.token);
        location.href = "/t/" + msg.table;
      }
    };
    ws.onclose = (event) => {
      if (event.code === 4404) { $("status").textContent = "No such table."; return; }
      document.body.dataset.connected = "0";
      pending = false;
      retry = Math.min(retry + 1, 6);
      $("status").textContent = "Connection lost — reconnecting…";
      setTimeout(connect, 300 * retry);
    };
  }
  connect();
})();
