/* Season page: the form that creates a season, and the season table (public) with the
   host's controls (formula, adding an event this browser hosts, merging spellings) when
   this browser holds the season's host token. */
"use strict";
(function () {
  const root = document.getElementById("season");
  const seriesId = root.dataset.seriesId;
  const error = document.getElementById("error");
  const showError = (text) => {
    error.textContent = text || "";
    error.classList.toggle("hidden", !text);
  };
  const key = (id) => `koth.quiz.series.${id}`;

  const form = document.getElementById("season-form");
  if (form) {
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      const body = { title: form.elements.title.value.trim(), formula: form.elements.formula.value, best: Number(form.elements.best.value) };
      const response = await Q.api("POST", "/api/quiz/series", body);
      if (!response.ok) return showError(Q.errorText(response.data, response.status));
      Q.store.set(key(response.data.id), response.data.host_token);
      location.href = response.data.page;
    });
    return;
  }
  const fromHash = new URLSearchParams(location.hash.slice(1)).get("token");
  if (fromHash) {
    Q.store.set(key(seriesId), fromHash);
    history.replaceState(null, "", location.pathname);
  }
  const token = Q.store.get(key(seriesId));

  function draw(table) {
    document.getElementById("season-title").textContent = `${Q.t("season")}: ${table.title}`;
    const formula = Q.t(`season_formula_${table.formula}`) + (table.formula === "best" ? ` (N = ${table.best})` : "");
    document.getElementById("season-formula").textContent = `${Q.t("season_formula")}: ${formula}`;
    const head = Q.el("tr", {}, Q.el("th", { text: "#" }), Q.el("th", { text: Q.t("team") }), Q.el("th", { text: Q.t("season_score") }), Q.el("th", { text: Q.t("season_played") }),
      table.events.map((e) => Q.el("th", { text: e.finished ? e.title : `${e.title} (${Q.t("season_running")})` })));
    const rows = table.lines.map((line) => Q.el("tr", { dataset: { team: line.team } }, Q.el("td", { text: line.rank }), Q.el("td", { class: "name", text: line.team }),
      Q.el("td", { class: "score", text: line.score }), Q.el("td", { text: line.played }),
      table.events.map((e) => {
        const r = line.results[e.event_id];
        return Q.el("td", { text: r ? `${r.place} (${r.points})` : "—" });
      })));
    document.getElementById("season-table").replaceChildren(head, ...rows);
    if (!table.events.length) document.getElementById("season-table").replaceChildren(Q.el("tr", {}, Q.el("td", { text: Q.t("season_no_events") })));
    root.dataset.loaded = String(table.lines.length);
    if (token) hostControls(table);
  }

  async function post(path, body) {
    showError("");
    const response = await Q.api("POST", `/api/quiz/series/${seriesId}${path}`, body, token);
    if (!response.ok) return showError(Q.errorText(response.data, response.status));
    draw(response.data);
  }

  function hostControls(table) {
    const box = document.getElementById("season-host");
    box.classList.remove("hidden");
    const formula = Q.el("select", { id: "season-formula-select" }, ["places", "points", "best"].map((f) => Q.el("option", { value: f, text: Q.t(`season_formula_${f}`), selected: f === table.formula })));
    const best = Q.el("input", { type: "number", id: "season-best", min: "1", max: "100", value: String(table.best) });
    // the events this browser hosts (their host tokens are kept here) and not yet added
    const mine = Object.keys(localStorage).filter((k) => k.startsWith("koth.quiz.host.")).map((k) => k.slice("koth.quiz.host.".length))
      .filter((id) => !table.events.some((e) => e.event_id === id));
    // listed by title and date, newest first: an id means nothing to a host
    const hosted = (id) => Q.store.get(`koth.quiz.hosted.${id}`) || {};
    mine.sort((a, b) => (hosted(b).created || "").localeCompare(hosted(a).created || ""));
    const label = (id, title) => {
      const made = hosted(id).created;
      return `${title || Q.t("season_untitled")}${made ? ` · ${Q.dateText(new Date(made))}` : ""}`;
    };
    const eventSelect = Q.el("select", { id: "season-event" }, mine.map((id) => Q.el("option", { value: id, text: label(id, hosted(id).title) })));
    for (const option of eventSelect.options) {
      // the event's own title, as its public page has it (also for events made elsewhere)
      Q.api("GET", `/api/quiz/events/${option.value}/projector`).then((r) => {
        if (r.ok && r.data.event) option.textContent = label(option.value, r.data.event.title);
      });
    }
    const teams = table.lines.map((l) => l.team);
    const spelling = Q.el("select", { id: "season-spelling" }, teams.map((t) => Q.el("option", { value: t, text: t })));
    const into = Q.el("select", { id: "season-into" }, teams.map((t) => Q.el("option", { value: t, text: t })));
    box.replaceChildren(
      Q.el("h2", { text: Q.t("season_formula") }),
      Q.el("div", { class: "row" }, formula, best, Q.el("button", { type: "button", id: "season-apply", text: Q.t("season_apply"), onclick: () => post("/settings", { formula: formula.value, best: Number(best.value) }) })),
      Q.el("h2", { text: Q.t("season_add_event") }),
      Q.el("div", { class: "row" }, eventSelect, Q.el("button", { type: "button", id: "season-add", text: Q.t("season_add"), disabled: !mine.length,
        onclick: () => post("/events", { event_id: eventSelect.value, event_token: Q.store.get(`koth.quiz.host.${eventSelect.value}`) }) })),
      Q.el("h2", { text: Q.t("season_merge") }),
      Q.el("div", { class: "row" }, spelling, Q.t("season_into"), into, Q.el("button", { type: "button", id: "season-merge", text: Q.t("season_apply"), onclick: () => post("/merge", { spelling: spelling.value, into: into.value }) })));
  }

  async function load() {
    const response = await Q.api("GET", `/api/quiz/series/${seriesId}`);
    if (!response.ok) return showError(Q.errorText(response.data, response.status));
    draw(response.data);
  }
  document.getElementById("season-csv").addEventListener("click", (event) => {
    event.preventDefault();
    Q.download(`/api/quiz/series/${seriesId}/export.csv`, null).catch((e) => showError(e.message));
  });
  load();
})();
