/* The invite page: each seat's secret join link with Copy, Share and its QR code. The
   links arrive once, in the URL fragment, and are kept on this device (localStorage), so
   a reload or a later visit shows them again; the fragment is then taken off the URL. */
"use strict";
(function () {
  const root = document.getElementById("invite");
  if (!root) return;
  const gameId = root.dataset.gameId;
  const key = `koth.invite.${gameId}`;
  const fragment = new URLSearchParams(location.hash.slice(1));
  if (fragment.get("token")) {
    const tokens = {};
    tokens[fragment.get("seat")] = fragment.get("token");
    for (const [name, value] of fragment) if (/^s\d+$/.test(name)) tokens[name.slice(1)] = value;
    try {
      localStorage.setItem(key, JSON.stringify({ mine: Number(fragment.get("seat")), tokens }));
    } catch (e) { /* storage refused: the links are shown this once */ }
    window.KOTH_INVITE = { mine: Number(fragment.get("seat")), tokens };
    history.replaceState(null, "", location.pathname);
  }
  let saved = window.KOTH_INVITE || null;
  if (!saved) {
    try { saved = JSON.parse(localStorage.getItem(key) || "null"); } catch (e) { saved = null; }
  }
  if (!saved || !saved.tokens) {
    root.querySelector(".invite-missing").classList.remove("hidden");
    document.getElementById("to-table").classList.add("hidden");
    return;
  }
  const link = (seat) => `${location.origin}/games/${gameId}#seat=${seat}&token=${saved.tokens[seat]}`;
  document.getElementById("to-table").href = link(saved.mine);

  async function drawQr(box, url) {
    const response = await fetch("/api/qr", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ text: url }),
    });
    if (!response.ok) return;
    // parsed as HTML, as an inline <svg> in a page is (the server's own drawing)
    const holder = document.createElement("template");
    holder.innerHTML = (await response.json()).svg;
    box.replaceChildren(holder.content);
  }

  async function copy(input, button) {
    try {
      await navigator.clipboard.writeText(input.value);
    } catch (e) {
      input.select();
      document.execCommand("copy");
    }
    const before = button.textContent;
    button.textContent = button.dataset.done;
    setTimeout(() => { button.textContent = before; }, 1500);
  }

  for (const item of root.querySelectorAll(".join-link")) {
    const seat = item.dataset.seat;
    if (!saved.tokens[seat]) continue;
    const url = link(seat);
    item.classList.remove("hidden");
    item.querySelector(".mine").classList.toggle("hidden", Number(seat) !== saved.mine);
    const input = item.querySelector("input.copy");
    input.value = url;
    item.querySelector("a.join").href = url;
    const copyButton = item.querySelector(".copy-button");
    copyButton.addEventListener("click", () => copy(input, copyButton));
    const share = item.querySelector(".share-button");
    if (navigator.share) {
      share.classList.remove("hidden");
      share.addEventListener("click", () => {
        navigator.share({ title: root.dataset.title, url }).catch(() => { /* the person closed the sheet */ });
      });
    }
    drawQr(item.querySelector(".qr"), url);
  }
})();
