"""Sounds and videos in Chromium: a pack with a sound (an MP3 made here) and a video (a
WebM recorded by the browser itself) loaded on the host form; each file is refused to
everyone until its question is shown; the projector plays, pauses and replays it as the
host presses the console's buttons (the media element's own ``paused`` state is read),
and the phones play it too once the host ticks the box.

Screenshots go to docs/screenshots/ when KOTH_SCREENSHOTS=1 (else to a temp folder).
"""

from __future__ import annotations

import base64
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.games.quiz.media_files import mp3
from tests.server.live_server import LiveServer
from tests.server.quiz.helpers import QuizApi, shots_dir
from tests.server.quiz.test_browser import TIMEOUT_MS
from tests.server.quiz.test_show_browser import wait_until

playwright_sync = pytest.importorskip("playwright.sync_api")
expect = playwright_sync.expect

PACK = (
    "number,text,answer,audio,video\n"
    "1,Name the tune you hear,Anthem,tune.mp3,\n"
    "2,What does the film show?,A flag,,clip.webm\n"
    "3,A question without sound,None,,\n"
)
#: records a few seconds of a canvas that changes colour: a real WebM (VP8) file
RECORD_WEBM = """async (seconds) => {
  const canvas = document.createElement("canvas");
  canvas.width = 320; canvas.height = 180;
  const g = canvas.getContext("2d");
  const type = "video/webm;codecs=vp8";
  const recorder = new MediaRecorder(canvas.captureStream(10), { mimeType: type });
  const parts = [];
  recorder.ondataavailable = (e) => parts.push(e.data);
  let i = 0;
  const paint = setInterval(() => {
    g.fillStyle = ["#c0392b", "#2980b9", "#f1c40f"][i++ % 3]; g.fillRect(0, 0, 320, 180);
  }, 100);
  recorder.start();
  await new Promise((done) => setTimeout(done, seconds * 1000));
  recorder.stop();
  await new Promise((done) => { recorder.onstop = done; });
  clearInterval(paint);
  const bytes = new Uint8Array(await new Blob(parts).arrayBuffer());
  let text = "";
  for (const b of bytes) text += String.fromCharCode(b);
  return btoa(text);
}"""
MEDIA = "window.QuizMedia.element"
PLAYING = f"Boolean({MEDIA}) && !{MEDIA}.paused && {MEDIA}.currentTime > 0"
PAUSED = f"Boolean({MEDIA}) && {MEDIA}.paused"


def media_status(page: Any, url: str) -> int:
    return int(page.evaluate("async (u) => (await fetch(u)).status", url))


def test_the_projector_plays_sounds_and_videos_on_the_hosts_command(
    server: LiveServer, browser: Any, tmp_path: Path
) -> None:
    shots = shots_dir(tmp_path)
    host = browser.new_context(viewport={"width": 1920, "height": 1080}, locale="en-US")
    judge = host.new_page()
    judge.set_default_timeout(TIMEOUT_MS)
    judge.goto(f"{server.url}/quiz")
    files = tmp_path / "pack"
    files.mkdir()
    (files / "pack.csv").write_text(PACK, encoding="utf-8")
    (files / "tune.mp3").write_bytes(mp3(30.0))  # ~0.5 MB: more than a request body may be
    clip = base64.b64decode(judge.evaluate(RECORD_WEBM, 8))
    (files / "clip.webm").write_bytes(clip)
    form = judge.locator("#create-form")
    form.locator("[name=title]").fill("Media evening")
    form.locator("[name=questions]").fill("3")
    form.locator("[name=spurs_per_slope]").fill("0")
    form.locator("[name=teams]").fill("Owls\nCats")
    judge.set_input_files(
        "#pack-files", [str(files / n) for n in ("pack.csv", "tune.mp3", "clip.webm")]
    )
    wait_until(judge, "sessionStorage.getItem('koth.quiz.pending_pack') !== null")
    form.locator("button[type=submit]").click()
    judge.wait_for_url(lambda url: "/judge" in url)
    expect(judge.locator("#pack-summary")).to_contain_text("3 questions")
    expect(judge.locator(".pack-error")).to_have_count(0)
    expect(judge.locator("#pack-missing-media")).to_have_count(0)
    event_id = judge.url.split("/quiz/")[1].split("/")[0]
    token = judge.evaluate(f"JSON.parse(localStorage.getItem('koth.quiz.host.{event_id}'))")
    api = QuizApi(
        httpx.Client(base_url=server.url, timeout=30), event_id=event_id, host_token=token
    )
    api.join_code = api.client.get(api.url("judge"), headers=api.host).json()["join_code"]
    api.join("Owls")
    phone = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True).new_page()
    phone.set_default_timeout(TIMEOUT_MS)
    phone.goto(f"{server.url}/quiz/join?code={api.join_code}")
    phone.locator("[name=team]").fill("Cats")
    phone.locator("#join-form button[type=submit]").click()
    phone.wait_for_url(lambda url: url.endswith("/team"))

    projector = browser.new_context(viewport={"width": 1920, "height": 1080}).new_page()
    projector.set_default_timeout(TIMEOUT_MS)
    projector.goto(f"{server.url}/quiz/{event_id}/projector")
    projector.mouse.click(400, 600)  # browsers play sound only after a click on the page
    tune = f"/api/quiz/events/{event_id}/media/tune.mp3"

    # question 1, a sound: nobody gets the file before the host shows the question
    api.cmd("start")
    api.cmd("open_question")
    assert media_status(projector, tune) == 404
    expect(judge.locator("#media-buttons")).to_have_count(0)
    judge.locator("#btn-show-question").click()
    expect(projector.locator("#proj-q-text")).to_have_text("Name the tune you hear")
    assert media_status(projector, tune) == 200
    wait_until(projector, "Boolean(window.QuizMedia.element)")
    assert projector.evaluate("window.QuizMedia.element.tagName") == "AUDIO"
    assert projector.evaluate(PAUSED)  # nothing plays before the host says so
    judge.locator("#btn-media-play").click()
    wait_until(projector, PLAYING)
    judge.locator("#btn-media-pause").click()
    wait_until(projector, PAUSED)
    paused_at = projector.evaluate("window.QuizMedia.element.currentTime")
    assert paused_at > 0
    expect(phone.locator("#team-media audio")).to_have_count(0)  # the phones stay silent
    judge.locator("#media-phones").check()
    expect(phone.locator("#team-media audio")).to_have_count(1)
    judge.locator("#btn-media-replay").click()
    wait_until(projector, PLAYING)
    assert projector.evaluate("window.QuizMedia.element.currentTime") < paused_at + 5
    api.cmd("lock")
    api.cmd("open_answering", seconds=600)
    api.cmd("answer_for_team", team="Owls", text="Anthem")
    api.cmd("close_answering")
    api.judge_texts(1, {"Anthem"})
    api.cmd("resolve")
    wait_until(projector, "!window.QuizMedia.element")  # the sound leaves with its question

    # question 2, a video: played on the big screen in the picture's place
    api.cmd("open_question")
    judge.locator("#btn-show-question").click()
    wait_until(projector, "Boolean(window.QuizMedia.element)")
    assert projector.evaluate("window.QuizMedia.element.tagName") == "VIDEO"
    judge.locator("#btn-media-play").click()
    wait_until(projector, PLAYING)
    box = projector.locator("#proj-q-media video").bounding_box()
    assert box is not None and box["height"] > 400 and box["x"] + box["width"] <= 1920
    projector.screenshot(path=str(shots / "quiz_projector_video.png"))
    expect(judge.locator("#btn-media-play")).to_have_class("chosen")
    judge.screenshot(path=str(shots / "quiz_judge_media.png"))
    judge.set_viewport_size({"width": 1366, "height": 768})
    buttons = judge.locator("#media-buttons").bounding_box()
    assert buttons is not None and buttons["y"] + buttons["height"] <= 768  # above the fold
    judge.screenshot(path=str(shots / "quiz_judge_media_1366.png"))
    judge.locator("#btn-media-pause").click()
    wait_until(projector, PAUSED)
