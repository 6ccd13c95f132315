/* The open question's sound or video, played as the host says (the projector, and the
   phones when the host chooses): one <audio> or <video> element per file in ``box``;
   ``playing`` plays or pauses it, a larger ``starts`` (a replay) starts it again from the
   beginning. A browser that refuses to play before a click on the page shows ``notice``
   until the next click, then plays. */
"use strict";
(function () {
  Q.MediaPlayer = function (box, notice, controls) {
    let element = null;
    let starts = 0;
    let wanted = null;

    function apply() {
      if (!element || !wanted) return;
      if (!wanted.playing) {
        element.pause();
        return;
      }
      element.play().then(() => notice && notice.classList.add("hidden")).catch((error) => {
        if (error && error.name === "NotAllowedError" && notice) notice.classList.remove("hidden");
      });
    }
    if (notice) document.addEventListener("click", () => { notice.classList.add("hidden"); apply(); });

    return {
      get element() { return element; },
      show(media) {
        wanted = media;
        box.classList.toggle("hidden", !media);
        if (!media) {
          if (element) element.pause();
          element = null;
          box.replaceChildren();
          if (notice) notice.classList.add("hidden");
          return;
        }
        if (!element || element.dataset.url !== media.url) {
          element = Q.el(media.kind, { class: `quiz-media quiz-${media.kind}`, preload: "auto", playsinline: true, controls: Boolean(controls) });
          element.dataset.url = media.url;
          element.src = media.url;
          box.replaceChildren(element);
          starts = media.starts;
        } else if (media.starts > starts) {
          element.currentTime = 0;
          starts = media.starts;
        }
        apply();
      },
    };
  };
})();
