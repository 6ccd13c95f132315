/* Results: final places and, per question, every team's declaration, answer, judgement
   and move; downloads of CSV, JSON and the engine protocol. */
"use strict";
(function () {
  const eventId = Q.cfg.eventId;
  const token = Q.store.get(`koth.quiz.host.${eventId}`);
  const error = document.getElementById("error");
  const exports = document.getElementById("exports");
  const showError = (text) => {
    error.textContent = text || "";
    error.classList.toggle("hidden", !text);
  };
  const link = (id, path, key) => Q.downloadLink(Q.el("a", { id, text: Q.t(key) }), `/api/quiz/events/${eventId}/${path}`, token, showError);
  exports.append(
    link("dl-csv", "export.csv", "export_csv"),
    link("dl-json", "export.json", "export_json"),
    link("dl-protocol", "protocol.json", "export_protocol"),
    link("dl-stats", "statistics.csv", "export_stats"),
    Q.el("a", { id: "print-results", href: "#", text: Q.t("show_print"), onclick: (e) => { e.preventDefault(); window.print(); } }),
    Q.el("a", { id: "certificates-link", href: `/quiz/${eventId}/certificates`, text: Q.t("show_certificates") })
  );
  const partTitle = (name) => (Q.cfg.t[`show_part_${name.replace(/ /g, "_")}`] ? Q.t(`show_part_${name.replace(/ /g, "_")}`) : name);

  function part(p) {
    const st = p.standings;
    const section = Q.el("section", { class: "panel part", dataset: { part: p.name } }, Q.el("h2", { class: "part-title", text: partTitle(p.name) }));
    if (st.reason) section.append(Q.el("p", { class: "end-reason", text: Q.t("show_end_reason", { reason: Q.t(`show_reason_${st.reason}`) }) }));
    section.append(Q.el("h3", { text: Q.t("places") }));
    section.append(Q.el("table", { class: "mini places" },
      Q.el("tr", {}, ["#", Q.t("team"), Q.t("position"), Q.t("points"), Q.t("spurs")].map((h) => Q.el("th", { text: h }))),
      st.teams.map((t) => Q.el("tr", { dataset: { team: t.name, place: t.place } }, Q.el("td", { class: "place", text: t.place }),
        Q.nameCell(`${t.king ? "♛ " : ""}${t.name}`), Q.el("td", { class: "position", text: t.position }), Q.el("td", { class: "points", text: t.points }),
        Q.el("td", { text: (t.spurs || []).join(" ") })))));
    if (st.qualified) section.append(Q.el("p", { text: `${Q.t("qualified")}: ${st.qualified.join(", ")}` }));
    if (p.lightning.length) {
      section.append(Q.el("h3", { text: Q.t("show_lightning_rounds") }), Q.el("ol", { class: "lightning-list" },
        p.lightning.map((l) => Q.el("li", { text: Q.t("show_lightning_row", { teams: l.teams.join(", "), right: l.right.join(", ") || Q.t("show_nobody") }) }))));
    }
    // the figures stay on the first printed page, with the places (the protocol has its own)
    if (p.questions.length) {
      section.append(Q.el("h3", { text: Q.t("stats_title") }), Q.el("table", { class: "mini stats" },
        Q.el("tr", {}, Q.el("th", { text: "#" }), Q.el("th", { text: Q.t("stats_heading") })),
        p.questions.map((q) => Q.el("tr", { dataset: { question: q.question } }, Q.el("td", { text: q.question }), Q.el("td", { class: "stats-line", text: Q.statsText(q.stats) })))));
    }
    // the appeals too: after the protocol's landscape page they took a page of their own
    if (p.appeals.length) {
      section.append(Q.el("h3", { text: Q.t("appeal") }), ...p.appeals.map((a) => Q.el("div", { class: "small", text: `${Q.t("question_short", { n: a.question })} ${a.team} → ${a.correct ? Q.t("right") : Q.t("wrong")} ${a.comment ? `(${a.comment})` : ""}` })));
    }
    const protocol = Q.el("div", { class: "protocol-block" }, Q.el("h3", { class: "protocol-title", text: `${Q.t("show_protocol")} · ${partTitle(p.name)} · ${Q.t("per_question")}` }));
    section.append(protocol);
    const teams = st.teams.map((t) => t.name);
    const head = Q.el("tr", {}, Q.el("th", { text: Q.t("team") }), p.questions.map((q) => Q.el("th", { text: `${q.question}${q.partner ? "★" : ""}` })));
    const rows = teams.map((team) => Q.el("tr", {}, Q.nameCell(team), p.questions.map((q) => {
      const r = q.rows.find((x) => x.team === team);
      const title = `${Q.t("declaration")}: ${Q.t(`decl_${r.declaration}`)}; ${Q.t("answer")}: ${r.answer || "—"}; ${Q.t("judgement")}: ${r.correct === null ? Q.t("no_answer") : r.correct ? Q.t("right") : Q.t("wrong")}`;
      return Q.el("td", { class: `cell ${r.correct ? "ok" : "ko"}`, title }, Q.el("div", { class: "ans", text: r.answer || "—" }), Q.el("div", { class: "mv", text: Q.moveText(r) }));
    })));
    protocol.append(Q.el("div", { class: "scroll" }, Q.el("table", { class: "mini matrix" }, head, rows)));
    return section;
  }

  async function load() {
    const doc = await Q.fetchResults(eventId, error);
    if (!doc) return;
    DOM.whenReleased(() => {
      document.getElementById("parts").replaceChildren(...doc.parts.slice().reverse().map(part));
      document.getElementById("results").dataset.loaded = "true";
    });
  }
  // the public live connection shows whether the page is still connected, and every
  // change of the event (an appeal, the last question) reloads the results
  let seen = -1;
  const live = new Q.Live("projector", null, (m) => {
    if (m.seq !== seen) load();
    seen = m.seq;
  });
  live.connect();
})();
