/* Quiz pages: shared helpers. A live connection (LiveSocket in liveness.js, shared with
   the game tables) says hello with a role and a token, gets the full state of its
   audience, and reconnects with backoff; every reconnect gets the full state again. */
"use strict";
const Q = (window.Q = window.Q || {});
// the page's settings and texts, as data (the pages' security policy runs no inline script)
Q.cfg = JSON.parse((document.getElementById("quiz-config") || {}).textContent || "{}");

// A text of the page's table; a text with a count has one form per plural category
// (Russian has three), chosen by ``vars.n`` as the language's rules say (DOM.translator).
Q.t = DOM.translator(() => Q.cfg.t, () => Q.cfg.lang);

Q.el = DOM.el;
Q.svg = DOM.svg;

Q.store = {
  get(key) {
    try { return JSON.parse(localStorage.getItem(key)); } catch (e) { return null; }
  },
  set(key, value) { localStorage.setItem(key, JSON.stringify(value)); },
  del(key) { localStorage.removeItem(key); },
};

// The page's own sentence for an error code, else the server's words. ``ownWords``: codes
// whose server message says more on this page (on the judge console "not found" means a
// team or an answer, not the event or join code the general sentence speaks of).
Q.errorText = function (data, status, ownWords) {
  const error = data && data.error;
  if (!error) return status ? Q.t("error_http", { status }) : Q.t("error_network");
  if (ownWords && ownWords.includes(error.code)) return error.message;
  const known = Q.cfg.t && Q.cfg.t[`error_${error.code}`];
  return known || error.message;
};

/* fetch JSON; network failures come back as {ok: false, status: 0}. ``key``: the
   command's idempotency key (a resend with the same key is applied once) */
Q.api = async function (method, path, body, token, key) {
  const headers = { "Content-Type": "application/json" };
  if (token) headers.Authorization = `Bearer ${token}`;
  if (key) headers["Idempotency-Key"] = key;
  try {
    const response = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    let data = null;
    try { data = await response.json(); } catch (e) { data = null; }
    return { ok: response.ok, status: response.status, data };
  } catch (error) {
    return { ok: false, status: 0, data: null, error };
  }
};

Q.newId = function () {
  if (window.crypto && crypto.randomUUID) return crypto.randomUUID();
  return `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}-${Math.random().toString(36).slice(2)}`;
};

Q.Live = class {
  constructor(role, token, onState, onFatal) {
    this.role = role;
    this.token = token;
    this.onState = onState;
    this.seq = -1;
    this.offset = 0; // server clock minus local clock, seconds
    this.live = false;
    this.waiting = []; // resolved by the next full state (see whenLive)
    // the page's one live connection (LiveSocket, shared with the game tables)
    this.socket = new LiveSocket({
      path: `/api/quiz/events/${Q.cfg.eventId}/ws`,
      hello: () => ({ type: "hello", role: this.role, token: this.token }),
      onConn: (state) => {
        // offline stays offline until a state arrives
        if (state === "connecting" && this.state !== "offline") this.setConn(Q.t("reconnecting"), "connecting");
        else if (state === "offline") this.setConn(Q.t("offline"), "offline");
        else if (state === "closed") this.setConn("closed", "closed");
      },
      onFatal: onFatal || (() => {}),
      onFrame: (msg) => this.frame(msg),
    });
    window.addEventListener("offline", () => this.setConn(Q.t("offline"), "offline"));
  }

  /* resolves at once while the page is live, else with the next full state */
  whenLive() {
    if (this.live) return Promise.resolve();
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  connect() {
    this.socket.connect();
  }

  frame(msg) {
    if (msg.type === "state") {
      this.setConn(Q.t("live"), "live");
      this.offset = msg.server_time - Date.now() / 1000;
      msg.received_local = Date.now() / 1000;
      if (msg.seq < this.seq) return; // an older picture
      this.seq = msg.seq;
      window.__quizFrames = (window.__quizFrames || 0) + 1;
      this.onState(msg);
    } else if (msg.type === "reconnect") {
      // the team was renamed or merged: the token now names another audience
      this.socket.reopen();
    }
  }

  setConn(text, state) {
    const conn = document.getElementById("conn");
    if (conn) {
      conn.textContent = text;
      conn.dataset.state = state;
    }
    this.state = state;
    this.live = state === "live";
    if (this.live) {
      Liveness.banner(null);
      for (const resolve of this.waiting.splice(0)) resolve();
    } else if (state === "offline") {
      Liveness.banner(this.queued ? Q.t("offline_queued", { n: this.queued }) : Q.t("offline_banner"));
    }
  }

  /* how many commands wait for the connection (the banner counts them) */
  setQueued(n) {
    this.queued = n;
    if (this.state === "offline") this.setConn(Q.t("offline"), "offline");
  }

  /* a request could not reach the server: do not wait for the silence to say so */
  dropped() {
    if (this.state === "offline") return;
    this.socket.dropped();
  }
};

/* the timer as the server last described it, counted down locally */
Q.remaining = function (msg) {
  const timer = msg && msg.phase && msg.phase.timer;
  if (!timer) return null;
  if (!timer.running) return timer.remaining;
  return Math.max(0, timer.remaining - (Date.now() / 1000 - msg.received_local));
};

Q.timerLabel = function (msg) {
  const left = Q.remaining(msg);
  if (left === null) return "";
  const paused = msg.phase.timer.paused ? ` (${Q.t("paused")})` : "";
  return Q.t("time_left", { s: Math.ceil(left) }) + paused;
};

Q.startTicker = function (getMsg) {
  setInterval(() => {
    const msg = getMsg();
    for (const node of document.querySelectorAll("[data-timer]")) node.textContent = Q.timerLabel(msg);
  }, 250);
};

Q.stageText = function (phase) {
  let text = Q.t(`stage_${phase.stage}`);
  if (phase.question) text = `${Q.t("question", { n: phase.question })} · ${text}`;
  return text;
};

// A part's name ("semifinal 1") in the page's language.
Q.partName = function (name) { return Q.t(`part_${name}`); };

// An engine note (kind and parameters) in words, from the same texts the terminal uses.
Q.note = function (note) {
  const p = Object.assign({}, note.params || {});
  const key = note.kind === "crowned" && p.by === "revolution" ? "crowned_revolution" : note.kind;
  if (p.reason !== undefined) {
    const reason = p.reason === "jump_near_peak" && p.left === 1 ? "jump_one_step" : p.reason;
    p.reason = Q.t(`problem_${reason}`, p);
  }
  if (p.declaration !== undefined) p.declaration = Q.t(`decl_${p.declaration}`);
  return Q.t(`note_${key}`, p);
};

/* The locale dates are written in: the browser's own language when it is a variant of
   the page's (en-GB keeps day/month/year on an English page), else the page's. */
Q.locale = function () {
  const lang = Q.cfg.lang || "en";
  return (navigator.languages || []).find((l) => l.split("-")[0].toLowerCase() === lang) || lang;
};
Q.dateText = function (date) { return date.toLocaleDateString(Q.locale()); };

/* A closed question's statistics in one line: right of teams, by declared move, the
   most common wrong answers. */
Q.statsText = function (s) {
  const by = s.by_declaration.map((d) => `${Q.t(`decl_${d.declaration}`)} ${d.right}/${d.teams}`).join(" · ");
  const wrong = s.wrong_answers.map((w) => `${w.text} ×${w.teams}`).join(", ");
  return `${Q.t("stats_right", { right: s.right, n: s.teams })} · ${by}${wrong ? ` · ${Q.t("stats_wrong")}: ${wrong}` : ""}`;
};

Q.moveText = function (move) {
  if (!move) return "";
  if (move.void) return Q.t("void");
  const mark = move.correct === true ? "✓" : move.correct === false ? "✗" : "–";
  const decl = move.king ? "♛" : move.declaration === "jump" ? Q.t("mark_jump") : move.declaration === "revolution" ? Q.t("mark_revolution") : "";
  const steps = move.steps > 0 ? `+${move.steps}` : String(move.steps);
  const extras = (move.spur ? " ◆" : "") + (move.downgraded ? " ↓" : "");
  return `${decl}${mark} ${steps}/+${move.gained}${extras}`;
};

/* A team name in a table: cut with an ellipsis when long, the full name in its title
   and, on a touch screen where titles do not show, on a tap. */
Q.nameCell = function (text) {
  return Q.el("td", { class: "name", title: text, text, onclick: (e) => e.currentTarget.classList.toggle("full") });
};

Q.langSwitch = function () {
  const link = document.getElementById("lang-switch");
  if (link) link.href = `/quiz/lang/${Q.cfg.otherLang}?next=${encodeURIComponent(location.pathname + location.search)}`;
};
document.addEventListener("DOMContentLoaded", Q.langSwitch);

// Downloads send the token in the Authorization header, never in the URL: a URL reaches
// access logs, a header does not. The file arrives as a blob and is saved from memory.
Q.download = async function (path, token) {
  const response = await fetch(path, { headers: token ? { Authorization: `Bearer ${token}` } : {} });
  if (!response.ok) {
    let message = Q.t("error_status", { status: response.status });
    try {
      message = (await response.json()).error.message;
    } catch (_) {
      /* not a JSON error body */
    }
    throw new Error(message);
  }
  const disposition = response.headers.get("Content-Disposition") || "";
  const name = (/filename="([^"]+)"/.exec(disposition) || [])[1] || "download";
  const url = URL.createObjectURL(await response.blob());
  const link = Object.assign(document.createElement("a"), { href: url, download: name });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10000);
};

// A download link: clicking fetches with the token (see Q.download) and reports errors.
Q.downloadLink = function (link, path, token, onError) {
  link.href = path;
  link.addEventListener("click", (event) => {
    event.preventDefault();
    Q.download(path, token).catch((e) => onError(e.message));
  });
  return link;
};
