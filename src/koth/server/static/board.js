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
  const COLORS = ["#d9480f", "#1c7ed6", "#7048e8", "#2b8a3e"];
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
      return polar(RADII[0] + 30, angleOf(index));
    }
    const [ring, index] = name.split(".").map(Number);
    return polar((RADII[ring - 1] + RADII[ring]) / 2, angleOf(index));
  }

  function unitBadges(parent, units, center) {
    // units: {player: "F2B1"} at one location, drawn as small discs around its centre
    const pieces = [];
    for (const [player, text] of Object.entries(units || {})) {
      for (const [, kind, count] of text.matchAll(/([RFB])(\d+)/g)) pieces.push([Number(player), kind, Number(count)]);
    }
    pieces.forEach(([player, kind, count], i) => {
      const offset = (i - (pieces.length - 1) / 2) * 15;
      const x = center[0] + offset, y = center[1];
      parent.append(svg("g", { class: "unit", dataset: { player: String(player), kind } },
        svg("circle", { cx: x, cy: y, r: 7.5, fill: COLORS[player % COLORS.length], stroke: "#fff", "stroke-width": 1.2 }),
        svg("text", { x, y: y + 3.2, "text-anchor": "middle", class: "unit-label", text: count > 1 ? `${kind}${count}` : kind }),
        svg("title", { text: `player ${player + 1}: ${count} ${UNIT_NAMES[kind]}${count > 1 ? "s" : ""}` })));
    });
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

      const root = svg("svg", { viewBox: "-250 -250 500 500", class: "rings", role: "img", "aria-label": "board" });
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
      root.append(svg("text", { x: 0, y: -RADII[4] + 14, "text-anchor": "middle", class: "center-label", text: "♔" }));
      // starting areas beside the outer ring
      const offBoard = [];
      for (const [name, area] of Object.entries(view.areas || {})) {
        const at = tileCenter(name, view.areas);
        if (!at) { offBoard.push([name, area]); continue; }
        const target = targets.get(name);
        root.append(svg("circle", { cx: at[0], cy: at[1], r: 17, fill: "#fff", stroke: COLORS[area.player % COLORS.length], "stroke-width": 4,
          class: ["area", sources.has(name) ? "source" : "", selected === name ? "selected" : "", target ? "target" : ""].filter(Boolean).join(" "),
          dataset: sources.has(name) && !target ? { loc: name, select: name } : { loc: name }, onclick: () => clickTile(name) },
          svg("title", { text: `${name}: start of player ${area.player + 1}` })));
      }
      for (const [name, units] of Object.entries(view.units || {})) {
        const at = tileCenter(name, view.areas || {});
        if (at) unitBadges(root, units, name.startsWith("A") ? [at[0], at[1]] : at);
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
          el("small", { text: ` ${KOTH.t("in_hand")} R${hand[0] ?? 0} F${hand[1] ?? 0} B${hand[2] ?? 0}` })));
      });
      side.append(players);
      if (offBoard.length) side.append(el("p", { text: KOTH.t("areas_to_place", { areas: offBoard.map(([n, a]) => KOTH.t("area_of", { area: n, n: a.player + 1 })).join(", ") }) }));
      if (selected) side.append(el("p", { class: "hint", text: KOTH.t("selected_unit", { unit: selected }) }));
      else if (sources.size) side.append(el("p", { class: "hint", text: KOTH.t("click_unit") }));
      else if (places.size) side.append(el("p", { class: "hint", text: KOTH.t("click_outer") }));

      ctx.board.append(el("div", { class: "board-layout" }, el("div", { class: "board-svg" }, root), side));
      if (ctx.ui.choices && selected) {
        const { dst, options } = ctx.ui.choices;
        KOTH.actionButtons(ctx.actions, options, ctx.act, { title: KOTH.t("move_to_with", { dst }) });
      }
    },
  };
})();
