"""The board game's parameters (every interpretation that is an option)."""

from __future__ import annotations

from pydantic import Field, model_validator

from koth.core.params import GameParams


class BoardParams(GameParams):
    """Options of Florian Jehn's King of the Hill; defaults follow docs/rules/board.md."""

    num_players: int = Field(2, ge=2, le=4, description="players at the table (B3, B6)")
    runner_range: int = Field(
        3, ge=1, le=4, description="tiles a runner may move in one move action (B9)"
    )
    runner_first_round: int = Field(
        4, ge=1, description="the first round in which runners may be recruited (B8)"
    )
    fighter_range: int = Field(
        1, ge=1, le=3, description="tiles a fighter may move in one move action (B9)"
    )
    blocker_range: int = Field(
        1, ge=1, le=3, description="tiles a blocker may move in one move action (B9)"
    )
    runners_blocked_by_own: bool = Field(
        True,
        description="runners may not enter or pass tiles holding their own fighters or "
        "blockers either (B10; false: only enemy ones stop them)",
    )
    blockers_avoid_blockers: bool = Field(
        False,
        description="blockers may not enter a tile holding an enemy blocker (B12.3; "
        "false: they may, and share it)",
    )
    score_own_turns_only: bool = Field(
        False, description="players score only at the end of their own turns (B15)"
    )
    countdown: bool = Field(
        False, description="variant: a shared countdown replaces the points target (B16.1)"
    )
    one_excluded: bool = Field(
        False, description="variant: each player secretly excludes one unit type (B16.2)"
    )
    teamplay: bool = Field(
        False,
        description="variant (4 players): Seat 1 and Seat 3 against Seat 2 and Seat 4, "
        "pooling points (B16.3)",
    )
    round_limit: int = Field(
        200, ge=1, le=100_000, description="rounds after which the game is drawn (B17)"
    )
    target_points: int = Field(30, ge=1, description="points that win the game (B15)")
    countdown_start: int = Field(50, ge=1, description="start value of the countdown (B16.1)")

    @model_validator(mode="after")
    def _teams_need_four(self) -> BoardParams:
        if self.teamplay and self.num_players != 4:
            raise ValueError("teamplay needs num_players = 4")
        return self
