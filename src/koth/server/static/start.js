/* Starts the page's live table or replay viewer. The pages allow scripts from files
   only (their Content-Security-Policy has no inline script), so this is a file. */
"use strict";
(function () {
  const table = document.getElementById("table");
  if (table) KOTH.startTable(table);
  // the creator's device keeps the join links: the table offers them again
  const invite = document.getElementById("invite-link");
  if (table && invite) {
    let kept = null;
    try { kept = localStorage.getItem(`koth.invite.${table.dataset.gameId}`); } catch (e) { kept = null; }
    invite.classList.toggle("hidden", !kept);
  }
  const replay = document.getElementById("replay");
  if (replay) KOTH.startReplay(replay);
})();
