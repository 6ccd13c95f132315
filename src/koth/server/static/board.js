/* The board: rings as a round SVG board with terrain, units, starting areas and dice.
   Click one of your units: its legal destinations light up; click one to move there.
   Placing a starting area is a click on the outer-ring tile it should touch. */
"use strict";
(function () {
  const { el, svg } = KOTH;
  const RING = 7;
  const CENTER = 28;
  const RADII = [200, 160, 122, 86, 50]; // ring 1 (outer) .. ring 4, then the center
  const TERRAIN = { L: ["#efe3b4", "light"], N: ["#b7cf8c", "normal"], D: ["#7c8a63", "difficult"] };
  const COLORS = KOTH.SEAT_COLORS;
  const UNIT_NAMES = { R: "runner", F: "fighter", B: "blocker" };

  function locName(loc) {
    if (loc < CENTER) return `${Math.floor(loc / RING) + 1}.${loc % RING}`;
    if (loc === CENTER) return "C";
    return `A${loc - CENTER}`;
  }

  function angleOf(index) {
    return (index / RING) * 2 * Math.PI - Math.PI / 2;
  }

  function polar(r, a) {
    return [r * Math.cos(a), r * Math.sin(a)];
  }

  function sector(outer, inner, index) {
    const a0 = angleOf(index) - Math.PI / RING;
    const a1 = angleOf(index) + Math.PI / RING;
    const [x0, y0] = polar(outer, a0), [x1, y1] = polar(outer, a1);
    const [x2, y2] = polar(inner, a1), [x3, y3] = polar(inner, a0);
    return `M${x0},${y0} A${outer},${outer} 0 0 1 ${x1},${y1} L${x2},${y2} A${inner},${inner} 0 0 0 ${x3},${y3} Z`;
  }

  function tileCenter(name, areas) {
    if (name === "C") return [0, 0];
    if (name.startsWith("A")) {
      const touches = areas[name] && areas[name].touches;
      if (!touches) return null;
      const index = Number(touches.split(".")[1]);
      return polar(RADII[0] + 28, angleOf(index));
    }
    const [ring, index] = name.split(".").map(Number);
    return polar((RADII[ring - 1] + RADII[ring]) / 2, angleOf(index));
  }

  // a unit type's shape: runners a triangle (fast), fighters a circle, blockers a square
  function unitShape(kind, x, y, size, fill) {
    const attrs = { fill, stroke: "#fff", "stroke-width": 1.4, class: `unit-shape ${UNIT_NAMES[kind]}` };
    if (kind === "R") {
      const h = size * 1.15;
      return svg("polygon", { ...attrs, points: `${x},${y - h} ${x + h},${y + h * 0.75} ${x - h},${y + h * 0.75}` });
    }
    if (kind === "B") return svg("rect", { ...attrs, x: x - size, y: y - size, width: 2 * size, height: 2 * size, rx: 2 });
    return svg("circle", { ...attrs, cx: x, cy: y, r: size });
  }

  function unitPieces(parent, units, center) {
    // units: {player: "F2B1"} at one location: one shape per player and type, the count
    // written in it, laid out in a small grid around the location's centre
    const pieces = [];
    for (const [player, text] of Object.entries(units || {})) {
      for (const [, kind, count] of text.matchAll(/([RFB])(\d+)/g)) pieces.push([Number(player), kind, Number(count)]);
    }
    const cols = Math.min(3, pieces.length);
    const rows = Math.ceil(pieces.length / Math.max(1, cols));
    const step = 25;
    pieces.forEach(([player, kind, count], i) => {
      const col = i % cols, row = Math.floor(i / cols);
      const x = center[0] + (col - (cols - 1) / 2) * step;
      const y = center[1] + (row - (rows - 1) / 2) * step;
      const name = `${count} ${UNIT_NAMES[kind]}${count > 1 ? "s" : ""}`;
      parent.append(svg("g", { class: "unit", dataset: { player: String(player), kind, count: String(count) } },
        unitShape(kind, x, y, 11, COLORS[player % COLORS.length]),
        svg("text", { x, y: y + (kind === "R" ? 7 : 5), "text-anchor": "middle", class: "unit-count", text: String(count) }),
        svg("title", { text: `player ${player + 1}: ${name}` })));
    });
  }

  function legend() {
    const box = el("div", { class: "board-legend", id: "board-legend" }, el("h3", { text: "Legend" }));
    const terrain = el("ul", { class: "legend-list" });
    const rows = [
      [TERRAIN.L[0], "light: every unit"],
      [TERRAIN.N[0], "normal: runners and fighters"],
      [TERRAIN.D[0], "difficult: runners only"],
      ["#f3d35c", "the center: a point per turn end"],
    ];
    for (const [fill, text] of rows) {
      terrain.append(el("li", { class: "legend-terrain" }, el("span", { class: "legend-swatch", style: `background:${fill}` }), text));
    }
    const units = el("ul", { class: "legend-list" });
    for (const [kind, text] of [["R", "runner (up to 3 tiles)"], ["F", "fighter (1 tile, fights)"], ["B", "blocker (1 tile, pushes runners)"]]) {
      const icon = svg("svg", { viewBox: "-11 -11 22 22", class: "legend-unit" }, unitShape(kind, 0, 0, 8, "#555"),
        svg("text", { x: 0, y: kind === "R" ? 5 : 4, "text-anchor": "middle", class: "unit-count", text: "2" }));
      units.append(el("li", { class: "legend-unit-row", dataset: { kind } }, icon, text));
    }
    box.append(terrain, units, el("p", { class: "hint", text: "The number in a unit is how many of that type stand there." }));
    return box;
  }

  const DIE_KINDS = ["recruit", "recruit", "move", "move", "turn", "turn"];

  // what the player to move is asked to do, in words, from the phase and legal actions
  function expectedAction(ctx, view) {
    const movers = Array.isArray(view.to_move) ? view.to_move : [];
    const mine = ctx.seat !== null && ctx.seat !== undefined && movers.includes(ctx.seat) && ctx.legal.length > 0;
    const who = movers.map((p) => (ctx.replay ? `Seat ${p + 1}` : KOTH.seatName(ctx.msg, p))).join(", ");
    const kinds = new Set(ctx.legal.map((e) => e.type));
    if (view.phase === "place") return mine ? "Place your starting area: click an outer-ring tile." : `${who} places a starting area.`;
    if (view.phase === "exclude") return mine ? "Exclude one unit type (secret until the end)." : `${who} secretly exclude a unit type.`;
    if (view.phase === "answer") return mine ? "Answer the alliance offer: accept or decline." : `${who} answers an alliance offer.`;
    if (view.phase !== "turn") return "";
    const dice = ((view.dice || [])[movers[0]] || []).map((d) => DIE_KINDS[d - 1]);
    const slot = Math.min(2, (view.slots_used || 0) + 1);
    if (!mine) return `${who}'s turn (action ${slot} of 2).`;
    const uses = [];
    if (kinds.has("Recruit")) uses.push("recruit");
    if (kinds.has("Move") || kinds.has("MoveArea")) uses.push("move");
    if (kinds.has("TurnRing") || kinds.has("Swap")) uses.push("turn");
    const ending = ctx.legal.filter((e) => e.type === "End");
    const lose = ending.length ? ` Ending now forfeits ${forfeitText(ending, dice, view)}.` : "";
    if (!uses.length) return `End your turn.${lose}`;
    return `Use a die: ${orList(uses)} (action ${slot} of 2), or end the turn.${lose}`;
  }

  // "a, b or c"
  function orList(words) {
    return words.length > 1 ? `${words.slice(0, -1).join(", ")} or ${words[words.length - 1]}` : words.join("");
  }

  function plural(count, word) {
    return `${count} ${word}${count === 1 ? "" : "s"}`;
  }

  function forfeitText(ending, dice, view) {
    // B7.1: unused slots of a first turn forfeit a die each (the player picks which: the
    // 'end drop' options); at the end of a second turn every remaining die is gone
    const drops = ending.map((e) => e.text.replace(/^end( drop )?/, "")).filter(Boolean);
    if (drops.length) return `one die per unused action (${orList(drops.map((d) => d.replaceAll("+", " + ")))})`;
    const count = Math.min(dice.length, secondTurn(view) ? dice.length : 2 - (view.slots_used || 0));
    return count ? `${count} ${count > 1 ? "dice" : "die"}` : "nothing";
  }

  function secondTurn(view) {
    const n = (view.order || []).length || 1;
    return view.turn >= n;
  }

  // per player, this round: turns done, a second turn to be skipped for want of dice
  function roundNote(view, p) {
    const order = view.order || [];
    const n = order.length;
    const position = order.indexOf(p);
    if (view.phase !== "turn" || position < 0) return "";
    const dice = ((view.dice || [])[p] || []).length;
    const current = view.turn;
    if (current > n + position) return "both turns done";
    if (current < n + position && current > position && dice === 0) return "no dice left: second turn skipped";
    return "";
  }

  // the recent events the server worded (dice forfeited, turns skipped): the position
  // alone does not show them, and a player coming back to the table needs them
  function recentEvents(ctx) {
    const notes = (!ctx.replay && ctx.msg && ctx.msg.notes) || [];
    if (!notes.length) return null;
    const list = el("ol", { class: "event-list" });
    for (const note of notes) {
      const seat = note.params && note.params.seat;
      list.append(el("li", { class: "event", dataset: { code: note.code, rule: note.rule || "", move: String(note.move) } },
        Number.isInteger(seat) ? el("span", { class: "swatch", style: `background:${COLORS[seat % COLORS.length]}` }) : null,
        el("span", { class: "event-text" }, note.text, note.rule ? el("span", { class: "rule", text: ` (${note.rule})` }) : null)));
    }
    return el("section", { class: "board-events", id: "board-events", "aria-live": "polite" },
      el("h3", { text: KOTH.t("recent_events") }), list);
  }

  function moveEntries(ctx) {
    return ctx.legal.filter((e) => e.type === "Move" && e.fields && e.fields.src !== undefined);
  }

  KOTH.renderers.board = {
    render(ctx) {
      const view = ctx.view;
      if (!view || !view.terrain) return KOTH.renderers.generic.render(ctx);
      const moves = moveEntries(ctx);
      const places = new Map(ctx.legal.filter((e) => e.type === "Place").map((e) => [e.text.replace("place ", ""), e]));
      const handled = new Set([...moves, ...places.values()].map((e) => String(e.id)));
      ctx.handled = handled;
      const sources = new Set(moves.map((e) => locName(e.fields.src)));
      const selected = ctx.ui.selected && sources.has(ctx.ui.selected) ? ctx.ui.selected : null;
      const targets = new Map();
      if (selected) for (const e of moves) if (locName(e.fields.src) === selected) {
        const dst = locName(e.fields.dst);
        if (!targets.has(dst)) targets.set(dst, []);
        targets.get(dst).push(e);
      }

      const root = svg("svg", { viewBox: "-258 -258 516 516", class: "rings", role: "img", "aria-label": "board" });
      const clickTile = (name) => {
        if (targets.has(name)) {
          const options = targets.get(name);
          if (options.length === 1) return ctx.act(options[0]);
          ctx.ui.choices = { dst: name, options };
          return ctx.rerender();
        }
        if (sources.has(name)) {
          ctx.ui.selected = name === selected ? null : name;
          ctx.ui.choices = null;
          return ctx.rerender();
        }
        if (places.has(name)) return ctx.act(places.get(name));
      };
      // rings of tiles, outermost first
      for (let ring = 1; ring <= 4; ring++) {
        const row = view.terrain[ring - 1] || "";
        for (let index = 0; index < RING; index++) {
          const name = `${ring}.${index}`;
          const [fill, label] = TERRAIN[row[index]] || ["#ccc", "?"];
          const target = targets.get(name);
          const place = places.get(name);
          const cls = ["tile", sources.has(name) ? "source" : "", selected === name ? "selected" : "", target ? "target" : "", place ? "target" : ""].filter(Boolean).join(" ");
          const data = { loc: name };
          if (target && target.length === 1) { data.actionId = String(target[0].id); data.action = target[0].text; }
          else if (target) data.choose = "1";
          if (place) { data.actionId = String(place.id); data.action = place.text; }
          if (sources.has(name) && !target) data.select = name;
          root.append(svg("path", { d: sector(RADII[ring - 1], RADII[ring], index), fill, class: cls, dataset: data, onclick: () => clickTile(name) }, svg("title", { text: `${name} (${label})` })));
        }
      }
      const centerTarget = targets.get("C");
      root.append(svg("circle", { cx: 0, cy: 0, r: RADII[4], fill: "#f3d35c", class: ["tile", "center", centerTarget ? "target" : "", sources.has("C") ? "source" : ""].filter(Boolean).join(" "),
        dataset: centerTarget && centerTarget.length === 1 ? { loc: "C", actionId: String(centerTarget[0].id), action: centerTarget[0].text } : { loc: "C" }, onclick: () => clickTile("C") }, svg("title", { text: "the center" })));
      root.append(svg("text", { x: 0, y: -RADII[4] + 16, "text-anchor": "middle", class: "center-label", text: "♔" }));
      // starting areas beside the outer ring
      const offBoard = [];
      for (const [name, area] of Object.entries(view.areas || {})) {
        const at = tileCenter(name, view.areas);
        if (!at) { offBoard.push([name, area]); continue; }
        const target = targets.get(name);
        root.append(svg("circle", { cx: at[0], cy: at[1], r: 27, fill: "#fff", stroke: COLORS[area.player % COLORS.length], "stroke-width": 4,
          class: ["area", sources.has(name) ? "source" : "", selected === name ? "selected" : "", target ? "target" : ""].filter(Boolean).join(" "),
          dataset: sources.has(name) && !target ? { loc: name, select: name } : { loc: name }, onclick: () => clickTile(name) },
          svg("title", { text: `${name}: start of player ${area.player + 1}` })));
      }
      for (const [name, units] of Object.entries(view.units || {})) {
        const at = tileCenter(name, view.areas || {});
        if (at) unitPieces(root, units, at);
      }
      for (const node of root.querySelectorAll(".unit")) node.style.pointerEvents = "none";

      const side = el("div", { class: "board-side panel" });
      side.append(el("div", { class: "phase", text: `${KOTH.t("round", { n: view.round })} · ${(KOTH.texts[`phase_${view.phase}`] || view.phase)}` }));
      const players = el("ul", { class: "players" });
      (view.points || []).forEach((points, p) => {
        const dice = (view.dice && view.dice[p]) || [];
        const hand = (view.hand && view.hand[p]) || [];
        const toMove = (view.to_move || []).includes(p);
        players.append(el("li", { class: `player${toMove ? " to-move" : ""}`, dataset: { player: String(p) } },
          el("span", { class: "swatch", style: `background:${COLORS[p % COLORS.length]}` }),
          el("b", { text: ctx.replay ? KOTH.t("seat", { n: p + 1 }) : KOTH.seatName(ctx.msg, p) }),
          el("span", { text: ` · ${KOTH.t("points_short", { n: points })}` }),
          el("span", { class: "dice" }, dice.map((d) => el("span", { class: "die", text: "⚀⚁⚂⚃⚄⚅"[d - 1] || d, title: `die ${d}` }))),
          el("small", { text: ` ${KOTH.t("in_hand")} ${plural(hand[0] ?? 0, "runner")}, ${plural(hand[1] ?? 0, "fighter")}, ${plural(hand[2] ?? 0, "blocker")}` }),
          roundNote(view, p) ? el("small", { class: "round-note", text: ` · ${roundNote(view, p)}` }) : null));
      });
      side.append(players);
      const events = recentEvents(ctx);
      if (events) side.append(events);
      if (offBoard.length) side.append(el("p", { text: KOTH.t("areas_to_place", { areas: offBoard.map(([n, a]) => KOTH.t("area_of", { area: n, n: a.player + 1 })).join(", ") }) }));
      if (selected) side.append(el("p", { class: "hint", text: KOTH.t("selected_unit", { unit: selected }) }));
      else if (sources.size) side.append(el("p", { class: "hint", text: KOTH.t("click_unit") }));
      else if (places.size) side.append(el("p", { class: "hint", text: KOTH.t("click_outer") }));

      side.append(legend());
      ctx.expected = expectedAction(ctx, view);
      ctx.board.append(el("div", { class: "board-layout" }, el("div", { class: "board-svg" }, root), side));
      if (ctx.ui.choices && selected) {
        const { dst, options } = ctx.ui.choices;
        KOTH.actionButtons(ctx.actions, options, ctx.act, { title: KOTH.t("move_to_with", { dst }) });
      }
    },
  };
})();
