/* Judge console: runs the evening. Every button is one command to the API; the console
   redraws from the judge's live state (inputs keep their values across redraws). */
"use strict";
(function () {
  const eventId = Q.cfg.eventId;
  const hostKey = `koth.quiz.host.${eventId}`;
  const fromHash = new URLSearchParams(location.hash.slice(1)).get("token");
  if (fromHash) {
    Q.store.set(hostKey, fromHash);
    history.replaceState(null, "", location.pathname); // keep the secret out of the address bar
  }
  const token = Q.store.get(hostKey);
  const error = document.getElementById("error");
  let msg = null;
  // Commands go out one at a time, in the order they were given, each with its own
  // idempotency key: a click made while an earlier command is on its way waits for it,
  // and a command that cannot reach the server (no connection, server restarting) stays
  // queued, kept in this browser, and is sent again with the same key once the page is
  // live; the server applies a key once, so nothing is lost and nothing applied twice.
  const outboxKey = `koth.quiz.outbox.${eventId}`;
  const outbox = Q.store.get(outboxKey) || [];
  const waiters = new Map(); // key -> resolve(applied)
  let pumping = false;
  let live = null;
  // spur cells stay hidden until the host shows them, after every reload, so a laptop
  // mirrored to the projector does not give them away
  let spursShown = false;
  let focusedGroup = 0; // the answer group the R/W keys judge
  let withdrawing = null; // the team whose withdrawal waits for the judge's confirmation
  let revealedFor = null; // "part/question" whose expected answer the judge revealed
  // presenter mode: the console is mirrored to the room, so it shows nothing the room
  // must not see (the expected answer, the teams' answers while they answer, spurs)
  // until the judge reveals it; one toggle, remembered in this browser
  const PRESENTER = "koth.quiz.presenter";
  const presenter = () => Q.store.get(PRESENTER) === true;
  const presenterButton = document.getElementById("btn-presenter");
  const paintPresenter = () => {
    presenterButton.setAttribute("aria-pressed", String(presenter()));
    presenterButton.textContent = `${Q.t("presenter_mode")}: ${Q.t(presenter() ? "presenter_on" : "presenter_off")}`;
    document.body.classList.toggle("presenter", presenter());
  };
  presenterButton.addEventListener("click", () => {
    Q.store.set(PRESENTER, !presenter());
    if (presenter()) spursShown = false;
    paintPresenter();
    if (msg) render();
  });
  paintPresenter();
  let appealNewest = null; // the newest closed question when the appeal form was drawn
  let appealChosen = null; // the question the appeal form shows (null: the newest)
  const showError = (text) => {
    error.textContent = text || "";
    error.classList.toggle("hidden", !text);
  };
  for (const [id, path] of [["export-csv", "export.csv"], ["export-json", "export.json"], ["export-protocol", "protocol.json"], ["export-stats", "statistics.csv"]]) {
    Q.downloadLink(document.getElementById(id), `/api/quiz/events/${eventId}/${path}`, token, showError);
  }

  /* resolves true once the server applied the command, false if it refused it */
  function command(name, body) {
    const key = Q.newId();
    outbox.push({ name, body: body || {}, key });
    Q.store.set(outboxKey, outbox);
    if (live) live.setQueued(outbox.length);
    const applied = new Promise((resolve) => waiters.set(key, resolve));
    pump();
    return applied;
  }

  const RETRY = [0, 502, 503, 504]; // the command did not reach the log: send it again

  async function pump() {
    if (pumping) return;
    pumping = true;
    document.body.classList.add("busy");
    let wait = 250;
    while (outbox.length) {
      live.setQueued(outbox.length);
      const item = outbox[0];
      const response = await Q.api("POST", `/api/quiz/events/${eventId}/judge/${item.name}`, item.body, token, item.key);
      if (RETRY.includes(response.status)) {
        if (response.status === 0) live.dropped();
        await new Promise((resolve) => setTimeout(resolve, wait));
        wait = Math.min(wait * 2, 5000);
        await live.whenLive();
        continue;
      }
      wait = 250;
      outbox.shift();
      Q.store.set(outboxKey, outbox);
      if (response.ok) {
        showError("");
        response.data.received_local = Date.now() / 1000;
        receive(response.data);
      } else {
        // the server's own reason: on this console it names the field and its limits
        showError(Q.errorText(response.data, response.status, ["not_found", "name_taken", "malformed_request", "invalid_request"]));
      }
      const resolve = waiters.get(item.key);
      waiters.delete(item.key);
      if (resolve) resolve(response.ok);
    }
    live.setQueued(0);
    pumping = false;
    document.body.classList.remove("busy");
  }

  const button = (id, text, onclick, extra) => Q.el("button", Object.assign({ type: "button", id, text, onclick }, extra || {}));

  /* Rebuild ``containers`` keeping what the judge is typing: each field's value, the
     focus, and the focused field's selection and caret (a field whose text was selected
     and is then typed over must be typed over after a redraw too, not typed before). */
  function preserve(containers, build) {
    const values = {};
    const active = document.activeElement;
    const focused = active && active.id;
    let selection = null;
    try {
      if (active && active.selectionStart !== null && active.selectionStart !== undefined) selection = [active.selectionStart, active.selectionEnd, active.selectionDirection];
    } catch (e) { selection = null; } // a field without a caret
    for (const c of containers) for (const input of c.querySelectorAll("input, select, textarea")) {
      if (input.id) values[input.id] = input.type === "checkbox" ? input.checked : input.value;
    }
    build();
    for (const [id, value] of Object.entries(values)) {
      const input = document.getElementById(id);
      if (!input) continue;
      if (input.type === "checkbox") input.checked = value;
      else if (input.tagName !== "SELECT" || [...input.options].some((o) => o.value === value)) input.value = value;
    }
    const again = focused && document.getElementById(focused);
    if (again) {
      again.focus();
      if (selection && typeof again.setSelectionRange === "function") {
        try { again.setSelectionRange(...selection); } catch (e) { /* a field without a caret */ }
      }
    }
  }

  const SECONDS = [5, 3600]; // the answering time the server accepts (OpenAnsweringCommand)

  /* the answering time typed in, or null (and the reason shown) when it is not one */
  function answerSeconds() {
    const text = document.getElementById("answer-seconds").value.trim();
    const seconds = Number(text);
    if (!/^\d+$/.test(text) || seconds < SECONDS[0] || seconds > SECONDS[1]) {
      showError(Q.t("error_seconds", { value: text, min: SECONDS[0], max: SECONDS[1] }));
      return null;
    }
    return seconds;
  }

  /* the closed question the appeal form is about: the judge's choice, else the newest;
     a newly closed question is the one an appeal is most likely about, so the form moves
     to it (a question the judge chose stays chosen until another question closes) */
  function appealShown() {
    const newest = msg.closed[0].question;
    if (newest !== appealNewest) {
      appealNewest = newest;
      appealChosen = null;
    }
    return msg.closed.find((c) => c.question === appealChosen) || msg.closed[0];
  }

  function render() {
    const control = document.getElementById("control");
    const side = document.getElementById("side");
    const appeal = document.getElementById("appeal");
    preserve([control, side, appeal], () => {
      control.replaceChildren(...controls());
      side.replaceChildren(...sidePanel(), ...teamPanel());
      appeal.replaceChildren(...appealPanel());
    });
    // the appeal form's question is the judge's choice, not a kept value
    const appealQuestion = document.getElementById("appeal-question");
    if (appealQuestion) appealQuestion.value = String(appealShown().question);
    // the kept values of the appeal form decide its answer field and its button again
    const appealTeam = document.getElementById("appeal-team");
    if (appealTeam) appealTeam.dispatchEvent(new Event("change"));
    document.getElementById("judge").dataset.stage = msg.phase.stage;
    document.getElementById("judge").dataset.seq = String(msg.seq);
  }

  function controls() {
    const phase = msg.phase;
    const out = [Q.el("h2", { id: "judge-stage", text: Q.stageText(phase) }), Q.el("div", { class: "timer", "data-timer": true })];
    const stage = phase.stage;
    if (stage === "lobby" || stage === "part_over") {
      if (stage === "lobby") {
        const name = Q.el("input", { id: "new-team", maxlength: "40", placeholder: Q.t("team_name") });
        out.push(Q.el("div", { class: "row" }, name, button("btn-add-team", "+", () => command("add_team", { team: name.value.trim() }))));
      }
      if (msg.next_part) out.push(button("btn-start", msg.next_part.name === "game" ? Q.t("start_game") : Q.t("start_part", { name: Q.partName(msg.next_part.name) }), () => command("start"), { class: "primary big" }),
        Q.el("div", { class: "small", text: msg.next_part.teams.join(", ") }));
    }
    if (stage === "between") {
      const n = phase.questions_played + 1;
      out.push(Q.el("div", { class: "row" },
        button("btn-open-question", Q.t("open_question", { n }), () => command("open_question"), { class: "primary big" }),
        button("btn-break", Q.t("take_break"), () => command("break"))));
      if (msg.control && msg.control.reopenable) out.push(button("btn-reopen", Q.t("reopen", { n: msg.control.reopenable }), () => command("reopen")));
    }
    if (stage === "lightning") {
      // the ticks belong to one lightning question: the next one starts with none ticked
      const asked = (msg.lightning || []).length + 1;
      // the pack's lightning question, in order (the projector shows it too)
      if (msg.expected && msg.expected.lightning) {
        out.push(Q.el("div", { class: "lightning-question", id: "lightning-question" },
          Q.el("strong", { text: Q.t("show_lightning_question", { n: msg.expected.question }) }), Q.el("p", { text: msg.expected.text })), expectedOrButton());
      }
      for (const group of msg.standings.lightning_required) {
        const box = Q.el("div", { class: "lightning-group", dataset: { place: group.place, asked: String(asked) } },
          Q.el("h3", { text: Q.t("lightning", { teams: group.teams.join(", ") }) }), Q.el("div", { class: "small", text: Q.t("lightning_right") }));
        for (const team of group.teams) box.append(Q.el("label", { class: "check" }, Q.el("input", { type: "checkbox", id: `lt-${asked}-${group.place}-${team}`, dataset: { team } }), team));
        box.append(button(`btn-lightning-${group.place}`, Q.t("apply"), () => {
          const right = [...box.querySelectorAll("input:checked")].map((i) => i.dataset.team);
          command("lightning", { teams: group.teams, right });
        }, { class: "primary btn-lightning" }));
        out.push(box);
      }
    }
    if (stage === "finished") out.push(Q.el("a", { class: "big-link", href: `/quiz/${eventId}/results`, text: Q.t("results") }));
    const open = msg.open;
    if (open) {
      out.push(Q.el("label", { class: "check" }, Q.el("input", {
        type: "checkbox", id: "btn-partner", checked: open.partner_flag || open.partner_listed, disabled: open.partner_listed,
        onchange: (e) => command("partner", { partner: e.target.checked }),
      }), Q.t("partner_flag")));
      const declared = Object.entries(open.declarations);
      if (declared.length || open.late.length) {
        out.push(Q.el("div", { class: "declared" }, Q.el("strong", { text: `${Q.t("declarations")}: ` }),
          declared.map(([team, what]) => Q.el("span", { class: `chip ${what}`, text: `${team}: ${Q.t(what)}` })),
          open.late.map((l) => Q.el("span", { class: "chip late", text: `${l.team}: ${Q.t(l.declaration)} (${Q.t("late")})` }))));
      }
      if (stage === "declaring") out.push(button("btn-lock", Q.t("lock"), () => command("lock"), { class: "primary big" }));
      if (stage === "read" || stage === "judging") {
        // a text field, not type=number: a number field has no selection to keep across redraws
        const seconds = Q.el("input", { id: "answer-seconds", type: "text", inputmode: "numeric", maxlength: "4", size: "5", "aria-label": Q.t("answer_seconds"), value: String(msg.settings.answer_seconds) });
        out.push(Q.el("div", { class: "row" }, seconds, button("btn-open-answering", Q.t("open_answering"), () => {
          const value = answerSeconds();
          if (value !== null) command("open_answering", { seconds: value });
        }, { class: stage === "read" ? "primary big" : "" })));
      }
      if (stage === "answering") {
        const timer = phase.timer;
        out.push(Q.el("div", { class: "row" },
          timer.paused ? button("btn-resume", Q.t("resume"), () => command("resume")) : button("btn-pause", Q.t("pause"), () => command("pause")),
          button("btn-extend-15", Q.t("extend", { s: 15 }), () => command("extend", { seconds: 15 })),
          button("btn-extend-30", Q.t("extend", { s: 30 }), () => command("extend", { seconds: 30 })),
          button("btn-close-answering", Q.t("close_answering"), () => command("close_answering"), { class: "primary" })));
      }
      if (open.locked) out.push(...groups(open));
      if (stage === "judging" || stage === "answering") {
        out.push(button("btn-resolve", `${Q.t("resolve")}${open.unjudged ? ` (${open.unjudged} ?)` : ""}`, () => command("resolve"), { class: "primary big", disabled: stage !== "judging" || open.unjudged > 0 }));
      }
    }
    return out;
  }

  /* whether the pack's answer may be on the console: a laptop mirrored to the projector
     must not show the room the answer while the question is read or answered, so it
     waits for the judge's click (or, outside presenter mode, for answering to close) */
  function answerRevealed() {
    if (!msg.expected) return false;
    if (revealedFor === expectedId()) return true;
    return msg.phase.stage === "judging" && !presenter();
  }

  const expectedId = () => `${msg.phase.part_index}/${msg.expected.lightning ? "L" : ""}${msg.expected.question}`;

  /* the expected answer, or the button that reveals it */
  function expectedOrButton() {
    if (answerRevealed()) return expectedBox(msg.expected);
    const id = expectedId();
    return button("btn-expected", Q.t("reveal_expected"), () => { revealedFor = id; render(); }, { class: "small-button" });
  }

  function groups(open) {
    const out = [Q.el("h3", { text: `${Q.t("groups")} — ${Q.t("answered_count", { x: open.answered, n: open.answered + open.missing.length })}` })];
    const revealed = answerRevealed();
    if (msg.expected) out.push(expectedOrButton());
    const list = Q.el("div", { class: "groups", id: "groups" });
    const king = msg.standings && msg.standings.king;
    const rebels = new Set(Object.entries(open.declarations).filter(([, d]) => d === "revolution").map(([t]) => t));
    focusedGroup = Math.min(focusedGroup, Math.max(0, open.groups.length - 1));
    // in presenter mode the teams' answers stay off the screen while teams still answer
    const veiled = presenter() && msg.phase.stage !== "judging";
    if (veiled) {
      out.push(Q.el("p", { class: "small veiled", id: "answers-veiled", text: Q.t("presenter_veiled", { n: open.groups.length }) }));
      return out;
    }
    for (const [index, g] of open.groups.entries()) {
      const state = g.unjudged ? "unjudged" : g.wrong ? (g.right ? "mixed" : "wrong") : "right";
      // the King's and the revolutionaries' answers decide a Revolution: they stand out
      const mark = (t) => (t === king ? `♛ ${t}` : rebels.has(t) ? `⚑ ${t}` : t);
      const first = [...g.teams.filter((t) => t === king || rebels.has(t)), ...g.teams.filter((t) => t !== king && !rebels.has(t))];
      const shown = first.length > 12 ? `${first.slice(0, 12).map(mark).join(", ")} … (+${first.length - 12})` : first.map(mark).join(", ");
      const classes = [`group ${state}`, g.teams.includes(king) ? "has-king" : "", g.teams.some((t) => rebels.has(t)) ? "has-rebel" : "", index === focusedGroup ? "focused" : "", g.matches && revealed ? "matches" : ""];
      list.append(Q.el("div", { class: classes.filter(Boolean).join(" "), dataset: { key: g.key, index: String(index) }, onclick: () => { focusedGroup = index; render(); } },
        Q.el("div", { class: "group-text" }, Q.el("strong", { text: g.text }), Q.el("span", { class: "count", text: ` ×${g.teams.length}` }),
          g.matches && revealed ? Q.el("span", { class: "match-badge", text: ` ✓ ${Q.t("show_matches")}` }) : null),
        Q.el("div", { class: "group-teams small", text: shown }),
        Q.el("div", { class: "group-buttons" },
          Q.el("button", { type: "button", class: `mark-right${g.right && !g.wrong && !g.unjudged ? " chosen" : ""}`, text: Q.t("mark_right"), onclick: () => command("judge", { key: g.key, correct: true }) }),
          Q.el("button", { type: "button", class: `mark-wrong${g.wrong && !g.right && !g.unjudged ? " chosen" : ""}`, text: Q.t("mark_wrong"), onclick: () => command("judge", { key: g.key, correct: false }) }))));
    }
    out.push(list);
    if (open.unjudged) out.push(button("btn-rest-wrong", Q.t("mark_rest_wrong", { n: open.unjudged }), () => command("mark_rest_wrong")));
    if (open.missing.length) {
      out.push(Q.el("div", { class: "small missing", text: `${Q.t("missing")} (${open.missing.length}): ${open.missing.slice(0, 40).join(", ")}` }));
      const team = Q.el("select", { id: "proxy-team" }, open.missing.map((t) => Q.el("option", { value: t, text: t })));
      const text = Q.el("input", { id: "proxy-text", maxlength: "300", placeholder: Q.t("answer") });
      out.push(Q.el("div", { class: "row small" }, team, text, button("btn-proxy", Q.t("send"), () => command("answer_for_team", { team: team.value, text: text.value }))));
    }
    return out;
  }

  function sidePanel() {
    const out = [Q.el("h2", { text: Q.t("teams") })];
    if (!msg.standings) {
      out.push(Q.el("ul", { class: "team-list" }, msg.teams.map((t) => Q.el("li", { text: `${t.name}${t.device ? " 📱" : ""}` }))));
      return out;
    }
    const st = msg.standings;
    const devices = Object.fromEntries(msg.teams.map((t) => [t.name, t.device]));
    const gone = new Set(msg.teams.filter((t) => t.withdrawn).map((t) => t.name));
    out.push(Q.el("div", { class: "small", text: st.king ? `♛ ${st.king}: ${Q.t("hold", { hold: st.king_hold, need: st.hold_moves })}` : "" }));
    const rows = st.teams.map((t) => Q.el("tr", { dataset: { team: t.name }, class: gone.has(t.name) ? "withdrawn" : "" },
      Q.el("td", { text: t.place }), Q.el("td", { class: "name", title: t.name, text: `${t.king ? "♛ " : ""}${t.name}${devices[t.name] ? "" : " ✎"}${gone.has(t.name) ? ` (${Q.t("withdrawn")})` : ""}` }),
      Q.el("td", { text: t.position }), Q.el("td", { text: t.points }),
      Q.el("td", { class: "small spur-cell", text: spursShown ? (msg.spurs[t.name] || []).join(" ") + (t.spur_used ? " ✓" : "") : "•" })));
    out.push(button("btn-spurs", Q.t(spursShown ? "hide_spurs" : "show_spurs"), () => { spursShown = !spursShown; render(); }, { class: "small-button" }));
    out.push(Q.el("table", { class: "mini", id: "judge-standings" }, Q.el("tr", {}, ["#", Q.t("team"), Q.t("position"), Q.t("points"), Q.t("spurs")].map((h) => Q.el("th", { text: h }))), rows));
    if (st.downgraded.length) out.push(Q.el("div", { class: "downgrades" }, Q.el("strong", { text: Q.t("downgraded") }), st.downgraded.map((d) => Q.el("div", { class: "small", text: `${Q.t("question_short", { n: d.question })} ${d.team}: ${Q.note({ kind: "downgraded", params: d.params })}` }))));
    return out;
  }

  function appealPanel() {
    if (!msg.closed || !msg.closed.length) return [];
    const out = [Q.el("h2", { text: Q.t("appeal") })];
    const chosen = appealShown();
    const q = Q.el("select", { id: "appeal-question", onchange: () => { appealChosen = Number(q.value); render(); } },
      msg.closed.map((c) => Q.el("option", { value: c.question, text: Q.t("question", { n: c.question }), selected: c === chosen })));
    const teamNames = msg.closed[0].rows.map((r) => r.team);
    // no team is chosen until the judge chooses one, and the form empties once an appeal
    // is applied: a second click cannot file the same appeal again
    const team = Q.el("select", { id: "appeal-team" }, Q.el("option", { value: "", text: "—" }), teamNames.map((t) => Q.el("option", { value: t, text: t })));
    const verdict = Q.el("select", { id: "appeal-correct" }, Q.el("option", { value: "true", text: Q.t("mark_right") }), Q.el("option", { value: "false", text: Q.t("mark_wrong") }));
    const comment = Q.el("input", { id: "appeal-comment", maxlength: "500", placeholder: Q.t("comment") });
    // a team whose answer never arrived: the judge types the answer it gave (Q26)
    const typed = Q.el("input", { id: "appeal-answer", class: "hidden", maxlength: "300", placeholder: Q.t("appeal_answer") });
    const unanswered = () => {
      const closed = msg.closed.find((c) => String(c.question) === q.value);
      const row = closed && closed.rows.find((r) => r.team === team.value);
      return Boolean(row && !row.answer);
    };
    const apply = button("btn-appeal", Q.t("apply"), () => {
      if (!team.value) return;
      const body = { question: Number(q.value), team: team.value, correct: verdict.value === "true", comment: comment.value };
      if (unanswered()) body.answer = typed.value;
      command("appeal", body).then((applied) => {
        if (!applied) return;
        for (const [id, value] of [["appeal-team", ""], ["appeal-comment", ""], ["appeal-answer", ""]]) {
          const input = document.getElementById(id);
          if (input) input.value = value;
        }
        const again = document.getElementById("btn-appeal");
        if (again) again.disabled = true;
      });
    });
    const sync = () => {
      const missing = unanswered();
      typed.classList.toggle("hidden", !missing);
      apply.disabled = !team.value || (missing && !typed.value.trim());
    };
    sync();
    for (const [node, event] of [[team, "change"], [q, "change"], [typed, "input"]]) node.addEventListener(event, sync);
    out.push(Q.el("div", { class: "row" }, q, team, typed, verdict, comment, apply));
    const last = chosen; // the table shows the question the form is about
    const rows = last.rows.map((r) => Q.el("tr", {}, Q.el("td", { text: r.team }), Q.el("td", { text: r.answer || "—" }),
      Q.el("td", { text: r.correct === null ? Q.t("no_answer") : r.correct ? Q.t("right") : Q.t("wrong") }), Q.el("td", { text: Q.moveText(r) }),
      Q.el("td", {}, r.correct === null ? "" : Q.el("button", { type: "button", class: "flip", text: "⇄", onclick: () => {
        document.getElementById("appeal-question").value = String(last.question);
        document.getElementById("appeal-team").value = r.team;
        document.getElementById("btn-appeal").disabled = false;
        document.getElementById("appeal-correct").value = String(!r.correct);
        document.getElementById("appeal-comment").focus();
      } }))));
    out.push(Q.el("h3", { text: Q.t("question", { n: last.question }) }),
      Q.el("p", { class: "small question-stats", id: "question-stats", text: Q.statsText(last.stats) }), Q.el("table", { class: "mini" }, rows));
    out.push(groupAppeals(last));
    for (const a of msg.appeals) {
      out.push(Q.el("div", { class: "appeal-item small", text: `${Q.t("question_short", { n: a.question })} ${a.team}${a.admitted ? ` (${Q.t("appeal_admitted")})` : ""} → ${a.correct ? Q.t("right") : Q.t("wrong")}${a.comment ? ` (${a.comment})` : ""}${a.downgraded.length ? ` — ${Q.t("downgraded")}: ${a.downgraded.map((d) => `${Q.t("question_short", { n: d.question })} ${d.team}: ${Q.note({ kind: "downgraded", params: d.params })}`).join("; ")}` : ""}` }));
    }
    return out;
  }

  /* One appeal for every team that gave the same answer (one click for 20 teams). */
  function groupAppeals(last) {
    const groups = new Map();
    for (const r of last.rows) {
      if (r.correct === null) continue;
      const key = `${r.answer.trim().toLowerCase()}|${r.correct}`;
      if (!groups.has(key)) groups.set(key, { answer: r.answer, correct: r.correct, teams: [] });
      groups.get(key).teams.push(r.team);
    }
    const box = Q.el("div", { class: "group-appeals", id: "group-appeals" }, Q.el("strong", { text: Q.t("group_appeal") }));
    for (const g of groups.values()) {
      if (g.teams.length < 2) continue;
      const verdict = g.correct ? Q.t("mark_wrong") : Q.t("mark_right");
      box.append(Q.el("div", { class: "row small" }, Q.el("span", { class: "answer-text", text: `${g.answer} ×${g.teams.length}` }),
        button(null, `⇄ ${verdict}`, () => command("appeal_group", { question: last.question, teams: g.teams, correct: !g.correct, comment: document.getElementById("appeal-comment").value }), { class: "btn-group-appeal", dataset: { answer: g.answer } })));
    }
    return box;
  }

  /* The team list: rename always; before the start remove, merge and lock joining;
     after it, withdraw. */
  function teamPanel() {
    if (!msg.teams.length) return [];
    const started = Boolean(msg.standings);
    const names = msg.teams.filter((t) => !t.withdrawn).map((t) => t.name);
    const pick = Q.el("select", { id: "edit-team" }, names.map((t) => Q.el("option", { value: t, text: t })));
    const name = Q.el("input", { id: "edit-name", maxlength: "40", placeholder: Q.t("new_name") });
    const out = [Q.el("h3", { text: Q.t("team_list") }), Q.el("div", { class: "row" }, pick, name,
      button("btn-rename", Q.t("rename"), () => command("rename_team", { team: pick.value, name: name.value.trim() }).then((ok) => { if (ok) document.getElementById("edit-name").value = ""; })))];
    if (!started) {
      const into = Q.el("select", { id: "merge-into" }, names.map((t) => Q.el("option", { value: t, text: t })));
      const locked = msg.control && msg.control.joining_locked;
      out.push(Q.el("div", { class: "row" },
        button("btn-remove", Q.t("remove"), () => command("remove_team", { team: pick.value })),
        Q.el("span", { class: "small", text: Q.t("merge_into") }), into,
        button("btn-merge", Q.t("merge"), () => command("merge_teams", { team: pick.value, into: into.value }))),
      Q.el("div", { class: "row" }, button("btn-lock-joining", Q.t(locked ? "unlock_joining" : "lock_joining"), () => command("lock_joining", { locked: !locked })),
        Q.el("span", { class: "small", id: "joining-state", text: Q.t(locked ? "joining_locked" : "joining_open") })));
    } else if (withdrawing && names.includes(withdrawing)) {
      // a withdrawal is asked twice: one click must not take a team out of the evening
      const team = withdrawing;
      out.push(Q.el("div", { class: "row confirm", id: "withdraw-confirm" }, Q.el("strong", { text: Q.t("withdraw_confirm", { team }) }),
        button("btn-withdraw-yes", Q.t("withdraw_yes", { team }), () => { withdrawing = null; command("withdraw_team", { team }); }, { class: "danger" }),
        button("btn-withdraw-no", Q.t("cancel"), () => { withdrawing = null; render(); })));
    } else {
      out.push(Q.el("div", { class: "row" }, button("btn-withdraw", Q.t("withdraw"), () => { withdrawing = pick.value; render(); })));
    }
    // a withdrawal made by mistake (or a team that came back) is undone here
    for (const t of msg.teams.filter((x) => x.withdrawn)) {
      out.push(Q.el("div", { class: "row small" }, Q.el("span", { text: `${t.name} (${Q.t("withdrawn")})` }),
        button(null, Q.t("return_team"), () => command("return_team", { team: t.name }), { class: "btn-return", dataset: { team: t.name } })));
    }
    const changes = (msg.control && msg.control.changes) || [];
    for (const c of changes.slice(-5)) out.push(Q.el("div", { class: "small change", text: Q.t(`change_${c.kind}`, { team: c.team, detail: c.detail, question: c.question, part: c.part ? Q.partName(c.part) : "" }) }));
    return out;
  }

  /* Keyboard shortcuts (listed on the console, and in large type on "?"): never while
     typing in a field. */
  const KEYS = {
    o: ["btn-open-question", "btn-open-answering"], l: ["btn-lock"], c: ["btn-close-answering"],
    p: ["btn-pause", "btn-resume"], s: ["btn-resolve"], x: ["btn-rest-wrong"], e: ["btn-reopen"],
    q: ["btn-show-question"], a: ["btn-show-answer"], m: ["btn-show-standings"], v: ["btn-expected"],
  };
  document.addEventListener("keydown", (e) => {
    if (!msg || e.ctrlKey || e.metaKey || e.altKey) return;
    const target = e.target;
    if (target && (target.isContentEditable || ["INPUT", "SELECT", "TEXTAREA"].includes(target.tagName))) return;
    // the key's place, not its letter: the shortcuts work in a Russian layout too
    const key = /^Key[A-Z]$/.test(e.code) ? e.code.slice(3).toLowerCase() : e.key.toLowerCase();
    if (e.key === "?" || key === "escape") {
      const help = document.getElementById("shortcuts");
      help.classList.toggle("shown", e.key === "?" && !help.classList.contains("shown"));
      e.preventDefault();
      return;
    }
    const groupsShown = msg.open ? msg.open.groups : [];
    if ((key === "arrowdown" || key === "arrowup" || key === "j" || key === "k") && groupsShown.length) {
      const step = key === "arrowdown" || key === "j" ? 1 : -1;
      focusedGroup = (focusedGroup + step + groupsShown.length) % groupsShown.length;
      render();
      const node = document.querySelector(".group.focused");
      if (node) node.scrollIntoView({ block: "nearest" });
    } else if ((key === "r" || key === "w") && groupsShown[focusedGroup]) {
      command("judge", { key: groupsShown[focusedGroup].key, correct: key === "r" });
      if (focusedGroup < groupsShown.length - 1) focusedGroup += 1; // on to the next group
    } else if (KEYS[key]) {
      const found = KEYS[key].map((id) => document.getElementById(id)).find((b) => b && !b.disabled);
      if (!found) return;
      found.click();
    } else {
      return;
    }
    e.preventDefault();
  });

  function receive(next) {
    if (msg && next.seq < msg.seq) return;
    msg = next;
    DOM.whenReleased(() => {
      render();
      // the show panel (judge_show.js) draws from the same state
      document.dispatchEvent(new CustomEvent("quiz:judge-state", { detail: { msg, token, command } }));
    });
  }

  /* the pack's answer and variants beside the answer groups */
  function expectedBox(expected) {
    return Q.el("div", { class: "expected", id: "expected" },
      Q.el("div", { class: "small", text: Q.t("show_expected") }),
      Q.el("strong", { class: "expected-answer", text: expected.answer }),
      expected.accepted.length ? Q.el("div", { class: "small expected-accepted", text: `${Q.t("show_accepted")}: ${expected.accepted.join(" · ")}` }) : null,
      expected.comment ? Q.el("div", { class: "small", text: expected.comment }) : null);
  }

  live = new Q.Live("judge", token, receive, (err) => showError(Q.errorText({ error: err }, 0)));
  live.connect();
  if (outbox.length) pump(); // commands a closed or reloaded console had not sent yet
  Q.startTicker(() => msg);
})();
