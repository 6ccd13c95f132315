/* The board game's drawing (used by games/board.js): the geometry of the round board,
   unit shapes, dice with their kind, the legend, and the preview of a chosen action.
   Everything here draws; nothing here acts. Exported as KOTH.boardDraw. */
"use strict";
(function () {
  const { el, svg } = KOTH;
  const t = KOTH.t;
  const RING = 7;
  const CENTER = 28;
  const RADII = [200, 160, 122, 86, 50]; // ring 1 (outer) .. ring 4, then the center
  const AREA_AT = RADII[0] + 26; // starting areas sit beside the outer ring
  const AREA_R = 24;
  const VIEW = 252;
  const TERRAIN = { L: ["#efe3b4", "light"], N: ["#b7cf8c", "normal"], D: ["#7c8a63", "difficult"] };
  const COLORS = KOTH.SEAT_COLORS;
  const UNIT_NAMES = ["runner", "fighter", "blocker"];
  const KIND_LETTERS = { R: 0, F: 1, B: 2 };
  // a die's kind by face (B7): 1-2 recruit, 3-4 move, 5-6 turn; a glyph and a word each
  const DIE_KINDS = ["recruit", "recruit", "move", "move", "turn", "turn"];
  const DIE_GLYPHS = { recruit: "✚", move: "➜", turn: "⟳" };
  const DIE_FACES = "⚀⚁⚂⚃⚄⚅";

  // ------------------------------------------------------------------ geometry
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

  function lane(ring) {
    return (RADII[ring - 1] + RADII[ring]) / 2;
  }

  function areaCenter(touches) {
    return polar(AREA_AT, angleOf(Number(touches.split(".")[1])));
  }

  function tileCenter(name, areas) {
    if (!/^([1-4]\.[0-6]|C|A\d)$/.test(name)) return null; // a ring arrow or a control
    if (name === "C") return [0, 0];
    if (name.startsWith("A")) {
      const touches = areas[name] && areas[name].touches;
      return touches ? areaCenter(touches) : null;
    }
    const [ring, index] = name.split(".").map(Number);
    return polar(lane(ring), angleOf(index));
  }

  // the recruit badge sits on the area ring beside the own starting area
  function badgeAt(touches) {
    return polar(AREA_AT, angleOf(Number(touches.split(".")[1])) + 0.3);
  }

  // a ring's two turning arrows sit on the tile borders either side of its top tile
  function arrowAt(ring, clockwise) {
    return polar(lane(ring), angleOf(0) + ((clockwise ? 1 : -1) * Math.PI) / RING);
  }

  // ------------------------------------------------------------------ drawing
  // a unit type's shape: runners a triangle (fast), fighters a circle, blockers a square
  function unitShape(kind, x, y, size, fill) {
    const attrs = { fill, stroke: "#fff", "stroke-width": 1.4, class: `unit-shape ${UNIT_NAMES[KIND_LETTERS[kind]]}` };
    if (kind === "R") {
      const h = size * 1.15;
      return svg("polygon", { ...attrs, points: `${x},${y - h} ${x + h},${y + h * 0.75} ${x - h},${y + h * 0.75}` });
    }
    if (kind === "B") return svg("rect", { ...attrs, x: x - size, y: y - size, width: 2 * size, height: 2 * size, rx: 2 });
    return svg("circle", { ...attrs, cx: x, cy: y, r: size });
  }

  function unitPieces(parent, units, center, where) {
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
      const unit = KIND_LETTERS[kind];
      const name = `${count} ${t(count > 1 ? `unit_${UNIT_NAMES[unit]}s` : `unit_${UNIT_NAMES[unit]}`)}`;
      parent.append(svg("g", { class: "unit", dataset: { player: String(player), kind, count: String(count), loc: where } },
        unitShape(kind, x, y, 11, COLORS[player % COLORS.length]),
        svg("text", { x, y: y + (kind === "R" ? 7 : 5), "text-anchor": "middle", class: "unit-count", text: String(count) }),
        svg("title", { text: t("units_of", { seat: t("seat", { n: player + 1 }), units: name }) })));
    });
  }

  function arrowPath(from, to) {
    // a straight arrow between two centres, stopping short of both, with its head
    const [x0, y0] = from, [x1, y1] = to;
    const len = Math.hypot(x1 - x0, y1 - y0) || 1;
    const ux = (x1 - x0) / len, uy = (y1 - y0) / len;
    const sx = x0 + ux * 12, sy = y0 + uy * 12, ex = x1 - ux * 14, ey = y1 - uy * 14;
    const head = `${ex + ux * 8},${ey + uy * 8} ${ex - uy * 7},${ey + ux * 7} ${ex + uy * 7},${ey - ux * 7}`;
    return [svg("line", { x1: sx, y1: sy, x2: ex, y2: ey, class: "preview-arrow" }), svg("polygon", { points: head, class: "preview-arrow-head" })];
  }

  function ringArrow(ring, clockwise, mid) {
    // an arc along the ring's lane around angle ``mid``, with its head: the way it turns
    const r = lane(ring);
    const span = 0.3 * (86 / r);
    const sign = clockwise ? 1 : -1;
    const a0 = mid - sign * span, a1 = mid + sign * span;
    const [x0, y0] = polar(r, a0), [x1, y1] = polar(r, a1);
    const [hx, hy] = polar(r, a1 + sign * 0.12 * (86 / r));
    const [lx, ly] = polar(r - 9, a1), [rx, ry] = polar(r + 9, a1);
    return [
      svg("path", { d: `M${x0},${y0} A${r},${r} 0 0 ${clockwise ? 1 : 0} ${x1},${y1}`, class: "ring-arrow-line preview-turn" }),
      svg("polygon", { points: `${hx},${hy} ${lx},${ly} ${rx},${ry}`, class: "ring-arrow-head preview-turn" }),
    ];
  }

  function legend() {
    const box = el("div", { class: "board-legend", id: "board-legend" }, el("h3", { text: t("legend") }));
    const terrain = el("ul", { class: "legend-list" });
    const rows = [
      [TERRAIN.L[0], t("legend_light")],
      [TERRAIN.N[0], t("legend_normal")],
      [TERRAIN.D[0], t("legend_difficult")],
      ["#f3d35c", t("legend_center")],
    ];
    for (const [fill, text] of rows) {
      terrain.append(el("li", { class: "legend-terrain" }, el("span", { class: "legend-swatch", style: `background:${fill}` }), text));
    }
    const units = el("ul", { class: "legend-list" });
    for (const [kind, text] of [["R", t("legend_runner")], ["F", t("legend_fighter")], ["B", t("legend_blocker")]]) {
      const icon = svg("svg", { viewBox: "-11 -11 22 22", class: "legend-unit" }, unitShape(kind, 0, 0, 8, "#555"),
        svg("text", { x: 0, y: kind === "R" ? 5 : 4, "text-anchor": "middle", class: "unit-count", text: "2" }));
      units.append(el("li", { class: "legend-unit-row", dataset: { kind } }, icon, text));
    }
    const dice = el("ul", { class: "legend-list" });
    for (const kind of ["recruit", "move", "turn"]) dice.append(el("li", { class: "legend-die" }, dieNode(kind === "recruit" ? 1 : kind === "move" ? 3 : 5), t(`legend_die_${kind}`)));
    box.append(terrain, units, dice, el("p", { class: "hint", text: t("legend_count") }));
    return box;
  }

  // a die: its face, and its kind as a glyph and a word (B7)
  function dieNode(face, extra) {
    const kind = DIE_KINDS[face - 1];
    return el("span", { class: `die die-${kind}${extra || ""}`, title: t("die_title", { face, kind: t(`die_${kind}`) }), dataset: { face: String(face), kind } },
      el("span", { class: "die-face", text: DIE_FACES[face - 1] || String(face) }),
      el("span", { class: "die-kind" }, el("span", { class: "die-glyph", "aria-hidden": "true", text: DIE_GLYPHS[kind] }), t(`die_${kind}`)));
  }

  function drawPreview(layer, preview, view, ringTiles) {
    const areas = view.areas || {};
    for (const [key, role] of preview.roles || []) {
      const at = tileCenter(key, areas);
      if (at) layer.append(svg("circle", { cx: at[0], cy: at[1], r: 22, class: `preview preview-${role}`, dataset: { loc: key, role } }));
    }
    if (preview.arrow) {
      const [a, b] = preview.arrow.map((k) => tileCenter(k, areas));
      if (a && b && (a[0] !== b[0] || a[1] !== b[1])) layer.append(...arrowPath(a, b));
    }
    if (preview.ghostArea) {
      const [x, y] = areaCenter(preview.ghostArea);
      layer.append(svg("circle", { cx: x, cy: y, r: AREA_R, class: "preview preview-ghost-area", dataset: { loc: preview.ghostArea, role: "area" } }));
    }
    if (preview.ghostUnit) {
      const [area, unit] = preview.ghostUnit;
      const at = tileCenter(area, areas);
      if (at) {
        const ghost = svg("g", { class: "preview preview-recruit", dataset: { loc: area, role: "recruit" } }, unitShape("RFB"[unit], at[0], at[1] - 16, 11, "#fff"),
          svg("text", { x: at[0], y: at[1] - 11, "text-anchor": "middle", class: "ghost-plus", text: "+" }));
        layer.append(ghost);
      }
    }
    if (preview.ring) {
      for (const tile of ringTiles.get(preview.ring) || []) tile.classList.add("preview-ring");
      // the turn drawn on the ring's left, bottom and right, clear of its arrows at the top
      for (const mid of [Math.PI, Math.PI / 2, 0]) layer.append(...ringArrow(preview.ring, preview.clockwise, mid));
    }
  }

  KOTH.boardDraw = {
    RING, RADII, AREA_R, VIEW, TERRAIN, COLORS, UNIT_NAMES, DIE_KINDS,
    locName, angleOf, polar, sector, lane, areaCenter, tileCenter, badgeAt, arrowAt,
    unitPieces, legend, dieNode, drawPreview,
  };
})();
