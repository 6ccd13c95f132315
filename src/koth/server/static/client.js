/* The game table: one WebSocket per page (seat token from the URL fragment), reconnects
   with backoff, actions by POST. Game-specific drawing lives in KOTH.renderers[name]. */
"use strict";
const KOTH = (window.KOTH = window.KOTH || {});
KOTH.renderers = KOTH.renderers || {};
// called with (msg, table) after each picture of a live table is drawn (presence,
// turn alerts, the rematch: static/games/*.js)
KOTH.tableHooks = KOTH.tableHooks || [];

KOTH.el = DOM.el;
// one colour per seat, the same on the board, in swatches and in the analysis chart
KOTH.SEAT_COLORS = ["#d9480f", "#1c7ed6", "#7048e8", "#2b8a3e"];
// the page's texts in its language (server/games/i18n.py), as data like everything else
KOTH.texts = JSON.parse((document.getElementById("koth-texts") || {}).textContent || "{}");
// one form per plural category for a text with a count (DOM.translator)
KOTH.t = DOM.translator(() => KOTH.texts, () => document.documentElement.lang);
KOTH.svg = DOM.svg;

KOTH.credentials = function () {
  const params = new URLSearchParams(location.hash.slice(1));
  const token = params.get("token");
  const seat = params.get("seat");
  return { token: token || null, seat: seat === null ? null : Number(seat) };
};

// this device's random player key: it ties the seats played here together ("My games")
KOTH.playerKey = function () {
  try {
    let key = localStorage.getItem("koth.player");
    if (!key) {
      const bytes = crypto.getRandomValues(new Uint8Array(32));
      key = btoa(String.fromCharCode(...bytes)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
      localStorage.setItem("koth.player", key);
    }
    return key;
  } catch (e) { return null; }
};

// a seat played on this device: its link kept here, the seat tied to the player key
KOTH.rememberSeat = function (gameId, seat, token, headers) {
  const key = KOTH.playerKey();
  if (!key || !token) return;
  try { localStorage.setItem(`koth.seat.${gameId}`, JSON.stringify({ seat, token })); } catch (e) { /* not kept */ }
  fetch(`/api/games/${gameId}/player`, { method: "PUT", headers, body: JSON.stringify({ key }) })
    .catch(() => { /* offline: tied on the next visit */ });
};

KOTH.seatName = function (msg, seat) {
  if (seat === null || seat === undefined) return KOTH.t("spectator");
  const info = msg && msg.seats ? msg.seats[seat] : null;
  const label = info && info.name ? info.name : KOTH.t("seat", { n: seat + 1 });
  if (info && info.kind === "computer") return KOTH.t("seat_computer", { seat: label });
  return msg && msg.seat === seat ? KOTH.t("seat_you", { seat: label }) : label;
};

/* Buttons for legal actions: the universal way to act, and the fallback of every page. */
KOTH.actionButtons = function (container, entries, act, options) {
  const opts = options || {};
  if (opts.title) container.append(KOTH.el("h3", { text: opts.title }));
  const box = KOTH.el("div", { class: "action-buttons" });
  for (const entry of entries) {
    box.append(
      KOTH.el("button", {
        type: "button",
        class: "action",
        dataset: { actionId: String(entry.id), action: entry.text },
        text: opts.label ? opts.label(entry) : entry.text,
        onclick: () => act(entry),
      })
    );
  }
  container.append(box);
  return box;
};

/* Many actions (a board turn can offer dozens) are grouped by their first word; small
   groups stay open, large ones fold so a phone screen is not one long list of buttons. */
KOTH.groupedActions = function (container, entries, act, title) {
  container.append(KOTH.el("h3", { text: title }));
  if (entries.length <= 12) return KOTH.actionButtons(container, entries, act);
  const groups = new Map();
  for (const entry of entries) {
    const word = entry.text.split(" ")[0];
    if (!groups.has(word)) groups.set(word, []);
    groups.get(word).push(entry);
  }
  for (const [word, group] of groups) {
    const details = KOTH.el("details", { class: "action-group", open: group.length <= 6 }, KOTH.el("summary", { text: `${word} (${group.length})` }));
    KOTH.actionButtons(details, group, act);
    container.append(details);
  }
};

/* The game's log (the state message's `log`, or a replay's up to its frame): newest
   first, the entries of the last decision marked; each entry names its rule. */
KOTH.latestEntries = function (entries) {
  if (!entries.length) return [];
  const last = Math.max(...entries.map((e) => e.decision));
  return entries.filter((e) => e.decision === last);
};

KOTH.logPanel = function (box, entries) {
  const latest = new Set(KOTH.latestEntries(entries));
  const list = KOTH.el("ol", { class: "log-list", reversed: true, "aria-label": KOTH.t("log_title") });
  for (const entry of [...entries].reverse()) {
    list.append(
      KOTH.el(
        "li",
        {
          class: `log-entry${latest.has(entry) ? " latest" : ""}`,
          dataset: { code: entry.code, move: String(entry.move), decision: String(entry.decision), rule: entry.rule || "", seat: entry.seat === null ? "" : String(entry.seat) },
        },
        entry.seat !== null && entry.seat !== undefined ? KOTH.el("span", { class: "swatch", style: `background:${KOTH.SEAT_COLORS[entry.seat % KOTH.SEAT_COLORS.length]}` }) : null,
        KOTH.el("span", { class: "log-text", text: entry.text }),
        entry.rule ? KOTH.el("small", { class: "rule", text: entry.rule }) : null
      )
    );
  }
  const head = KOTH.el("h2", { text: KOTH.t("log_title") });
  box.replaceChildren(head, entries.length ? list : KOTH.el("p", { class: "hint", text: KOTH.t("log_empty") }));
  box.classList.remove("hidden");
};

/* The last decision shown on the table: every tile (data-loc) and stack (data-stack) its
   entries name is marked `last-move`. */
KOTH.markLatest = function (board, entries) {
  const names = new Set();
  for (const entry of KOTH.latestEntries(entries)) {
    for (const key of ["to", "at", "a", "b", "from", "stack"]) {
      const value = entry.params[key];
      if (typeof value === "string") names.add(value);
    }
  }
  for (const node of board.querySelectorAll("[data-loc], [data-stack]")) {
    const name = node.dataset.loc || node.dataset.stack;
    if (names.has(name)) node.classList.add("last-move");
  }
};

class Table {
  constructor(root) {
    this.root = root;
    this.gameId = root.dataset.gameId;
    this.renderer = KOTH.renderers[root.dataset.renderer] || KOTH.renderers.generic;
    this.credentials = KOTH.credentials();
    this.msg = null;
    this.live = null;
    this.busy = false;
    this.ui = {}; // renderer scratch space that survives re-renders (a selected unit...)
    window.addEventListener("hashchange", () => location.reload());
    window.addEventListener("offline", () => this.setConnection("offline", "offline"));
  }

  headers() {
    const headers = { "Content-Type": "application/json" };
    if (this.credentials.token) headers.Authorization = `Bearer ${this.credentials.token}`;
    return headers;
  }

  connect() {
    // the page's one live connection (LiveSocket, shared with the quiz pages)
    if (!this.live) {
      this.live = new LiveSocket({
        path: `/api/games/${this.gameId}/ws`,
        hello: () => ({ type: "hello", token: this.credentials.token }),
        onConn: (state, wait) => {
          const conn = document.getElementById("conn");
          if (state === "connecting" && (!conn || conn.dataset.state !== "offline")) this.setConnection(KOTH.t("connecting"), "connecting");
          else if (state === "offline") this.setConnection(KOTH.t("reconnecting", { s: Math.round(wait / 100) / 10 }), "offline");
          else if (state === "closed") this.setConnection(KOTH.t("closed"), "closed");
        },
        onFatal: (error) => this.showError(error.message),
        onFrame: (data) => {
          if (data.type !== "state") return;
          this.setConnection(data.outcome ? KOTH.t("finished") : KOTH.t("live"), data.outcome ? "finished" : "live");
          if (this.sendFailed) this.showError(""); // the failure was the connection: it is back
          this.sendFailed = false;
          this.receive(data);
        },
      });
    }
    this.live.connect();
  }

  reconnectSoon(delay) {
    this.live.reconnectSoon(delay);
  }

  setConnection(text, state) {
    const conn = document.getElementById("conn");
    if (conn) {
      conn.textContent = text;
      conn.dataset.state = state;
    }
    if (state === "live" || state === "finished") Liveness.banner(null);
    else if (state === "offline") Liveness.banner(KOTH.t("offline_banner"));
  }

  receive(msg) {
    if (this.msg && msg.version < this.msg.version) return; // an older picture: ignore
    if (msg.log_from) {
      // a live update carries only the log entries this connection has not had
      const had = this.msg ? this.msg.log || [] : [];
      if (msg.log_from > had.length) { this.refresh(); return; } // a gap: the whole picture
      msg.log = had.slice(0, msg.log_from).concat(msg.log || []);
      msg.log_from = 0;
    }
    this.msg = msg;
    this.nameSeat(msg);
    DOM.whenReleased(() => this.render());
  }

  // a seat without a name takes the one remembered on this device (once per page)
  nameSeat(msg) {
    if (this.named || msg.seat === null || msg.seat === undefined) return;
    const info = msg.seats ? msg.seats[msg.seat] : null;
    let name = "";
    try { name = localStorage.getItem("koth.name") || ""; } catch (e) { name = ""; }
    this.named = true;
    KOTH.rememberSeat(this.gameId, msg.seat, this.credentials.token, this.headers());
    if (!info || info.name || !name) return;
    fetch(`/api/games/${this.gameId}/name`, { method: "PUT", headers: this.headers(), body: JSON.stringify({ name }) })
      .catch(() => { /* offline: the seat stays "Seat n" until the next visit */ });
  }

  async refresh() {
    const response = await fetch(`/api/games/${this.gameId}`, { headers: this.headers() });
    if (response.ok) this.receive(await response.json());
  }

  async act(entry) {
    if (this.busy || !this.msg) return;
    this.busy = true;
    // the picked units and targets belong to the picture the action was made on: cleared
    // now, not when the answer comes (a newer state may have been picked on by then)
    this.ui = {};
    this.root.classList.add("busy");
    this.showError("");
    try {
      const response = await fetch(`/api/games/${this.gameId}/actions`, {
        method: "POST",
        headers: this.headers(),
        body: JSON.stringify({ action_id: entry.id, version: this.msg.version }),
      });
      const data = await response.json();
      if (response.ok) {
        this.receive(data);
      } else {
        this.showError(data.error ? data.error.message : KOTH.t("error_status", { status: response.status }));
        if (response.status === 409) await this.refresh();
      }
    } catch (error) {
      this.sendFailed = true;
      this.showError(KOTH.t("move_not_sent"));
      this.reconnectSoon(0);
    } finally {
      this.busy = false;
      this.root.classList.remove("busy");
    }
  }

  /* Take back this seat's secret choice while another seat has yet to choose. */
  async withdraw() {
    if (this.busy || !this.msg) return;
    this.busy = true;
    this.showError("");
    try {
      const response = await fetch(`/api/games/${this.gameId}/actions?version=${this.msg.version}`, { method: "DELETE", headers: this.headers() });
      const data = await response.json();
      if (response.ok) this.receive(data);
      else {
        this.showError(data.error ? data.error.message : KOTH.t("error_status", { status: response.status }));
        await this.refresh();
      }
    } catch (error) {
      this.showError(KOTH.t("move_not_sent"));
      this.reconnectSoon(0);
    } finally {
      this.busy = false;
    }
  }

  showError(text) {
    const box = document.getElementById("error");
    box.textContent = text;
    box.classList.toggle("hidden", !text);
  }

  // this seat's clock while the computer plays for it (out of time, or resigned), else null
  standIn(msg) {
    const mine = msg.seat !== null && msg.clock ? msg.clock.seats[msg.seat] : null;
    return mine && mine.computer ? mine : null;
  }

  statusText(msg) {
    const mine = msg.seat === null ? null : (msg.seats || [])[msg.seat];
    const you = msg.seat === null ? KOTH.t("you_watch")
      : mine && mine.name ? KOTH.t("you_are_named", { name: mine.name, n: msg.seat + 1 })
        : KOTH.t("you_are", { n: msg.seat + 1 });
    if (msg.outcome) {
      const winners = msg.outcome.winners;
      let result;
      if (!winners.length) result = KOTH.t("a_draw");
      else if (msg.seat !== null && winners.includes(msg.seat)) result = winners.length > 1 ? KOTH.t("you_share") : KOTH.t("you_won");
      else result = KOTH.t("won_by", { who: winners.map((w) => KOTH.seatName(msg, w)).join(", ") });
      return KOTH.t("game_over", { you, how: msg.ending ? msg.ending.text : KOTH.texts[`end_${msg.outcome.termination}`] || msg.outcome.termination.replaceAll("_", " "), result });
    }
    // the computer plays for this seat: that, and how to take it back, before whose turn it is
    const standIn = this.standIn(msg);
    if (standIn) return `${you} ${KOTH.t(standIn.resigned ? "computer_for_you_resigned" : "computer_for_you")}`;
    // a seat the computer plays for is named so: "Waiting for Anna (the computer plays)."
    const name = (p) => (msg.clock && msg.clock.seats[p] && msg.clock.seats[p].computer
      ? KOTH.t("seat_computer_plays", { who: KOTH.seatName(msg, p) }) : KOTH.seatName(msg, p));
    const players = msg.to_move.players;
    if (msg.to_move.kind === "simultaneous") {
      // never "waiting for ... (you)": the seat's own choice is said apart
      const waiting = players.filter((p) => !msg.submitted.includes(p) && p !== msg.seat);
      const mine = msg.seat !== null && players.includes(msg.seat);
      const head = mine && !msg.submitted.includes(msg.seat) ? KOTH.t("secret_yours") : mine ? KOTH.t("secret_in") : KOTH.t("secret");
      const others = waiting.length ? ` ${KOTH.t("waiting_for", { who: waiting.map((p) => name(p)).join(", ") })}` : "";
      return `${you} ${head}${others}`;
    }
    if (msg.to_move.kind === "player") {
      return players[0] === msg.seat ? `${you} ${KOTH.t("your_turn")}` : `${you} ${KOTH.t("waiting_for", { who: name(players[0]) })}`;
    }
    return you;
  }

  render() {
    const msg = this.msg;
    const status = document.getElementById("status");
    status.textContent = this.statusText(msg);
    status.dataset.yourTurn = String(msg.legal.length > 0);
    this.root.dataset.version = String(msg.version);
    this.root.dataset.finished = String(Boolean(msg.outcome));
    if (msg.outcome) this.setConnection(KOTH.t("finished"), "finished"); // the badge: no longer live
    document.getElementById("record-link").classList.toggle("hidden", !msg.outcome);
    const board = document.getElementById("board");
    const actions = document.getElementById("actions");
    board.replaceChildren();
    actions.replaceChildren();
    const ctx = {
      msg,
      view: msg.view,
      seat: msg.seat,
      legal: msg.legal,
      board,
      actions,
      ui: this.ui,
      replay: false,
      act: (entry) => this.act(entry),
      withdraw: () => this.withdraw(),
      rerender: () => this.render(),
    };
    try {
      this.renderer.render(ctx);
      // a renderer may name the action expected now ("Place your starting area"...)
      if (ctx.expected && !this.standIn(msg)) status.textContent = `${status.textContent} ${ctx.expected}`;
    } catch (error) {
      console.error(error);
      board.replaceChildren();
      actions.replaceChildren();
      KOTH.renderers.generic.render(ctx);
    }
    const log = document.getElementById("log");
    if (log) KOTH.logPanel(log, msg.log || []);
    KOTH.markLatest(board, msg.log || []);
    // every legal action stays reachable: one the drawing offers no target for gets a button
    const offered = new Set([...this.root.querySelectorAll("[data-action-id]")].map((n) => n.dataset.actionId));
    for (const id of ctx.handled || []) offered.add(String(id)); // reachable by select-then-target
    const missing = msg.legal.filter((entry) => !offered.has(String(entry.id)));
    if (missing.length) KOTH.groupedActions(actions, missing, (entry) => this.act(entry), KOTH.t("other_moves"));
    actions.classList.toggle("hidden", !actions.childElementCount);
    for (const hook of KOTH.tableHooks) hook(msg, this);
  }
}

KOTH.startTable = function (root) {
  const table = new Table(root);
  KOTH.table = table;
  table.connect();
  return table;
};

/* The frames a replay stops at: it steps from decision to decision, a frame that waits
   for chance (a card dealt, a die rolled) is folded into the next stop, which shows what
   chance made of it. A stop's frames run from the one after the stop before it. */
KOTH.replayStops = function (frames) {
  return frames.map((frame, i) => i).filter((i) => frames[i].to_move.kind !== "chance" || i === frames.length - 1);
};

KOTH.startReplay = async function (root) {
  const gameId = root.dataset.gameId;
  const renderer = KOTH.renderers[root.dataset.renderer] || KOTH.renderers.generic;
  const credentials = KOTH.credentials();
  const headers = credentials.token ? { Authorization: `Bearer ${credentials.token}` } : {};
  const response = await fetch(`/api/games/${gameId}/replay`, { headers });
  const data = await response.json();
  const status = document.getElementById("status");
  if (!response.ok) {
    status.textContent = data.error ? data.error.message : KOTH.t("error_status", { status: response.status });
    return;
  }
  document.getElementById("record-link").classList.toggle("hidden", !data.finished);
  if (credentials.token) document.getElementById("back-to-game").href += location.hash;
  const select = document.getElementById("perspective");
  const keys = Object.keys(data.frames[0].views);
  for (const key of keys) {
    select.append(KOTH.el("option", { value: key, text: key === "spectator" ? KOTH.t("spectator") : ((data.seats || [])[Number(key)] || {}).name || KOTH.t("seat", { n: Number(key) + 1 }) }));
  }
  if (data.seat !== null && keys.includes(String(data.seat))) select.value = String(data.seat);
  const stops = KOTH.replayStops(data.frames);
  let index = data.frames.length - 1;
  let analysis = null;
  const show = () => {
    const frame = data.frames[index];
    if (analysis) analysis.show(index, [...stops].reverse().find((i) => i < index) ?? 0);
    const key = select.value;
    const seat = key === "spectator" ? null : Number(key);
    const stop = stops.filter((i) => i <= index).length;
    document.getElementById("step").textContent = KOTH.t("replay_step", { n: stop, of: stops.length });
    status.textContent = data.finished
      ? KOTH.t(data.game === "cards" ? "replay_over_cards" : "replay_over")
      : KOTH.t("replay_running");
    const entries = ((data.logs || {})[key] || []).filter((e) => e.move < frame.version);
    const log = document.getElementById("log");
    if (log) KOTH.logPanel(log, entries);
    root.dataset.step = String(index);
    const board = document.getElementById("board");
    board.replaceChildren();
    const msg = {
      game: data.game, params: data.params, seat, seats: data.seats || [], version: frame.version,
      to_move: frame.to_move, submitted: [], view: frame.views[key], legal: [], outcome: frame.outcome,
      // a finished game's replay shows every seat's cards, whichever seat it is seen as
      reveal: data.finished ? Object.fromEntries(keys.filter((k) => k !== "spectator").map((k) => [k, frame.views[k]])) : null,
    };
    const scratch = KOTH.el("div");
    const ctx = { msg, view: msg.view, seat, legal: [], board, actions: scratch, ui: {}, replay: true, act: () => {}, rerender: show };
    try {
      renderer.render(ctx);
      if (ctx.expected) status.textContent = `${status.textContent} ${ctx.expected}`;
    } catch (error) {
      console.error(error);
      board.replaceChildren();
      KOTH.renderers.generic.render(ctx);
    }
    KOTH.markLatest(board, entries);
  };
  const go = (to) => {
    index = Math.max(0, Math.min(data.frames.length - 1, to));
    show();
  };
  const back = () => go([...stops].reverse().find((i) => i < index) ?? 0);
  const forward = () => go(stops.find((i) => i > index) ?? data.frames.length - 1);
  document.getElementById("first").onclick = () => go(stops[0]);
  document.getElementById("back").onclick = back;
  document.getElementById("forward").onclick = forward;
  document.getElementById("last").onclick = () => go(data.frames.length - 1);
  select.onchange = () => {
    show();
    if (analysis) analysis.redraw();
  };
  document.addEventListener("keydown", (e) => {
    if (e.key === "ArrowLeft") back();
    if (e.key === "ArrowRight") forward();
  });
  // a finished game's analysis: a chart of win chances that also steps through the game
  if (data.finished && KOTH.startAnalysis) analysis = KOTH.startAnalysis(root, data, go, () => select.value);
  show();
};
