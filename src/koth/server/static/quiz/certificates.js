/* Certificates: one A4 page per prize place of the last part played (the final in the
   semifinal format), a team per page; tied teams each get their own. */
"use strict";
(function () {
  const root = document.getElementById("certificates-page");
  const eventId = Q.cfg.eventId;
  const error = document.getElementById("error");
  document.getElementById("print-certificates").addEventListener("click", (e) => {
    e.preventDefault();
    window.print();
  });

  function certificate(team, place, title) {
    const placeText = place === 1 ? Q.t("show_king_of_hill") : Q.t("show_certificate_place", { place });
    return Q.el("section", { class: "certificate", dataset: { place: String(place), team } },
      Q.el("div", { class: "cert-crown", text: "♛" }),
      Q.el("div", { class: "cert-title", text: Q.t("show_certificate") }),
      Q.el("div", { class: "cert-text", text: Q.t("show_certificate_text") }),
      Q.el("div", { class: "cert-team", text: team }),
      Q.el("div", { class: "cert-place", text: placeText }),
      Q.el("div", { class: "cert-event", text: title }),
      Q.el("div", { class: "cert-date", text: Q.dateText(new Date()) }));
  }

  async function load() {
    const doc = await Q.fetchResults(eventId, error);
    if (!doc) return;
    const last = doc.parts[doc.parts.length - 1];
    const prizes = doc.settings.prize_places;
    const winners = last ? last.standings.teams.filter((t) => t.place <= prizes) : [];
    document.getElementById("certificates").replaceChildren(...winners.map((t) => certificate(t.name, t.place, doc.event.title)));
    root.dataset.loaded = String(winners.length);
  }
  load();
})();
