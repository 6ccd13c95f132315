/* Projector: the mountain as a round SVG (one sector per team, the steps as rings, the
   Peak in the middle) and the table of positions. Markers are kept between updates and
   moved with a CSS transition, so every resolved question animates the moves. */
"use strict";
(function () {
  const root = document.getElementById("projector");
  const svg = document.getElementById("mountain");
  const R_OUT = 100;
  const R_IN = 13;
  let msg = null;
  let layoutKey = "";
  let markers = {};
  let page = 0;
  let lastSeq = -1;
  let rowHeight = 34;

  const radius = (p, steps) => R_IN + ((R_OUT - R_IN) * (steps - p)) / steps;
  const angleOf = (i, n) => ((i + 0.5) * 2 * Math.PI) / n - Math.PI / 2;
  const color = (i, n) => `hsl(${Math.round((i * 360) / n)}, 65%, 45%)`;

  function layout(teams, steps) {
    const n = teams.length;
    svg.replaceChildren();
    markers = {};
    svg.append(Q.svg("circle", { r: R_OUT + 3, class: "hill" }));
    for (let p = 0; p < steps; p++) svg.append(Q.svg("circle", { r: radius(p, steps), class: p === steps - 1 ? "ring below" : "ring" }));
    svg.append(Q.svg("circle", { r: R_IN, class: "peak" }));
    const fs = Math.max(2.2, Math.min(8, 0.75 * ((2 * Math.PI * (R_OUT + 6)) / n)));
    const maxChars = Math.max(6, Math.floor(42 / (0.56 * fs)));
    teams.forEach((name, i) => {
      const a0 = (i * 2 * Math.PI) / n - Math.PI / 2;
      if (n > 1) svg.append(Q.svg("line", { x1: R_IN * Math.cos(a0), y1: R_IN * Math.sin(a0), x2: R_OUT * Math.cos(a0), y2: R_OUT * Math.sin(a0), class: "sector" }));
      const a = angleOf(i, n);
      const deg = (a * 180) / Math.PI;
      const left = Math.cos(a) < 0;
      const label = name.length > maxChars ? `${name.slice(0, maxChars - 1)}…` : name;
      const x = (R_OUT + 6) * Math.cos(a);
      const y = (R_OUT + 6) * Math.sin(a);
      svg.append(Q.svg("text", {
        x, y, class: "team-label", "font-size": fs.toFixed(2), "text-anchor": left ? "end" : "start", "dominant-baseline": "middle",
        transform: `rotate(${left ? deg + 180 : deg} ${x} ${y})`, text: label, "data-team": name,
      }));
    });
    const spurLayer = Q.svg("g", { id: "spur-layer" });
    svg.append(spurLayer);
    const size = Math.max(1.2, Math.min(5, ((2 * Math.PI * (R_IN + 8)) / n) * 0.45));
    teams.forEach((name, i) => {
      const g = Q.svg("g", { class: "marker", "data-team": name });
      g.append(Q.svg("circle", { r: size, fill: color(i, n) }));
      svg.append(g);
      markers[name] = { g, i };
    });
    svg.append(Q.svg("g", { id: "king-layer" }));
  }

  function place(st) {
    const n = st.teams.length;
    const steps = st.steps;
    for (const t of st.teams) {
      const m = markers[t.name];
      if (!m) continue;
      const a = angleOf(m.i, n);
      let r = radius(Math.min(t.position, steps), steps);
      if (t.position >= steps) r = t.king ? 0 : R_IN * 0.6;
      const x = r * Math.cos(a);
      const y = r * Math.sin(a);
      m.g.style.transform = `translate(${x.toFixed(2)}px, ${y.toFixed(2)}px)`;
      m.g.classList.toggle("king", Boolean(t.king));
      m.g.dataset.position = String(t.position);
    }
    const king = svg.querySelector("#king-layer");
    king.replaceChildren();
    if (st.king) {
      king.append(Q.svg("text", { y: -5, class: "crown", "text-anchor": "middle", text: "♛" }));
      king.append(Q.svg("text", { y: 9, class: "king-name", "text-anchor": "middle", text: st.king.length > 14 ? `${st.king.slice(0, 13)}…` : st.king }));
      king.append(Q.svg("text", { y: 16, class: "king-hold", id: "king-hold", "text-anchor": "middle", text: `${st.king_hold}/${st.hold_moves}` }));
    }
    const spurs = svg.querySelector("#spur-layer");
    spurs.replaceChildren();
    if (st.finished) {
      for (const t of st.teams) {
        const m = markers[t.name];
        for (const cell of t.spurs || []) {
          const a = angleOf(m.i, n);
          const r = radius(cell, steps);
          spurs.append(Q.svg("rect", { class: "spur", width: 3, height: 3, x: -1.5, y: -1.5, transform: `translate(${(r * Math.cos(a)).toFixed(2)} ${(r * Math.sin(a)).toFixed(2)}) rotate(45)` }));
        }
      }
    }
  }

  function table(st, moves) {
    const head = root.querySelector("#proj-table thead");
    const body = root.querySelector("#proj-table tbody");
    head.replaceChildren(Q.el("tr", {}, ["#", Q.t("team"), Q.t("position"), Q.t("points"), Q.t("last_move")].map((h) => Q.el("th", { text: h }))));
    const side = root.querySelector(".proj-side");
    const room = side.clientHeight - head.offsetHeight - 40;
    const perPage = Math.max(5, Math.floor(room / rowHeight));
    const pages = Math.max(1, Math.ceil(st.teams.length / perPage));
    page = page % pages;
    const shown = st.teams.slice(page * perPage, (page + 1) * perPage);
    body.replaceChildren(...shown.map((t) => Q.el("tr", { class: t.king ? "king-row" : "", dataset: { team: t.name } },
      Q.el("td", { text: t.place }), Q.el("td", { class: "name", text: `${t.king ? "♛ " : ""}${t.name}` }),
      Q.el("td", { text: t.position >= st.steps ? "▲" : t.position }), Q.el("td", { text: t.points }),
      Q.el("td", { class: "move", text: Q.moveText(moves[t.name]) + (t.spurs && t.spurs.length ? `  ◆${t.spurs.join(",")}` : "") }))));
    root.querySelector("#proj-page").textContent = pages > 1 ? `${page + 1} / ${pages}` : "";
    const first = body.querySelector("tr");
    if (first && Math.abs(first.offsetHeight - rowHeight) > 1) {
      rowHeight = first.offsetHeight; // measured: the font scales with the screen
      table(st, moves);
    }
  }

  function render() {
    const phase = msg.phase;
    root.dataset.stage = phase.stage;
    root.dataset.seq = String(msg.seq);
    document.getElementById("proj-stage").textContent = Q.stageText(phase) + (phase.partner ? ` · ${Q.t("partner_question")}` : "");
    const answered = document.getElementById("proj-answered");
    answered.textContent = msg.answered !== null && msg.answered !== undefined && phase.stage === "answering" ? Q.t("answered_count", { x: msg.answered, n: msg.teams_total }) : "";
    const lobby = document.getElementById("proj-lobby");
    lobby.classList.toggle("hidden", phase.stage !== "lobby");
    if (phase.stage === "lobby") {
      document.getElementById("proj-joined").replaceChildren(...(msg.joined || []).map((n) => Q.el("span", { class: "chip", text: n })));
    }
    const st = msg.standings;
    if (!st) return;
    const names = st.teams.map((t) => t.name).sort((a, b) => a.localeCompare(b));
    const order = [...st.teams].map((t) => t.name);
    const key = `${phase.part}|${st.steps}|${names.join("\u0000")}`;
    if (key !== layoutKey) {
      layoutKey = key;
      // sectors keep the order of the teams as first seen (the configuration order)
      layout(msg.sectors || order, st.steps);
    }
    place(st);
    table(st, msg.moves || {});
    if (msg.seq !== lastSeq) lastSeq = msg.seq;
  }

  setInterval(() => {
    if (!msg || !msg.standings) return;
    page += 1;
    table(msg.standings, msg.moves || {});
  }, 8000);

  const live = new Q.Live("projector", null, (m) => { msg = m; render(); });
  live.connect();
  Q.startTicker(() => msg);
  window.addEventListener("resize", () => msg && render());
})();
