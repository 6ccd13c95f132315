/* Projector: the mountain as a round SVG (one sector per team, the steps as rings, the
   Peak in the middle), the King in large type and the table of positions, sized to be
   read from the back of a hall: at most 12 rows a page, the font growing with the
   screen, pages turning every 8 s. Over it: the question the host shows (text, picture,
   then the answer), the teams that challenge the King once declarations lock, and at
   the end the podium with the reason the game ended. Markers are kept between updates
   and moved with a CSS transition, so every resolved question animates the moves. */
"use strict";
(function () {
  const root = document.getElementById("projector");
  const player = Q.MediaPlayer(document.getElementById("proj-q-media"), document.getElementById("proj-media-blocked"));
  window.QuizMedia = player; // the browser tests read the element's state
  const svg = document.getElementById("mountain");
  const $ = (id) => document.getElementById(id);
  const R_OUT = 100;
  const R_IN = 13;
  const ROWS_PER_PAGE = 12;
  const PODIUM_SECONDS = 20;
  const LEGEND = ["right", "wrong", "jump", "revolution", "king", "steps", "spur", "downgraded", "peak"];
  let msg = null;
  let layoutKey = "";
  let markers = {};
  let page = 0;
  let podiumSince = null;
  let podiumShown = null;
  let soundKey = "";
  let soundState = { warned: false, gonged: false };

  const radius = (p, steps) => R_IN + ((R_OUT - R_IN) * (steps - p)) / steps;
  const angleOf = (i, n) => ((i + 0.5) * 2 * Math.PI) / n - Math.PI / 2;
  const color = (i, n) => `hsl(${Math.round((i * 360) / n)}, 70%, 50%)`;
  const labelOf = (name) => (msg && msg.labels && msg.labels[name]) || name.slice(0, 3);

  function partText(phase) {
    if (!phase.part) return "";
    const key = `show_part_${phase.part.replace(/ /g, "_")}`;
    return Q.cfg.t[key] ? Q.t(key) : phase.part;
  }

  function questionText(number) {
    const main = msg.main_questions || msg.phase.total_questions;
    if (number > main) return Q.t("show_backup_question", { n: number - main });
    return Q.t("show_question_of", { n: number, m: main });
  }

  function layout(teams, steps) {
    const n = teams.length;
    svg.replaceChildren();
    markers = {};
    svg.append(Q.svg("circle", { r: R_OUT + 3, class: "hill" }));
    for (let p = 0; p < steps; p++) svg.append(Q.svg("circle", { r: radius(p, steps), class: p === steps - 1 ? "ring below" : "ring" }));
    svg.append(Q.svg("circle", { r: R_IN, class: "peak" }));
    // short labels (initials or numbers, shown in the table too): never cut, so 50
    // teams stay distinct; as large as the arc of a sector allows
    const fs = Math.max(4, Math.min(14, 0.8 * ((2 * Math.PI * (R_OUT + 8)) / n)));
    teams.forEach((name, i) => {
      const a0 = (i * 2 * Math.PI) / n - Math.PI / 2;
      if (n > 1) svg.append(Q.svg("line", { x1: R_IN * Math.cos(a0), y1: R_IN * Math.sin(a0), x2: R_OUT * Math.cos(a0), y2: R_OUT * Math.sin(a0), class: "sector" }));
      // along the radius, so a label takes only its height of the arc (read upright)
      const a = angleOf(i, n);
      const deg = (a * 180) / Math.PI;
      const left = Math.cos(a) < -1e-9;
      const x = (R_OUT + 5) * Math.cos(a);
      const y = (R_OUT + 5) * Math.sin(a);
      svg.append(Q.svg("text", {
        x, y, class: "team-label", "font-size": fs.toFixed(2), "text-anchor": left ? "end" : "start", "dominant-baseline": "central",
        transform: `rotate(${left ? deg + 180 : deg} ${x} ${y})`, style: `fill:${color(i, n)}`, text: labelOf(name), "data-team": name,
      }));
    });
    const spurLayer = Q.svg("g", { id: "spur-layer" });
    svg.append(spurLayer);
    const size = Math.max(1.6, Math.min(6, ((2 * Math.PI * (R_IN + 8)) / n) * 0.5));
    teams.forEach((name, i) => {
      const g = Q.svg("g", { class: "marker", "data-team": name });
      g.append(Q.svg("circle", { r: size, fill: color(i, n) }));
      svg.append(g);
      markers[name] = { g, i };
    });
    svg.append(Q.svg("g", { id: "king-layer" }));
  }

  function place(st) {
    const n = Object.keys(markers).length;
    const steps = st.steps;
    for (const t of st.teams) {
      const m = markers[t.name];
      if (!m) continue;
      const a = angleOf(m.i, n);
      let r = radius(Math.min(t.position, steps), steps);
      if (t.position >= steps) r = t.king ? 0 : R_IN * 0.6;
      m.g.style.transform = `translate(${(r * Math.cos(a)).toFixed(2)}px, ${(r * Math.sin(a)).toFixed(2)}px)`;
      m.g.classList.toggle("king", Boolean(t.king));
      m.g.dataset.position = String(t.position);
    }
    const king = svg.querySelector("#king-layer");
    king.replaceChildren();
    if (st.king) {
      king.append(Q.svg("text", { y: -3, class: "crown", "text-anchor": "middle", text: "♛" }));
      king.append(Q.svg("text", { y: 9, class: "king-name", "text-anchor": "middle", text: labelOf(st.king) }));
    }
    const spurs = svg.querySelector("#spur-layer");
    spurs.replaceChildren();
    if (st.finished) {
      for (const t of st.teams) {
        const m = markers[t.name];
        if (!m) continue;
        for (const cell of t.spurs || []) {
          const a = angleOf(m.i, n);
          const r = radius(cell, steps);
          spurs.append(Q.svg("rect", { class: "spur", width: 4, height: 4, x: -2, y: -2, transform: `translate(${(r * Math.cos(a)).toFixed(2)} ${(r * Math.sin(a)).toFixed(2)}) rotate(45)` }));
        }
      }
    }
  }

  function kingBox(st) {
    const box = $("proj-king");
    box.classList.toggle("hidden", !st.king);
    if (!st.king) return;
    $("proj-king-name").textContent = st.king;
    box.title = st.king; // a name too long for the box ends in an ellipsis: whole here
    $("proj-king-hold").textContent = Q.t("show_holds", { x: st.king_hold, y: st.hold_moves });
  }

  function table(st, moves) {
    const tableEl = $("proj-table");
    const head = tableEl.querySelector("thead");
    const body = tableEl.querySelector("tbody");
    const n = st.teams.length;
    const perPage = Math.min(n, ROWS_PER_PAGE);
    const pages = Math.max(1, Math.ceil(n / perPage));
    page = page % pages;
    const side = root.querySelector(".proj-side");
    const used = $("proj-king").offsetHeight + root.querySelector(".proj-foot").offsetHeight;
    const room = side.clientHeight - used - 16;
    // the head counts as one row; the font fills the column, up to a comfortable size
    const rowH = Math.floor(room / (Math.max(perPage, 6) + 0.7));
    const font = Math.max(12, Math.min(50, Math.floor(rowH * 0.66)));
    tableEl.style.fontSize = `${font}px`;
    tableEl.style.setProperty("--row-h", `${rowH}px`);
    // column widths in em of the table's font (a head cell's smaller font would shrink them)
    if (!tableEl.querySelector("colgroup")) {
      tableEl.prepend(Q.el("colgroup", {}, ["1.4em", "2.5em", "", "2.9em", "2.7em", "4.3em"].map((w) => Q.el("col", { style: w ? `width:${w}` : "" }))));
    }
    head.replaceChildren(Q.el("tr", {}, ["#", "", Q.t("team"), Q.t("position"), Q.t("points"), Q.t("last_move")].map((h) => Q.el("th", { text: h }))));
    const order = msg.sectors || st.teams.map((t) => t.name);
    const shown = st.teams.slice(page * perPage, (page + 1) * perPage);
    const gone = new Set(msg.withdrawn || []);
    body.replaceChildren(...shown.map((t) => Q.el("tr", { class: [t.king ? "king-row" : "", gone.has(t.name) ? "withdrawn" : ""].filter(Boolean).join(" "), dataset: { team: t.name } },
      Q.el("td", { class: "place", text: t.place }),
      Q.el("td", { class: "label" }, Q.el("span", { class: "badge", text: labelOf(t.name), style: `background:${color(order.indexOf(t.name), order.length)}` })),
      Q.el("td", { class: "name", title: t.name, text: `${t.king ? "♛ " : ""}${gone.has(t.name) ? "⊘ " : ""}${t.name}` }),
      Q.el("td", { text: t.position >= st.steps ? "▲" : t.position }), Q.el("td", { text: t.points }),
      Q.el("td", { class: "move", text: Q.moveText(moves[t.name]) + (t.spurs && t.spurs.length ? `  ◆${t.spurs.join(",")}` : "") }))));
    shrinkToNames(tableEl, body, font);
    $("proj-page").textContent = pages > 1 ? `${page + 1} / ${pages}` : "";
  }

  /* long names are read whole where a smaller font allows it, but the standings never
     go below 36 px on 1080 lines (the back row's limit) */
  function shrinkToNames(tableEl, body, font) {
    const floor = Math.min(font, Math.ceil((36 * window.innerHeight) / 1080));
    const cut = () => [...body.querySelectorAll("td.name")].some((c) => c.scrollWidth > c.clientWidth + 1);
    for (let size = font; size > floor && cut(); ) {
      size = Math.max(floor, size - 2);
      tableEl.style.fontSize = `${size}px`;
    }
  }

  function legend() {
    const box = $("proj-legend");
    if (!box.childElementCount) box.append(...LEGEND.map((k) => Q.el("span", { class: "legend-item", text: Q.t(`show_legend_${k}`) })));
  }

  function joinNames(names) {
    if (names.length < 2) return names.join("");
    return `${names.slice(0, -1).join(", ")} ${Q.t("show_and")} ${names[names.length - 1]}`;
  }

  function challenge(phase) {
    const banner = $("proj-challenge");
    const teams = msg.revolutions || [];
    const live = ["read", "answering", "judging"].includes(phase.stage) && teams.length > 0;
    banner.classList.toggle("hidden", !live);
    if (live) banner.textContent = Q.t("show_challenge", { teams: joinNames(teams) });
  }

  function questionScreen() {
    const box = $("proj-question");
    const screen = msg.screen;
    box.classList.toggle("hidden", !screen);
    root.dataset.screen = screen ? screen.show : "standings";
    player.show(screen && screen.media);
    if (!screen) return;
    $("proj-q-number").textContent = screen.lightning ? Q.t("show_lightning_question", { n: screen.question }) : questionText(screen.question);
    $("proj-q-partner").textContent = screen.partner ? Q.t("show_partner", { name: screen.partner }) : "";
    const text = $("proj-q-text");
    text.textContent = screen.text || "";
    const picture = $("proj-q-picture");
    picture.classList.toggle("hidden", !screen.picture);
    if (screen.picture && picture.getAttribute("src") !== screen.picture) picture.src = screen.picture;
    const answer = $("proj-q-answer");
    answer.classList.toggle("hidden", !screen.answer);
    box.classList.toggle("with-answer", Boolean(screen.answer));
    $("proj-q-answer-text").textContent = screen.answer || "";
    $("proj-q-accepted").textContent = screen.accepted && screen.accepted.length ? `${Q.t("show_accepted")}: ${screen.accepted.join(" · ")}` : "";
    $("proj-q-comment").textContent = screen.comment || "";
    fitText(text, box);
  }

  /* the largest font (up to 80 px on 1080 lines, never under 28 px) with which the
     question fits the screen's height and its longest word the width; a word that needs
     a font under 48 px to fit (a compound word, an address) breaks where it must instead */
  function fitText(node, box) {
    const px = (n) => Math.ceil((n * window.innerHeight) / 1080);
    let size = Math.min(80, Math.floor(window.innerHeight / 13));
    node.classList.remove("break-words");
    node.style.fontSize = `${size}px`;
    const tall = () => box.scrollHeight > box.clientHeight + 2;
    const wide = () => node.scrollWidth > node.clientWidth + 1;
    while (size > px(28) && (tall() || wide())) {
      if (wide() && size - 4 < px(48)) node.classList.add("break-words");
      size = Math.max(px(28), size - 4);
      node.style.fontSize = `${size}px`;
    }
    if (wide()) node.classList.add("break-words");
  }

  /* the overlays (question, podium) start under the bar and the challenge banner, which
     may take two lines: nothing of theirs is hidden behind either */
  function overlayTop() {
    const banner = $("proj-challenge");
    const above = banner.classList.contains("hidden") ? root.querySelector(".proj-bar") : banner;
    const top = `${Math.ceil(above.getBoundingClientRect().bottom + window.innerHeight * 0.01)}px`;
    for (const id of ["proj-question", "proj-podium"]) $(id).style.paddingTop = top;
  }

  function podium(phase, st) {
    const box = $("proj-podium");
    const finished = phase.stage === "finished";
    if (!finished) {
      podiumSince = null;
      podiumShown = null;
      box.classList.add("hidden");
      return;
    }
    if (podiumSince === null) podiumSince = Date.now();
    const show = podiumShown !== null ? podiumShown : Date.now() - podiumSince < PODIUM_SECONDS * 1000;
    box.classList.toggle("hidden", !show);
    for (const p of [1, 2, 3]) {
      const names = st.teams.filter((t) => t.place === p).map((t) => t.name);
      box.querySelector(`.podium-name[data-place="${p}"]`).textContent = names.join(" · ") || "—";
    }
    $("proj-reason").textContent = st.reason ? Q.t("show_end_reason", { reason: Q.t(`show_reason_${st.reason}`) }) : "";
  }

  function render() {
    const phase = msg.phase;
    root.dataset.stage = phase.stage;
    root.dataset.seq = String(msg.seq);
    $("proj-part").textContent = partText(phase);
    // between questions: the last question played
    const number = phase.question || phase.questions_played || null;
    $("proj-qnum").textContent = number && phase.stage !== "finished" ? questionText(number) : "";
    const stage = Q.stageText(phase);
    $("proj-stage").textContent = stage + (phase.partner ? ` · ${Q.t("partner_question")}` : "");
    $("proj-answered").textContent = msg.answered !== null && msg.answered !== undefined && phase.stage === "answering" ? Q.t("answered_count", { x: msg.answered, n: msg.teams_total }) : "";
    const lobby = $("proj-lobby");
    lobby.classList.toggle("hidden", phase.stage !== "lobby");
    if (phase.stage === "lobby") {
      $("proj-joined").replaceChildren(...(msg.joined || []).map((n) => Q.el("span", { class: "chip", text: n })));
    }
    legend();
    challenge(phase);
    overlayTop();
    questionScreen();
    const st = msg.standings;
    if (!st) return;
    const names = st.teams.map((t) => t.name).sort((a, b) => a.localeCompare(b));
    const key = `${phase.part}|${st.steps}|${names.join("\u0000")}`;
    if (key !== layoutKey) {
      layoutKey = key;
      // sectors keep the order of the teams as first seen (the configuration order)
      layout(msg.sectors || st.teams.map((t) => t.name), st.steps);
    }
    place(st);
    kingBox(st);
    table(st, msg.moves || {});
    podium(phase, st);
    // the King's box just appeared (a first coronation) changes the room the table has
    // once the browser has laid it out: measure again then
    requestAnimationFrame(() => table(msg.standings, msg.moves || {}));
  }

  /* a warning at 10 s left and a gong when the time is up, once per question */
  function sounds() {
    const phase = msg && msg.phase;
    if (!phase || !phase.timer) return;
    const key = `${phase.part}|${phase.question}`;
    if (key !== soundKey) {
      soundKey = key;
      const left = Q.remaining(msg);
      soundState = { warned: left !== null && left <= 10, gonged: left !== null && left <= 0 };
    }
    const left = Q.remaining(msg);
    if (left === null || (phase.timer.paused && left > 0)) return;
    if (!soundState.warned && left <= 10 && left > 0) {
      soundState.warned = true;
      window.QuizSound.play("warning");
    }
    // time up, or answering closed by the host: either way answering is over
    if (!soundState.gonged && left <= 0) {
      soundState.gonged = true;
      window.QuizSound.play("gong");
    }
  }

  function tools() {
    const soundButton = $("proj-sound");
    const paint = () => {
      soundButton.textContent = window.QuizSound.muted ? Q.t("show_sound_off") : Q.t("show_sound_on");
      soundButton.setAttribute("aria-pressed", String(!window.QuizSound.muted));
    };
    paint();
    soundButton.addEventListener("click", () => {
      window.QuizSound.setMuted(!window.QuizSound.muted);
      paint();
    });
    const contrast = $("proj-contrast");
    const theme = (on) => {
      document.body.classList.toggle("high-contrast", on);
      contrast.setAttribute("aria-pressed", String(on));
      localStorage.setItem("koth.quiz.projector.contrast", on ? "1" : "0");
    };
    const asked = new URLSearchParams(location.search).get("theme");
    theme(asked ? asked === "contrast" : localStorage.getItem("koth.quiz.projector.contrast") === "1");
    contrast.addEventListener("click", () => {
      theme(!document.body.classList.contains("high-contrast"));
      if (msg) render();
    });
    $("proj-fullscreen").addEventListener("click", () => {
      if (document.fullscreenElement) document.exitFullscreen();
      else document.documentElement.requestFullscreen().catch(() => {});
    });
    $("proj-podium").addEventListener("click", () => {
      podiumShown = false;
      if (msg) render();
    });
  }

  tools();
  let stillTimer = 0;
  document.addEventListener("pointermove", () => {
    document.body.classList.add("pointer-moved");
    clearTimeout(stillTimer);
    stillTimer = setTimeout(() => document.body.classList.remove("pointer-moved"), 3000);
  });
  setInterval(() => {
    if (!msg || !msg.standings) return;
    page += 1;
    table(msg.standings, msg.moves || {});
    if (msg.phase.stage === "finished") podium(msg.phase, msg.standings);
  }, 8000);
  setInterval(sounds, 250);

  const live = new Q.Live("projector", null, (m) => { msg = m; DOM.whenReleased(render); });
  live.connect();
  Q.startTicker(() => msg);
  window.addEventListener("resize", () => msg && render());
  document.addEventListener("fullscreenchange", () => msg && render());
})();
