// Shared helpers of the farmtable pages (vanilla JS, no build step).
"use strict";
window.FT = (function () {
  function page() { return JSON.parse(document.body.dataset.page || "{}"); }
  function el(tag, attrs, ...children) {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v === null || v === undefined || v === false) continue;
      if (k === "text") node.textContent = v;
      else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
      else node.setAttribute(k, v === true ? "" : v);
    }
    for (const c of children) node.append(c);
    return node;
  }
  async function api(method, url, body, headers) {
    const res = await fetch(url, {
      method, headers: Object.assign(body ? { "Content-Type": "application/json" } : {}, headers || {}),
      body: body ? JSON.stringify(body) : undefined,
    });
    let data = null;
    try { data = await res.json(); } catch (e) { data = { error: res.statusText }; }
    if (!res.ok) throw new Error((data && data.error) || res.statusText);
    return data;
  }
  // The score sheet the server wrote in words (core.sheet): one column per player headed by their
  // name, one row per scoring line, the totals, the standing and the details as sentences.
  function scoreSheet(result, labels) {
    const sheet = result.sheet;
    const columns = sheet ? sheet.columns : labels;
    const winners = new Set(result.winners || []);
    const head = el("tr", {}, el("th", { scope: "col", text: "" }));
    columns.forEach((name, p) => head.append(el("th", { scope: "col", class: winners.has(p) && columns.length > 1 ? "winner" : null, text: name })));
    const body = el("tbody");
    const lines = sheet ? sheet.lines : [];
    for (const line of lines) {
      const tr = el("tr", { class: line.section === "score" ? null : "sheet-detail" }, el("th", { scope: "row", text: line.label }));
      line.cells.forEach((cell) => tr.append(el("td", { text: cell })));
      body.append(tr);
    }
    const foot = el("tr", {}, el("td", { text: "Total" }));
    (sheet ? sheet.totals : result.totals.map(String)).forEach((t) => foot.append(el("td", { text: t })));
    const table = el("table", { class: "sheet" }, el("thead", {}, head), body, el("tfoot", {}, foot));
    const wrap = el("div", {}, table);
    if (sheet && sheet.standing) wrap.append(el("p", { class: "ranking", text: sheet.standing }));
    if (sheet && sheet.notes.length) {
      const ul = el("ul", { class: "details" });
      for (const note of sheet.notes) ul.append(el("li", { text: note }));
      wrap.append(ul);
    }
    return wrap;
  }
  // a player's name: 1-24 letters, digits, spaces and . ' - _ (the server checks it again)
  function checkName(name) {
    if (!name) return "type a name (or skip)";
    if (name.length > 24) return "a name has at most 24 characters";
    if (!/^[\p{L}\p{N} .'_-]+$/u.test(name)) return "a name may use letters, digits, spaces and . ' - _ only";
    return "";
  }
  // "your tables": the tables this browser opened or joined (no account: kept in localStorage)
  const TABLES = "farmtable:tables";
  function myTables() {
    try { const list = JSON.parse(localStorage.getItem(TABLES) || "[]"); return Array.isArray(list) ? list : []; } catch (e) { return []; }
  }
  function rememberTable(id, title) {
    const list = myTables().filter((t) => t.id !== id);
    list.unshift({ id: String(id), title: String(title || "").slice(0, 60), at: Date.now() });
    localStorage.setItem(TABLES, JSON.stringify(list.slice(0, 20)));
  }
  function forgetTable(id) { localStorage.setItem(TABLES, JSON.stringify(myTables().filter((t) => t.id !== id))); }
  return { page, el, api, scoreSheet, checkName, myTables, rememberTable, forgetTable };
})();
