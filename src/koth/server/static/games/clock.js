/* Clocks, resigning and absence at a table (both games): each seat's clock (the seat to
   act counts down, the others show their time left), who the computer plays for ("The
   computer is playing for Seat 2 (out of time)") with "I'm back" for that seat's person,
   and a Resign button confirmed before it is sent (POST /api/games/{id}/resign). On the
   replay it says how a game ended outside its rules. The table's script knows nothing of
   this file: a table hook draws the panel with each state (in the same frame as the board,
   so the board never jumps down under a finger when the panel appears), and a tick counts
   the running clock down. */
"use strict";
(function () {
  const t = (key, vars) => KOTH.t(key, vars);

  function clockText(ms) {
    const total = Math.max(0, Math.ceil(ms / 1000));
    const h = Math.floor(total / 3600);
    const m = Math.floor((total % 3600) / 60);
    const s = String(total % 60).padStart(2, "0");
    return h ? `${h}:${String(m).padStart(2, "0")}:${s}` : `${m}:${s}`;
  }

  // "Seat 2 (Anna)", or "Seat 2" for a seat without a name
  function seatLabel(msg, seat) {
    const info = msg.seats[seat];
    const plain = t("seat", { n: seat + 1 });
    return info && info.name ? `${plain} (${info.name})` : plain;
  }

  // a clock's label: the name alone when there is one
  function chipLabel(msg, seat) {
    const info = msg.seats[seat];
    return info && info.name ? info.name : t("seat", { n: seat + 1 });
  }

  function startTable(root) {
    const panel = KOTH.el("section", { class: "panel clocks hidden", id: "clocks", "aria-label": t("clocks") });
    const seats = KOTH.el("div", { class: "clock-seats" });
    const away = KOTH.el("p", { class: "clock-away hidden", id: "clock-away", "aria-live": "polite" });
    const controls = KOTH.el("div", { class: "clock-controls" });
    panel.append(seats, away, controls);
    document.getElementById("status").after(panel);
    let drawn = null; // the message drawn
    let received = 0; // when it arrived (the clocks count down from there)
    let confirming = false;

    async function post(path) {
      const table = KOTH.table;
      const response = await fetch(`/api/games/${table.gameId}/${path}`, { method: "POST", headers: table.headers() });
      const data = await response.json();
      if (response.ok) table.receive(data);
      else table.showError(data.error ? data.error.message : t("error_status", { status: response.status }));
    }

    function button(text, cls, onClick) {
      const b = KOTH.el("button", { type: "button", class: cls }, text);
      b.addEventListener("click", onClick);
      return b;
    }

    function drawControls(msg) {
      const clock = msg.clock;
      const mine = msg.seat === null ? null : clock && clock.seats[msg.seat];
      const nodes = [];
      if (mine && mine.computer && !mine.resigned && !msg.outcome) {
        nodes.push(button(t("im_back"), "primary im-back", () => post("back")));
      }
      if (msg.seat !== null && !msg.outcome && !(mine && mine.resigned)) {
        if (confirming) {
          nodes.push(KOTH.el("span", { class: "resign-question" }, t("resign_confirm")));
          nodes.push(button(t("resign_yes"), "danger resign-yes", async () => { confirming = false; await post("resign"); }));
          nodes.push(button(t("cancel"), "resign-cancel", () => { confirming = false; drawControls(msg); }));
        } else {
          nodes.push(button(t("resign"), "resign", () => { confirming = true; drawControls(msg); }));
        }
      }
      controls.replaceChildren(...nodes);
    }

    function draw(msg) {
      const clock = msg.clock;
      const timed = clock && clock.mode !== "none";
      const standIns = clock ? clock.seats.filter((s) => s.computer) : [];
      seats.replaceChildren();
      if (timed && !msg.outcome) {
        const head = clock.mode === "move" ? t("clock_per_decision", { s: clock.seconds })
          : t("clock_chess", { min: Math.round(clock.seconds / 6) / 10, inc: clock.increment });
        seats.append(KOTH.el("span", { class: "clock-mode" }, clock.started ? head : `${head} · ${t("clock_not_started")}`));
        for (const s of clock.seats) {
          if (s.left_ms === null) continue;
          const chip = KOTH.el("span", { class: "clock-seat", "data-seat": String(s.seat) });
          chip.classList.toggle("running", s.running);
          chip.classList.toggle("mine", s.seat === msg.seat);
          chip.classList.toggle("computer", s.computer);
          seats.append(chip);
        }
      }
      away.textContent = msg.outcome ? "" : standIns.map((s) => t(s.resigned ? "computer_for_resigned" : "computer_for_time", { seat: seatLabel(msg, s.seat) })).join(" ");
      away.classList.toggle("hidden", !away.textContent);
      drawControls(msg);
      panel.classList.toggle("hidden", !seats.childElementCount && !away.textContent && !controls.childElementCount);
      // only the buttons (no clock, nobody away): a slim row, not a panel, so the board
      // keeps its place on a phone's screen
      panel.classList.toggle("compact", !seats.childElementCount && !away.textContent);
    }

    function tick() {
      const msg = KOTH.table && KOTH.table.msg;
      if (!msg) return;
      if (msg !== drawn) {
        drawn = msg;
        received = performance.now();
        confirming = confirming && !msg.outcome;
        draw(msg);
      }
      if (!msg.clock) return;
      const spent = performance.now() - received;
      for (const chip of seats.querySelectorAll(".clock-seat")) {
        const s = msg.clock.seats[Number(chip.dataset.seat)];
        const left = s.running ? s.left_ms - spent : s.left_ms;
        chip.textContent = t("clock_seat", { seat: chipLabel(msg, s.seat), time: clockText(left) });
        chip.classList.toggle("low", s.running && left < 10000);
      }
    }
    KOTH.tableHooks.push(tick); // the table has just set KOTH.table.msg to the state it drew
    setInterval(tick, 250);
    tick();
  }

  async function startReplay(root) {
    const headers = KOTH.credentials().token ? { Authorization: `Bearer ${KOTH.credentials().token}` } : {};
    const response = await fetch(`/api/games/${root.dataset.gameId}/replay`, { headers });
    if (!response.ok) return;
    const ending = (await response.json()).ending;
    if (!ending) return;
    document.getElementById("status").after(KOTH.el("p", { class: "panel ending", id: "ending" }, ending.text));
  }

  const table = document.getElementById("table");
  if (table) startTable(table);
  const replay = document.getElementById("replay");
  if (replay) startReplay(replay);
})();
