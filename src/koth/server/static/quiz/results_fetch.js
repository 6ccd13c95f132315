/* The results document for the results and certificates pages: with the host token
   kept in this browser (before the end only the host may see it); a refusal is shown
   in the page's error line (cleared by the next success) and gives null. */
"use strict";
Q.fetchResults = async function (eventId, error) {
  const token = Q.store.get(`koth.quiz.host.${eventId}`);
  const response = await Q.api("GET", `/api/quiz/events/${eventId}/results`, undefined, token);
  if (response.ok) {
    error.classList.add("hidden");
    return response.data;
  }
  if (response.status === 0) return null; // offline: the banner says so; reloaded when back
  error.textContent = Q.errorText(response.data, response.status);
  error.classList.remove("hidden");
  return null;
};
