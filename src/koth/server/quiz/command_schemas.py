"""Request bodies of the judge console's commands (documented in the OpenAPI schema):
one body per command, so the schema says what each needs. ``question`` is the open
question where a command leaves it out.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field, StrictBool

from koth.server.bodies import RequestBody
from koth.server.quiz.names import TEAM_NAME_MAX
from koth.server.quiz.ops import ANSWER_MAX, COMMENT_MAX, MediaAction, Screen


class _Body(RequestBody):
    pass


class NoArguments(_Body):
    pass


class OnQuestion(_Body):
    question: int | None = Field(default=None, ge=1, description="default: the open question")


class AddTeamCommand(_Body):
    team: str = Field(min_length=1, max_length=TEAM_NAME_MAX)


class OpenQuestionCommand(_Body):
    question: int | None = Field(default=None, ge=1, description="default: the next question")


class OpenAnsweringCommand(OnQuestion):
    seconds: float | None = Field(
        default=None, gt=0, le=3600, description="default: the event's answering time"
    )


class ExtendCommand(OnQuestion):
    seconds: float = Field(gt=0, le=3600)


class JudgeCommand(OnQuestion):
    correct: StrictBool
    key: str | None = Field(default=None, max_length=400, description="a group's normalised text")
    teams: list[str] = Field(default_factory=list, max_length=10_000)


class PartnerCommand(OnQuestion):
    partner: StrictBool = True


class AppealCommand(_Body):
    question: int = Field(ge=1)
    team: str = Field(min_length=1, max_length=TEAM_NAME_MAX)
    correct: StrictBool
    comment: str = Field("", max_length=COMMENT_MAX)
    answer: str | None = Field(
        default=None,
        min_length=1,
        max_length=ANSWER_MAX,
        description="for a team whose answer never arrived: the answer, typed by the judge",
    )


class LightningCommand(_Body):
    teams: list[str] = Field(max_length=10_000)
    right: list[str] = Field(default_factory=list, max_length=10_000)


# ---------------------------------------------- the host's control (commands)
class TeamCommand(_Body):
    team: str = Field(min_length=1, max_length=TEAM_NAME_MAX)


class RenameTeamCommand(TeamCommand):
    name: str = Field(min_length=1, max_length=TEAM_NAME_MAX, description="the new name")


class MergeTeamsCommand(TeamCommand):
    into: str = Field(
        min_length=1, max_length=TEAM_NAME_MAX, description="the team that absorbs ``team``"
    )


class LockJoiningCommand(_Body):
    locked: StrictBool = True


class GroupAppealCommand(_Body):
    """An appeal for a whole answer group of a closed question (its normalised text)
    and/or the listed teams."""

    question: int = Field(ge=1)
    key: str | None = Field(default=None, max_length=400, description="a group's normalised text")
    teams: list[str] = Field(default_factory=list, max_length=10_000)
    correct: StrictBool
    comment: str = Field("", max_length=COMMENT_MAX)


class AnswerForTeamCommand(OnQuestion):
    team: str = Field(min_length=1, max_length=TEAM_NAME_MAX)
    text: str = Field(min_length=1, max_length=ANSWER_MAX)


# ------------------------------------------------------------------ the show
#: the longest pack text: the default cap on a request body (a text cannot be longer
#: than the body that carries it)
PACK_TEXT_MAX = 256 * 1024


class PackUpload(_Body):
    """A question pack as the host's file holds it (CSV, JSON or YAML text)."""

    form: Literal["csv", "json", "yaml"]
    text: str = Field(
        min_length=1,
        max_length=PACK_TEXT_MAX,
        description="the file's text; the whole request body is also capped by the "
        "server's max_body_bytes (256 KiB unless its host set more)",
    )


class ScreenCommand(OnQuestion):
    show: Screen


class MediaCommand(OnQuestion):
    """Play, pause or replay the open question's sound or video on the big screen."""

    action: MediaAction
    phones: bool = Field(default=False, description="play it on the teams' phones too")
