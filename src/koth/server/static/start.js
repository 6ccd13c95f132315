/* Starts the page's live table or replay viewer. The pages allow scripts from files
   only (their Content-Security-Policy has no inline script), so this is a file. */
"use strict";
(function () {
  const table = document.getElementById("table");
  if (table) KOTH.startTable(table);
  const replay = document.getElementById("replay");
  if (replay) KOTH.startReplay(replay);
})();
