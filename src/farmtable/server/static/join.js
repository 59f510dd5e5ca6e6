// Join a friend's table with the short code of an invitation: the server answers the seat's link.
"use strict";
(function () {
  const { api, rememberTable } = window.FT;
  const form = document.getElementById("join-form");
  if (!form) return;
  const input = document.getElementById("join-code");
  const error = document.getElementById("join-error");
  const ALPHABET = /^[ABCDEFGHJKMNPQRSTUVWXYZ23456789]{6}$/;
  const typed = new URLSearchParams(location.search).get("code");
  if (typed) input.value = typed;
  async function join(event) {
    if (event) event.preventDefault();
    error.textContent = "";
    const code = input.value.toUpperCase().replace(/[\s-]/g, "");
    if (!ALPHABET.test(code)) { error.textContent = "A join code is 6 letters and digits, like K7P-3QX."; input.focus(); return; }
    try {
      const made = await api("POST", "/api/join", { code });
      rememberTable(made.id, "Joined table");
      location.href = made.link;
    } catch (e) { error.textContent = e.message; }
  }
  form.addEventListener("submit", join);
  if (typed && document.body.dataset.page === undefined && location.pathname === "/join") join();
})();
