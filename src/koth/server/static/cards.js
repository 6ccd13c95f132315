/* The card table: the pyramid drawn as a pyramid, own hand and reserve, opponent counts,
   face-down attacks revealed together, tie-break rounds, the history of every fight and
   the assignment of won cards. It forgives: a card is picked, then the attack confirmed
   (or the card tapped again), and taken back until the opponent has chosen too; the
   reserve is chosen on one screen (a summary, undo) and sent round by round by itself.
   Every click maps to one of the seat's legal actions (by notation), never to typed text. */
"use strict";
(function () {
  const { el } = KOTH;
  const SUITS = { h: "♥", d: "♦", c: "♣", s: "♠" };
  const ROWS = [1, 2, 3, 4, 5];
  const ATTACKS = ["single", "run", "joker_play"];

  function cardFace(code, opts) {
    const o = opts || {};
    if (!code) return el("span", { class: "card back", title: KOTH.t("face_down") });
    if (code === "JK") return el("span", { class: `card joker${o.cls ? " " + o.cls : ""}`, dataset: { card: code }, title: KOTH.t("joker_card") }, el("b", { text: "JK" }), el("i", { text: "★" }));
    const rank = code.slice(0, -1).replace("T", "10");
    const suit = code.slice(-1);
    const red = suit === "h" || suit === "d";
    return el("span", { class: `card${red ? " red" : ""}${o.cls ? " " + o.cls : ""}`, dataset: { card: code }, title: cardName(code) }, el("b", { text: rank }), el("i", { text: SUITS[suit] || suit }));
  }

  function cardName(code) {
    if (code === "JK") return KOTH.t("joker_card");
    return code.slice(0, -1).replace("T", "10") + (SUITS[code.slice(-1)] || "");
  }

  function cardsOf(text) {
    if (!text) return [];
    if (text === "JK") return ["JK"];
    return text.match(/(10|[2-9TJQKA])[hdcs]/g) || [text];
  }

  function attackName(text) {
    return cardsOf(text).map(cardName).join(" ");
  }

  function legalBy(ctx) {
    const map = new Map();
    for (const entry of ctx.legal) map.set(entry.text, entry);
    return map;
  }

  function playerName(ctx, index) {
    if (ctx.seat === index) return KOTH.t("you");
    const info = ctx.msg && ctx.msg.seats ? ctx.msg.seats[index] : null;
    return info && info.name ? info.name : KOTH.t("seat", { n: index + 1 });
  }

  function pyramid(ctx, legal) {
    const view = ctx.view;
    const box = el("div", { class: "pyramid", role: "group", "aria-label": KOTH.t("pyramid") });
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
          { class: cls, type: entry ? "button" : null, dataset: entry ? { stack: stack.name, actionId: String(entry.id), action: entry.text } : { stack: stack.name }, title: KOTH.t("stack_title", { stack: stack.name, n: stack.size }), onclick: entry ? () => ctx.act(entry) : null },
          stack.gone ? el("span", { class: "card empty" }) : cardFace(stack.top),
          el("span", { class: "stack-label", text: `${stack.name}${stack.size > 1 ? " ×" + stack.size : ""}` })
        );
        row.append(node);
      }
      box.append(row);
    }
    return box;
  }

  function counts(p) {
    const hand = p.hand_count === null || p.hand_count === undefined ? "?" : p.hand_count;
    const reserve = p.reserve_count === null || p.reserve_count === undefined ? "?" : p.reserve_count;
    return el("div", { class: "counts" },
      el("span", { class: "count", text: KOTH.t("cards_count", { n: p.cards }) }),
      el("span", { class: "count", text: KOTH.t("hand_count", { n: hand }) }),
      el("span", { class: "count", text: KOTH.t("reserve_count", { n: reserve }) }),
      p.joker ? el("span", { class: "count", text: KOTH.t("joker", { n: KOTH.t(`joker_${p.joker}`) }) }) : null);
  }

  function opponent(ctx, index) {
    const p = ctx.view.players[index];
    const revealed = ctx.msg.reveal ? ctx.msg.reveal[String(index)].players[index] : null;
    const box = el("div", { class: "seat-box opponent", dataset: { player: String(index) } }, el("h3", { text: playerName(ctx, index) }), counts(p));
    if (revealed) {
      // the end: every card is shown
      box.append(el("div", { class: "revealed", dataset: { player: String(index) } },
        el("small", { text: KOTH.t("revealed_hand") }), revealed.hand.map((c) => cardFace(c, { cls: "small" })),
        el("small", { text: KOTH.t("revealed_reserve") }), revealed.reserve.map((c) => cardFace(c, { cls: "small" }))));
    } else if (p.known_cards && p.known_cards.length) {
      box.append(el("div", { class: "known" }, el("small", { text: KOTH.t("known_cards") }), p.known_cards.map((c) => cardFace(c, { cls: "small" }))));
    }
    return box;
  }

  /* The attack under way: each side face down until both are in; your own face up to
     you, marked as played, with "take back" while the opponent has not chosen. */
  function pendingAttacks(ctx, me, them) {
    const msg = ctx.msg;
    const mine = msg.my_submission;
    const theirs = msg.submitted.includes(them);
    const picked = pickedEntry(ctx);
    const own = el("div", { class: "pending mine" }, el("small", { text: `${playerName(ctx, me)}: ` }));
    if (mine) {
      own.append(el("span", { class: "played", dataset: { played: mine } }, ...cardsOf(mine).map((c) => cardFace(c, { cls: "small" })), el("em", { text: KOTH.t("played") })));
      if (!theirs && ctx.withdraw) own.append(el("button", { type: "button", class: "take-back", text: KOTH.t("take_back"), onclick: () => ctx.withdraw() }));
    } else if (picked) {
      own.append(
        el("span", { class: "picked-attack" }, ...cardsOf(picked.text).map((c) => cardFace(c, { cls: "small" }))),
        el("button", { type: "button", class: "confirm primary", dataset: { actionId: String(picked.id), action: picked.text }, text: KOTH.t("confirm_attack", { attack: attackName(picked.text) }), onclick: () => ctx.act(picked) }),
        el("button", { type: "button", class: "cancel", text: KOTH.t("cancel"), onclick: () => { delete ctx.ui.picked; ctx.rerender(); } }));
    } else if (ctx.seat === null || !msg.to_move.players.includes(me)) {
      own.append(msg.submitted.includes(me) ? cardFace(null) : el("em", { text: KOTH.t("choosing") }));
    } else {
      own.append(el("em", { text: KOTH.t("pick_a_card") }));
    }
    const other = el("div", { class: "pending theirs" }, el("small", { text: `${playerName(ctx, them)}: ` }), theirs ? cardFace(null) : el("em", { text: KOTH.t("choosing") }));
    return el("div", { class: "pending-attacks" }, own, other);
  }

  function battle(ctx) {
    const view = ctx.view;
    const box = el("div", { class: "battle panel" });
    const me = ctx.seat === null ? 0 : ctx.seat;
    const them = 1 - me;
    if (view.stack) {
      box.append(el("h3", { text: KOTH.t("fighting_for", { stack: view.stack }) }));
      if (view.rounds && view.rounds.length) {
        box.append(el("p", { text: KOTH.t("tied_so_far") }));
        view.rounds.forEach((round, i) => box.append(roundRow(ctx, round, i, me, them)));
      }
      if (ctx.msg.to_move.kind === "simultaneous") {
        box.append(pendingAttacks(ctx, me, them));
        box.append(el("p", { class: "hint", text: KOTH.t("attacks_face_down") }));
      }
    }
    if (view.assignment) {
      const a = view.assignment;
      box.append(el("p", { class: "assignment", text: KOTH.t("assigning", { who: playerName(ctx, a.winner), placed: a.assigned, left: a.remaining }) }));
    }
    return box.childElementCount ? box : null;
  }

  /* Every fight of the game, newest first. */
  function history(ctx) {
    const fights = ctx.view.log || [];
    if (!fights.length) return null;
    const me = ctx.seat === null ? 0 : ctx.seat;
    const list = el("ol", { class: "fight-list", reversed: true });
    for (const fight of [...fights].reverse()) {
      const winner = fight.discarded ? KOTH.t("fight_discarded") : KOTH.t("fight_won_by", { who: playerName(ctx, fight.winner) });
      list.append(el("li", { class: "fight", dataset: { stack: fight.stack } },
        el("strong", { text: KOTH.t("fight_title", { stack: fight.stack, top: fight.top ? cardName(fight.top) : "—", n: fight.size }) }),
        fight.rounds.map((round, i) => roundRow(ctx, round, i, me, 1 - me)),
        el("em", { text: winner })));
    }
    return el("details", { class: "fight-history panel", open: true }, el("summary", { text: KOTH.t("fight_history", { n: fights.length }) }), list);
  }

  function roundRow(ctx, round, i, me, them) {
    return el("div", { class: "round" },
      el("small", { text: i === 0 ? KOTH.t("attack_round") : KOTH.t("tiebreak_round", { n: i }) }),
      el("span", { class: "attack" }, el("small", { text: playerName(ctx, me) }), attackCards(round[me])),
      el("span", { class: "vs", text: "vs" }),
      el("span", { class: "attack" }, el("small", { text: playerName(ctx, them) }), attackCards(round[them])));
  }

  function attackCards(text) {
    if (!text) return cardFace(null);
    return cardsOf(text).map((c) => cardFace(c, { cls: "small" }));
  }

  function pickedEntry(ctx) {
    return ctx.legal.find((e) => String(e.id) === ctx.ui.picked) || null;
  }

  /* A card of the hand or reserve: a target to pick for an attack, the picked one a
     target to confirm it, any other just a card. */
  function attackTarget(ctx, code, entry, cls) {
    if (!entry) return cardFace(code, { cls });
    const picked = ctx.ui.picked === String(entry.id);
    const data = picked ? { card: code, actionId: String(entry.id), action: entry.text } : { card: code, select: entry.text };
    return el("button", {
      type: "button",
      class: `card-button${picked ? " picked" : ""}`,
      dataset: data,
      title: picked ? KOTH.t("confirm_attack", { attack: cardName(code) }) : KOTH.t("pick_card", { card: cardName(code) }),
      onclick: () => {
        if (picked) ctx.act(entry);
        else {
          ctx.ui.picked = String(entry.id);
          ctx.rerender();
        }
      },
    }, cardFace(code, { cls: `${cls || ""} playable`.trim() }));
  }

  function myArea(ctx) {
    const p = ctx.view.players[ctx.seat];
    const box = el("div", { class: "seat-box mine" });
    const attacks = ctx.legal.filter((e) => ATTACKS.includes(e.type));
    ctx.handled = attacks.map((e) => e.id); // reached by pick, then confirm
    const singles = new Map(attacks.filter((e) => e.type !== "run").map((e) => [e.text, e]));
    // the card played face down has left the hand: it shows in the fight, marked played
    const played = new Set(cardsOf(ctx.msg.my_submission || ""));
    const hand = (p.hand || []).filter((c) => !played.has(c));
    const reserve = (p.reserve || []).filter((c) => !played.has(c));
    box.append(el("h3", { text: KOTH.t("your_hand", { n: hand.length }) }));
    box.append(el("div", { class: "hand", role: "group", "aria-label": KOTH.t("your_hand", { n: hand.length }) }, hand.map((code) => attackTarget(ctx, code, singles.get(code), ""))));
    const runs = attacks.filter((e) => e.type === "run");
    if (runs.length) {
      box.append(el("div", { class: "runs" }, el("small", { text: KOTH.t("sequences") + " " }),
        runs.map((entry) => {
          const picked = ctx.ui.picked === String(entry.id);
          return el("button", {
            type: "button",
            class: `run-button${picked ? " picked" : ""}`,
            dataset: picked ? { actionId: String(entry.id), action: entry.text } : { select: entry.text },
            title: KOTH.t("pick_card", { card: attackName(entry.text) }),
            onclick: () => {
              if (picked) ctx.act(entry);
              else {
                ctx.ui.picked = String(entry.id);
                ctx.rerender();
              }
            },
          }, attackCards(entry.text));
        })));
    }
    box.append(el("h3", { text: KOTH.t("your_reserve", { n: reserve.length }) }));
    // tie-breaks are fought from the reserve: its cards are targets then
    box.append(el("div", { class: "reserve", role: "group", "aria-label": KOTH.t("your_reserve", { n: reserve.length }) }, reserve.map((code) => attackTarget(ctx, code, singles.get(code), "small"))));
    return box;
  }

  /* The reserve (C4) on one screen: every card toggled between hand and reserve, a
     summary and undo; once confirmed, each round's choice is sent by itself as soon as
     the round opens, so two persons choose at the same time. */
  function planKey(ctx) {
    return `koth-reserve:${ctx.msg.game_id}:${ctx.seat}`;
  }

  function loadPlan(ctx) {
    try {
      return JSON.parse(sessionStorage.getItem(planKey(ctx))) || { reserve: [], undo: [], confirmed: false };
    } catch (error) {
      return { reserve: [], undo: [], confirmed: false };
    }
  }

  function savePlan(ctx, plan) {
    try {
      sessionStorage.setItem(planKey(ctx), JSON.stringify(plan));
    } catch (error) {
      /* private mode: the plan lives as long as the page */
    }
    ctx.ui.plan = plan;
  }

  function reservePlanner(ctx) {
    const view = ctx.view;
    const p = view.players[ctx.seat];
    const plan = ctx.ui.plan || loadPlan(ctx);
    ctx.ui.plan = plan;
    const places = ctx.legal.filter((e) => e.type === "place");
    ctx.handled = places.map((e) => e.id);
    const cards = [...(p.hand || []), ...(p.reserve || [])];
    const order = sortCards(cards);
    const decided = new Set(order.slice(0, view.reserve_round));
    const inReserve = (c) => (decided.has(c) ? (p.reserve || []).includes(c) : plan.reserve.includes(c));
    const current = order[view.reserve_round];
    const next = places.find((e) => e.text === `${inReserve(current) ? "reserve" : "hand"} ${current}`);
    // this round's choice, as planned, unless this seat's choice of the round is already in
    // (a table drawn again by a presence or clock update must not send it twice)
    if (plan.confirmed && next && !ctx.replay && !ctx.msg.my_submission) {
      setTimeout(() => ctx.act(next), 0);
    }
    const box = el("div", { class: "reserve-planner panel" }, el("h3", { text: KOTH.t("reserve_title") }));
    box.append(el("p", { class: "hint", text: KOTH.t(plan.confirmed ? "reserve_sending" : "reserve_hint") }));
    const grid = el("div", { class: "plan-cards" });
    for (const code of order) {
      const there = inReserve(code);
      const locked = plan.confirmed || decided.has(code);
      grid.append(el("button", {
        type: "button",
        class: `plan-card${there ? " to-reserve" : ""}`,
        disabled: locked,
        dataset: locked ? { card: code } : { card: code, select: `toggle ${code}` },
        title: KOTH.t(there ? "plan_to_hand" : "plan_to_reserve", { card: cardName(code) }),
        onclick: () => {
          plan.reserve = there ? plan.reserve.filter((c) => c !== code) : [...plan.reserve, code];
          plan.undo = [...plan.undo, code];
          savePlan(ctx, plan);
          ctx.rerender();
        },
      }, cardFace(code, { cls: "small" }), el("small", { text: KOTH.t(there ? "plan_in_reserve" : "plan_in_hand") })));
    }
    box.append(grid);
    const reserved = order.filter(inReserve);
    box.append(el("p", { class: "plan-summary", text: KOTH.t("reserve_summary", { hand: order.length - reserved.length, reserve: reserved.length }) }),
      el("div", { class: "plan-reserve" }, reserved.map((c) => cardFace(c, { cls: "tiny" }))));
    if (!plan.confirmed) {
      const last = plan.undo[plan.undo.length - 1];
      box.append(el("div", { class: "plan-buttons" },
        el("button", { type: "button", class: "undo", disabled: !last, text: KOTH.t("undo"), onclick: () => {
          plan.undo = plan.undo.slice(0, -1);
          plan.reserve = plan.reserve.includes(last) ? plan.reserve.filter((c) => c !== last) : [...plan.reserve, last];
          savePlan(ctx, plan);
          ctx.rerender();
        } }),
        el("button", { type: "button", class: "confirm primary", dataset: next ? { actionId: String(next.id), action: next.text } : {}, disabled: !next, text: KOTH.t("reserve_confirm"), onclick: () => {
          plan.confirmed = true;
          savePlan(ctx, plan);
          if (next) ctx.act(next);
        } })));
    }
    return box;
  }

  const RANKS = "23456789TJQKA";
  const SUIT_ORDER = "shdc";
  function sortCards(cards) {
    // the card order of the reserve rounds (C4.1): 2♠ 2♥ 2♦ 2♣ 3♠ … A♣, the Joker last
    const key = (c) => (c === "JK" ? 999 : RANKS.indexOf(c[0]) * 4 + SUIT_ORDER.indexOf(c[1]));
    return [...cards].sort((a, b) => key(a) - key(b));
  }

  function placement(ctx) {
    // the assignment of won cards (C11.1): one card at a time, hand or reserve
    const places = ctx.legal.filter((e) => e.type === "place");
    if (!places.length || ctx.view.phase === "reserve") return null;
    const byCard = new Map();
    for (const entry of places) {
      const [where, card] = entry.text.split(" ");
      if (!byCard.has(card)) byCard.set(card, {});
      byCard.get(card)[where] = entry;
    }
    const box = el("div", { class: "placement panel" }, el("h3", { text: KOTH.t("won_card_where") }));
    for (const [card, options] of byCard) {
      box.append(el("div", { class: "place-row" }, cardFace(card),
        options.hand ? el("button", { type: "button", class: "place primary", dataset: { actionId: String(options.hand.id), action: options.hand.text }, text: KOTH.t("to_hand"), onclick: () => ctx.act(options.hand) }) : null,
        options.reserve ? el("button", { type: "button", class: "place", dataset: { actionId: String(options.reserve.id), action: options.reserve.text }, text: KOTH.t("to_reserve"), onclick: () => ctx.act(options.reserve) }) : null));
    }
    return box;
  }

  /* The end: who won and why (C12). */
  function result(ctx) {
    const outcome = ctx.msg.outcome;
    if (!outcome) return null;
    const winner = outcome.winners.length ? outcome.winners[0] : null;
    // a resignation or a clock run out ended it (static/games/clock.js): its reason
    const ended = !ctx.msg.ending || winner === null ? null
      : winner === ctx.seat ? KOTH.t("result_ended_you", { why: ctx.msg.ending.text })
        : KOTH.t("result_ended", { why: ctx.msg.ending.text, who: playerName(ctx, winner) });
    const text = ended || (winner === null ? KOTH.t("result_draw") : KOTH.t("result_apex", { who: playerName(ctx, winner) }));
    return el("div", { class: "result panel", dataset: { winner: winner === null ? "" : String(winner) } }, el("h3", { text }));
  }

  KOTH.renderers.cards = {
    render(ctx) {
      const view = ctx.view;
      if (!view || !view.pyramid || !view.players) return KOTH.renderers.generic.render(ctx);
      const legal = legalBy(ctx);
      if (ctx.ui.picked && !pickedEntry(ctx)) delete ctx.ui.picked; // the node moved on
      const others = view.players.map((_, i) => i).filter((i) => i !== ctx.seat);
      const felt = el("div", { class: "felt" });
      const dealer = KOTH.t("dealer", { who: playerName(ctx, view.dealer) });
      const phase = el("div", { class: "phase", text: `${KOTH.t("turn", { n: view.turn + 1 })} · ${(KOTH.texts[`phase_${view.phase}`] || view.phase)} · ${dealer}${view.phase === "choose" ? ` · ${KOTH.t(view.chooser === ctx.seat ? "you_choose_stack" : "chooses_stack", { who: playerName(ctx, view.chooser) })}` : ""}` });
      felt.append(phase);
      const end = result(ctx);
      if (end) felt.append(end);
      for (const i of others) felt.append(opponent(ctx, i));
      felt.append(pyramid(ctx, legal));
      const fight = battle(ctx);
      if (fight) felt.append(fight);
      if (view.discards && view.discards.length) felt.append(el("div", { class: "discards" }, el("small", { text: KOTH.t("discarded", { n: view.discards.length }) }), view.discards.map((c) => cardFace(c, { cls: "tiny" }))));
      const mine = ctx.seat !== null && ctx.seat !== undefined;
      if (mine && view.phase === "reserve" && !ctx.replay) felt.append(reservePlanner(ctx));
      else if (mine) felt.append(myArea(ctx));
      const past = history(ctx);
      if (past) felt.append(past);
      ctx.board.append(felt);
      const place = placement(ctx);
      if (place) ctx.actions.append(place);
    },
  };
})();
