/* The people at a live table: each seat's name, whether its person is online or away
   (from the server's count of live connections, in every process), the rating in this
   kind of game, and the running score of a rematch chain ("Anna 3 - 2 Boris"). */
"use strict";
(function () {
  // a number of points with a half shown as ½ (a draw is half a point each)
  function points(value) {
    const whole = Math.floor(value);
    const half = value - whole >= 0.5;
    if (!half) return String(whole);
    return whole ? `${whole}½` : "½";
  }

  function label(msg, seat) {
    const info = (msg.seats || [])[seat] || {};
    return info.name || KOTH.t("seat", { n: seat + 1 });
  }

  // "Anna 3 - 2 Boris" for two seats, "Anna 2 - Boris 1 - Carl 0" for more
  KOTH.scoreText = function (msg) {
    const score = msg.friends && msg.friends.score;
    if (!score) return "";
    const n = score.points.length;
    let text;
    if (n === 2) text = `${label(msg, 0)} ${points(score.points[0])} - ${points(score.points[1])} ${label(msg, 1)}`;
    else text = score.points.map((p, seat) => `${label(msg, seat)} ${points(p)}`).join(" - ");
    return score.draws ? KOTH.t("score_draws", { score: text, n: score.draws }) : text;
  };

  function draw(msg) {
    const box = document.getElementById("people");
    if (!box) return;
    const friends = msg.friends || { online: [], ratings: [] };
    const online = new Set(friends.online || []);
    const rows = (msg.seats || []).map((info, seat) => {
      const person = info.kind !== "computer";
      const here = person && online.has(seat);
      const rating = (friends.ratings || [])[seat];
      const parts = [
        KOTH.el("span", { class: "swatch", style: `background:${KOTH.SEAT_COLORS[seat % KOTH.SEAT_COLORS.length]}` }),
        KOTH.el("span", { class: "who", text: KOTH.seatName(msg, seat) }),
      ];
      if (rating !== null && rating !== undefined) parts.push(KOTH.el("span", { class: "rating", text: KOTH.t("rating", { n: rating }) }));
      if (person) parts.push(KOTH.el("span", { class: "presence", text: here ? KOTH.t("online") : KOTH.t("away") }));
      const row = KOTH.el("li", { class: `person ${person ? (here ? "online" : "away") : "computer"}` }, parts);
      row.dataset.seat = String(seat);
      return row;
    });
    const list = KOTH.el("ul", { class: "people-list" }, rows);
    const items = [list];
    const score = KOTH.scoreText(msg);
    // at the end the score stands beside the rematch instead (rematch.js)
    if (score && !msg.outcome) items.push(KOTH.el("p", { class: "score", text: KOTH.t("score", { score }) }));
    if (friends.rated) items.push(KOTH.el("p", { class: "rated", text: KOTH.t("rated_game") }));
    box.replaceChildren(...items);
    box.classList.remove("hidden");
  }

  KOTH.tableHooks.push(draw);
})();
