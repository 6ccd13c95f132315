/* Honest connection state, shared by the game tables and the quiz pages. A WebSocket
   can look open long after the server stopped answering (a frozen process, a dropped
   Wi-Fi that sent no reset), so a socket counts as alive only while frames arrive:
   after PING_AFTER_MS of silence the page pings, and after DEAD_AFTER_MS without any
   frame (the pong included) it is declared dead, so the page shows "offline" within
   5 s and reconnects. A banner at the top of the page says so in words. */
"use strict";
window.Liveness = class Liveness {
  static PING_AFTER_MS = 2000;
  static DEAD_AFTER_MS = 4500;

  constructor(socket, onDead) {
    this.socket = socket;
    this.onDead = onDead;
    this.heard = Date.now(); // a connection that never answers its hello is dead too
    this.pinged = 0;
    this.timer = setInterval(() => this.check(), 250);
  }

  /* a frame arrived: the server is alive */
  beat() {
    this.heard = Date.now();
  }

  check() {
    const socket = this.socket;
    if (socket.readyState === WebSocket.CLOSED || socket.readyState === WebSocket.CLOSING) return this.stop();
    const now = Date.now();
    const quiet = now - this.heard;
    if (quiet >= Liveness.DEAD_AFTER_MS) {
      this.stop();
      this.onDead();
      return;
    }
    if (socket.readyState === WebSocket.OPEN && quiet >= Liveness.PING_AFTER_MS && now - this.pinged >= Liveness.PING_AFTER_MS) {
      this.pinged = now;
      socket.send(JSON.stringify({ type: "ping" }));
    }
  }

  stop() {
    clearInterval(this.timer);
  }

  /* The banner under the header: shown with ``text`` while the page is offline, hidden
     (text null) once it is live again. */
  static banner(text) {
    let box = document.getElementById("offline-banner");
    if (!box) {
      box = document.createElement("div");
      box.id = "offline-banner";
      box.className = "offline-banner hidden";
      box.setAttribute("role", "status");
      box.setAttribute("aria-live", "polite");
      document.body.prepend(box);
    }
    box.textContent = text || "";
    box.classList.toggle("hidden", !text);
    document.body.classList.toggle("offline", Boolean(text));
  }
};
