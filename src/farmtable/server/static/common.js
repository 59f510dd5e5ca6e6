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
  // The score sheet: one row per scoring line, one column per player; winners starred.
  function scoreSheet(result, labels) {
    const lines = [];
    for (const sheet of result.breakdown) for (const k of Object.keys(sheet)) if (!lines.includes(k)) lines.push(k);
    const winners = new Set(result.winners || []);
    const head = el("tr", {}, el("th", { scope: "col", text: "" }));
    labels.forEach((name, p) => head.append(el("th", { scope: "col", class: winners.has(p) && labels.length > 1 ? "winner" : null, text: name })));
    const body = el("tbody");
    for (const line of lines) {
      const tr = el("tr", {}, el("th", { scope: "row", text: line.replace(/_/g, " ") }));
      result.breakdown.forEach((sheet) => tr.append(el("td", { text: line in sheet ? String(sheet[line]) : "" })));
      body.append(tr);
    }
    const foot = el("tr", {}, el("td", { text: "Total" }));
    result.totals.forEach((t) => foot.append(el("td", { text: String(t) })));
    const table = el("table", { class: "sheet" }, el("thead", {}, head), body, el("tfoot", {}, foot));
    const wrap = el("div", {}, table);
    if (labels.length > 1 && result.ranking) {
      const names = result.ranking.map((g) => g.map((p) => labels[p]).join(" = "));
      wrap.append(el("p", { class: "ranking", text: "Ranking: " + names.join(" › ") }));
    }
    const details = Object.entries(result.details || {});
    if (details.length) {
      const ul = el("ul", { class: "details" });
      for (const [k, v] of details) ul.append(el("li", { text: k.replace(/_/g, " ") + ": " + (typeof v === "object" ? JSON.stringify(v) : v) }));
      wrap.append(ul);
    }
    return wrap;
  }
  return { page, el, api, scoreSheet };
})();
