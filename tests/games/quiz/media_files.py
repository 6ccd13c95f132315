"""Small sound and video files for the tests, made here: each starts as a real file of its
type does (what the pack's checks read), and the MP3 is a real, playable one."""

from __future__ import annotations

#: an MPEG-1 Layer III frame header: 128 kbit/s, 44.1 kHz, no padding (a frame is 417
#: bytes); frames of zeros after it decode to silence
MP3_FRAME = b"\xff\xfb\x90\x64" + bytes(413)


def mp3(seconds: float = 10.0) -> bytes:
    """A silent MP3 of about ``seconds`` (38.28 frames a second), with an ID3v2 tag."""
    return b"ID3\x03\x00\x00\x00\x00\x00\x00" + MP3_FRAME * max(1, round(seconds * 38.28))


def ogg() -> bytes:
    """The first page of an Ogg Vorbis file (capture pattern, version, flags, ...)."""
    return b"OggS\x00\x02" + bytes(20) + b"\x01\x1e\x01vorbis" + bytes(30)


def m4a() -> bytes:
    """An MP4 file's ftyp box with the M4A brand (a sound)."""
    return b"\x00\x00\x00\x1cftypM4A \x00\x00\x00\x00M4A isommp42" + bytes(40)


def mp4() -> bytes:
    """An MP4 video's ftyp box (brand isom) and the start of its next box."""
    return b"\x00\x00\x00\x20ftypisom\x00\x00\x02\x00isomiso2avc1mp41\x00\x00\x00\x08free"


def webm() -> bytes:
    """A WebM file's EBML header (DocType "webm"), as Chromium's recorder writes it."""
    return (
        b"\x1a\x45\xdf\xa3\x9f\x42\x86\x81\x01\x42\xf7\x81\x01\x42\xf2\x81\x04"
        b"\x42\xf3\x81\x08\x42\x82\x84webm\x42\x87\x81\x04\x42\x85\x81\x02" + bytes(40)
    )
