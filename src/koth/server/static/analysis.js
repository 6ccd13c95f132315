/* The replay's analysis panel: each seat's estimated win chance over the game (an SVG
   chart), the marked moves, and for the frame shown the move just played beside the one
   the search preferred. The analysis is computed by the server in the background: the
   panel says "analysing…" and asks again until it is ready. */
"use strict";
(function () {
  const SEAT_COLOURS = KOTH.SEAT_COLORS;
  const MARK_NAMES = { "??": "blunder", "?": "mistake", "?!": "inaccuracy" };
  const PAD = { left: 40, right: 12, top: 12, bottom: 28 };
  const pct = (x) => `${Math.round(100 * x)}%`;

  function chart(analysis, selectedSeat, onPick, width) {
    // drawn at the size it is shown, so the labels keep their size on a phone too
    const W = Math.max(320, Math.min(1000, Math.round(width || 640)));
    const H = W < 560 ? 240 : 260;
    const moves = Math.max(1, analysis.moves);
    const x = (m) => PAD.left + (m / moves) * (W - PAD.left - PAD.right);
    const y = (p) => PAD.top + (1 - p) * (H - PAD.top - PAD.bottom);
    const svg = KOTH.svg("svg", { viewBox: `0 0 ${W} ${H}`, class: "analysis-chart", role: "img",
      "aria-label": "estimated win chance of each seat over the game" });
    for (const p of [0, 0.25, 0.5, 0.75, 1]) {
      svg.append(KOTH.svg("line", { x1: PAD.left, x2: W - PAD.right, y1: y(p), y2: y(p), class: p === 0.5 ? "grid mid" : "grid" }));
      const label = KOTH.svg("text", { x: PAD.left - 4, y: y(p) + 4, class: "axis-label", "text-anchor": "end" });
      label.textContent = pct(p);
      svg.append(label);
    }
    const axis = KOTH.svg("text", { x: (W + PAD.left) / 2, y: H - 6, class: "axis-label", "text-anchor": "middle" });
    axis.textContent = `move (0 – ${analysis.moves})`;
    svg.append(axis);
    for (const seat of analysis.seats) {
      const colour = SEAT_COLOURS[seat.seat % SEAT_COLOURS.length];
      const points = seat.decisions.map((d) => [d.move, d.win_chance]).concat([[analysis.moves, seat.result]]);
      let path = "";
      points.forEach(([m, p], i) => {
        path += i === 0 ? `M${x(m)},${y(p)}` : `H${x(m)}V${y(p)}`;
      });
      const selected = selectedSeat === null || selectedSeat === seat.seat;
      svg.append(KOTH.svg("path", { d: path, class: selected ? "series selected" : "series", stroke: colour, "data-seat": seat.seat }));
      for (const d of seat.decisions) {
        if (d.mark !== "??" && d.mark !== "?") continue;
        const dot = KOTH.svg("circle", { cx: x(d.move), cy: y(d.win_chance), r: d.mark === "??" ? 5.5 : 4,
          class: d.mark === "??" ? "mark blunder" : "mark mistake" });
        const title = KOTH.svg("title");
        title.textContent = `move ${d.move}: seat ${d.seat + 1} played ${d.played} (${MARK_NAMES[d.mark]}), preferred ${d.preferred}`;
        dot.append(title);
        svg.append(dot);
      }
    }
    const cursor = KOTH.svg("line", { y1: PAD.top, y2: H - PAD.bottom, class: "cursor" });
    svg.append(cursor);
    svg.addEventListener("click", (event) => {
      const box = svg.getBoundingClientRect();
      const local = ((event.clientX - box.left) / box.width) * W;
      const move = Math.round(((local - PAD.left) / (W - PAD.left - PAD.right)) * moves);
      onPick(Math.max(0, Math.min(analysis.moves, move)));
    });
    return { svg, place: (frame) => { cursor.setAttribute("x1", x(frame)); cursor.setAttribute("x2", x(frame)); } };
  }

  function legend(analysis) {
    const list = KOTH.el("ul", { class: "analysis-legend" });
    for (const seat of analysis.seats) {
      const counts = { "??": 0, "?": 0, "?!": 0 };
      for (const d of seat.decisions) if (d.mark) counts[d.mark] += 1;
      list.append(KOTH.el("li", {},
        KOTH.el("span", { class: "swatch", style: `background:${SEAT_COLOURS[seat.seat % SEAT_COLOURS.length]}` }),
        ` seat ${seat.seat + 1}: ${seat.decisions.length} decisions, ${counts["??"]} blunders (??), ${counts["?"]} mistakes (?), ${counts["?!"]} inaccuracies (?!)`));
    }
    list.append(KOTH.el("li", { class: "hint" },
      "Win chance as the search estimates it from that seat's own view at the time; a mark is the win chance the move played gave away (?? 20+ points, ? 10+, ?! 5+)."));
    return list;
  }

  // the decisions that led to ``frame`` since the frame shown before it (``since``): the
  // replay stops at decisions, so a decision followed by chance (dice, a deal) is shown
  // on the next stop, with the chance steps folded in
  function describe(analysis, frame, since) {
    const box = KOTH.el("div", { class: "analysis-move", id: "analysis-move" });
    const from = since === undefined ? frame - 1 : since;
    const here = analysis.seats.flatMap((s) => s.decisions).filter((d) => d.move >= from && d.move < frame);
    if (!here.length) {
      box.append(KOTH.el("p", { class: "hint" }, "No analysed decision led to this position (a chance move, a forced move, or the start)."));
      return box;
    }
    for (const d of here) {
      const mark = d.mark ? ` ${d.mark} ${MARK_NAMES[d.mark]}` : "";
      const line = KOTH.el("p", { class: d.mark === "??" ? "move-note blunder" : d.mark === "?" ? "move-note mistake" : "move-note" });
      line.append(KOTH.el("b", {}, `Seat ${d.seat + 1} played ${d.played}`), `${mark}: win chance ${pct(d.win_chance)} → ${pct(d.played_chance)}.`);
      if (d.preferred !== d.played) line.append(" Preferred: ", KOTH.el("b", { class: "preferred" }, d.preferred), ".");
      else line.append(" The search prefers the same move.");
      box.append(line);
    }
    return box;
  }

  KOTH.startAnalysis = function (root, replay, go, perspective) {
    const panel = document.getElementById("analysis");
    const status = document.getElementById("analysis-status");
    const body = document.getElementById("analysis-body");
    let analysis = null, drawn = null, frame = replay.frames.length - 1, previous;
    const draw = () => {
      if (!analysis) return;
      const key = perspective();
      drawn = chart(analysis, key === "spectator" ? null : Number(key), (move) => go(move), body.clientWidth);
      body.replaceChildren(drawn.svg, legend(analysis), describe(analysis, frame, previous));
      drawn.place(frame);
    };
    const load = async () => {
      let data;
      try {
        const response = await fetch(`/api/games/${replay.game_id}/analysis`);
        data = await response.json();
        if (!response.ok) {
          panel.dataset.state = "failed";
          status.textContent = data.error ? data.error.message : `error ${response.status}`;
          return;
        }
      } catch (error) {
        status.textContent = `could not load the analysis (${error}); retrying…`;
        setTimeout(load, 3000);
        return;
      }
      panel.dataset.state = data.status;
      if (data.status === "analysing") {
        status.textContent = "analysing… (a search looks at every decision from its player's view)";
        setTimeout(load, 1500);
      } else if (data.status === "failed") {
        status.textContent = data.error || "the analysis failed";
      } else {
        // named by its computer level where its agent and budget are one ("Strong")
        status.textContent = data.level ? KOTH.t("analysis_by_level", { level: KOTH.t(`level_${data.level}`) }) : `Analysis by ${data.agent}`;
        analysis = data;
        draw();
      }
    };
    // shown as analysing from the start, not blank while the first answer is on its way
    panel.dataset.state = "analysing";
    status.textContent = "analysing…";
    panel.classList.remove("hidden");
    load();
    return {
      show(index, since) {
        frame = index;
        previous = since;
        if (!drawn) return;
        drawn.place(index);
        const old = document.getElementById("analysis-move");
        if (old) old.replaceWith(describe(analysis, index, since));
      },
      redraw: draw,
    };
  };
})();
