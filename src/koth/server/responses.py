"""Response helpers shared by the features."""

from __future__ import annotations

import re

from starlette.responses import Response

#: what a download's file name keeps (a header must stay plain ASCII)
_UNSAFE = re.compile(r"[^A-Za-z0-9._-]")


def attachment(filename: str) -> dict[str, str]:
    """Headers that make a browser save the body as ``filename`` (made safe)."""
    return {"Content-Disposition": f'attachment; filename="{_UNSAFE.sub("_", filename)}"'}


_RANGE = re.compile(r"bytes=(\d*)-(\d*)")


def ranged(data: bytes, mime: str, range_header: str | None) -> Response:
    """``data`` whole (200), or the one byte range a media player asks for (206, or 416
    when it lies past the end): browsers seek and replay sounds and videos by ranges."""
    headers = {"Accept-Ranges": "bytes", "Cache-Control": "private, max-age=3600"}
    found = _RANGE.fullmatch((range_header or "").strip())
    if found is None or found.groups() == ("", ""):
        return Response(data, media_type=mime, headers=headers)
    first, last = found.groups()
    size = len(data)
    if first:
        start, end = int(first), min(int(last), size - 1) if last else size - 1
    else:
        start, end = max(0, size - int(last)), size - 1
    if start >= size or start > end:
        headers["Content-Range"] = f"bytes */{size}"
        return Response(b"", status_code=416, headers=headers)
    headers["Content-Range"] = f"bytes {start}-{end}/{size}"
    return Response(data[start : end + 1], status_code=206, media_type=mime, headers=headers)
