"""Florian Jehn's King of the Hill: the tactical board game for 2-4 players.

Importing this package registers the game as ``board``.
"""

from koth.games.board.actions import Action
from koth.games.board.game import BoardGame
from koth.games.board.params import BoardParams
from koth.games.board.state import BoardState, BoardTermination, Phase

__all__ = ["Action", "BoardGame", "BoardParams", "BoardState", "BoardTermination", "Phase"]
