/* The team's phone: own slope and figures, legal declarations, the answer box.
   An answer gets a client-made submission id and is kept in localStorage until the
   server acknowledges it, so a retry after a lost connection is stored only once. */
"use strict";
(function () {
  const eventId = Q.cfg.eventId;
  const credsKey = `koth.quiz.team.${eventId}`;
  const pendingKey = `koth.quiz.pending.${eventId}`;
  const creds = Q.store.get(credsKey);
  const error = document.getElementById("error");
  let msg = null;
  // the host's sound or video on the phone, with its own controls (a phone plays only
  // after a tap on the page)
  const player = Q.MediaPlayer(document.getElementById("team-media"), null, true);
  let answerMode = "";
  let sending = false;

  // the join page again, with the event's code filled in (kept with the team's token)
  const joinUrl = (c) => (c && c.code ? `/quiz/join?code=${encodeURIComponent(c.code)}` : "/quiz/join");
  if (!creds || !creds.token) {
    location.href = joinUrl(creds);
    return;
  }

  /* The team is gone from the event (the host removed it before the start, or the
     token is no longer valid): the phone says so calmly, without a stale
     count or a recovery code that no longer works, and offers to join again. */
  function removed() {
    Q.store.set(credsKey, { code: creds.code || "" }); // a reload goes to the join page
    Q.store.del(pendingKey);
    document.getElementById("team").replaceChildren(Q.el("section", { class: "panel", id: "removed" },
      Q.el("h2", { text: Q.t("team_removed_title") }), Q.el("p", { text: Q.t("team_removed") }),
      Q.el("a", { class: "big-link", id: "join-again", href: joinUrl(creds), text: Q.t("join_again") })));
  }

  const showError = (text) => {
    error.textContent = text || "";
    error.classList.toggle("hidden", !text);
  };

  function slope(me, steps) {
    const width = 300;
    const cell = width / (steps + 1);
    const svg = Q.svg("svg", { viewBox: `0 0 ${width} 60`, class: "slope" });
    for (let p = 0; p <= steps; p++) {
      const y = 50 - (p / steps) * 40;
      svg.append(Q.svg("rect", { x: p * cell + 1, y, width: cell - 2, height: 58 - y, class: p === steps ? "peak-cell" : "step-cell" }));
    }
    if (me.plays) {
      const p = me.position;
      const y = 50 - (p / steps) * 40;
      svg.append(Q.svg("circle", { cx: p * cell + cell / 2, cy: y - 6, r: 6, class: "me-marker" }));
      if (me.king) svg.append(Q.svg("text", { x: p * cell + cell / 2, y: y - 14, "text-anchor": "middle", class: "crown", text: "♛" }));
    }
    return svg;
  }

  /* the question's text, once the host showed it (when the host allows it on phones),
     and its sound or video when the host plays it on the phones too */
  function renderQuestionText() {
    const node = document.getElementById("question-text");
    node.textContent = msg.question_text || "";
    node.classList.toggle("hidden", !msg.question_text);
    player.show(msg.media || null);
  }

  function render() {
    renderQuestionText();
    const me = msg.me;
    const phase = msg.phase;
    document.getElementById("team-name").textContent = msg.team;
    const figures = document.getElementById("figures");
    const st = msg.standings;
    figures.replaceChildren();
    if (me.plays && st) {
      figures.append(
        Q.el("div", { class: "fig" }, Q.el("span", { text: Q.t("position") }), Q.el("strong", { id: "my-position", text: me.position === st.steps ? Q.t("peak") : String(me.position) })),
        Q.el("div", { class: "fig" }, Q.el("span", { text: Q.t("points") }), Q.el("strong", { id: "my-points", text: String(me.points) })),
        Q.el("div", { class: "fig" }, Q.el("span", { text: Q.t("place") }), Q.el("strong", { id: "my-place", text: String(me.place) }))
      );
      if (me.king) figures.append(Q.el("div", { class: "fig king-fig" }, Q.el("span", { text: Q.t("king") }), Q.el("strong", { text: Q.t("hold", { hold: st.king_hold, need: st.hold_moves }) })));
    }
    const slopeBox = document.getElementById("slope");
    slopeBox.replaceChildren(st && me.plays ? slope(me, st.steps) : "");
    let stage = Q.stageText(phase);
    if (phase.stage === "lobby") stage = Q.t("waiting_start", { n: msg.teams_joined || 0 });
    if (st && !me.plays) stage += ` — ${Q.t("not_playing")}`;
    if (msg.withdrawn) stage = Q.t("team_withdrawn");
    document.getElementById("team").dataset.withdrawn = String(Boolean(msg.withdrawn));
    document.getElementById("stage").textContent = stage;
    document.getElementById("stage").dataset.stage = phase.stage;
    // a withdrawn team declares and answers nothing (rules Q36): no buttons to press
    renderDeclare(me, msg.withdrawn ? { stage: "withdrawn" } : phase);
    renderAnswer(msg.withdrawn ? { plays: false } : me, phase);
    const last = document.getElementById("last");
    last.replaceChildren();
    if (me.last_move) {
      const m = me.last_move;
      last.append(Q.el("h3", { text: `${Q.t("last_move")} (${Q.t("question", { n: m.question })})` }), Q.el("div", { class: "last-move", text: Q.moveText(m) }));
      for (const note of m.notes || []) last.append(Q.el("div", { class: "note", text: Q.note(note) }));
    }
    last.classList.toggle("hidden", !me.last_move);
    const top = document.getElementById("top");
    top.replaceChildren();
    if (st) {
      const rows = st.top.map((t) => Q.el("tr", { class: t.name === msg.team ? "mine" : "" }, Q.el("td", { text: t.place }), Q.nameCell((t.king ? "♛ " : "") + t.name), Q.el("td", { text: t.position }), Q.el("td", { text: t.points })));
      top.append(Q.el("table", { class: "mini" }, Q.el("tr", {}, Q.el("th", { text: "#" }), Q.el("th", { text: Q.t("team") }), Q.el("th", { text: Q.t("position") }), Q.el("th", { text: Q.t("points") })), rows));
      if (st.finished) top.append(Q.el("p", {}, Q.el("a", { href: `/quiz/${eventId}/results`, text: Q.t("results") })));
    }
    top.classList.toggle("hidden", !st);
    document.getElementById("recovery").replaceChildren(Q.el("div", { text: `${Q.t("recovery_code")}: ` }, Q.el("code", { id: "recovery-code", text: creds.recovery_code || "" })), Q.el("small", { text: Q.t("recovery_hint") }));
  }

  function renderDeclare(me, phase) {
    const box = document.getElementById("declare");
    box.replaceChildren();
    if (phase.stage !== "declaring") {
      // once the question is read the team still sees what it declared, to check it counted
      if (me.plays && phase.question && me.declaration && me.declaration !== "ordinary") {
        box.append(Q.el("p", {
          id: "my-declaration", class: `declared ${me.declaration}`, dataset: { declaration: me.declaration },
          text: Q.t("your_declaration", { what: Q.t(me.declaration) }),
        }));
      }
      return;
    }
    if (!me.plays || !me.legal || me.legal.length <= 1) return;
    box.append(Q.el("h3", { text: Q.t("declare") }));
    const row = Q.el("div", { class: "declare-buttons" });
    for (const what of ["ordinary", "jump", "revolution"]) {
      if (!me.legal.includes(what)) continue;
      row.append(Q.el("button", {
        type: "button", class: `declare ${what}${me.declaration === what ? " chosen" : ""}`, dataset: { declaration: what },
        text: Q.t(what), onclick: () => declare(phase.question, what),
      }));
    }
    box.append(row);
  }

  /* one declaration, with its idempotency key: without a connection it waits and is
     sent again with the same key, so it is applied once */
  async function declare(question, what) {
    const key = Q.newId();
    for (;;) {
      showError("");
      const response = await Q.api("POST", `/api/quiz/events/${eventId}/declaration`, { question, declaration: what }, creds.token, key);
      if (response.status === 0 || response.status >= 502) {
        showError(Q.t("declaration_waiting"));
        if (response.status === 0) live.dropped();
        await new Promise((resolve) => setTimeout(resolve, 500));
        await live.whenLive();
        continue;
      }
      if (!response.ok) return showError(Q.errorText(response.data, response.status));
      showError("");
      return receive(Object.assign(response.data, { received_local: Date.now() / 1000 }));
    }
  }

  function renderAnswer(me, phase) {
    const box = document.getElementById("answer");
    const pending = Q.store.get(pendingKey);
    const q = phase.question;
    let mode = "none";
    if (me.plays && q) {
      if (me.answer) mode = `done:${q}:${me.answer.status}`;
      else if (pending && pending.question === q) mode = `pending:${q}`;
      else if (phase.stage === "answering") mode = `form:${q}`;
      else if (phase.stage === "judging") mode = `closed:${q}`;
    }
    if (mode === answerMode) return;
    answerMode = mode;
    box.replaceChildren();
    if (mode.startsWith("done")) {
      const key = { accepted: "answer_accepted", right: "answer_right", wrong: "answer_wrong" }[me.answer.status];
      box.append(Q.el("div", { class: `answer-status ${me.answer.status}`, id: "answer-status", text: Q.t(key, { text: me.answer.text }) }));
    } else if (mode.startsWith("pending")) {
      // the answer itself too: a team waiting for the connection sees what will be sent
      box.append(Q.el("div", { class: "answer-status pending", id: "answer-status", text: Q.t("answer_sending") }),
        Q.el("div", { class: "answer-pending-text", id: "answer-pending-text", text: pending.text }));
    } else if (mode.startsWith("form")) {
      const input = Q.el("input", { id: "answer-text", maxlength: "300", autocomplete: "off", placeholder: Q.t("your_answer") });
      const form = Q.el("form", { class: "answer-form", onsubmit: (e) => { e.preventDefault(); submit(q, input.value); } },
        input, Q.el("button", { type: "submit", class: "primary big", id: "send-answer", text: Q.t("send") }));
      box.append(form);
    } else if (mode.startsWith("closed")) {
      box.append(Q.el("div", { class: "answer-status closed", text: Q.t("answering_closed") }));
    }
  }

  function submit(question, text) {
    text = text.trim();
    if (!text) return;
    Q.store.set(pendingKey, { question, text, sid: Q.newId() });
    answerMode = "";
    if (msg) render();
    send(0);
  }

  async function send(attempt) {
    const pending = Q.store.get(pendingKey);
    if (!pending || sending) return;
    sending = true;
    const response = await Q.api("POST", `/api/quiz/events/${eventId}/answer`, { question: pending.question, text: pending.text, submission_id: pending.sid }, creds.token);
    sending = false;
    if (response.ok) {
      Q.store.del(pendingKey);
      showError("");
    } else if (response.status === 0 || response.status >= 500) {
      const status = document.getElementById("answer-status");
      if (status) status.textContent = Q.t("answer_retry");
      setTimeout(() => send(attempt + 1), Math.min(8000, 500 * 2 ** attempt));
      return;
    } else {
      Q.store.del(pendingKey);
      showError(Q.errorText(response.data, response.status));
    }
    answerMode = "";
    if (msg) DOM.whenReleased(render); // the reply may land while another button is pressed
  }

  function receive(next) {
    if (msg && next.seq < msg.seq) return;
    msg = next;
    DOM.whenReleased(render);
  }

  const live = new Q.Live("team", creds.token, (m) => { receive(m); send(0); }, (err) => {
    if (err.code === "forbidden") removed();
    else showError(Q.errorText({ error: err }, 0));
  });
  live.connect();
  Q.startTicker(() => msg);
})();
