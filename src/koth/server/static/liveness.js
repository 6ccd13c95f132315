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

/* The one live connection of every page (game tables and quiz pages): a WebSocket to
   ``path`` that says ``hello()`` when it opens, counts as alive only while frames arrive
   (Liveness), and reconnects with backoff (0.5 s, 1 s, 2 s ... 10 s, with jitter; every
   reconnect gets the full state again). Frames go to ``onFrame(data)``; an ``error``
   frame is fatal (no reconnect after the close); ``onConn(state, waitMs)`` hears
   "connecting", "offline" (with the wait before the next try) and "closed"; the page says
   "live" itself when a state arrives. */
window.LiveSocket = class LiveSocket {
  constructor({ path, hello, onFrame, onConn, onFatal }) {
    this.path = path;
    this.hello = hello;
    this.onFrame = onFrame;
    this.onConn = onConn || (() => {});
    this.onFatal = onFatal || (() => {});
    this.attempt = 0;
    this.socket = null;
    this.fatal = null;
    window.addEventListener("online", () => this.reconnectSoon(0));
  }

  connect() {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const socket = new WebSocket(`${scheme}://${location.host}${this.path}`);
    this.socket = socket;
    this.onConn("connecting");
    socket.onopen = () => socket.send(JSON.stringify(this.hello()));
    if (this.liveness) this.liveness.stop();
    this.liveness = new window.Liveness(socket, () => {
      // silent too long: this socket is dead even if the browser has not noticed
      this.socket = null;
      socket.close();
      this.reconnectSoon();
    });
    socket.onmessage = (event) => {
      this.liveness.beat();
      const data = JSON.parse(event.data);
      if (data.type === "state") this.attempt = 0;
      if (data.type === "error") {
        this.fatal = data.error;
        this.onFatal(data.error);
        return;
      }
      this.onFrame(data);
    };
    socket.onclose = () => {
      if (this.socket !== socket) return;
      if (this.fatal) return this.onConn("closed");
      this.reconnectSoon();
    };
  }

  /* close this socket and open a new one at once (the server asked for it) */
  reopen() {
    const socket = this.socket;
    this.socket = null;
    if (this.liveness) this.liveness.stop();
    if (socket) socket.close();
    this.connect();
  }

  reconnectSoon(delay) {
    const wait = delay !== undefined ? delay : Math.min(10000, 500 * 2 ** this.attempt) * (0.75 + Math.random() / 2);
    this.attempt += 1;
    this.onConn("offline", wait);
    clearTimeout(this.retry);
    this.retry = setTimeout(() => this.connect(), wait);
  }

  /* a request could not reach the server: do not wait for the silence to say so */
  dropped() {
    const socket = this.socket;
    this.socket = null;
    if (this.liveness) this.liveness.stop();
    if (socket) socket.close();
    this.reconnectSoon(0);
  }
};
