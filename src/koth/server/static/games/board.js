/* The board game's table: the rings as a round SVG board, and every action played on it.

   The renderer contract. client.js (the live table) and the replay call
   KOTH.renderers.board.render(ctx) after every state, with ctx holding:
     ctx.msg       the state message (version, seats, seat, legal, view, outcome, notes)
     ctx.view      msg.view: the position as this reader may see it (board/observe.py)
     ctx.seat      the reader's seat number, null for a spectator
     ctx.legal     the reader's legal actions, [{id, text, type, fields}] (empty when it
                   is not the reader's move, and always in a replay)
     ctx.board     the element to draw the table into (emptied before each render)
     ctx.actions   the element below the table for text buttons (emptied too)
     ctx.ui        scratch state that survives redraws until an action is sent: here
                   ui.path (the hotspots clicked so far) and ui.choice (the previewed id)
     ctx.replay    true in the replay: nothing is clickable
     ctx.act(entry)   send one legal action
     ctx.rerender()   draw again after ctx.ui changed
   and the renderer may set:
     ctx.expected  words the status line adds ("Use a die: ...")
     ctx.handled   ids of actions reachable on the table that have no element with their
                   data-action-id (client.js adds a text button for any other action)

   Playing. Every action is a path of clicks on hotspots, named by key: a location
   ("2.3", "C", "A1"), a ring arrow ("ring2:cw"), or a control beside the board ("end",
   "exclude"). KINDS below is the one table of action kinds: each row says which paths
   reach an action, how the hotspots are marked, how the action is worded and what its
   preview highlights. A click extends the path; once a path is complete, a popover next
   to the last hotspot lists the actions it reaches (one per payment or choice) with the
   first previewed on the board, and "Confirm" sends it. Adding an action is a row. */
"use strict";
(function () {
  const { el, svg } = KOTH;
  const t = KOTH.t;
  const {
    RING, RADII, AREA_R, VIEW, TERRAIN, COLORS, UNIT_NAMES, DIE_KINDS,
    locName, angleOf, polar, sector, areaCenter, tileCenter, badgeAt, arrowAt, lane,
    unitPieces, legend, dieNode, drawPreview,
  } = KOTH.boardDraw;
  const HIT_R = 28; // a hotspot's tap circle: at least 40 px on a 390 px phone
  const PAY_KEYS = ["pay_move", "pay_recruit", "pay_pair"];
  const LABELS_KEY = "koth.board.labels";
  const DIE_NAMES = ["recruit", "move", "turn"]; // an End action's drop categories

  // ------------------------------------------------------------------ words
  function tileWords(name) {
    if (name === "C") return t("the_center");
    if (name.startsWith("A")) return t("area_named", { area: name });
    return t("tile_named", { tile: name });
  }

  function payWords(pay) {
    return t(PAY_KEYS[pay] || "pay_move");
  }

  function seatWords(ctx, seat) {
    const info = ctx.msg.seats ? ctx.msg.seats[seat] : null;
    if (ctx.replay) return info && info.name ? info.name : t("seat", { n: seat + 1 });
    return KOTH.seatName(ctx.msg, seat);
  }

  // a die category (an End action's drop) in words
  function dieWords(category) {
    return t(`die_${DIE_NAMES[category]}`);
  }

  function unitWords(unit) {
    return t(`unit_${UNIT_NAMES[unit]}`);
  }

  // ------------------------------------------------------------------ action kinds
  function ownArea(ctx) {
    for (const [name, area] of Object.entries(ctx.view.areas || {})) if (area.player === ctx.seat) return name;
    return null;
  }

  /* One row per kind of action:
       type        the legal entry's type: the action's kind code (Game.action_kinds)
       paths(e)    the click paths (arrays of hotspot keys) that reach the entry
       marks       per step of a path, the class its hotspots get while offered
       label(e)    the action in words (popover, text button, tooltip)
       short(e)    optional: the words that tell it from its neighbours in a popover
       preview(e)  what the board highlights before it is sent: {roles: [[key, role]],
                   arrow: [from, to], ghostArea: tile, ghostUnit: [area, unit], ring, forfeit}
       auto        the popover opens by itself (an offer to answer) */
  const KINDS = [
    {
      type: "place",
      paths: (e) => [[`1.${e.fields.index}`]],
      marks: ["target"],
      label: (e) => t("do_place", { tile: `1.${e.fields.index}` }),
      preview: (e) => ({ ghostArea: `1.${e.fields.index}` }),
    },
    {
      type: "recruit",
      paths: () => [["recruit"]],
      marks: ["source"],
      label: (e) => t("do_recruit", { unit: unitWords(e.fields.unit), pay: t(e.fields.by_move ? "pay_move" : "pay_recruit") }),
      short: (e) => `${unitWords(e.fields.unit)} · ${t(e.fields.by_move ? "pay_move" : "pay_recruit")}`,
      preview: (e, ctx) => ({ ghostUnit: [ownArea(ctx), e.fields.unit] }),
    },
    {
      type: "move",
      paths: (e) => [[locName(e.fields.src), locName(e.fields.dst)]],
      marks: ["source", "target"],
      label: (e) => t("do_move", { unit: unitWords(e.fields.unit), src: locName(e.fields.src), dst: locName(e.fields.dst), pay: payWords(e.fields.pay) }),
      short: (e) => `${unitWords(e.fields.unit)} · ${payWords(e.fields.pay)}`,
      preview: (e) => ({ roles: [[locName(e.fields.src), "from"], [locName(e.fields.dst), "to"]], arrow: [locName(e.fields.src), locName(e.fields.dst)] }),
    },
    {
      type: "attack",
      paths: (e) => [[locName(e.fields.target)]],
      marks: ["assault"],
      label: (e) => t("do_attack", {
        target: locName(e.fields.target), lose: locName(e.fields.lose), keep: locName(e.fields.keep),
        pay: e.fields.pays.map(payWords).join(" + "),
      }),
      short: (e) => t("short_attack", { lose: locName(e.fields.lose), keep: locName(e.fields.keep), pay: e.fields.pays.map(payWords).join(" + ") }),
      preview: (e) => ({
        roles: [[locName(e.fields.target), "target"], [locName(e.fields.lose), "lose"], [locName(e.fields.keep), "keep"]],
        arrow: [locName(e.fields.keep), locName(e.fields.target)],
      }),
    },
    {
      type: "ally",
      paths: (e) => [[locName(e.fields.target)]],
      marks: ["assault"],
      label: (e, ctx) => t("do_ally", {
        who: seatWords(ctx, e.fields.helper), target: locName(e.fields.target), own: locName(e.fields.own),
        helper: locName(e.fields.helper_from), pay: payWords(e.fields.pay),
      }),
      short: (e, ctx) => t("short_ally", { who: seatWords(ctx, e.fields.helper), own: locName(e.fields.own), helper: locName(e.fields.helper_from), pay: payWords(e.fields.pay) }),
      preview: (e) => ({ roles: [[locName(e.fields.target), "target"], [locName(e.fields.own), "keep"], [locName(e.fields.helper_from), "helper"]] }),
    },
    {
      type: "answer",
      paths: () => [["offer"]],
      marks: ["assault"],
      auto: true,
      label: (e, ctx) => t(e.fields.accept ? "do_accept" : "do_decline", offerWords(ctx)),
      short: (e) => t(e.fields.accept ? "accept" : "decline"),
      preview: (e, ctx) => offerPreview(ctx.view.offer),
    },
    {
      type: "turn_ring",
      paths: (e) => [[`ring${e.fields.ring}:${e.fields.right ? "cw" : "ccw"}`]],
      marks: ["arrow"],
      // B14.1: "right" moves every tile from index i to i+1, clockwise as drawn
      label: (e) => t(e.fields.right ? "do_turn_cw" : "do_turn_ccw", { ring: e.fields.ring }),
      preview: (e) => ({ ring: e.fields.ring, clockwise: e.fields.right }),
    },
    {
      type: "move_area",
      paths: (e, ctx) => [[ownArea(ctx), `1.${e.fields.index}`]],
      marks: ["source", "area-target"],
      label: (e, ctx) => t("do_area", { area: ownArea(ctx), tile: `1.${e.fields.index}` }),
      preview: (e) => ({ ghostArea: `1.${e.fields.index}` }),
    },
    {
      type: "swap",
      paths: (e) => [[locName(e.fields.a), locName(e.fields.b)], [locName(e.fields.b), locName(e.fields.a)]],
      marks: ["pickable", "swap-target"],
      label: (e) => t("do_swap", { a: locName(e.fields.a), b: locName(e.fields.b) }),
      preview: (e) => ({ roles: [[locName(e.fields.a), "swap"], [locName(e.fields.b), "swap"]], arrow: [locName(e.fields.a), locName(e.fields.b)] }),
    },
    {
      type: "end",
      paths: () => [["end"]],
      marks: ["control"],
      label: (e) => (e.fields.drop && e.fields.drop.length
        ? t("do_end_drop", { dice: e.fields.drop.map((c) => dieWords(c)).join(" + ") })
        : t("do_end")),
      short: (e) => (e.fields.drop || []).map((c) => dieWords(c)).join(" + ") || t("do_end"),
      preview: (e, ctx) => ({ forfeit: forfeited(e, ctx.view) }),
    },
    {
      type: "exclude",
      paths: () => [["exclude"]],
      marks: ["control"],
      label: (e) => t("do_exclude", { unit: unitWords(e.fields.unit) }),
      preview: () => ({}),
    },
  ];
  const KIND_BY_TYPE = new Map(KINDS.map((k) => [k.type, k]));

  // "ally 2.2 from 2.1 with 1 from 2.3": the pending offer, as the view words it
  function offerPreview(offer) {
    const m = /^ally (\S+) from (\S+) with \d+ from (\S+)/.exec(offer || "");
    return m ? { roles: [[m[1], "target"], [m[2], "keep"], [m[3], "helper"]] } : {};
  }

  // who offers the alliance (the seat whose turn it is) and where the fighters stand
  function offerWords(ctx) {
    const view = ctx.view;
    const order = view.order || [];
    const by = order.length ? order[view.turn % order.length] : 0;
    const [target, own, helper] = (offerPreview(view.offer).roles || []).map(([key]) => key);
    return { who: seatWords(ctx, by), target, own, helper };
  }

  function moverDice(view) {
    const movers = Array.isArray(view.to_move) ? view.to_move : [];
    return ((view.dice || [])[movers[0]] || []).map((d) => DIE_KINDS[d - 1]);
  }

  // the dice (indices into the mover's dice) that ending the turn now gives up (B7.1)
  function forfeited(entry, view) {
    const dice = moverDice(view);
    const drops = (entry.fields.drop || []).map((c) => DIE_NAMES[c]);
    const out = [];
    if (drops.length) {
      for (const kind of drops) {
        const i = dice.findIndex((d, k) => d === kind && !out.includes(k));
        if (i >= 0) out.push(i);
      }
      return out;
    }
    const count = secondTurn(view) ? dice.length : Math.min(dice.length, 2 - (view.slots_used || 0));
    return [...Array(count).keys()];
  }

  function secondTurn(view) {
    const n = (view.order || []).length || 1;
    return view.turn >= n;
  }

  // the legal entries the board can reach, each with its kind and click paths
  function reachable(ctx) {
    const out = [];
    for (const entry of ctx.legal) {
      const kind = KIND_BY_TYPE.get(entry.type);
      if (!kind) continue;
      const paths = kind.paths(entry, ctx).filter((p) => p.every(Boolean));
      if (paths.length) out.push({ entry, kind, paths });
    }
    return out;
  }

  function startsWith(path, prefix) {
    return prefix.every((key, i) => path[i] === key);
  }

  /* Where the clicks so far lead: the entries a complete path reaches (the popover) and,
     per hotspot key, the class it gets as a possible next click. */
  function progress(items, path) {
    const complete = [];
    const next = new Map();
    for (const item of items) {
      for (const p of item.paths) {
        if (!startsWith(p, path)) continue;
        if (p.length === path.length) {
          if (!complete.includes(item)) complete.push(item);
        } else {
          const key = p[path.length];
          const mark = item.kind.marks[path.length] || "pickable";
          // a glowing mark wins over a plain one when kinds share a hotspot
          if (!next.has(key) || next.get(key) === "pickable") next.set(key, mark);
        }
      }
    }
    return { complete, next };
  }

  function clickKey(ctx, items, key) {
    const ui = ctx.ui;
    const path = ui.path || [];
    if (path.length && path[path.length - 1] === key) {
      ui.path = []; // a second click on the last hotspot cancels
    } else if (progress(items, path).next.has(key)) {
      ui.path = [...path, key];
    } else if (progress(items, []).next.has(key)) {
      ui.path = [key];
    } else {
      ui.path = [];
    }
    ui.choice = null;
    ctx.rerender();
  }

  // ------------------------------------------------------------------ status words
  function orList(words) {
    return words.length > 1 ? `${words.slice(0, -1).join(", ")} ${t("or")} ${words[words.length - 1]}` : words.join("");
  }

  // what the player to move is asked to do, in words, from the phase and legal actions
  function expectedAction(ctx, view) {
    const movers = Array.isArray(view.to_move) ? view.to_move : [];
    const mine = ctx.seat !== null && ctx.seat !== undefined && movers.includes(ctx.seat) && ctx.legal.length > 0;
    const who = movers.map((p) => seatWords(ctx, p)).join(", ");
    const kinds = new Set(ctx.legal.map((e) => e.type));
    if (view.phase === "place") return mine ? t("expect_place") : t("expect_place_other", { who });
    if (view.phase === "exclude") return mine ? t("expect_exclude") : t("expect_exclude_other", { who });
    if (view.phase === "answer") return mine ? t("expect_answer") : t("expect_answer_other", { who });
    if (view.phase !== "turn") return "";
    const slot = Math.min(2, (view.slots_used || 0) + 1);
    if (!mine) return t("expect_turn_other", { who, slot });
    const uses = [];
    if (kinds.has("recruit")) uses.push(t("use_recruit"));
    if (kinds.has("move") || kinds.has("attack") || kinds.has("ally")) uses.push(t("use_move"));
    if (kinds.has("turn_ring") || kinds.has("swap") || kinds.has("move_area")) uses.push(t("use_turn"));
    const ending = ctx.legal.filter((e) => e.type === "end");
    const lose = ending.length ? ` ${t("ending_forfeits", { what: forfeitText(ending, view) })}` : "";
    if (!uses.length) return `${t("expect_end")}${lose}`;
    return `${t("expect_turn", { uses: orList(uses), slot })}${lose}`;
  }

  function forfeitText(ending, view) {
    // B7.1: unused slots of a first turn forfeit a die each (the player picks which);
    // at the end of a second turn every remaining die is gone
    const drops = ending.filter((e) => e.fields.drop && e.fields.drop.length);
    if (drops.length) return t("forfeit_choice", { options: orList(drops.map((e) => e.fields.drop.map((c) => dieWords(c)).join(" + "))) });
    const count = forfeited(ending[0], view).length;
    return count ? t(count > 1 ? "forfeit_dice" : "forfeit_die", { n: count }) : t("forfeit_nothing");
  }

  // per player, this round: turns done, a second turn to be skipped for want of dice
  function roundNote(view, p) {
    const order = view.order || [];
    const n = order.length;
    const position = order.indexOf(p);
    if (view.phase !== "turn" || position < 0) return "";
    const dice = ((view.dice || [])[p] || []).length;
    const current = view.turn;
    if (current > n + position) return t("both_turns_done");
    if (current < n + position && current > position && dice === 0) return t("second_turn_skipped");
    return "";
  }

  // the recent events the server worded (dice forfeited, turns skipped)
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
      el("h3", { text: t("recent_events") }), list);
  }

  // ------------------------------------------------------------------ the table
  function labelsShown() {
    try {
      return localStorage.getItem(LABELS_KEY) === "1";
    } catch {
      return false;
    }
  }

  function setLabels(on) {
    try {
      localStorage.setItem(LABELS_KEY, on ? "1" : "0");
    } catch {
      // storage refused (private mode): the toggle lasts until the next redraw
    }
  }

  // the popover's place, next to its hotspot without covering it: beside a hotspot near
  // the board's left or right edge (towards the middle), else below one in the upper half
  // and above one in the lower half; keepInside then keeps it within the board's height
  function popoverPlace(anchor) {
    const [x, y] = anchor;
    const left = ((x + VIEW) / (2 * VIEW)) * 100;
    const top = ((y + VIEW) / (2 * VIEW)) * 100;
    if (Math.abs(x) > RADII[1]) {
      const side = x > 0 ? `right:calc(${100 - left}% + 26px)` : `left:calc(${left}% + 26px)`;
      return `${side};top:calc(${top}% - 4rem)`;
    }
    const horizontal = `left:clamp(0px, calc(${left}% - 7.5rem), calc(100% - 15rem))`;
    const vertical = y > 0 ? `bottom:calc(${100 - top}% + 24px)` : `top:calc(${top}% + 24px)`;
    return `${horizontal};${vertical}`;
  }

  function keepInside(box) {
    const height = box.parentElement.clientHeight;
    const top = box.offsetTop;
    const inside = Math.max(0, Math.min(top, height - box.offsetHeight));
    if (inside !== top) {
      box.style.top = `${inside}px`;
      box.style.bottom = "auto";
    }
  }

  function popover(ctx, complete, chosen, anchor, title) {
    const box = el("div", { class: "board-popover", id: "board-popover", role: "dialog", "aria-label": title, style: popoverPlace(anchor) },
      el("h4", { text: title }));
    const list = el("div", { class: "popover-options" });
    for (const item of complete) {
      const label = item.kind.label(item.entry, ctx);
      const picked = item === chosen;
      list.append(el("button", {
        type: "button", class: `popover-option${picked ? " chosen" : ""}`, title: label, "aria-pressed": String(picked), "aria-label": label,
        dataset: { choose: String(item.entry.id), kind: item.entry.type, action: item.entry.text },
        onclick: () => { ctx.ui.choice = item.entry.id; ctx.rerender(); },
      }, (item.kind.short || item.kind.label)(item.entry, ctx)));
    }
    const confirm = el("button", {
      type: "button", class: "popover-confirm primary", title: chosen.kind.label(chosen.entry, ctx),
      dataset: { actionId: String(chosen.entry.id), action: chosen.entry.text, confirm: "1", kind: chosen.entry.type },
      onclick: () => ctx.act(chosen.entry),
    }, t("confirm"));
    const cancel = el("button", { type: "button", class: "popover-cancel", title: t("cancel_title"), onclick: () => { ctx.ui.path = []; ctx.ui.choice = null; ctx.rerender(); } }, t("cancel"));
    box.append(el("p", { class: "popover-text", text: chosen.kind.label(chosen.entry, ctx) }));
    if (complete.length > 1) box.append(list);
    box.append(el("div", { class: "popover-buttons" }, confirm, cancel));
    return box;
  }

  function toolbar(ctx, view, next, forfeit, press) {
    const bar = el("div", { class: "board-toolbar", id: "board-toolbar" });
    const movers = Array.isArray(view.to_move) ? view.to_move : [];
    if (view.phase === "turn" && movers.length) {
      const faces = (view.dice || [])[movers[0]] || [];
      const mine = movers[0] === ctx.seat;
      bar.append(el("span", { class: "toolbar-label", text: mine ? t("your_dice") : t("dice_of", { who: seatWords(ctx, movers[0]) }) }),
        el("span", { class: "dice toolbar-dice" }, faces.map((d, i) => dieNode(d, forfeit.includes(i) ? " forfeit" : ""))));
    }
    for (const [key, text, title] of [["end", t("end_turn"), t("end_turn_title")], ["exclude", t("exclude_type"), t("exclude_title")]]) {
      if (!next.has(key)) continue;
      const open = (ctx.ui.path || [])[0] === key;
      bar.append(el("button", { type: "button", class: `board-control${open ? " selected" : ""}`, title, dataset: { select: key }, "aria-expanded": String(open), onclick: () => press(key) }, text));
    }
    const shown = labelsShown();
    bar.append(el("button", {
      type: "button", class: "labels-toggle", "aria-pressed": String(shown), title: t("tile_names_title"),
      onclick: () => { setLabels(!shown); ctx.rerender(); },
    }, t(shown ? "hide_tile_names" : "show_tile_names")));
    return bar;
  }

  // the text path to every action: worded buttons, folded below the table
  function actionList(ctx, items) {
    if (!items.length) return null;
    const box = el("details", { class: "board-action-list", id: "board-action-list" }, el("summary", { text: t("all_moves_list", { n: items.length }) }));
    const groups = new Map();
    for (const item of items) {
      if (!groups.has(item.kind.type)) groups.set(item.kind.type, []);
      groups.get(item.kind.type).push(item);
    }
    for (const [type, group] of groups) {
      box.append(el("h4", { text: t(`kind_${type}`) }));
      box.append(el("div", { class: "action-buttons" }, group.map((item) => {
        const label = item.kind.label(item.entry, ctx);
        return el("button", { type: "button", class: "action", title: label, dataset: { actionId: String(item.entry.id), action: item.entry.text }, onclick: () => ctx.act(item.entry) }, label);
      })));
    }
    return box;
  }

  function render(ctx) {
    const view = ctx.view;
    if (!view || !view.terrain) return KOTH.renderers.generic.render(ctx);
    const areas = view.areas || {};
    const items = ctx.replay ? [] : reachable(ctx);
    ctx.handled = new Set(items.map((i) => String(i.entry.id)));
    const ui = ctx.ui;
    if (!ui.path && items.some((i) => i.kind.auto)) ui.path = items.find((i) => i.kind.auto).paths[0];
    let path = ui.path || [];
    let state = progress(items, path);
    if (path.length && !state.complete.length && !state.next.size) {
      path = ui.path = []; // a live update took the picked hotspot's actions away
      state = progress(items, path);
    }
    const { complete, next } = state;
    const chosen = complete.find((i) => i.entry.id === ui.choice) || complete[0] || null;
    const preview = chosen ? chosen.kind.preview(chosen.entry, ctx) : (view.phase === "answer" ? offerPreview(view.offer) : {});
    const press = (key) => clickKey(ctx, items, key);
    const picked = new Set(path);
    const first = progress(items, []).next;
    const markOf = (key) => next.get(key) || (picked.has(key) ? "selected" : null);
    // ring arrows, the recruit badge and the controls stay offered while a path is open
    const markAlways = (key) => markOf(key) || first.get(key) || null;
    const hotspot = (key) => (ctx.replay ? {} : { onclick: () => press(key) });

    const root = svg("svg", { viewBox: `${-VIEW} ${-VIEW} ${2 * VIEW} ${2 * VIEW}`, class: "rings", role: "img", "aria-label": t("board_label") });
    const ringTiles = new Map();
    const showLabels = labelsShown();
    // rings of tiles, outermost first
    for (let ring = 1; ring <= 4; ring++) {
      const row = view.terrain[ring - 1] || "";
      ringTiles.set(ring, []);
      for (let index = 0; index < RING; index++) {
        const name = `${ring}.${index}`;
        const [fill, terrain] = TERRAIN[row[index]] || ["#ccc", "?"];
        const mark = markOf(name);
        const tile = svg("path", { d: sector(RADII[ring - 1], RADII[ring], index), fill, class: ["tile", mark].filter(Boolean).join(" "),
          dataset: { loc: name, terrain }, ...hotspot(name) }, svg("title", { text: t("tile_title", { tile: name, terrain: t(`terrain_${terrain}`) }) }));
        ringTiles.get(ring).push(tile);
        root.append(tile);
        if (showLabels) {
          const [x, y] = polar(RADII[ring - 1] - 8, angleOf(index));
          root.append(svg("text", { x, y: y + 3, "text-anchor": "middle", class: "tile-label", text: name }));
        }
      }
    }
    root.append(svg("circle", { cx: 0, cy: 0, r: RADII[4], fill: "#f3d35c", class: ["tile", "center", markOf("C")].filter(Boolean).join(" "),
      dataset: { loc: "C" }, ...hotspot("C") }, svg("title", { text: t("the_center") })));
    root.append(svg("text", { x: 0, y: -RADII[4] + 16, "text-anchor": "middle", class: "center-label", text: "♔" }));
    if (showLabels) root.append(svg("text", { x: 0, y: RADII[4] - 8, "text-anchor": "middle", class: "tile-label", text: "C" }));
    // starting areas beside the outer ring
    const offBoard = [];
    for (const [name, area] of Object.entries(areas)) {
      if (!area.touches) { offBoard.push([name, area]); continue; }
      const [x, y] = areaCenter(area.touches);
      root.append(svg("circle", { cx: x, cy: y, r: AREA_R, fill: "#fff", stroke: COLORS[area.player % COLORS.length], "stroke-width": 4,
        class: ["area", markOf(name)].filter(Boolean).join(" "), dataset: { loc: name }, ...hotspot(name) },
        svg("title", { text: t("area_title", { area: name, seat: t("seat", { n: area.player + 1 }) }) })));
      if (showLabels) root.append(svg("text", { x, y: y + AREA_R + 11, "text-anchor": "middle", class: "tile-label", text: name }));
    }
    for (const [name, units] of Object.entries(view.units || {})) {
      const at = tileCenter(name, areas);
      if (at) unitPieces(root, units, at, name);
    }
    // ring arrows, where a ring may turn
    for (let ring = 1; ring <= 4; ring++) {
      for (const clockwise of [true, false]) {
        const key = `ring${ring}:${clockwise ? "cw" : "ccw"}`;
        const mark = markAlways(key);
        if (!mark) continue;
        const [x, y] = arrowAt(ring, clockwise);
        const word = t(clockwise ? "do_turn_cw" : "do_turn_ccw", { ring });
        root.append(svg("g", { class: `ring-arrow ${mark}`, dataset: { select: key, ring: String(ring), direction: clockwise ? "clockwise" : "counter-clockwise" }, ...hotspot(key) },
          svg("circle", { cx: x, cy: y, r: 15, class: "ring-arrow-hit" }),
          svg("text", { x, y: y + 6, "text-anchor": "middle", class: "ring-arrow-glyph", text: clockwise ? "↻" : "↺" }),
          svg("title", { text: word })));
      }
    }
    // the preview of the chosen action, then the tap circles of the hotspots offered now
    const layer = svg("g", { class: "preview-layer" });
    drawPreview(layer, preview, view, ringTiles);
    root.append(layer);
    const mine = ownArea(ctx);
    const anchorOf = (key) => {
      if (key === "recruit") return mine && areas[mine].touches ? badgeAt(areas[mine].touches) : null;
      // a ring's popover opens from its bottom, leaving the arrows at the top in sight
      if (key.startsWith("ring")) return polar(lane(Number(key[4])), Math.PI / 2);
      if (key === "offer") return tileCenter((preview.roles || [])[0]?.[0] || "C", areas);
      return tileCenter(key, areas);
    };
    if (markAlways("recruit") && anchorOf("recruit")) {
      const [x, y] = anchorOf("recruit");
      root.append(svg("g", { class: `recruit-badge ${markAlways("recruit")}`, dataset: { select: "recruit" }, ...hotspot("recruit") },
        svg("circle", { cx: x, cy: y, r: 24, class: "badge-hit" }),
        svg("circle", { cx: x, cy: y, r: 15, class: "badge-disc" }),
        svg("text", { x, y: y + 7, "text-anchor": "middle", class: "badge-glyph", text: "+" }),
        svg("title", { text: t("recruit_title") })));
    }
    const hits = [...next.keys(), ...path].filter((k) => tileCenter(k, areas) && (next.get(k) !== "pickable" || (view.units || {})[k]));
    for (const key of new Set(hits)) {
      const [x, y] = tileCenter(key, areas);
      const mark = markOf(key) || "";
      root.append(svg("circle", { cx: x, cy: y, r: HIT_R, class: `hit ${mark}`, dataset: { select: key, mark }, ...hotspot(key) },
        svg("title", { text: tileWords(key) })));
    }

    const boardBox = el("div", { class: "board-svg" }, root);
    if (chosen) {
      const key = path[path.length - 1];
      const anchor = anchorOf(key) || [0, -VIEW + 10];
      const title = key === "offer" ? t("offer_title") : key.startsWith("ring") ? t("ring_named", { ring: key[4] })
        : key === "end" ? t("end_turn") : key === "exclude" ? t("exclude_type") : key === "recruit" ? t("kind_recruit") : tileWords(key);
      boardBox.append(popover(ctx, complete, chosen, anchor, title));
    }

    const side = el("div", { class: "board-side panel" });
    side.append(el("div", { class: "phase", text: `${t("round", { n: view.round })} · ${(KOTH.texts[`phase_${view.phase}`] || view.phase)}` }));
    const players = el("ul", { class: "players" });
    (view.points || []).forEach((points, p) => {
      const dice = (view.dice && view.dice[p]) || [];
      const hand = (view.hand && view.hand[p]) || [];
      const toMove = (view.to_move || []).includes(p);
      players.append(el("li", { class: `player${toMove ? " to-move" : ""}`, dataset: { player: String(p) } },
        el("span", { class: "swatch", style: `background:${COLORS[p % COLORS.length]}` }),
        el("b", { text: seatWords(ctx, p) }),
        el("span", { text: ` · ${t("points_short", { n: points })}` }),
        el("span", { class: "dice" }, dice.map((d) => dieNode(d))),
        el("small", { text: ` ${t("in_hand")} ${["runners_count", "fighters_count", "blockers_count"].map((key, i) => t(key, { n: hand[i] ?? 0 })).join(", ")}` }),
        roundNote(view, p) ? el("small", { class: "round-note", text: ` · ${roundNote(view, p)}` }) : null));
    });
    side.append(players);
    if (view.team_points) {
      // B16.3: Seat 1 and Seat 3 play Seat 2 and Seat 4, pooling their points
      const [a, b, c, d] = [0, 2, 1, 3].map((p) => seatWords(ctx, p));
      side.append(el("p", { class: "teams", text: t("teams", { a, b, c, d, x: view.team_points[0], y: view.team_points[1] }) }));
    }
    const events = recentEvents(ctx);
    if (events) side.append(events);
    if (offBoard.length) side.append(el("p", { text: t("areas_to_place", { areas: offBoard.map(([n, a]) => t("area_of", { area: n, n: a.player + 1 })).join(", ") }) }));
    side.append(legend());

    const hint = items.length ? el("p", { class: "board-hint hint", id: "board-hint", text: chosen ? t("hint_confirm") : path.length ? t("hint_next") : t("hint_start") }) : null;
    ctx.expected = expectedAction(ctx, view);
    const play = el("div", { class: "board-play" }, ctx.replay ? null : toolbar(ctx, view, first, preview.forfeit || [], press), hint, boardBox);
    ctx.board.append(el("div", { class: "board-layout" }, play, side));
    const pop = boardBox.querySelector(".board-popover");
    if (pop) keepInside(pop);
    const list = actionList(ctx, items);
    if (list) ctx.actions.append(list);
  }

  KOTH.renderers.board = { render, kinds: KINDS };
})();
