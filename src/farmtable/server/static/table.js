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
    if (!ws || ws.readyState !== WebSocket.OPEN) { showError("not connected — reconnecting…"); return false; }
    msg.id = ++msgId;
    ws.send(JSON.stringify(msg));
    return true;
  }
  function showError(text) { $("move-error").textContent = text || ""; }
  // every move carries the version it was made at: a repeat (a retry, a second tab) is refused, never applied twice
  function act(notation) {
    if (pending || !state || !state.legal.includes(notation)) return;
    coachDone(notation);
    showError("");
    if (!send({ type: "move", action: notation, version: state.version })) return;
    pending = true;
    document.body.dataset.pending = "1";
    awaiting = { id: msgId, version: null };
  }
  // A move stays pending until the page shows the version it made (the server's "ack" names it).
  // In a simultaneous step another seat's hidden choice may be shown first: that update must not
  // offer the choices again, or a second click would decide for a position already left behind.
  let awaiting = null;
  function settle() { awaiting = null; pending = false; delete document.body.dataset.pending; }

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

  // Fingers on a scaled-down board: a tap on a board button at least 44 px wide and high decides at
  // once; near smaller ones it opens a magnifier ("lens"): the same board, drawn around the tap so large
  // that every button in it is at least 44 px. Tap your choice there; drag to look around; Close.
  const TAP = 44, NEAR = 48, MAX_ZOOM = 8;
  const fingers = () => window.matchMedia("(pointer: coarse)").matches || window.innerWidth <= 820;
  let lensAt = null; // where the open magnifier was opened: an update redraws it there (see render)
  function hidePicker() { const m = $("lens"); if (m) m.remove(); delete document.body.dataset.lens; lensAt = null; }
  const TARGETS = ".ft-legal, [data-pick]";
  function boardTargets(root) {
    return [...root.querySelectorAll(TARGETS)].map((node) => {
      const notation = node.getAttribute("data-action");
      const run = notation && node.classList.contains("ft-legal") ? () => act(notation) : () => node.ftClick && node.ftClick();
      return { node, run };
    });
  }
  const big = (r) => r.width >= TAP && r.height >= TAP;
  function onBoardTap(e) {
    if (!fingers() || e.detail === 0) return; // keyboard and scripted clicks go to the element itself
    const x = e.clientX, y = e.clientY;
    const hits = targetsAround(x, y, 0);
    if (hits.length === 1 && big(hits[0].node.getBoundingClientRect())) return; // big enough: the element's own click
    const near = targetsAround(x, y, NEAR);
    if (!near.length) return;
    e.stopPropagation();
    e.preventDefault();
    openLens(x, y, near);
  }
  // the board's buttons within ``pad`` px of the point (x, y)
  function targetsAround(x, y, pad) {
    return boardTargets($("board")).filter((t) => { const r = t.node.getBoundingClientRect();
      return x >= r.left - pad && x <= r.right + pad && y >= r.top - pad && y <= r.bottom + pad; });
  }
  // After an update redrew the board (another player's decision), a magnifier that was open is opened
  // again at the same place on the new board, so the choice being made is not lost.
  function reopenLens(at) {
    if (!at || !fingers() || !state || !state.legal.length) return;
    const near = targetsAround(at.x, at.y, NEAR);
    if (near.length) openLens(at.x, at.y, near);
  }
  function openLens(x, y, near) {
    hidePicker();
    const svg = $("board").querySelector("svg");
    if (!svg || !svg.getScreenCTM()) return;
    const ctm = svg.getScreenCTM();
    const scale = Math.hypot(ctm.a, ctm.b);
    const smallest = Math.min(...near.map((t) => { const r = t.node.getBoundingClientRect(); return Math.min(r.width, r.height); }));
    const zoom = Math.min(MAX_ZOOM, Math.max(1.5, (TAP + 6) / Math.max(smallest, 1)));
    const width = Math.min(window.innerWidth - 40, 520);
    const height = Math.round(Math.min(window.innerHeight * 0.55, 440));
    const at = new DOMPoint(x, y).matrixTransform(ctm.inverse());
    const w = width / (scale * zoom), h = height / (scale * zoom);
    const box = svg.viewBox.baseVal;
    const clamp = (v, lo, hi) => Math.max(lo, Math.min(v, hi));
    let vx = box && box.width ? clamp(at.x - w / 2, box.x, box.x + box.width - w) : at.x - w / 2;
    let vy = box && box.height ? clamp(at.y - h / 2, box.y, box.y + box.height - h) : at.y - h / 2;
    const copy = svg.cloneNode(true);
    copy.removeAttribute("id");
    copy.setAttribute("width", width);
    copy.setAttribute("height", height);
    copy.style.width = width + "px";
    copy.style.height = height + "px";
    copy.setAttribute("role", "group");
    copy.setAttribute("aria-label", "magnified board");
    const place = () => copy.setAttribute("viewBox", vx + " " + vy + " " + w + " " + h);
    place();
    const originals = boardTargets($("board"));
    const copies = [...copy.querySelectorAll(TARGETS)];
    let dragged = false;
    copies.forEach((node, i) => {
      const target = originals[i];
      if (!target) return;
      node.setAttribute("role", "button");
      node.setAttribute("tabindex", "0");
      node.classList.add("ft-lens-target");
      const go = (ev) => { ev.stopPropagation(); ev.preventDefault(); if (dragged) return; hidePicker(); target.run(); };
      node.addEventListener("click", go);
      node.addEventListener("keydown", (ev) => { if (ev.key === "Enter" || ev.key === " ") go(ev); });
    });
    // drag to look around the board
    let from = null;
    copy.addEventListener("pointerdown", (ev) => { from = { x: ev.clientX, y: ev.clientY, vx, vy }; dragged = false; });
    copy.addEventListener("pointermove", (ev) => {
      if (!from) return;
      const dx = ev.clientX - from.x, dy = ev.clientY - from.y;
      if (Math.hypot(dx, dy) > 8) dragged = true;
      if (!dragged) return;
      vx = from.vx - dx / (scale * zoom); vy = from.vy - dy / (scale * zoom);
      place();
    });
    const stopDrag = () => { from = null; setTimeout(() => { dragged = false; }, 0); };
    copy.addEventListener("pointerup", stopDrag);
    copy.addEventListener("pointercancel", stopDrag);
    const close = el("button", { type: "button", class: "secondary", id: "lens-close", text: "Close", onclick: hidePicker });
    const lensBox = el("div", { id: "lens", class: "board lens", role: "dialog", "aria-label": "magnified board: tap your choice" },
      el("p", { class: "row lens-head" }, el("span", { class: "meta", text: "Tap your choice · drag to look around" }), close),
      copy);
    lensBox.addEventListener("keydown", (ev) => { if (ev.key === "Escape") hidePicker(); });
    document.body.append(lensBox);
    document.body.dataset.lens = String(zoom.toFixed(2));
    const top = Math.max(8, Math.min(window.innerHeight - lensBox.offsetHeight - 8, y - lensBox.offsetHeight / 2));
    lensBox.style.top = top + "px";
    close.focus({ preventScroll: true });
    lensAt = { x, y };
  }
  $("board").addEventListener("click", onBoardTap, true);

  function render(p) {
    state = p;
    const lensWasAt = lensAt;
    hidePicker();
    window.FTstate = p; // for tests and the curious: the update the page shows
    if (!awaiting || (awaiting.version !== null && p.version >= awaiting.version)) settle();
    const me = p.seat;
    const labels = p.seats.map((s) => seatName(s, me));
    // board: the game's SVG; its data-action elements that are legal become buttons. An update whose
    // board is the one shown ("svg_same": the server leaves the picture out) keeps it, buttons and all.
    const board = $("board");
    // an update without a picture ("svg" left out, or "svg_same") means the board did not change
    const same = p.svg_same || typeof p.svg !== "string";
    if (!same) board.innerHTML = p.svg;
    const legal = new Set(p.legal);
    if (!same) board.querySelectorAll("[data-action]").forEach((node) => {
      const notation = node.getAttribute("data-action");
      if (!legal.has(notation)) return;
      node.classList.add("ft-legal");
      node.setAttribute("tabindex", "0");
      node.setAttribute("role", "button");
      node.setAttribute("aria-label", notation);
      node.addEventListener("click", () => act(notation));
      node.addEventListener("keydown", (e) => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); act(notation); } });
    });
    if (!same) { markLastMoves(board); setUpBuilder(board, p.legal); }
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
    if (myTurn && !wasMyTurn && state && firstShown) {
      if (alerts.sound) beep();
      if (document.hidden && alerts.notify && window.Notification && Notification.permission === "granted") {
        try { new Notification("farmtable: your turn", { body: p.title }); } catch (e) { /* not allowed here */ }
      }
      document.body.dataset.turnAlerts = String(Number(document.body.dataset.turnAlerts || 0) + 1);
    }
    firstShown = true;
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
    for (const line of p.log) {
      logLines.set(line.seq, line.text); logPlayers.set(line.seq, line.player);
      if (line.events) eventLines.set(line.seq, line.events); // pushed with the line when the server knows them
    }
    // every line since the events last read came with its events: nothing to ask the server
    const unread = p.log.filter((line) => line.seq > eventsSince);
    if (unread.length && p.log[0].seq <= eventsSince + 1 && unread.every((line) => Array.isArray(line.events))) {
      eventsSince = unread[unread.length - 1].seq;
    }
    $("seats").replaceChildren(...p.seats.map((s) => {
      const last = lastLineOf(s.seat);
      return el("li", { class: [p.actors.includes(s.seat) ? "acting" : "", s.seat === me ? "me" : ""].join(" ").trim() || null, "data-seat": s.seat },
        el("span", { class: "seat-name", text: labels[s.seat] }),
        last ? el("span", { class: "seat-last", text: "last: " + last }) : "");
    }));
    if (me !== null && !p.over) askName(p);
    if (p.log.length && p.log[0].seq > 1 && !logLines.has(p.log[0].seq - 1)) fetchLog();
    drawLog();
    fetchEvents();
    // score sheet at the end
    $("score-panel").hidden = !p.over;
    if (p.over) $("score").replaceChildren(scoreSheet(p.result, labels));
    const notice = $("notice");
    notice.hidden = !p.notice;
    notice.textContent = p.notice || "";
    const seeded = $("seeded");
    seeded.hidden = !p.seeded;
    seeded.textContent = p.seeded ? "Seeded game: the table's creator chose the deal (seed " + p.seeded + "), so they may know the hidden cards." : "";
    reopenLens(lensWasAt);
  }

  // turn alerts: the tab title always; a short sound and a browser notification (tab hidden) when chosen
  const ALERTS = "farmtable:alerts";
  let firstShown = false;
  const alerts = (() => { try { return Object.assign({ sound: false, notify: false }, JSON.parse(localStorage.getItem(ALERTS) || "{}")); } catch (e) { return { sound: false, notify: false }; } })();
  let audio = null;
  function beep() {
    try {
      audio = audio || new (window.AudioContext || window.webkitAudioContext)();
      const osc = audio.createOscillator(), gain = audio.createGain();
      osc.frequency.value = 660;
      gain.gain.setValueAtTime(0.0001, audio.currentTime);
      gain.gain.exponentialRampToValueAtTime(0.2, audio.currentTime + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, audio.currentTime + 0.35);
      osc.connect(gain).connect(audio.destination);
      osc.start(); osc.stop(audio.currentTime + 0.4);
      document.body.dataset.beeps = String(Number(document.body.dataset.beeps || 0) + 1);
    } catch (e) { /* no sound here */ }
  }
  function drawAlerts() {
    const sound = $("sound-toggle"), notify = $("notify-toggle");
    if (sound) { sound.setAttribute("aria-pressed", String(alerts.sound)); sound.textContent = "Sound: " + (alerts.sound ? "on" : "off"); }
    if (notify) {
      const can = "Notification" in window;
      notify.hidden = !can;
      notify.setAttribute("aria-pressed", String(alerts.notify));
      notify.textContent = "Notify me: " + (alerts.notify ? "on" : "off");
    }
  }
  if ($("sound-toggle")) $("sound-toggle").addEventListener("click", () => {
    alerts.sound = !alerts.sound; localStorage.setItem(ALERTS, JSON.stringify(alerts)); drawAlerts(); if (alerts.sound) beep();
  });
  if ($("notify-toggle")) $("notify-toggle").addEventListener("click", async () => {
    alerts.notify = !alerts.notify;
    if (alerts.notify && window.Notification && Notification.permission === "default") {
      try { alerts.notify = (await Notification.requestPermission()) === "granted"; } catch (e) { alerts.notify = false; }
    }
    if (alerts.notify && window.Notification && Notification.permission === "denied") {
      alerts.notify = false; showError("The browser blocks notifications for this site (see its site settings).");
    }
    localStorage.setItem(ALERTS, JSON.stringify(alerts)); drawAlerts();
  });
  drawAlerts();

  // automatic events (rolls, an empty market's sale, wheel turns…): pushed with the log lines; read from
  // the server only for lines that came without them (older lines, another server process's decisions)
  const eventLines = new Map(); // seq of a decision -> what happened by itself after it
  let eventsSince = 0, fetchingEvents = false, eventsAgain = false;
  function fetchEvents() {
    const newest = Math.max(0, ...logLines.keys());
    if (newest <= eventsSince) return;
    if (fetchingEvents) { eventsAgain = true; return; }
    fetchingEvents = true;
    api("GET", "/api/tables/" + encodeURIComponent(tableId) + "/events?since=" + eventsSince)
      .then((data) => {
        for (const e of data.events) eventLines.set(e.seq, e.lines);
        eventsSince = Math.max(eventsSince, newest);
        drawLog();
      })
      .catch(() => {})
      .finally(() => { fetchingEvents = false; if (eventsAgain) { eventsAgain = false; fetchEvents(); } });
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
    const items = [];
    for (const seq of seqs) {
      items.push(el("li", { value: seq, class: seq === seqs[seqs.length - 1] ? "newest" : null, text: named(seq) }));
      for (const line of eventLines.get(seq) || []) items.push(el("li", { class: "event", "data-after": seq, text: line }));
    }
    log.replaceChildren(...items);
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
    $("invite-links").replaceChildren(...invites.map((i) => el("li", {}, "Player " + i.seat + ": ", el("a", { href: i.link, class: "invite", "data-seat": i.seat, text: location.origin + i.link }),
      i.code ? el("span", { class: "join-code" }, " — or the code ", el("b", { class: "code", "data-seat": i.seat, text: i.code }), " at " + location.origin + "/join") : "")));
  }

  // others' decisions (an AI's, a friend's) are shown one at a time, each for at least PACE ms, so
  // they can be followed (the board marks and pulses what each changed); your own show at once
  const PACE = Math.max(0, Number(localStorage.getItem("farmtable:pace") ?? 700) || 0);
  const queue = [];
  let shownAt = 0, paceTimer = null;
  function byOthers(p) {
    if (!state || p.version <= state.version || !p.log.length) return false;
    const newest = p.log[p.log.length - 1];
    return newest.player !== p.seat;
  }
  function enqueue(msg) { queue.push(msg); pump(); }
  function pump() {
    if (paceTimer) return;
    while (queue.length) {
      const next = queue[0];
      const others = byOthers(next);
      const wait = shownAt + PACE - performance.now();
      if (others && wait > 0) {
        document.body.dataset.pacing = "1";
        paceTimer = setTimeout(() => { paceTimer = null; pump(); }, wait);
        return;
      }
      queue.shift();
      if (queue.length && queue[0].version >= next.version && !others && !byOthers(queue[0])) { // superseded
        // the server left the picture out of the newer one because it sent it with this one: keep it
        const later = queue[0];
        if (typeof next.svg === "string" && (later.svg_same || typeof later.svg !== "string")) { later.svg = next.svg; delete later.svg_same; }
        continue;
      }
      render(next);
      showError("");
      if (others) shownAt = performance.now();
    }
    delete document.body.dataset.pacing;
  }

  const CONNECT_SECONDS = 8;
  function connect() {
    const proto = location.protocol === "https:" ? "wss:" : "ws:";
    const useToken = tokenRefused ? "" : token;
    const socket = ws = new WebSocket(proto + "//" + location.host + "/ws/tables/" + encodeURIComponent(tableId));
    // a connection attempt that is neither open nor refused after a while (made while a restarting server
    // was still starting, say) is given up and tried again, instead of waiting on it for good
    setTimeout(() => { if (socket.readyState === WebSocket.CONNECTING) socket.close(); }, CONNECT_SECONDS * 1000);
    // the token goes in the first message, never in the address (addresses end up in logs)
    // svg_frames: an update bringing a new board says "svg_frame" and the SVG follows it in the same
    // message after a newline, as drawn (compact JSON has no raw newline; nothing is JSON-escaped);
    // view: false — the page never reads the seat's view (the picture shows it), so it is not sent
    ws.onopen = () => { retry = 0; document.body.dataset.connected = "1"; ws.send(JSON.stringify({ type: "hello", token: useToken || null, svg_frames: true, view: false })); };
    ws.onmessage = (event) => {
      const cut = event.data.indexOf("\n");
      const msg = JSON.parse(cut < 0 ? event.data : event.data.slice(0, cut));
      if (msg.svg_frame) {
        if (cut >= 0) msg.svg = event.data.slice(cut + 1);
        delete msg.svg_frame;
      }
      if (msg.type === "update") enqueue(msg);
      else if (msg.type === "ack") {
        if (awaiting && msg.id === awaiting.id) {
          awaiting.version = msg.version;
          if (state && state.version >= msg.version) settle();
        }
      } else if (msg.type === "error") {
        if (!awaiting || msg.id === awaiting.id || msg.id == null) settle();
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
      settle();
      retry = Math.min(retry + 1, 6);
      $("status").textContent = "Connection lost — reconnecting…";
      setTimeout(connect, 300 * retry);
    };
  }
  connect();
})();
