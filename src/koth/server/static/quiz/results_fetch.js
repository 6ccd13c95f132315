/* The results document for the results and certificates pages: with the host token
   kept in this browser (before the end only the host may see it); a refusal is shown
   in the page's error line and gives null. */
"use strict";
Q.fetchResults = async function (eventId, error) {
  const token = Q.store.get(`koth.quiz.host.${eventId}`);
  const response = await Q.api("GET", `/api/quiz/events/${eventId}/results`, undefined, token);
  if (response.ok) return response.data;
  error.textContent = Q.errorText(response.data, response.status);
  error.classList.remove("hidden");
  return null;
};
