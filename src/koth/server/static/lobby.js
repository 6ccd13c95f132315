/* Lobby: tabs per game, seat rows that follow the player count, agent fields for computers. */
"use strict";
// "Seat {n}" in the page's language (server/games/i18n.py)
const seatLabel = JSON.parse((document.getElementById("koth-texts") || {}).textContent || "{}").seat || "Seat {n}";
(function () {
  document.querySelectorAll(".tab").forEach((tab) => {
    tab.addEventListener("click", () => {
      document.querySelectorAll(".tab").forEach((t) => t.classList.toggle("active", t === tab));
      document.querySelectorAll("form.new-game").forEach((f) => f.classList.toggle("hidden", f.id !== tab.dataset.tab));
    });
  });

  function syncRow(row) {
    const computer = row.querySelector(".seat-kind").value === "computer";
    const level = row.querySelector(".seat-level");
    const text = row.querySelector(".level-text");
    row.querySelector(".seat-advanced").classList.toggle("hidden", !computer);
    if (level) {
      level.classList.toggle("hidden", !computer);
      const chosen = level.selectedOptions[0];
      text.textContent = chosen ? [chosen.dataset.summary, chosen.dataset.strength].filter(Boolean).join(" ") : "";
      text.classList.toggle("hidden", !computer);
      // the advanced agent is used only when no level is chosen
      if (computer && level.value === "") row.querySelector(".seat-advanced").open = true;
    }
  }

  function params(form) {
    const result = {};
    for (const input of form.querySelectorAll("[name^='param.']")) {
      const name = input.name.slice(6);
      if (input.type === "checkbox") result[name] = input.checked;
      else if (input.type === "number") { if (input.value !== "") result[name] = Number(input.value); }
      else result[name] = input.value;
    }
    return result;
  }

  async function resize(form) {
    const error = form.querySelector(".form-error");
    const response = await fetch(`/api/catalog/${form.dataset.game}/table`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ params: params(form) }),
    });
    const data = await response.json();
    if (!response.ok) {
      error.textContent = data.error.message;
      error.classList.remove("hidden");
      return;
    }
    error.classList.add("hidden");
    const rows = form.querySelector(".seat-rows");
    const all = rows.querySelectorAll(".seat-row");
    for (let i = all.length; i < data.num_players; i++) {
      const row = all[0].cloneNode(true);
      row.dataset.seat = String(i);
      row.querySelector(".seat-label").textContent = seatLabel.replace("{n}", String(i + 1));
      for (const input of row.querySelectorAll("[name]")) input.name = input.name.replace(/^seat\.\d+\./, `seat.${i}.`);
      row.querySelector(".seat-kind").value = "computer";
      row.querySelectorAll(".seat-kind, .seat-level").forEach((select) => select.addEventListener("change", () => syncRow(row)));
      rows.append(row);
      syncRow(row);
    }
    rows.querySelectorAll(".seat-row").forEach((row, i) => { if (i >= data.num_players) row.remove(); });
  }

  // each game's creation time, in the reader's own time zone and language
  document.querySelectorAll("time.created").forEach((time) => {
    const when = new Date(time.getAttribute("datetime"));
    if (!Number.isNaN(when.getTime())) {
      time.textContent = when.toLocaleString(document.documentElement.lang || undefined, { dateStyle: "medium", timeStyle: "short" });
    }
  });

  // the player's name, remembered on this device (changed by typing another)
  const NAME_KEY = "koth.name";
  const remembered = () => { try { return localStorage.getItem(NAME_KEY) || ""; } catch (e) { return ""; } };
  document.querySelectorAll("input[name='player_name']").forEach((input) => {
    input.value = remembered();
    input.addEventListener("change", () => {
      try { localStorage.setItem(NAME_KEY, input.value.trim()); } catch (e) { /* not kept */ }
      document.querySelectorAll("input[name='player_name']").forEach((other) => { other.value = input.value; });
    });
  });

  // an open seat of a listed game: its secret link is handed to the first who asks
  document.querySelectorAll("button.take-seat").forEach((button) => {
    button.addEventListener("click", async () => {
      button.disabled = true;
      const name = remembered();
      const response = await fetch(`/api/games/${button.dataset.gameId}/seats/${button.dataset.seat}/take`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify(name ? { name } : {}),
      });
      const data = await response.json();
      if (response.ok) {
        location.assign(data.join_url);
        return;
      }
      const error = button.closest(".game-item").querySelector(".take-error");
      error.textContent = data.error.message;
      error.classList.remove("hidden");
    });
  });

  document.querySelectorAll("form.new-game").forEach((form) => {
    form.querySelectorAll(".seat-row").forEach((row) => {
      row.querySelectorAll(".seat-kind, .seat-level").forEach((select) => select.addEventListener("change", () => syncRow(row)));
      syncRow(row);
    });
    form.querySelectorAll("[name^='param.']").forEach((input) => input.addEventListener("change", () => resize(form)));
  });
})();
