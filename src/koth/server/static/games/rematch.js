/* The end of a game between people: the running score and a Rematch button (same
   options and persons, seats rotated). The other person sees "Anna offers a rematch" and
   accepts with one click; the tables of both then move to the new game, each with its
   own seat's link (given once by the server, kept on this device). */
"use strict";
(function () {
  let sent = false;
  // this page saw the offer wait for someone: its acceptance moves the table on (a later
  // visit to the old game stays there)
  let sawWaiting = false;

  function keptKey(gameId) { return `koth.rematch.${gameId}`; }

  function kept(gameId) {
    try { return JSON.parse(localStorage.getItem(keptKey(gameId)) || "null"); } catch (e) { return null; }
  }

  function go(link) {
    // the link holds the new seat's token in its fragment: the table reads it from there
    location.assign(link.join_url);
  }

  async function ask(table) {
    if (sent) return;
    sent = true;
    table.showError("");
    try {
      const response = await fetch(`/api/games/${table.gameId}/rematch`, { method: "POST", headers: table.headers() });
      const data = await response.json();
      if (!response.ok) {
        table.showError(data.error ? data.error.message : KOTH.t("error_status", { status: response.status }));
        return;
      }
      try { localStorage.setItem(keptKey(table.gameId), JSON.stringify(data)); } catch (e) { /* not kept */ }
      if (data.accepted) go(data);
      else table.render();
    } catch (error) {
      table.showError(KOTH.t("move_not_sent"));
    } finally {
      sent = false;
    }
  }

  function names(msg, seats) {
    return seats.map((s) => ((msg.seats || [])[s] || {}).name || KOTH.t("seat", { n: s + 1 })).join(", ");
  }

  function draw(msg, table) {
    const box = document.getElementById("rematch");
    if (!box) return;
    const person = msg.seat !== null && msg.seat !== undefined;
    if (!msg.outcome || !person) {
      box.classList.add("hidden");
      box.replaceChildren();
      return;
    }
    const items = [];
    const score = KOTH.scoreText(msg);
    if (score) items.push(KOTH.el("p", { class: "end-score", text: KOTH.t("score", { score }) }));
    const offer = msg.friends && msg.friends.rematch;
    const mine = kept(table.gameId);
    if (offer && offer.waiting.length) sawWaiting = true;
    if (offer && sawWaiting && mine && mine.game_id === offer.game_id && !offer.waiting.length) {
      go(mine); // every person took their seat: on to the new game
      return;
    }
    if (!offer) {
      items.push(KOTH.el("button", { type: "button", class: "primary", id: "rematch-button", text: KOTH.t("rematch"), onclick: () => ask(table) }));
    } else if (offer.waiting.includes(msg.seat)) {
      items.push(KOTH.el("p", { class: "rematch-offer", text: KOTH.t("rematch_offers", { who: names(msg, [offer.offered_by]) }) }));
      items.push(KOTH.el("button", { type: "button", class: "primary", id: "rematch-accept", text: KOTH.t("rematch_accept"), onclick: () => ask(table) }));
    } else {
      items.push(KOTH.el("p", { class: "rematch-waiting", text: KOTH.t("rematch_waiting", { who: names(msg, offer.waiting) }) }));
    }
    box.replaceChildren(...items);
    box.classList.remove("hidden");
  }

  KOTH.tableHooks.push(draw);
})();
