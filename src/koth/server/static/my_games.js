/* "My games": the seats this device plays (tied to its player key), running first and
   those where it is to act before the others, each linked with the seat's own link (a
   fresh one asked for when this device has none). */
"use strict";
(async function () {
  const root = document.getElementById("my-games");
  if (!root) return;
  const list = document.getElementById("my-game-list");
  const none = document.getElementById("no-games");
  let key = null;
  try { key = localStorage.getItem("koth.player"); } catch (e) { key = null; }
  if (!key) { none.classList.remove("hidden"); return; }
  const response = await fetch("/api/me/games", { headers: { Authorization: `Bearer ${key}` } });
  const games = response.ok ? await response.json() : [];
  if (!games.length) { none.classList.remove("hidden"); return; }
  const text = (tag, className, content) => {
    const node = document.createElement(tag);
    node.className = className;
    node.textContent = content;
    return node;
  };
  for (const game of games) {
    let kept = null;
    try { kept = JSON.parse(localStorage.getItem(`koth.seat.${game.id}`) || "null"); } catch (e) { kept = null; }
    const link = document.createElement("a");
    link.href = kept && kept.token ? `/games/${game.id}#seat=${kept.seat}&token=${kept.token}` : `/games/${game.id}`;
    link.textContent = game.game;
    link.className = "game-name";
    if (!(kept && kept.token)) {
      /* no token here (the identity was moved to this device): the seat gets a fresh
         link, and the device keeps it as a table opened by its link would */
      link.addEventListener("click", async (event) => {
        event.preventDefault();
        const seat = await fetch(`/api/me/games/${game.id}/seat`, {
          method: "POST", headers: { Authorization: `Bearer ${key}` },
        });
        if (!seat.ok) { location.href = link.href; return; }
        const fresh = await seat.json();
        try { localStorage.setItem(`koth.seat.${game.id}`, JSON.stringify({ seat: fresh.seat, token: fresh.token })); } catch (e) { /* not kept */ }
        location.href = `/games/${game.id}#seat=${fresh.seat}&token=${fresh.token}`;
      });
    }
    const item = document.createElement("li");
    item.className = `game-item${game.my_turn ? " my-turn" : ""}`;
    item.dataset.gameId = game.id;
    const others = game.seats.filter((s) => s.seat !== game.seat)
      .map((s) => s.name || root.dataset.seat.replace("{n}", String(s.seat + 1))).join(", ");
    item.append(
      link,
      text("span", `badge ${game.status}`, root.dataset[game.status] || game.status),
      text("span", "turn", game.status === "finished" ? "" : (game.my_turn ? root.dataset.yourTurn : root.dataset.waiting)),
      text("span", "moves", others),
    );
    list.append(item);
  }
})();
