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
