/* The person's page beyond "My games": the ratings per kind of game with their history,
   and the recovery code that moves this device's identity (its player key) to another
   device, or takes one over from another device. */
"use strict";
(function () {
  const ratings = document.getElementById("my-ratings");
  const recovery = document.getElementById("recovery");
  if (!recovery) return;
  let key = null;
  try { key = localStorage.getItem("koth.player"); } catch (e) { key = null; }
  const auth = () => (key ? { Authorization: `Bearer ${key}` } : {});
  const error = document.getElementById("recovery-error");
  const say = (text) => { error.textContent = text || ""; error.classList.toggle("hidden", !text); };
  const item = (text, className) => {
    const node = document.createElement("li");
    if (className) node.className = className;
    node.textContent = text;
    return node;
  };

  async function showRatings() {
    if (!key || !ratings) return;
    const response = await fetch("/api/me/ratings", { headers: auth() });
    if (!response.ok) return;
    const data = await response.json();
    if (!data.current.length) return;
    const list = document.getElementById("rating-list");
    list.replaceChildren(...data.current.map((r) => item(`${r.kind}: ${r.rating} (${ratings.dataset.games.replace("{n}", String(r.games))})`, "rating-now")));
    const history = document.getElementById("rating-history");
    history.replaceChildren(...data.history.map((h) => {
      const change = h.after - h.before;
      const node = item(`${new Date(h.created).toLocaleString()} · ${h.kind}: ${h.before} → ${h.after} (${change >= 0 ? "+" : ""}${change})`, "rating-change");
      node.dataset.gameId = h.game_id;
      return node;
    }));
    ratings.classList.remove("hidden");
  }

  document.getElementById("recovery-show").addEventListener("click", async () => {
    say("");
    const response = await fetch("/api/me/recovery", { method: "POST", headers: auth() });
    const data = await response.json();
    if (!response.ok) { say(data.error ? data.error.message : String(response.status)); return; }
    const out = document.getElementById("recovery-code");
    out.textContent = data.code;
    out.classList.remove("hidden");
  });

  document.getElementById("recover-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    say("");
    const code = document.getElementById("recover-input").value.trim();
    const response = await fetch("/api/me/recover", {
      method: "POST",
      headers: { "Content-Type": "application/json", ...auth() },
      body: JSON.stringify({ code }),
    });
    const data = await response.json();
    if (!response.ok) { say(data.error ? data.error.message : String(response.status)); return; }
    // this device holds the identity from now on: "My games" lists its games
    try { localStorage.setItem("koth.player", data.key); } catch (e) { /* not kept */ }
    location.reload();
  });
  // a device that never played has no identity to move away
  document.getElementById("recovery-show").classList.toggle("hidden", !key);

  showRatings();
})();
