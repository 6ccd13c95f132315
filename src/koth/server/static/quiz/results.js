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
    link("dl-protocol", "protocol.json", "export_protocol")
  );

  function part(p) {
    const st = p.standings;
    const section = Q.el("section", { class: "panel part", dataset: { part: p.name } }, Q.el("h2", { text: Q.partName(p.name) }));
    section.append(Q.el("h3", { text: Q.t("places") }));
    section.append(Q.el("table", { class: "mini places" },
      Q.el("tr", {}, ["#", Q.t("team"), Q.t("position"), Q.t("points"), Q.t("spurs")].map((h) => Q.el("th", { text: h }))),
      st.teams.map((t) => Q.el("tr", { dataset: { team: t.name, place: t.place } }, Q.el("td", { class: "place", text: t.place }),
        Q.el("td", { text: `${t.king ? "♛ " : ""}${t.name}` }), Q.el("td", { class: "position", text: t.position }), Q.el("td", { class: "points", text: t.points }),
        Q.el("td", { text: (t.spurs || []).join(" ") })))));
    if (st.qualified) section.append(Q.el("p", { text: `${Q.t("qualified")}: ${st.qualified.join(", ")}` }));
    section.append(Q.el("h3", { text: Q.t("per_question") }));
    const teams = st.teams.map((t) => t.name);
    const head = Q.el("tr", {}, Q.el("th", { text: Q.t("team") }), p.questions.map((q) => Q.el("th", { text: `${q.question}${q.partner ? "★" : ""}` })));
    const rows = teams.map((team) => Q.el("tr", {}, Q.el("td", { class: "name", text: team }), p.questions.map((q) => {
      const r = q.rows.find((x) => x.team === team);
      const title = `${Q.t("declaration")}: ${Q.t(`decl_${r.declaration}`)}; ${Q.t("answer")}: ${r.answer || "—"}; ${Q.t("judgement")}: ${r.correct === null ? Q.t("no_answer") : r.correct ? Q.t("right") : Q.t("wrong")}`;
      return Q.el("td", { class: `cell ${r.correct ? "ok" : "ko"}`, title }, Q.el("div", { class: "ans", text: r.answer || "—" }), Q.el("div", { class: "mv", text: Q.moveText(r) }));
    })));
    section.append(Q.el("div", { class: "scroll" }, Q.el("table", { class: "mini matrix" }, head, rows)));
    if (p.appeals.length) {
      section.append(Q.el("h3", { text: Q.t("appeal") }), ...p.appeals.map((a) => Q.el("div", { class: "small", text: `Q${a.question} ${a.team} → ${a.correct ? Q.t("right") : Q.t("wrong")} ${a.comment ? `(${a.comment})` : ""}` })));
    }
    return section;
  }

  async function load() {
    const response = await Q.api("GET", `/api/quiz/events/${eventId}/results`, undefined, token);
    if (!response.ok) {
      error.textContent = Q.errorText(response.data, response.status);
      error.classList.remove("hidden");
      return;
    }
    const parts = document.getElementById("parts");
    parts.replaceChildren(...response.data.parts.slice().reverse().map(part));
    document.getElementById("results").dataset.loaded = "true";
  }
  load();
})();
