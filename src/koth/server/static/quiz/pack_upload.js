/* Question packs from the host's files: the pack (.csv, .json, .yaml or .yml) and its
   pictures, sounds and videos, chosen together in one file input. The host form keeps them in
   sessionStorage until the new event's console uploads them; the console's show panel
   uploads them at once. The server checks everything and names each problem. */
"use strict";
(function () {
  const PENDING = "koth.quiz.pending_pack";
  const FORMS = { csv: "csv", json: "json", yaml: "yaml", yml: "yaml" };
  const formOf = (name) => FORMS[(name.split(".").pop() || "").toLowerCase()];
  const MEDIA = ["mp3", "ogg", "oga", "m4a", "mp4", "webm"];
  // a sound or video goes to its own address (the server reads its type from its bytes)
  const isMedia = (file) => /^(audio|video)\//.test(file.type) || MEDIA.includes((file.name.split(".").pop() || "").toLowerCase());

  const base64 = (buffer) => {
    let text = "";
    const bytes = new Uint8Array(buffer);
    for (let i = 0; i < bytes.length; i += 0x8000) text += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
    return btoa(text);
  };
  // the server's reason names the line and field, or the picture and its limit
  const OWN_WORDS = ["invalid_request", "malformed_request", "payload_too_large"];
  const unbase64 = (text) => Uint8Array.from(atob(text), (c) => c.charCodeAt(0));

  const Pack = {
    ACCEPT: ".csv,.json,.yaml,.yml,image/png,image/jpeg,image/webp,image/gif,.mp3,.ogg,.m4a,.mp4,.webm",
    /* {pack: {name, form, text} | null, pictures: [{name, data (base64), media}]} */
    async read(files) {
      const out = { pack: null, pictures: [] };
      for (const file of files) {
        const form = formOf(file.name);
        if (form) out.pack = { name: file.name, form, text: await file.text() };
        else out.pictures.push({ name: file.name, data: base64(await file.arrayBuffer()), media: isMedia(file) });
      }
      return out;
    },
    keep(chosen) {
      sessionStorage.setItem(PENDING, JSON.stringify(chosen));
    },
    takePending() {
      const kept = sessionStorage.getItem(PENDING);
      sessionStorage.removeItem(PENDING);
      return kept ? JSON.parse(kept) : null;
    },
    /* upload a pack and its pictures; returns the error texts, each saying what was not
       stored (the pack or one picture) and the server's reason (empty: all stored) */
    async upload(eventId, token, chosen) {
      const errors = [];
      if (chosen.pack) {
        const response = await Q.api("POST", `/api/quiz/events/${eventId}/judge/pack`, { form: chosen.pack.form, text: chosen.pack.text }, token);
        if (!response.ok) errors.push(Q.t("show_pack_failed", { error: `${chosen.pack.name}: ${Q.errorText(response.data, response.status, OWN_WORDS)}` }));
      }
      for (const picture of chosen.pictures) {
        const folder = picture.media ? "media" : "pictures";
        const response = await fetch(`/api/quiz/events/${eventId}/${folder}/${encodeURIComponent(picture.name)}`, {
          method: "PUT",
          headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/octet-stream" },
          body: unbase64(picture.data),
        });
        if (!response.ok) {
          const data = await response.json().catch(() => null);
          errors.push(Q.t(picture.media ? "show_media_failed" : "show_picture_failed", { name: picture.name, error: Q.errorText(data, response.status, OWN_WORDS) }));
        }
      }
      return errors;
    },
  };
  Q.Pack = Pack;

  // the host form: keep the chosen files for the console of the event it creates
  const input = document.getElementById("pack-files");
  if (input && document.getElementById("create-form")) {
    sessionStorage.removeItem(PENDING);
    input.addEventListener("change", async () => Pack.keep(await Pack.read(input.files)));
  }
})();
