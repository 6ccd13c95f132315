"""Interop specs of the built-in games (``cards``, ``board``).

The games' modules do not know about OpenSpiel; the facts OpenSpiel needs that the
rules do not state (length bounds, utility range) live here, next to the adapters,
each bound derived from the rules it rests on.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from koth.core.registry import game_type
from koth.interop.encoding import HashedViewEncoder, ViewEncoder
from koth.interop.spec import AnyGame, InteropSpec, SpecSource, Utility, register_spec


@dataclass(frozen=True)
class BuiltinGame:
    game_class: type[AnyGame]
    spec: SpecSource
    min_num_players: int | None = None
    max_num_players: int | None = None


# ---------------------------------------------------------------- cards
#: C2: the deal is one chance node per normal card
_CARDS_DEAL = 52
_CARDS_RESERVE_ROUNDS = 12  # C3: one simultaneous hand-or-reserve round per starting card
_CARDS_STACKS = 15
#: every attack round with a normal card discards it for good (C10), so at most 52 such
#: rounds; a round of two Jokers ends its fight (C9), at most once per stack
_CARDS_ATTACK_ROUNDS = 52 + _CARDS_STACKS
#: won stack cards are assigned one at a time (C11); the stacks hold 30 dealt cards
_CARDS_ASSIGNMENTS = 30

CARDS_SPEC = InteropSpec(
    max_decisions=(
        _CARDS_RESERVE_ROUNDS + _CARDS_STACKS + _CARDS_ATTACK_ROUNDS + _CARDS_ASSIGNMENTS
    ),
    max_chance_nodes=_CARDS_DEAL,
    min_utility=-1.0,
    max_utility=1.0,
    utility=Utility.ZERO_SUM,
    long_name="King of the Hill (Larry Levy's card game)",
)


# ---------------------------------------------------------------- board
def _board_encoder(_game: AnyGame) -> ViewEncoder:
    # the board view has a few hundred leaves (terrain, units, dice): more buckets
    return HashedViewEncoder(size=1024)


def board_spec(game: AnyGame) -> InteropSpec:
    """Bounds for ``n`` players and a round limit ``R`` (B17 ends the game after R
    rounds at the latest):

    * chance: 4 terrain rings + the area draw, then per round 4 dice per player (B6)
      and an alliance die per accepted offer (at most 2 per turn, one per action slot);
    * decisions: n area placements and one (simultaneous) exclusion, then per round 2n
      turns of at most 2 actions, each preceded by an offer and its acceptance, plus
      one declined offer per other player and the end of the turn (B6-B13).
    """
    params: Any = game.params
    n = game.num_players
    rounds = params.round_limit
    turns = 2 * n * rounds
    per_turn = 2 * 3 + 2 * (n - 1) + 1
    return InteropSpec(
        max_decisions=n + 1 + turns * per_turn,
        max_chance_nodes=5 + rounds * 4 * n + turns * 2,
        # B17.1: a loser gets -1/(n-1), a sole winner +1, a draw 0 for everyone
        min_utility=-1.0 / (n - 1),
        max_utility=1.0,
        utility=Utility.ZERO_SUM,
        encoder=_board_encoder,
        # only the secret-exclusion variant (B16.2) hides anything, and its exclusion
        # is the only simultaneous node
        simultaneous=bool(params.one_excluded),
        hidden_information=bool(params.one_excluded),
        long_name="King of the Hill (Florian Jehn's board game)",
    )


def builtin_games() -> list[BuiltinGame]:
    """The built-in games with their specs."""
    return [
        BuiltinGame(game_type("cards"), CARDS_SPEC),
        BuiltinGame(game_type("board"), board_spec, min_num_players=2, max_num_players=4),
    ]


_registered = False


def ensure_registered() -> None:
    """Register the built-in specs with ``koth.interop.spec`` (once)."""
    global _registered
    if _registered:
        return
    _registered = True
    for builtin in builtin_games():
        register_spec(builtin.game_class.name, builtin.spec)
