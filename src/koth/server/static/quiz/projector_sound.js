/* Projector sounds, synthesised in the browser (no audio files to ship): three short
   beeps when 10 s of answering time are left and a gong when the time is up. Browsers
   only play sound after a click on the page, so the first click on the projector (the
   full-screen button, say) wakes the audio; the mute choice is kept in localStorage.
   window.QuizSound.played lists what was played (the browser tests read it). */
"use strict";
(function () {
  const KEY = "koth.quiz.projector.muted";
  let ctx = null;
  const sound = {
    muted: localStorage.getItem(KEY) === "1",
    played: [],
    wake() {
      const Ctx = window.AudioContext || window.webkitAudioContext;
      if (!ctx && Ctx) ctx = new Ctx();
      if (ctx && ctx.state === "suspended") ctx.resume();
    },
    setMuted(muted) {
      sound.muted = muted;
      localStorage.setItem(KEY, muted ? "1" : "0");
    },
    tone(freq, start, length, gain, type) {
      const osc = ctx.createOscillator();
      const amp = ctx.createGain();
      osc.type = type;
      osc.frequency.value = freq;
      const t0 = ctx.currentTime + start;
      amp.gain.setValueAtTime(0.0001, t0);
      amp.gain.exponentialRampToValueAtTime(gain, t0 + 0.02);
      amp.gain.exponentialRampToValueAtTime(0.0001, t0 + length);
      osc.connect(amp).connect(ctx.destination);
      osc.start(t0);
      osc.stop(t0 + length + 0.05);
    },
    play(name) {
      sound.played.push({ name, muted: sound.muted });
      if (sound.muted || !ctx) return;
      if (name === "warning") {
        for (let i = 0; i < 3; i++) sound.tone(880, i * 0.25, 0.15, 0.3, "square");
      } else {
        // a gong: a low fundamental with inharmonic partials, dying slowly
        [[110, 0.6], [166, 0.35], [227, 0.25], [331, 0.15]].forEach(([f, g]) => sound.tone(f, 0, 3.5, g, "sine"));
      }
    },
  };
  document.addEventListener("click", () => sound.wake());
  window.QuizSound = sound;
})();
