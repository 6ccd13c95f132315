/* Hints at a table where one person plays the computer alone: a "Hint" button asks the
   strongest computer level for the seat's move (POST /api/games/{id}/hint) and shows it
   with its reason, highlighting the move on the table; on the replay, the moves played
   after a hint are marked on the step that shows their outcome. The table's script
   knows nothing of this file: it watches the table redraw (its data-version) and the
   replay step (its data-step). */
"use strict";
(function () {
  const t = (key, vars) => KOTH.t(key, vars);

  function startTable(root, panel) {
    const button = panel.querySelector("button");
    const answer = panel.querySelector(".hint-answer");
    let shown = null; // the hint on display: {version, action, text}

    const offered = (msg) => msg && msg.seat !== null && !msg.outcome && msg.legal.length > 0 &&
      msg.seats.filter((s) => s.kind === "human").length === 1;

    const draw = () => {
      const msg = KOTH.table && KOTH.table.msg;
      panel.classList.toggle("hidden", !offered(msg));
      if (!msg || (shown && shown.version !== msg.version)) shown = null;
      answer.textContent = shown ? shown.text : "";
      answer.classList.toggle("hidden", !shown);
      root.querySelectorAll(".hinted").forEach((node) => node.classList.remove("hinted"));
      if (shown) root.querySelectorAll(`[data-action-id="${shown.action.id}"]`).forEach((node) => node.classList.add("hinted"));
    };

    button.addEventListener("click", async () => {
      const table = KOTH.table;
      if (!table || !table.msg || button.disabled) return;
      button.disabled = true;
      answer.classList.remove("hidden");
      answer.textContent = t("hint_asking", { level: panel.dataset.levelTitle });
      try {
        const response = await fetch(`/api/games/${table.gameId}/hint`, { method: "POST", headers: table.headers() });
        const data = await response.json();
        if (!response.ok) {
          shown = null;
          answer.textContent = data.error ? data.error.message : t("error_status", { status: response.status });
          return;
        }
        shown = { version: data.version, action: data.action, text: t("hint_says", { level: data.level_title, move: data.action.text, reason: data.reason }) };
        draw();
      } finally {
        button.disabled = false;
      }
    });
    new MutationObserver(draw).observe(root, { attributes: true, attributeFilter: ["data-version"] });
  }

  async function startReplay(root) {
    const status = document.getElementById("status");
    const mark = KOTH.el("p", { class: "hint-mark hidden", id: "hint-mark" });
    status.after(mark);
    const headers = KOTH.credentials().token ? { Authorization: `Bearer ${KOTH.credentials().token}` } : {};
    const response = await fetch(`/api/games/${root.dataset.gameId}/replay`, { headers });
    if (!response.ok) return;
    const frames = (await response.json()).frames;
    const stops = KOTH.replayStops(frames);
    const draw = () => {
      // a step shows the frames folded into it (the chance a hinted move led to), so it
      // is marked when a move played into any of them followed a hint
      const step = Number(root.dataset.step);
      const from = [...stops].reverse().find((i) => i < step) ?? -1;
      const seats = [...new Set(frames.slice(from + 1, step + 1).flatMap((frame) => frame.hinted))].sort((a, b) => a - b);
      mark.textContent = seats.map((seat) => t("hint_played", { seat: t("seat", { n: seat + 1 }) })).join(" ");
      mark.classList.toggle("hidden", !seats.length);
    };
    new MutationObserver(draw).observe(root, { attributes: true, attributeFilter: ["data-step"] });
    draw();
  }

  const table = document.getElementById("table");
  const panel = document.getElementById("hint");
  if (table && panel) startTable(table, panel);
  const replay = document.getElementById("replay");
  if (replay) startReplay(replay);
})();
