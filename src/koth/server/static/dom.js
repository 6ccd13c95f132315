/* DOM helpers shared by every page's script: build HTML and SVG elements from a tag,
   attributes (class, text, on<event>, dataset) and children. */
"use strict";
const DOM = (window.DOM = window.DOM || {});

function applyAttributes(node, attrs, html) {
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "class" && html) node.className = value;
    else if (key === "text") node.textContent = value;
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else if (key === "dataset") Object.assign(node.dataset, value);
    // through the CSSOM: a style attribute would be refused by the pages' security policy
    else if (key === "style") node.style.cssText = value;
    else node.setAttribute(key, value === true && html ? "" : value);
  }
}

DOM.el = function (tag, attrs, ...children) {
  const node = document.createElement(tag);
  applyAttributes(node, attrs, true);
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
};

DOM.svg = function (tag, attrs, ...children) {
  const node = document.createElementNS("http://www.w3.org/2000/svg", tag);
  applyAttributes(node, attrs, false);
  for (const child of children.flat()) if (child) node.append(child);
  return node;
};

/* A redraw that replaces the element under a pressed pointer makes the press and the
   release land on different elements, and the browser then sends no click: a live state
   arriving mid-tap swallowed the tap (a judge's mark, a team's declaration, a move).
   Pages draw live states through DOM.whenReleased, which holds the drawing while a
   pointer is down and draws once it is up and its click has been dispatched. */
(function () {
  const pressed = new Set();
  let held = null;
  let timer = 0;
  const flush = (overdue) => {
    // held past the limit: a release the page never saw must not hold the next draw too
    if (overdue) pressed.clear();
    const draw = held;
    held = null;
    if (draw) draw();
  };
  const later = (ms, overdue) => {
    clearTimeout(timer);
    timer = setTimeout(() => flush(overdue), ms);
  };
  const release = (event) => {
    pressed.delete(event.pointerId);
    // a mouse's click comes with its release; a finger's tap comes a moment after it
    if (!pressed.size && held) later(event.pointerType === "mouse" ? 0 : 300);
  };
  document.addEventListener("pointerdown", (event) => pressed.add(event.pointerId), true);
  document.addEventListener("pointerup", release, true);
  document.addEventListener("pointercancel", release, true);
  document.addEventListener("click", () => { if (!pressed.size && held) later(0); }, true);
  // a release the page never sees (outside the window) must not hold drawing for ever
  window.addEventListener("blur", () => { pressed.clear(); if (held) later(0); });

  DOM.whenReleased = function (draw) {
    if (!pressed.size && !held) return draw();
    const first = !held;
    held = draw; // only the latest state is drawn
    if (pressed.size && first) later(3000, true); // a press held this long is not a tap
  };
})();

/* The pages' one `t()`: ``texts()`` returns the page's table of texts (key -> text, or
   for a text with a count key -> one form per CLDR plural category), ``lang()`` its
   language. ``t(key, {name: value})`` fills in ``{name}``; a text with plural forms takes
   the form of ``vars.n`` as the language's rules say (Russian has three). */
DOM.translator = function (texts, lang) {
  return function (key, vars) {
    let text = (texts() || {})[key] || key;
    if (typeof text === "object") {
      const category = new Intl.PluralRules(lang() || "en").select(Number((vars || {}).n) || 0);
      text = text[category] || text.other || text.many || key;
    }
    for (const [k, v] of Object.entries(vars || {})) text = text.replaceAll(`{${k}}`, String(v));
    return text;
  };
};
