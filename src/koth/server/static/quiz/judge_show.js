/* The judge console's show panel: the question pack (load one, see what it holds and
   which pictures are missing) and what the big screen shows for the open question. A
   pack chosen on the host form is uploaded here as soon as the console opens. */
"use strict";
(function () {
  const panel = document.getElementById("show-panel");
  const eventId = Q.cfg.eventId;
  let state = null;
  let problems = [];
  let pendingDone = false;

  async function upload(chosen) {
    problems = await Q.Pack.upload(eventId, state.token, chosen);
    panel.dataset.uploaded = String(Date.now());
    draw();
  }

  function draw() {
    const { msg, command } = state;
    const out = [Q.el("h2", { text: Q.t("show_pack") })];
    if (msg.pack) {
      out.push(Q.el("p", { id: "pack-summary", text: `${msg.pack.title ? `${msg.pack.title}: ` : ""}${Q.t("pack_questions", { n: msg.pack.questions })}, ${Q.t("pack_backups", { n: msg.pack.backup_questions })}, ${Q.t("pack_lightning", { n: msg.pack.lightning_questions })}` }));
      if (msg.pack.missing_pictures.length) out.push(Q.el("p", { class: "error", id: "pack-missing", text: Q.t("show_missing_pictures", { names: msg.pack.missing_pictures.join(", ") }) }));
      if (msg.pack.missing_media.length) out.push(Q.el("p", { class: "error", id: "pack-missing-media", text: Q.t("show_missing_media", { names: msg.pack.missing_media.join(", ") }) }));
    }
    for (const text of problems) out.push(Q.el("p", { class: "error pack-error", text }));
    const files = Q.el("input", { type: "file", id: "judge-pack-files", multiple: true, accept: Q.Pack.ACCEPT });
    files.addEventListener("change", async () => upload(await Q.Pack.read(files.files)));
    out.push(Q.el("label", { class: "small" }, Q.t("show_pack_file"), " ", files));
    const phase = msg.phase;
    // what the big screen shows: at the top of the console, where the evening's next
    // step is (above the fold on a 1366x768 laptop), and on the Q, A and M keys
    const top = [];
    if (phase.question) {
      const shown = msg.expected ? msg.expected.screen : null;
      const answerReady = ["judging"].includes(phase.stage);
      top.push(Q.el("div", { class: "row show-buttons" },
        Q.el("button", { type: "button", id: "btn-show-question", class: shown === "question" ? "chosen" : "", text: Q.t("show_screen_question"), onclick: () => command("screen", { show: "question" }) }),
        Q.el("button", { type: "button", id: "btn-show-answer", class: shown === "answer" ? "chosen" : "", disabled: !answerReady, text: Q.t("show_screen_answer"), onclick: () => command("screen", { show: "answer" }) }),
        Q.el("button", { type: "button", id: "btn-show-standings", text: Q.t("show_screen_standings"), onclick: () => command("screen", { show: "standings" }) })));
      const media = msg.expected && msg.expected.media;
      if (media) top.push(mediaButtons(media, command));
      if (msg.expected) out.push(Q.el("p", { class: "small", id: "expected-text", text: `${Q.t("question", { n: msg.expected.question })}: ${msg.expected.text}` }));
    }
    panel.replaceChildren(...out);
    document.getElementById("show-buttons").replaceChildren(...top);
  }

  /* the question's sound or video on the big screen: play, pause, replay from the start,
     and whether the phones play it too (kept per question on the server) */
  function mediaButtons(media, command) {
    const phones = Q.el("input", { type: "checkbox", id: "media-phones", checked: media.phones });
    const send = (action) => command("media", { action, phones: phones.checked });
    phones.addEventListener("change", () => send(media.playing ? "play" : "pause"));
    return Q.el("div", { class: "row media-buttons", id: "media-buttons" },
      Q.el("span", { class: "small", text: Q.t(media.kind === "video" ? "show_media_video" : "show_media_audio") }),
      Q.el("button", { type: "button", id: "btn-media-play", class: media.playing ? "chosen" : "", text: Q.t("show_media_play"), onclick: () => send("play") }),
      Q.el("button", { type: "button", id: "btn-media-pause", class: media.playing ? "" : "chosen", text: Q.t("show_media_pause"), onclick: () => send("pause") }),
      Q.el("button", { type: "button", id: "btn-media-replay", text: Q.t("show_media_replay"), onclick: () => send("replay") }),
      Q.el("label", { class: "check small" }, phones, Q.t("show_media_phones")));
  }

  document.addEventListener("quiz:judge-state", (event) => {
    state = event.detail;
    if (document.activeElement && document.activeElement.id === "judge-pack-files") return;
    draw();
    if (!pendingDone && state.token) {
      pendingDone = true;
      const pending = Q.Pack.takePending();
      if (pending && (pending.pack || pending.pictures.length)) upload(pending);
    }
  });
})();
