"""Hints: the strongest computer level's move for a person playing the computer alone.

A hint is offered only at a table with exactly one person (everyone else a computer):
between two people it would be a third player. The person asks from their seat (a
spectator never gets one); the strongest level of the game (``koth.agents.levels``)
searches the seat's information set, in the computer seats' worker processes and
within the server's think-time cap, and the answer names the move with a one-line
reason from the search's statistics. The service stores that the seat was given a hint
at this version, so the move it then plays, in whichever process, is stored with
``"hinted"`` (see ``GameService.submit``) and the replay marks it.
"""

from __future__ import annotations

from koth.agents.base import derive_seed
from koth.agents.levels import TITLES, strongest
from koth.analysis.hint import Suggestion, suggest
from koth.core.errors import GameOverError, NotYourTurnError
from koth.i18n import DEFAULT, N_, Translator
from koth.server.errors import ForbiddenError, InvalidRequestError
from koth.server.games.agents import agent_spec, resolve_seat
from koth.server.games.messages import action_entry
from koth.server.games.schemas import HintResponse, SeatKind
from koth.server.games.service import GameService
from koth.server.games.worker import ComputerWorker

#: the hint's reason, from the search's statistics
REASON = N_("The {level} level expects to win {chance}% of the time with this move.")
REASON_RUNNER_UP = N_(
    "The {level} level expects to win {chance}% of the time with this move "
    "({other}: {other_chance}%)."
)
NO_REASON = N_("The {level} level would play this move.")


class HintService:
    """The only entry point of the hint route."""

    def __init__(self, games: GameService, worker: ComputerWorker, max_seconds: float) -> None:
        self.games = games
        self.worker = worker
        self.max_seconds = max_seconds

    async def hint(self, game_id: str, token: str | None, lang: str = DEFAULT) -> HintResponse:
        """The strongest level's move for the seat of ``token``, now."""
        live = await self.games.live(game_id)
        seat = self.games.seat_of(live, token)
        if seat is None:
            raise ForbiddenError(N_("spectators get no hints: a seat token is required"))
        people = sum(1 for s in live.stored.seats if s.kind is SeatKind.HUMAN)
        if people != 1:
            raise ForbiddenError(
                N_(
                    "hints are offered only to a person playing the computer alone; "
                    "this game has {people} people"
                ),
                people=people,
            )
        level = strongest(live.game.name)
        if level is None:
            raise InvalidRequestError(
                N_("the {game} game has no computer levels to ask for a hint"),
                game=live.game.name,
            )
        state, version = live.state, live.version
        if state.is_terminal():
            raise GameOverError("the game is over: there is no move to hint at")
        if seat not in state.to_move().players or seat in live.submitted:
            raise NotYourTurnError(f"seat {seat + 1} has no move to make now, so no hint")
        agent, budget = resolve_seat(level.key, None, live.game.name)
        spec = agent_spec(agent, budget, self.max_seconds)
        seed = derive_seed(live.stored.chance_seed, "hint", seat, version)
        snapshot = state.clone()
        found: Suggestion = await self.worker.in_search_pool(suggest, snapshot, seat, spec, seed)
        action = snapshot.check_action(found.action, seat)
        await self.games.note_hint(game_id, version, seat)
        _ = Translator(lang)
        return HintResponse(
            game_id=game_id,
            version=version,
            seat=seat,
            level=level.key,
            level_title=_(level.title),
            action=action_entry(snapshot.game, action),
            reason=reason(found, _(TITLES[level.key]), lang),
        )


def reason(found: Suggestion, level: str, lang: str) -> str:
    """One line on why, in ``lang``: the search's win chance with the move and the
    runner-up's, when it rated them."""
    _ = Translator(lang)
    if found.win_chance is None:
        return _(NO_REASON, level=level)
    chance = round(100 * found.win_chance)
    if found.runner_up is None:
        return _(REASON, level=level, chance=chance)
    return _(
        REASON_RUNNER_UP,
        level=level,
        chance=chance,
        other=found.runner_up.action,
        other_chance=round(100 * found.runner_up.win_chance),
    )
