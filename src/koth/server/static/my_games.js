/* "My games": the seats this device plays (tied to its player key), running first and
   those where it is to act before the others, each linked with the seat's own link. */
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
