"""Question packs: the questions a host reads, with answers, accepted variants, comments,
pictures, sounds and videos, partner names and backup questions, in a UTF-8 CSV form and
a JSON/YAML form.

Errors name the line and the field (``line 4, field 'number': ...``) so a pack written
in a spreadsheet or an editor can be fixed where it is wrong. Pictures are named by file
name, and so are audio and video files; the pack only refers to them (the host uploads
them beside the pack, the CLI looks for them next to the pack file). A file's type is
read from its first bytes, never from its name, and its size is limited by
:class:`FileLimits`, the one place both the server and ``koth quiz pack check`` take
their limits from.
"""

from __future__ import annotations

import csv
import io
import math
import time
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import PurePosixPath
from typing import Any, Final, Literal

import yaml
from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    ValidationError,
    ValidationInfo,
    field_validator,
    model_validator,
)

from koth.core.errors import KothError

PackForm = Literal["csv", "json", "yaml"]

TEXT_MAX = 4000
ANSWER_MAX = 500
VARIANTS_MAX = 50
QUESTIONS_MAX = 2000
#: the largest picture of a pack by default: the server's ``quiz_picture_bytes`` setting
#: and ``koth quiz pack check`` both start from it, so a pack the check passes is one the
#: server stores
PICTURE_MAX_BYTES: Final = 200 * 1024
#: the largest audio file (``quiz_audio_bytes``) and video file (``quiz_video_bytes``) by
#: default: about a minute of music at 192 kbit/s, half a minute of 720p video
AUDIO_MAX_BYTES: Final = 2 * 1024 * 1024
VIDEO_MAX_BYTES: Final = 8 * 1024 * 1024
#: the CSV form: one row per question; ``accepted`` holds the variants split by ``|``
CSV_FIELDS = (
    "number",
    "text",
    "answer",
    "accepted",
    "comment",
    "source",
    "picture",
    "audio",
    "video",
    "partner",
    "backup",
    "part",
    "lightning",
)
REQUIRED_CSV_FIELDS = ("number", "text", "answer")
VARIANT_SEPARATOR = "|"
PART_NAMES = ("game", "semifinal 1", "semifinal 2", "final")
#: picture types accepted, by the first bytes of the file (never by its name)
PICTURE_MAGIC: dict[str, tuple[bytes, ...]] = {
    "image/png": (b"\x89PNG\r\n\x1a\n",),
    "image/jpeg": (b"\xff\xd8\xff",),
    "image/gif": (b"GIF87a", b"GIF89a"),
}


MediaKind = Literal["audio", "video"]


@dataclass(frozen=True, slots=True)
class FileLimits:
    """The largest file of each kind a pack may name, in bytes: the server builds one from
    its settings, ``koth quiz pack check`` from its options, both with these defaults."""

    picture: int = PICTURE_MAX_BYTES
    audio: int = AUDIO_MAX_BYTES
    video: int = VIDEO_MAX_BYTES

    def of(self, kind: str) -> int:
        return {"audio": self.audio, "video": self.video}.get(kind, self.picture)


class PackError(KothError, ValueError):
    """A pack that cannot be read; ``problems`` holds one line per error."""

    def __init__(self, problems: list[str]) -> None:
        self.problems = problems
        super().__init__("; ".join(problems))


def picture_type(data: bytes) -> str | None:
    """The MIME type of a PNG, JPEG, GIF or WebP file by its magic bytes (else None)."""
    if data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        return "image/webp"
    for mime, starts in PICTURE_MAGIC.items():
        if data.startswith(starts):
            return mime
    return None


def media_type(data: bytes) -> str | None:
    """The MIME type of an MP3, OGG or M4A sound or an MP4 or WebM video by its first
    bytes (else None). An MP4 file whose brand is an audio one (M4A) is a sound."""
    if data[4:8] == b"ftyp" and len(data) >= 12:
        audio_brand = data[8:12] in (b"M4A ", b"M4B ", b"F4A ")
        return "audio/mp4" if audio_brand else "video/mp4"
    if data.startswith(b"\x1a\x45\xdf\xa3") and b"webm" in data[:64]:
        return "video/webm"
    if data.startswith(b"OggS"):
        return "audio/ogg"
    if data.startswith(b"ID3") or (
        # an MPEG audio frame: 11 sync bits, a version and a layer that are not reserved
        len(data) >= 4
        and data[0] == 0xFF
        and data[1] & 0xE0 == 0xE0
        and data[1] & 0x18 != 0x08
        and data[1] & 0x06 != 0
    ):
        return "audio/mpeg"
    return None


class PackQuestion(BaseModel):
    """One question of a pack."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    number: int = Field(ge=1, le=1000, description="main questions 1, 2, …; backups 1, 2, …")
    text: str = Field(min_length=1, max_length=TEXT_MAX)
    answer: str = Field(min_length=1, max_length=ANSWER_MAX)
    accepted: list[str] = Field(default_factory=list, max_length=VARIANTS_MAX)
    comment: str = Field("", max_length=TEXT_MAX)
    source: str = Field("", max_length=TEXT_MAX)
    picture: str | None = Field(None, max_length=200, description="a file name of the pack")
    audio: str | None = Field(
        None, max_length=200, description="a sound of the pack (MP3, OGG or M4A) to play"
    )
    video: str | None = Field(
        None, max_length=200, description="a video of the pack (MP4 or WebM) to play"
    )
    partner: str | None = Field(None, max_length=200, description="a partner question's partner")
    backup: bool = False
    part: str | None = Field(None, description="only in this part (default: every part)")
    lightning: bool = Field(
        False, description="a lightning question (numbered 1, 2, … of their own, read in order)"
    )

    @model_validator(mode="after")
    def _one_kind(self) -> PackQuestion:
        if self.backup and self.lightning:
            raise ValueError("a question is a backup or a lightning question, not both")
        if self.audio and self.video:
            raise ValueError("a question plays a sound or a video, not both")
        return self

    @property
    def media(self) -> tuple[MediaKind, str] | None:
        """The sound or video the question plays (its kind and file name), if any."""
        if self.audio:
            return "audio", self.audio
        return ("video", self.video) if self.video else None

    @property
    def kind(self) -> str:
        """main, backup or lightning: each kind is numbered 1, 2, … of its own"""
        return "lightning" if self.lightning else "backup" if self.backup else "main"

    @field_validator("text", "answer", "comment", "source")
    @classmethod
    def _stripped(cls, value: str) -> str:
        return value.strip()

    @field_validator("accepted")
    @classmethod
    def _variants(cls, value: list[str]) -> list[str]:
        variants = [v.strip() for v in value]
        if any(not v or len(v) > ANSWER_MAX for v in variants):
            raise ValueError(f"each accepted variant has 1 to {ANSWER_MAX} characters")
        return variants

    @field_validator("picture", "audio", "video")
    @classmethod
    def _file_name(cls, value: str | None, info: ValidationInfo) -> str | None:
        if value is None or not value.strip():
            return None
        name = value.strip()
        if not plain_file_name(name):
            what = {"audio": "a sound", "video": "a video"}.get(str(info.field_name), "a picture")
            raise ValueError(f"{what} is a plain file name without folders (got {name!r})")
        return name

    @field_validator("partner", "part")
    @classmethod
    def _optional(cls, value: str | None) -> str | None:
        return value.strip() or None if value is not None else None

    @field_validator("part")
    @classmethod
    def _part(cls, value: str | None) -> str | None:
        if value is not None and value not in PART_NAMES:
            raise ValueError(f"a part is one of {', '.join(PART_NAMES)} (got {value!r})")
        return value


class Pack(BaseModel):
    """A question pack: its title and questions (main and backup, per part or for all)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    title: str = Field("", max_length=200)
    questions: list[PackQuestion] = Field(min_length=1, max_length=QUESTIONS_MAX)

    def find(self, part: str, number: int, main: int) -> PackQuestion | None:
        """The question read as question ``number`` of ``part`` (which has ``main``
        main questions: later numbers are its backups), preferring one meant for that
        part over one for every part."""
        backup = number > main
        wanted = number - main if backup else number
        best: PackQuestion | None = None
        for q in self.questions:
            if q.lightning or q.backup != backup:
                continue
            if q.number == wanted and q.part in (part, None):
                if q.part == part:
                    return q
                best = best or q
        return best

    def lightning_question(self, part: str, number: int) -> PackQuestion | None:
        """Lightning question ``number`` (1, 2, … as ties are played off) for ``part``,
        preferring one meant for that part over one for every part."""
        found = [
            q
            for q in self.questions
            if q.lightning and q.number == number and q.part in (part, None)
        ]
        return next((q for q in found if q.part == part), found[0] if found else None)

    def count(self, kind: str) -> int:
        """How many questions of ``kind`` (main, backup or lightning) the pack holds."""
        return sum(1 for q in self.questions if q.kind == kind)

    def pictures(self) -> list[str]:
        return sorted({q.picture for q in self.questions if q.picture})

    def media(self) -> dict[str, MediaKind]:
        """The sounds and videos the pack names: file name -> audio or video."""
        return {m[1]: m[0] for q in self.questions if (m := q.media) is not None}


def plain_file_name(name: str) -> bool:
    """Whether ``name`` is a file name without folders (as a pack names its files)."""
    return (
        bool(name)
        and PurePosixPath(name).name == name
        and name not in {".", ".."}
        and "\\" not in name
        and "\x00" not in name
    )


# ----------------------------------------------------------------------- reading
def parse_pack(text: str, form: PackForm, *, max_seconds: float | None = None) -> Pack:
    """Read a pack in ``form`` (raises PackError with one line per problem). A JSON/YAML
    pack may not use aliases, and its reading stops after ``max_seconds`` if given."""
    if form == "csv":
        rows, lines = _csv_rows(text)
        return _validate({"questions": rows}, lambda loc: _csv_line(loc, lines))
    deadline = math.inf if max_seconds is None else time.monotonic() + max_seconds
    data, where = _yaml_tree(text, deadline)
    return _validate(data, where)


def pack_form(file_name: str) -> PackForm:
    """The form of a pack file, by its extension."""
    suffix = PurePosixPath(file_name.lower()).suffix
    forms: dict[str, PackForm] = {".csv": "csv", ".json": "json", ".yaml": "yaml", ".yml": "yaml"}
    if suffix not in forms:
        raise PackError([f"{file_name}: a pack is a .csv, .json, .yaml or .yml file"])
    return forms[suffix]


def _csv_rows(text: str) -> tuple[list[dict[str, Any]], list[int]]:
    text = text.removeprefix("\ufeff")  # a spreadsheet's byte-order mark
    reader = csv.DictReader(io.StringIO(text, newline=""))
    header = [h.strip() for h in reader.fieldnames or []]
    reader.fieldnames = header
    unknown = [h for h in header if h not in CSV_FIELDS]
    missing = [h for h in REQUIRED_CSV_FIELDS if h not in header]
    problems = [
        f"line 1, field {h!r}: unknown column (columns: {', '.join(CSV_FIELDS)})" for h in unknown
    ]
    problems += [f"line 1, field {h!r}: the column is missing" for h in missing]
    if problems:
        raise PackError(problems)
    rows: list[dict[str, Any]] = []
    lines: list[int] = []
    for record in reader:
        if None in record:
            raise PackError([f"line {reader.line_num}: more cells than columns"])
        cells = {k: (v or "").strip() for k, v in record.items() if k is not None}
        if not any(cells.values()):
            continue
        row: dict[str, Any] = {
            k: v for k, v in cells.items() if v != "" or k in REQUIRED_CSV_FIELDS
        }
        if "accepted" in row:
            row["accepted"] = [v for v in row["accepted"].split(VARIANT_SEPARATOR) if v.strip()]
        for flag in ("backup", "lightning"):
            if flag in row:
                row[flag] = _yes(row[flag])
        rows.append(row)
        lines.append(reader.line_num)
    return rows, lines


def _yes(cell: str) -> Any:
    truth = {"yes": True, "y": True, "1": True, "true": True, "да": True}
    falsity = {"no": False, "n": False, "0": False, "false": False, "нет": False}
    return {**truth, **falsity}.get(cell.casefold(), cell)


def _csv_line(loc: tuple[int | str, ...], lines: list[int]) -> int | None:
    if len(loc) >= 2 and loc[0] == "questions" and isinstance(loc[1], int):
        return lines[loc[1]] if loc[1] < len(lines) else None
    return None


class _PackLoader(yaml.SafeLoader):
    """YAML's safe loader without aliases: an alias repeats a node, so a few bytes of
    them can stand for gigabytes ("billion laughs"); a pack never needs one. It gives up
    past its deadline."""

    deadline = math.inf

    def compose_node(self, parent: Any, index: Any) -> Any:
        if time.monotonic() > self.deadline:
            raise PackError(["the pack takes too long to read"])
        if self.check_event(yaml.AliasEvent):
            event: Any = self.peek_event()  # type: ignore[no-untyped-call]
            raise PackError(
                [f"line {event.start_mark.line + 1}: a pack may not use YAML aliases (*name)"]
            )
        return super().compose_node(parent, index)


def _yaml_tree(text: str, deadline: float = math.inf) -> tuple[Any, Any]:
    """The document and a function giving the line of a path in it (JSON is YAML)."""
    loader = _PackLoader(text)
    loader.deadline = deadline
    try:
        node = loader.get_single_node()
        data = None if node is None else loader.construct_document(node)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        line = f"line {mark.line + 1}: " if mark is not None else ""
        raise PackError([f"{line}not valid JSON/YAML ({getattr(exc, 'problem', exc)})"]) from None
    finally:
        loader.dispose()

    def where(loc: tuple[int | str, ...]) -> int | None:
        current = node
        best = current.start_mark.line + 1 if current is not None else None
        for key in loc:
            current = _child(current, key)
            if current is None:
                break
            best = current.start_mark.line + 1
        return best

    return data, where


def _child(node: Any, key: int | str) -> Any:
    if isinstance(node, yaml.MappingNode):
        for k, v in node.value:
            if k.value == key:
                return v
    elif isinstance(node, yaml.SequenceNode) and isinstance(key, int) and key < len(node.value):
        return node.value[key]
    return None


def _validate(data: Any, line_of: Any) -> Pack:
    if not isinstance(data, Mapping):
        raise PackError(["line 1: a pack is an object with 'questions' (a list)"])
    try:
        pack = Pack.model_validate(data)
    except ValidationError as exc:
        problems = [_problem(err, line_of) for err in exc.errors()]
        # the rows that are fine are still checked for numbers used twice (a gap may be
        # a row refused above, so gaps wait until every row is fine)
        problems += _numbering(_fine_rows(data), line_of, gaps=False)
        raise PackError(problems) from None
    problems = _numbering(list(enumerate(pack.questions)), line_of)
    if problems:
        raise PackError(problems)
    return pack


def _fine_rows(data: Mapping[str, Any]) -> list[tuple[int, PackQuestion]]:
    """The questions of ``data`` that are valid on their own, with their index."""
    rows = data.get("questions")
    fine: list[tuple[int, PackQuestion]] = []
    for i, item in enumerate(rows if isinstance(rows, list) else []):
        try:
            fine.append((i, PackQuestion.model_validate(item)))
        except ValidationError:
            continue
    return fine


def _problem(err: Any, line_of: Any) -> str:
    loc: tuple[int | str, ...] = tuple(err["loc"])
    line = line_of(loc)
    fields = [p for p in loc if isinstance(p, str)]
    where = f"line {line}" if line is not None else "the pack"
    field = f", field {fields[-1]!r}" if fields else ""
    got = err.get("input")
    shown = "" if isinstance(got, dict | list) or got is None else f" (got {str(got)[:40]!r})"
    message = str(err["msg"]).removeprefix("Value error, ")
    return f"{where}{field}: {message}{shown}"


def _numbering(
    questions: list[tuple[int, PackQuestion]], line_of: Any, *, gaps: bool = True
) -> list[str]:
    """Each question number once per part and kind; main, backup and lightning numbers
    run 1, 2, …"""
    problems: list[str] = []
    seen: dict[tuple[str | None, str, int], int] = {}
    for i, q in questions:
        key = (q.part, q.kind, q.number)
        line = line_of(("questions", i, "number"))
        if key in seen:
            kind = {"main": "question"}.get(q.kind, f"{q.kind} question")
            problems.append(
                f"line {line}, field 'number': {kind} {q.number} is already on line {seen[key]}"
            )
        else:
            seen[key] = line
    for (part, kind_of), numbers in _groups(seen).items() if gaps else ():
        missing = sorted(set(range(1, max(numbers) + 1)) - set(numbers))
        if missing:
            kind = {"main": "questions"}.get(kind_of, f"{kind_of} questions")
            scope = f" of {part}" if part else ""
            problems.append(
                f"the pack, field 'number': {kind}{scope} run 1 to {max(numbers)} but "
                f"{', '.join(map(str, missing[:10]))} is missing"
            )
    return problems


def _groups(
    seen: Iterable[tuple[str | None, str, int]],
) -> dict[tuple[str | None, str], list[int]]:
    out: dict[tuple[str | None, str], list[int]] = {}
    for part, kind, number in seen:
        out.setdefault((part, kind), []).append(number)
    return out


# ----------------------------------------------------------------------- writing
def pack_csv(pack: Pack) -> str:
    """The CSV form of ``pack`` (read back by :func:`parse_pack` to the same pack)."""
    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, fieldnames=CSV_FIELDS, lineterminator="\n")
    writer.writeheader()
    for q in pack.questions:
        writer.writerow(
            {
                "number": q.number,
                "text": q.text,
                "answer": q.answer,
                "accepted": VARIANT_SEPARATOR.join(q.accepted),
                "comment": q.comment,
                "source": q.source,
                "picture": q.picture or "",
                "audio": q.audio or "",
                "video": q.video or "",
                "partner": q.partner or "",
                "backup": "yes" if q.backup else "",
                "part": q.part or "",
                "lightning": "yes" if q.lightning else "",
            }
        )
    return buffer.getvalue()


@dataclass(frozen=True, slots=True)
class PictureCheck:
    name: str
    problem: str | None
    mime: str | None = None


def check_picture(name: str, data: bytes | None, max_bytes: int) -> PictureCheck:
    """Whether picture ``name`` of a pack can be stored: present, small enough, and a
    PNG, JPEG, WebP or GIF by its first bytes."""
    if data is None:
        return PictureCheck(name, f"picture {name!r}: the file is missing")
    if len(data) > max_bytes:
        return PictureCheck(
            name, f"picture {name!r}: {len(data)} bytes, more than the {max_bytes} allowed"
        )
    mime = picture_type(data)
    if mime is None:
        return PictureCheck(name, f"picture {name!r}: not a PNG, JPEG, WebP or GIF file")
    return PictureCheck(name, None, mime)


def check_media(name: str, data: bytes | None, limits: FileLimits) -> PictureCheck:
    """Whether sound or video ``name`` of a pack can be stored: present, an MP3, OGG, M4A,
    MP4 or WebM file by its first bytes, and no larger than its kind's limit."""
    if data is None:
        return PictureCheck(name, f"file {name!r}: the file is missing")
    mime = media_type(data)
    if mime is None:
        return PictureCheck(name, f"file {name!r}: not an MP3, OGG, M4A, MP4 or WebM file")
    kind = mime.split("/")[0]
    if len(data) > limits.of(kind):
        return PictureCheck(
            name, f"{kind} {name!r}: {len(data)} bytes, more than the {limits.of(kind)} allowed"
        )
    return PictureCheck(name, None, mime)
