"""Sounds and videos in a pack: the ``audio`` and ``video`` fields, files recognised by
their first bytes, and one set of size limits for ``koth quiz pack check`` and the server."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from koth.games.quiz.cli import quiz_app
from koth.games.quiz.pack import (
    AUDIO_MAX_BYTES,
    VIDEO_MAX_BYTES,
    FileLimits,
    PackError,
    check_media,
    media_type,
    pack_csv,
    parse_pack,
)
from tests.games.quiz.media_files import MP3_FRAME, m4a, mp3, mp4, ogg, webm

runner = CliRunner()
HEAD = "number,text,answer,audio,video\n"


@pytest.mark.parametrize(
    ("data", "mime"),
    [
        (mp3(0.1), "audio/mpeg"),
        (MP3_FRAME * 2, "audio/mpeg"),  # no ID3 tag: the frame header itself
        (ogg(), "audio/ogg"),
        (m4a(), "audio/mp4"),
        (mp4(), "video/mp4"),
        (webm(), "video/webm"),
        (b"\x89PNG\r\n\x1a\n" + bytes(20), None),
        (b"\xff\xd8\xff\xe0" + bytes(20), None),  # a JPEG is no MPEG frame
        (b"\x1a\x45\xdf\xa3\x9f\x42\x86\x81\x01matroska" + bytes(40), None),
        (b"RIFF\x00\x00\x00\x00WAVEfmt ", None),
        (b"", None),
    ],
)
def test_sounds_and_videos_are_recognised_by_their_first_bytes(
    data: bytes, mime: str | None
) -> None:
    assert media_type(data) == mime


def test_the_audio_and_video_fields_name_plain_files_and_round_trip() -> None:
    pack = parse_pack(HEAD + "1,Hear this,A,tune.mp3,\n2,Watch this,B,,clip.webm\n", "csv")
    assert [q.media for q in pack.questions] == [("audio", "tune.mp3"), ("video", "clip.webm")]
    assert pack.media() == {"tune.mp3": "audio", "clip.webm": "video"}
    assert parse_pack(pack_csv(pack), "csv") == pack
    yaml_pack = parse_pack("questions:\n- {number: 1, text: T, answer: A, video: v.mp4}\n", "yaml")
    assert yaml_pack.questions[0].media == ("video", "v.mp4")


@pytest.mark.parametrize(
    ("row", "expected"),
    [
        ("1,Q,A,../x.mp3,", "line 2, field 'audio': a sound is a plain file name"),
        ("1,Q,A,,a/b.webm", "line 2, field 'video': a video is a plain file name"),
        ("1,Q,A,a.mp3,b.mp4", "a question plays a sound or a video, not both"),
    ],
)
def test_bad_media_fields_name_the_line_and_field(row: str, expected: str) -> None:
    with pytest.raises(PackError) as caught:
        parse_pack(HEAD + row + "\n", "csv")
    assert expected in str(caught.value)


def test_media_checks_apply_the_limit_of_the_files_kind() -> None:
    limits = FileLimits(picture=10, audio=20_000, video=100)
    assert check_media("a.mp3", mp3(0.3), limits).mime == "audio/mpeg"
    assert "audio 'a.mp3': 40042 bytes, more than the 20000" in str(
        check_media("a.mp3", mp3(2.5), limits).problem
    )
    assert "more than the 100 allowed" in str(
        check_media("v.webm", webm() + bytes(60), limits).problem
    )
    assert "not an MP3, OGG, M4A, MP4 or WebM file" in str(
        check_media("x.mp3", b"hello", limits).problem
    )
    assert "the file is missing" in str(check_media("x.mp3", None, limits).problem)


def test_cli_pack_check_applies_the_servers_media_limits(tmp_path: Path) -> None:
    """The same limits as the server's settings (tests/server/quiz/test_media.py checks the
    defaults are these constants)."""
    pack = tmp_path / "p.csv"
    pack.write_text(HEAD + "1,Q,A,tune.mp3,\n2,R,B,,clip.webm\n3,S,C,fake.ogg,\n", encoding="utf-8")
    (tmp_path / "tune.mp3").write_bytes(mp3(0.5))
    (tmp_path / "clip.webm").write_bytes(webm() + bytes(VIDEO_MAX_BYTES))
    (tmp_path / "fake.ogg").write_bytes(b"ID4 not a sound")
    result = runner.invoke(quiz_app, ["pack", "check", str(pack)])
    assert result.exit_code == 2
    assert (
        f"video 'clip.webm': {len(webm()) + VIDEO_MAX_BYTES} bytes, more than the "
        f"{VIDEO_MAX_BYTES} allowed" in result.stderr
    )
    assert "file 'fake.ogg': not an MP3, OGG, M4A, MP4 or WebM file" in result.stderr
    assert "tune.mp3" not in result.stderr and "tune.mp3" in result.stdout
    (tmp_path / "fake.ogg").write_bytes(ogg())
    result = runner.invoke(
        quiz_app, ["pack", "check", str(pack), "--video-bytes", str(2 * VIDEO_MAX_BYTES)]
    )
    assert result.exit_code == 0, result.stderr
    small = ["pack", "check", str(pack), "--video-bytes", str(2 * VIDEO_MAX_BYTES)]
    result = runner.invoke(quiz_app, [*small, "--audio-bytes", "1024"])
    assert result.exit_code == 2 and "audio 'tune.mp3'" in result.stderr
    assert FileLimits().audio == AUDIO_MAX_BYTES
