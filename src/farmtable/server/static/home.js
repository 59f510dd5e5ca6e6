// The home page: "your tables", the tables this browser opened or joined (kept in localStorage).
"use strict";
(function () {
  const { el, myTables, forgetTable } = window.FT;
  const box = document.getElementById("your-tables");
  function draw() {
    const list = myTables();
    box.hidden = !list.length;
    document.getElementById("your-tables-list").replaceChildren(...list.map((t) => el("li", {},
      el("a", { href: "/t/" + encodeURIComponent(t.id), text: t.title || "Table " + t.id }),
      el("span", { class: "meta", text: " · " + new Date(t.at).toLocaleString() + " " }),
      el("button", { type: "button", class: "secondary small", "aria-label": "Forget " + (t.title || t.id), text: "Forget",
        onclick: () => { forgetTable(t.id); draw(); } }))));
  }
  draw();
})();
