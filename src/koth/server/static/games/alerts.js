/* Turn alerts of a live table: on the reader's turn the tab's title reads "Your turn -
   King of the Hill" and its icon changes; a short sound if the person turned it on (off by
   default, remembered on this device); and, once they allowed it with the button (the
   browser is never asked unprompted), a notification while the tab is in the background. */
"use strict";
(function () {
  const SOUND_KEY = "koth.sound";
  const original = document.title;
  let wasMyTurn = false;

  function icon(color) {
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16"><circle cx="8" cy="8" r="7" fill="${color}"/></svg>`;
    return `data:image/svg+xml,${encodeURIComponent(svg)}`;
  }

  function setIcon(mine) {
    let link = document.querySelector("link[rel='icon']");
    if (!link) {
      link = KOTH.el("link", { rel: "icon" });
      document.head.append(link);
    }
    link.href = icon(mine ? "#d9480f" : "#1d2433");
    link.dataset.turn = String(mine);
  }

  function soundOn() {
    try { return localStorage.getItem(SOUND_KEY) === "on"; } catch (e) { return false; }
  }

  function beep() {
    try {
      const context = new AudioContext();
      const tone = context.createOscillator();
      const gain = context.createGain();
      tone.frequency.value = 660;
      gain.gain.setValueAtTime(0.15, context.currentTime);
      gain.gain.exponentialRampToValueAtTime(0.001, context.currentTime + 0.4);
      tone.connect(gain).connect(context.destination);
      tone.start();
      tone.stop(context.currentTime + 0.4);
    } catch (e) { /* no audio here */ }
  }

  function notify(text) {
    if (!("Notification" in window) || Notification.permission !== "granted" || !document.hidden) return;
    try { new Notification(KOTH.t("tab_your_turn"), { body: text, tag: "koth-turn" }); } catch (e) { /* not here */ }
  }

  function controls() {
    const box = document.getElementById("alerts");
    if (!box || box.childElementCount) return;
    const sound = KOTH.el("input", { type: "checkbox", id: "sound-toggle" });
    sound.checked = soundOn();
    sound.addEventListener("change", () => {
      try { localStorage.setItem(SOUND_KEY, sound.checked ? "on" : "off"); } catch (e) { /* not kept */ }
    });
    box.append(KOTH.el("label", { class: "sound-choice" }, sound, ` ${KOTH.t("sound_on")}`));
    if ("Notification" in window) {
      const button = KOTH.el("button", { type: "button", id: "notify-button" });
      const show = () => {
        const state = Notification.permission;
        button.textContent = state === "granted" ? KOTH.t("notify_on") : state === "denied" ? KOTH.t("notify_blocked") : KOTH.t("notify");
        button.disabled = state !== "default";
      };
      button.addEventListener("click", () => Notification.requestPermission().then(show, show));
      show();
      box.append(button);
    }
    box.classList.remove("hidden");
  }

  function alert(msg) {
    if (msg.seat === null || msg.seat === undefined) return;
    controls();
    const mine = !msg.outcome && (msg.legal || []).length > 0;
    document.title = mine ? KOTH.t("tab_your_turn") : original;
    setIcon(mine);
    if (mine && !wasMyTurn) {
      if (soundOn()) beep();
      notify((document.getElementById("status") || {}).textContent || "");
    }
    wasMyTurn = mine;
  }

  KOTH.tableHooks.push(alert);
})();
