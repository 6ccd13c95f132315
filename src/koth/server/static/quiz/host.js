/* Host form: create the event, keep the host token in this browser, open the console. */
"use strict";
(function () {
  const form = document.getElementById("create-form");
  const error = document.getElementById("error");
  const semis = () => form.elements.format.value === "semifinals";
  const toggle = () => document.querySelectorAll(".semis-only").forEach((n) => n.classList.toggle("hidden", !semis()));
  form.elements.format.addEventListener("change", toggle);
  toggle();
  const number = (name) => (form.elements[name].value === "" ? undefined : Number(form.elements[name].value));
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const teams = form.elements.teams.value.split("\n").map((s) => s.trim()).filter(Boolean);
    const spurs = {};
    for (const line of form.elements.spurs.value.split("\n")) {
      const at = line.lastIndexOf(":");
      if (at < 0) continue;
      spurs[line.slice(0, at).trim()] = line.slice(at + 1).split(/[\s,]+/).filter(Boolean).map(Number);
    }
    const body = {
      title: form.elements.title.value.trim() || "King of the Hill",
      format: form.elements.format.value,
      steps: number("steps"),
      hold_moves: number("hold_moves"),
      questions: number("questions"),
      backup_questions: number("backup_questions"),
      prize_places: number("prize_places"),
      answer_seconds: number("answer_seconds"),
      spurs_per_slope: number("spurs_per_slope"),
      spur_seed: number("spur_seed"),
      partner_questions: form.elements.partner_questions.value.split(/[\s,]+/).filter(Boolean).map(Number),
      teams,
      spurs,
    };
    if (semis()) {
      body.qualifiers = number("qualifiers");
      body.final_questions = number("final_questions");
    }
    if (form.elements.phones_show_question && form.elements.phones_show_question.checked) body.phones_show_question = true;
    for (const key of Object.keys(body)) if (body[key] === undefined) delete body[key];
    const response = await Q.api("POST", "/api/quiz/events", body);
    if (!response.ok) {
      error.textContent = Q.errorText(response.data, response.status);
      error.classList.remove("hidden");
      return;
    }
    Q.store.set(`koth.quiz.host.${response.data.id}`, response.data.host_token);
    // what the season page lists this event by (its title and the day it was made)
    Q.store.set(`koth.quiz.hosted.${response.data.id}`, { title: body.title || "", created: new Date().toISOString() });
    location.href = response.data.links.host;
  });
})();
