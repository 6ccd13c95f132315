/* The tutorial of /learn/<game>: each lesson's position drawn by the table's renderer
   (KOTH.renderers, as on the live table), the moves to try as buttons, and every try
   checked by the server's engine (POST /api/learn/<game>/lessons/<key>): a wrong move
   is answered with the rule it breaks, the right one is played on the table. */
"use strict";
(function () {
  const root = document.getElementById("tutorial");
  if (!root) return;
  const game = root.dataset.game;
  const renderer = KOTH.renderers[root.dataset.renderer] || KOTH.renderers.generic;
  const $ = (id) => document.getElementById(id);
  let lessons = [];
  let index = 0;
  const passed = new Set();

  function draw(message, live) {
    const board = $("board");
    const actions = $("actions");
    board.replaceChildren();
    actions.replaceChildren();
    const msg = live ? message : { ...message, legal: [] };
    const ctx = {
      msg, view: msg.view, seat: msg.seat, legal: msg.legal, board, actions, ui: {}, replay: !live,
      act: (entry) => attempt({ action_id: entry.id }),
      rerender: () => draw(message, live),
    };
    try {
      renderer.render(ctx);
    } catch (error) {
      console.error(error);
      board.replaceChildren();
      KOTH.renderers.generic.render(ctx);
    }
    actions.classList.add("hidden"); // the moves to try are the lesson's own buttons
  }

  function feedback(text, kind) {
    const box = $("lesson-feedback");
    box.textContent = text;
    box.dataset.kind = kind;
    box.classList.toggle("hidden", !text);
  }

  function steps() {
    const list = $("lesson-steps");
    list.replaceChildren(...lessons.map((lesson, i) => KOTH.el("li", {},
      KOTH.el("button", {
        type: "button", class: `lesson-step${i === index ? " current" : ""}${passed.has(lesson.key) ? " passed" : ""}`,
        dataset: { lesson: lesson.key }, text: lesson.title, onclick: () => show(i),
      }))));
  }

  function show(i) {
    index = i;
    const lesson = lessons[i];
    root.dataset.lesson = lesson.key;
    $("lesson-title").textContent = `${i + 1}. ${lesson.title} (${lesson.rule})`;
    $("lesson-task").textContent = lesson.task;
    $("lesson-choices").replaceChildren(...lesson.choices.map((text) => KOTH.el("button", {
      type: "button", class: "lesson-choice", dataset: { move: text }, text, onclick: () => attempt({ action: text }),
    })));
    $("lesson-next").classList.add("hidden");
    $("lesson-done").classList.add("hidden");
    feedback("", "");
    steps();
    draw(lesson.message, true);
  }

  async function attempt(body) {
    const lesson = lessons[index];
    const response = await fetch(`/api/learn/${game}/lessons/${lesson.key}`, {
      method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body),
    });
    const data = await response.json();
    if (!response.ok) {
      feedback(data.error ? data.error.message : KOTH.t("error_status", { status: response.status }), "bad");
      return;
    }
    // a refused move names the rule it breaks
    const rule = !data.legal && data.rule ? ` (${data.rule})` : "";
    feedback(`${data.text}${rule}`, data.correct ? "good" : data.legal ? "other" : "bad");
    if (!data.correct) return;
    passed.add(lesson.key);
    root.dataset.passed = String(passed.size);
    if (data.after) draw({ ...lesson.message, view: data.after }, false);
    steps();
    const last = index === lessons.length - 1;
    $("lesson-next").classList.toggle("hidden", last);
    $("lesson-done").classList.toggle("hidden", !last);
  }

  $("lesson-next").addEventListener("click", () => show(Math.min(index + 1, lessons.length - 1)));

  (async function start() {
    const response = await fetch(`/api/learn/${game}`);
    const data = await response.json();
    if (!response.ok) {
      $("lesson-title").textContent = data.error ? data.error.message : KOTH.t("error_status", { status: response.status });
      return;
    }
    lessons = data;
    root.dataset.lessons = String(lessons.length);
    show(0);
  })();
})();
