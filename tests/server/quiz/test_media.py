"""Sounds and videos of a pack through the API: stored once recognised, served only once
their question is shown (the same secrecy as pictures), played, paused and replayed by
the host on the big screen (and on phones if the host says so)."""

from __future__ import annotations

from typing import Any

from koth.games.quiz.pack import AUDIO_MAX_BYTES, PICTURE_MAX_BYTES, VIDEO_MAX_BYTES
from koth.server.settings import Settings
from tests.games.quiz.media_files import mp3, mp4, webm
from tests.server.quiz.helpers import QuizApi, bearer

PACK = (
    "number,text,answer,audio,video\n1,Name the tune,Anthem,tune.mp3,\n"
    "2,What moves?,A car,,clip.webm\n3,No sound,None,,\n"
)
TUNE = mp3(1.0)


def put_media(api: QuizApi, name: str, data: bytes, token: str | None = None) -> Any:
    headers = bearer(token or api.host_token)
    return api.client.put(api.url(f"media/{name}"), content=data, headers=headers)


def evening(api: QuizApi) -> None:
    api.create(title="Media", teams=["Owls", "Bears"], spurs_per_slope=0, questions=3)
    for team in ("Owls", "Bears"):
        api.join(team)
    api.cmd("pack", form="csv", text=PACK)


def test_the_settings_and_the_pack_check_share_one_set_of_limits() -> None:
    fields = Settings.model_fields
    assert fields["quiz_audio_bytes"].default == AUDIO_MAX_BYTES
    assert fields["quiz_video_bytes"].default == VIDEO_MAX_BYTES
    assert Settings().quiz_file_limits().picture == PICTURE_MAX_BYTES


def test_media_are_stored_by_their_bytes_and_named_while_missing(api: QuizApi) -> None:
    evening(api)
    assert api.judge_view()["pack"]["missing_media"] == ["clip.webm", "tune.mp3"]
    response = put_media(api, "tune.mp3", TUNE)
    assert response.status_code == 200 and response.json()["mime"] == "audio/mpeg"
    # a file larger than a request body may be (256 KiB) is fine up to the media limit
    big = put_media(api, "clip.webm", webm() + bytes(300_000))
    assert big.status_code == 200 and big.json()["mime"] == "video/webm"
    assert api.judge_view()["pack"]["missing_media"] == []


def test_bad_media_are_refused_naming_the_problem_and_change_nothing(api: QuizApi) -> None:
    evening(api)
    before = api.judge_view()["seq"]
    cases = [
        ("tune.mp3", b"<html>not a sound", "not an MP3, OGG, M4A, MP4 or WebM file"),
        ("clip.webm", mp4() + bytes(VIDEO_MAX_BYTES), f"more than the {VIDEO_MAX_BYTES} allowed"),
        ("%2E%2E", TUNE, "a sound or video is a plain file name without folders"),
    ]
    for name, data, expected in cases:
        response = put_media(api, name, data)
        assert response.status_code in (413, 422), response.text
        if response.status_code == 422:
            assert expected in response.json()["error"]["message"]
    too_big = put_media(api, "tune.mp3", mp3(0.1) + bytes(VIDEO_MAX_BYTES + 1))
    assert too_big.status_code == 413  # past every limit: refused before it is read
    assert put_media(api, "tune.mp3", TUNE, token=api.tokens["Owls"]).status_code == 403
    assert api.judge_view()["seq"] == before


def test_a_sound_is_served_only_once_its_question_is_shown(api: QuizApi) -> None:
    evening(api)
    put_media(api, "tune.mp3", TUNE)
    url = api.url("media/tune.mp3")
    api.cmd("start")
    api.cmd("open_question")
    assert api.client.get(url).status_code == 404  # it would give the question away
    assert api.client.get(url, headers=api.host).status_code == 200
    assert api.projector()["screen"] is None
    api.cmd("screen", show="question")
    whole = api.client.get(url)
    assert whole.status_code == 200 and whole.content == TUNE
    assert whole.headers["content-type"] == "audio/mpeg"
    part = api.client.get(url, headers={"Range": "bytes=10-19"})
    assert part.status_code == 206 and part.content == TUNE[10:20]
    assert part.headers["content-range"] == f"bytes 10-19/{len(TUNE)}"
    tail = api.client.get(url, headers={"Range": "bytes=-5"})
    assert tail.status_code == 206 and tail.content == TUNE[-5:]
    assert api.client.get(url, headers={"Range": f"bytes={len(TUNE)}-"}).status_code == 416


def test_the_host_plays_pauses_and_replays_on_the_screen_and_chooses_phones(
    api: QuizApi,
) -> None:
    evening(api)
    put_media(api, "tune.mp3", TUNE)
    api.cmd("start")
    api.cmd("open_question")
    refused = api.cmd("media", expect=409, action="play")
    assert "show question 1 before playing" in refused["error"]["message"]
    api.cmd("screen", show="question")
    media = api.projector()["screen"]["media"]
    assert media == {
        "kind": "audio",
        "url": "/api/quiz/events/" + api.event_id + "/media/tune.mp3",
        "playing": False,
        "starts": 0,
        "phones": False,
    }
    assert api.judge_view()["expected"]["media"] == media
    api.cmd("media", action="play")
    assert api.projector()["screen"]["media"] | {"url": ""} == media | {
        "url": "",
        "playing": True,
        "starts": 1,
    }
    assert api.team_view("Owls")["media"] is None  # the phones stay silent
    api.cmd("media", action="pause", phones=True)
    on_phone = api.team_view("Owls")["media"]
    assert on_phone["playing"] is False and on_phone["phones"] is True
    api.cmd("media", action="replay", phones=True)
    screen = api.projector()["screen"]["media"]
    assert screen["playing"] is True and screen["starts"] == 2
    assert api.team_view("Bears")["media"] == screen


def test_a_question_without_a_sound_refuses_the_play_command(api: QuizApi) -> None:
    evening(api)
    api.cmd("start")
    api.play(1, {"Owls": "right"}, {"right"})
    api.play(2, {"Owls": "right"}, {"right"})
    api.cmd("open_question")
    api.cmd("screen", show="question")
    refused = api.cmd("media", expect=422, action="play")
    assert "question 3 has no sound or video in the pack" in refused["error"]["message"]
