"""The board game's static facts (``koth.core.facts``): length bounds and returns, each
derived from the rule it rests on (docs/rules/board.md)."""

from __future__ import annotations

from koth.core.facts import GameFacts, Utility
from koth.games.board.params import BoardParams


def board_facts(params: BoardParams) -> GameFacts:
    """Bounds for ``n`` players and a round limit ``R`` (B17 ends the game after R
    rounds at the latest):

    * chance: 4 terrain rings + the area draw, then per round 4 dice per player (B6)
      and an alliance die per accepted offer (at most 2 per turn, one per action slot);
    * decisions: n area placements and one (simultaneous) exclusion, then per round 2n
      turns of at most 2 actions, each preceded by an offer and its acceptance, plus
      one declined offer per other player and the end of the turn (B6-B13).
    """
    n = params.num_players
    rounds = params.round_limit
    turns = 2 * n * rounds
    per_turn = 2 * 3 + 2 * (n - 1) + 1
    return GameFacts(
        max_decisions=n + 1 + turns * per_turn,
        max_chance_nodes=5 + rounds * 4 * n + turns * 2,
        # B17.1: a loser gets -1/(n-1), a sole winner +1, a draw 0 for everyone
        min_utility=-1.0 / (n - 1),
        max_utility=1.0,
        utility=Utility.ZERO_SUM,
        # only the secret-exclusion variant (B16.2) hides anything, and its exclusion
        # is the only simultaneous node
        simultaneous=params.one_excluded,
        hidden_information=params.one_excluded,
        long_name="King of the Hill (Florian Jehn's board game)",
    )
