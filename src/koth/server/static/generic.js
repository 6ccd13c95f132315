/* The fallback table for any game: the view as a tree, legal actions as buttons. */
"use strict";
(function () {
  const { el } = KOTH;

  function valueNode(value) {
    if (value === null || value === undefined) return el("span", { class: "v-null", text: KOTH.t("hidden") });
    if (Array.isArray(value)) {
      if (value.every((v) => v === null || typeof v !== "object")) {
        return el("span", { class: "v-list" }, value.map((v) => el("span", { class: v === null ? "chip hidden-chip" : "chip", text: v === null ? "?" : String(v) })));
      }
      return el("ol", { class: "v-array", start: "0" }, value.map((v) => el("li", {}, valueNode(v))));
    }
    if (typeof value === "object") {
      return el("dl", { class: "v-object" }, Object.entries(value).map(([k, v]) => [el("dt", { text: k.replaceAll("_", " ") }), el("dd", {}, valueNode(v))]));
    }
    return el("span", { class: "v-scalar", text: String(value) });
  }

  KOTH.viewTree = valueNode;

  KOTH.renderers.generic = {
    render(ctx) {
      ctx.board.append(el("div", { class: "panel view-tree" }, el("h2", { text: ctx.msg.game.replaceAll("_", " ") }), valueNode(ctx.view)));
      if (ctx.legal.length) KOTH.actionButtons(ctx.actions, ctx.legal, ctx.act, { title: KOTH.t("your_move") });
    },
  };
})();
