/* Team join: code + name, or move a team to this phone with its recovery code. */
"use strict";
(function () {
  const form = document.getElementById("join-form");
  const error = document.getElementById("error");
  let recovering = false;
  document.getElementById("recover-toggle").addEventListener("click", () => {
    recovering = !recovering;
    document.querySelector(".recover-only").classList.toggle("hidden", !recovering);
  });
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const body = { code: form.elements.code.value.trim(), team: form.elements.team.value.trim() };
    if (recovering) body.recovery_code = form.elements.recovery_code.value.trim();
    const response = await Q.api("POST", recovering ? "/api/quiz/recover" : "/api/quiz/join", body);
    if (!response.ok) {
      error.textContent = Q.errorText(response.data, response.status);
      error.classList.remove("hidden");
      return;
    }
    const data = response.data;
    // the code stays with the token: a phone whose team is removed can join again with it
    Q.store.set(`koth.quiz.team.${data.event_id}`, { team: data.team, token: data.token, recovery_code: data.recovery_code, code: body.code });
    location.href = data.team_page;
  });
})();
