/* The card table: the pyramid drawn as a pyramid, own hand and reserve, opponent counts,
   face-down attacks revealed together, tie-break rounds and the assignment of won cards.
   Every click maps to one of the seat's legal actions (by notation), never to typed text. */
"use strict";
(function () {
  const { el } = KOTH;
  const SUITS = { h: "♥", d: "♦", c: "♣", s: "♠" };
  const ROWS = [1, 2, 3, 4, 5];

  function cardFace(code, opts) {
    const o = opts || {};
    if (!code) return el("span", { class: "card back", title: "face down" });
    if (code === "JK") return el("span", { class: `card joker${o.cls ? " " + o.cls : ""}`, dataset: { card: code }, title: "Joker" }, el("b", { text: "JK" }), el("i", { text: "★" }));
    const rank = code.slice(0, -1).replace("T", "10");
    const suit = code.slice(-1);
    const red = suit === "h" || suit === "d";
    return el("span", { class: `card${red ? " red" : ""}${o.cls ? " " + o.cls : ""}`, dataset: { card: code }, title: code }, el("b", { text: rank }), el("i", { text: SUITS[suit] || suit }));
  }

  function legalBy(ctx) {
    const map = new Map();
    for (const entry of ctx.legal) map.set(entry.text, entry);
    return map;
  }

  function playerName(ctx, index) {
    if (ctx.seat === index) return KOTH.t("you");
    return ctx.replay ? KOTH.t("seat", { n: index + 1 }) : KOTH.seatName(ctx.msg, index);
  }

  function pyramid(ctx, legal) {
    const view = ctx.view;
    const box = el("div", { class: "pyramid", role: "group", "aria-label": "pyramid" });
    let index = 0;
    for (const size of ROWS) {
      const row = el("div", { class: "pyr-row" });
      for (let i = 0; i < size; i++, index++) {
        const stack = view.pyramid[index];
        if (!stack) continue;
        const entry = legal.get(`stack ${stack.name}`);
        const fighting = view.stack === stack.name;
        const cls = ["stack", stack.gone ? "gone" : "", stack.available ? "available" : "", entry ? "legal" : "", fighting ? "fighting" : ""].filter(Boolean).join(" ");
        const node = el(
          entry ? "button" : "div",
          { class: cls, type: entry ? "button" : null, dataset: entry ? { stack: stack.name, actionId: String(entry.id), action: entry.text } : { stack: stack.name }, title: `stack ${stack.name}: ${stack.size} card(s)`, onclick: entry ? () => ctx.act(entry) : null },
          stack.gone ? el("span", { class: "card empty" }) : cardFace(stack.top),
          el("span", { class: "stack-label", text: `${stack.name}${stack.size > 1 ? " ×" + stack.size : ""}` })
        );
        row.append(node);
      }
      box.append(row);
    }
    return box;
  }

  function opponent(ctx, index) {
    const p = ctx.view.players[index];
    const attacking = ctx.msg.to_move.kind === "simultaneous" && ctx.msg.to_move.players.includes(index);
    const ready = ctx.msg.submitted.includes(index);
    const hand = p.hand_count === null || p.hand_count === undefined ? "?" : p.hand_count;
    const reserve = p.reserve_count === null || p.reserve_count === undefined ? "?" : p.reserve_count;
    return el("div", { class: "seat-box opponent", dataset: { player: String(index) } },
      el("h3", { text: playerName(ctx, index) }),
      el("div", { class: "counts" },
        el("span", { class: "count", text: `${p.cards} cards` }),
        el("span", { class: "count", text: `hand ${hand}` }),
        el("span", { class: "count", text: `reserve ${reserve}` }),
        p.joker ? el("span", { class: "count", text: KOTH.t("joker", { n: p.joker }) }) : null),
      p.known_cards && p.known_cards.length ? el("div", { class: "known" }, el("small", { text: "known cards: " }), p.known_cards.map((c) => cardFace(c, { cls: "small" }))) : null,
      attacking ? el("div", { class: "face-down" }, ready ? cardFace(null) : el("small", { text: "choosing…" })) : null
    );
  }

  function battle(ctx) {
    const view = ctx.view;
    const box = el("div", { class: "battle panel" });
    const me = ctx.seat === null ? 0 : ctx.seat;
    const them = 1 - me;
    const name = (i) => playerName(ctx, i);
    if (view.stack) {
      box.append(el("h3", { text: KOTH.t("fighting_for", { stack: view.stack }) }));
      if (view.rounds && view.rounds.length) {
        box.append(el("p", { text: KOTH.t("tied_so_far") }));
        view.rounds.forEach((round, i) => box.append(roundRow(ctx, round, i, me, them)));
      }
      if (ctx.msg.to_move.kind === "simultaneous") {
        const mine = ctx.msg.submitted.includes(me);
        box.append(el("div", { class: "pending-attacks" },
          el("div", {}, el("small", { text: `${name(me)}: ` }), mine ? cardFace(null) : el("em", { text: ctx.seat === null ? "choosing…" : "choose your attack below" })),
          el("div", {}, el("small", { text: `${name(them)}: ` }), ctx.msg.submitted.includes(them) ? cardFace(null) : el("em", { text: "choosing…" }))));
        box.append(el("p", { class: "hint", text: KOTH.t("attacks_face_down") }));
      }
    }
    const last = view.log && view.log.length ? view.log[view.log.length - 1] : null;
    if (last) {
      const winner = last.winner === null || last.winner === undefined ? "nobody" : name(last.winner);
      box.append(el("div", { class: "last-battle" },
        el("h3", { text: KOTH.t(last.discarded ? "last_battle_discarded" : "last_battle", { stack: last.stack, top: `${last.top || "?"}${last.size > 1 ? " ×" + last.size : ""}`, winner }) }),
        last.rounds.map((round, i) => roundRow(ctx, round, i, me, them))));
    }
    if (view.assignment) {
      const a = view.assignment;
      box.append(el("p", { class: "assignment", text: `${name(a.winner)} assign${a.winner === ctx.seat ? "" : "s"} the won cards: ${a.assigned} placed, ${a.remaining} to go.` }));
    }
    return box.childElementCount ? box : null;
  }

  function roundRow(ctx, round, i, me, them) {
    return el("div", { class: "round" },
      el("small", { text: i === 0 ? "attack" : `tie-break ${i}` }),
      el("span", { class: "attack" }, el("small", { text: playerName(ctx, me) }), attackCards(round[me])),
      el("span", { class: "vs", text: "vs" }),
      el("span", { class: "attack" }, el("small", { text: playerName(ctx, them) }), attackCards(round[them])));
  }

  function attackCards(text) {
    if (!text) return cardFace(null);
    if (text === "JK") return cardFace("JK", { cls: "small" });
    const cards = text.match(/(10|[2-9TJQKA])[hdcs]/g) || [text];
    return cards.map((c) => cardFace(c, { cls: "small" }));
  }

  function myArea(ctx, legal) {
    const p = ctx.view.players[ctx.seat];
    const box = el("div", { class: "seat-box mine" });
    const attacks = ctx.legal.filter((e) => ["Single", "Run", "JokerPlay"].includes(e.type));
    const singles = new Map(attacks.filter((e) => e.type !== "Run").map((e) => [e.text, e]));
    box.append(el("h3", { text: KOTH.t("your_hand", { n: p.hand_count }) }));
    box.append(el("div", { class: "hand", role: "group", "aria-label": "your hand" },
      (p.hand || []).map((code) => {
        const entry = singles.get(code);
        if (!entry) return cardFace(code);
        return el("button", { type: "button", class: "card-button", dataset: { card: code, actionId: String(entry.id) }, title: `attack with ${code}`, onclick: () => ctx.act(entry) }, cardFace(code, { cls: "playable" }));
      })));
    const runs = attacks.filter((e) => e.type === "Run");
    if (runs.length) {
      box.append(el("div", { class: "runs" }, el("small", { text: KOTH.t("sequences") + " " }),
        runs.map((entry) => el("button", { type: "button", class: "run-button", dataset: { actionId: String(entry.id), action: entry.text }, title: `attack with ${entry.text}`, onclick: () => ctx.act(entry) }, attackCards(entry.text)))));
    }
    box.append(el("h3", { text: KOTH.t("your_reserve", { n: p.reserve_count }) }));
    // tie-breaks are fought from the reserve: its cards are click targets then
    box.append(el("div", { class: "reserve", role: "group", "aria-label": "your reserve" },
      (p.reserve || []).map((code) => {
        const entry = singles.get(code);
        if (!entry) return cardFace(code, { cls: "small" });
        return el("button", { type: "button", class: "card-button", dataset: { card: code, actionId: String(entry.id) }, title: `attack with ${code}`, onclick: () => ctx.act(entry) }, cardFace(code, { cls: "small playable" }));
      })));
    return box;
  }

  function placement(ctx) {
    // the reserve phase and the assignment of won cards: one card, hand or reserve
    const places = ctx.legal.filter((e) => e.type === "Place");
    if (!places.length) return null;
    const byCard = new Map();
    for (const entry of places) {
      const [where, card] = entry.text.split(" ");
      if (!byCard.has(card)) byCard.set(card, {});
      byCard.get(card)[where] = entry;
    }
    const phase = ctx.view.phase === "reserve" ? KOTH.t("hand_or_reserve") : KOTH.t("won_card_where");
    const box = el("div", { class: "placement panel" }, el("h3", { text: phase }));
    for (const [card, options] of byCard) {
      box.append(el("div", { class: "place-row" }, cardFace(card),
        options.hand ? el("button", { type: "button", class: "place primary", dataset: { actionId: String(options.hand.id), action: options.hand.text }, text: "to hand", onclick: () => ctx.act(options.hand) }) : null,
        options.reserve ? el("button", { type: "button", class: "place", dataset: { actionId: String(options.reserve.id), action: options.reserve.text }, text: "to reserve", onclick: () => ctx.act(options.reserve) }) : null));
    }
    return box;
  }

  KOTH.renderers.cards = {
    render(ctx) {
      const view = ctx.view;
      if (!view || !view.pyramid || !view.players) return KOTH.renderers.generic.render(ctx);
      const legal = legalBy(ctx);
      const others = view.players.map((_, i) => i).filter((i) => i !== ctx.seat);
      const felt = el("div", { class: "felt" });
      const phase = el("div", { class: "phase", text: `${KOTH.t("turn", { n: view.turn + 1 })} · ${(KOTH.texts[`phase_${view.phase}`] || view.phase)}${view.phase === "choose" ? ` · ${KOTH.t(view.chooser === ctx.seat ? "you_choose_stack" : "chooses_stack", { who: playerName(ctx, view.chooser) })}` : ""}` });
      felt.append(phase);
      for (const i of others) felt.append(opponent(ctx, i));
      felt.append(pyramid(ctx, legal));
      const fight = battle(ctx);
      if (fight) felt.append(fight);
      if (view.discards && view.discards.length) felt.append(el("div", { class: "discards" }, el("small", { text: `discarded (${view.discards.length}): ` }), view.discards.map((c) => cardFace(c, { cls: "tiny" }))));
      if (ctx.seat !== null && ctx.seat !== undefined) felt.append(myArea(ctx, legal));
      ctx.board.append(felt);
      const place = placement(ctx);
      if (place) ctx.actions.append(place);
    },
  };
})();
