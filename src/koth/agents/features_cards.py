"""The card game's view encoding read straight from the state (``koth.agents.features``).

Each part below adds the leaves that ``koth.games.cards.observe.view`` puts at the same
path, with the same values, so the sums equal ``HashedViewEncoder.encode`` of the view
(an oracle test compares them). The public parts are added once for both seats; a
seat's own leaves (``viewer``, its hand and reserve, the counts and Joker it may see,
the cards it is assigning) are added to its row alone.
"""

from __future__ import annotations

from typing import Any

from koth.agents.features import MEMO_LIMIT, FloatArray, Leaves, Memo, Recorder, SeatEncoder
from koth.core.encoding import HashedViewEncoder
from koth.core.game import Game
from koth.games.cards.observe import hidden_discards, joker_revealed, known_possessions, top_visible
from koth.games.cards.rules import stack_available
from koth.games.cards.state import DISCARDED, CardsState, FightLog, Phase
from koth.games.cards.tables import APEX_JOKER, NUM_STACKS, PLAYER_JOKERS, STACK_NAMES, card_str

#: card ids: the 52 normal cards, then the players' Jokers and the apex Joker
CARD_IDS = APEX_JOKER + 1


#: (buckets, path) -> [position][card] -> the bucket of ``path/position=card`` (a
#: hashed encoder's buckets depend on its size alone), built once a process
_CARD_SLOTS: dict[tuple[int, str], list[list[int]]] = {}


def _card_slots(encoder: HashedViewEncoder, path: str) -> list[list[int]]:
    key = (encoder.size, path)
    slots = _CARD_SLOTS.get(key)
    if slots is None:
        bucket = encoder.bucket
        slots = _CARD_SLOTS[key] = [
            [bucket(f"{path}/{i}={card_str(card)}") for card in range(CARD_IDS)]
            for i in range(CARD_IDS)
        ]
    return slots


def _rounds(leaves: Leaves, path: str, rounds: tuple[tuple[Any, Any], ...]) -> None:
    """``[[str(attack), ...], ...]`` at ``path``."""
    leaves.num(path + "#len", len(rounds))
    for index, played in enumerate(rounds):
        leaves.texts(f"{path}/{index}", [str(a) for a in played])


def _fight(leaves: Recorder, index: int, fight: FightLog) -> None:
    """``observe._fight_json`` at ``/log/index``."""
    path = f"/log/{index}"
    leaves.num(path + "/chooser", fight.chooser)
    leaves.text(path + "/stack", STACK_NAMES[fight.stack])
    _rounds(leaves, path + "/rounds", fight.rounds)
    if fight.winner == DISCARDED:
        leaves.text(path + "/winner", None)
    else:
        leaves.num(path + "/winner", fight.winner)
    leaves.text(path + "/discarded", fight.winner == DISCARDED)
    leaves.text(path + "/top", None if fight.top is None else card_str(fight.top))
    leaves.num(path + "/size", fight.size)


class CardsSeatEncoder:
    """Both seats' encoded views of a card state (a ``SeatEncoder``)."""

    def __init__(self, encoder: HashedViewEncoder) -> None:
        self.encoder = encoder
        self.memo = Memo(encoder)
        #: id(log) -> (log, its leaves): states of one fight share their log tuple
        self.logs: dict[int, tuple[tuple[FightLog, ...], list[tuple[int, float]]]] = {}
        #: (index, id(fight)) -> (fight, its leaves): the states a search samples
        #: share the fights finished before its root
        self.fights: dict[tuple[int, int], tuple[FightLog, list[tuple[int, float]]]] = {}
        #: path -> [position][card] -> the bucket of ``path/position=card``
        self.card_slots: dict[str, list[list[int]]] = {}

    def __call__(self, game: Game[Any, Any, Any], data: Any, out: FloatArray) -> None:
        state: CardsState = data
        dealer = game.params.dealer
        shared = Leaves(self.encoder)
        self._public(shared, state, dealer)
        size = self.encoder.size
        out[:2, :size] = shared.sums
        revealed = (joker_revealed(state, 0), joker_revealed(state, 1))
        for seat in (0, 1):
            own = Recorder(self.encoder)
            self._own(own, state, seat, revealed)
            row = out[seat]
            for index, value in own.pairs:
                row[index] += value

    def _cards(self, leaves: Leaves, path: str, mask: int) -> None:
        """The list of the cards of ``mask`` (``cards_str``: increasing ids) at
        ``path``: its length, then each card at its position."""
        slots = self.card_slots.get(path)
        if slots is None:
            slots = self.card_slots[path] = _card_slots(self.encoder, path)
        found: list[tuple[int, float]] = []
        position = 0
        while mask:
            low = mask & -mask
            found.append((slots[position][low.bit_length() - 1], 1.0))
            position += 1
            mask ^= low
        leaves.num(path + "#len", position)
        leaves.add(found)

    def _public(self, leaves: Leaves, state: CardsState, dealer: int) -> None:
        phase = state.phase
        leaves.text("/phase", phase.name.lower())
        leaves.num("/dealer", dealer)
        leaves.num("/dealt", state.dealt)
        leaves.num("/reserve_round", state.reserve_round)
        leaves.num("/turn", state.turn)
        if phase is Phase.OVER:
            leaves.text("/chooser", None)
        else:
            leaves.num("/chooser", (dealer + state.turn) % 2)  # rules.chooser
        leaves.text("/stack", STACK_NAMES[state.stack] if state.stack >= 0 else None)
        _rounds(leaves, "/rounds", state.rounds)
        # the pyramid: 15 stacks, each one of a few dozen looks
        leaves.num("/pyramid#len", NUM_STACKS)
        choosing = phase >= Phase.CHOOSE
        gone = state.gone
        for stack in range(NUM_STACKS):
            cards = state.stacks[stack]
            top = cards[-1] if top_visible(state, stack) else None
            key = (
                "pyramid",
                stack,
                len(cards),
                top,
                bool(gone >> stack & 1),
                choosing and stack_available(gone, stack),
            )
            leaves.add(self.memo.get(key, _stack, key))
        hidden = hidden_discards(state)
        self._cards(leaves, "/discards", state.discards & ~hidden)
        leaves.num("/discards_face_down", hidden.bit_count())
        leaves.num("/players#len", 2)
        for player in (0, 1):
            path = f"/players/{player}"
            leaves.num(path + "/cards", (state.hands[player] | state.reserves[player]).bit_count())
            self._cards(leaves, path + "/known_cards", known_possessions(state, player))
        leaves.add(self._log(state.log))
        if phase is Phase.ASSIGN:
            leaves.num("/assignment/winner", state.log[-1].winner)  # rules.assignee
            leaves.num("/assignment/remaining", state.pending.bit_count())
            leaves.num("/assignment/assigned", (state.to_hand | state.to_reserve).bit_count())
        else:
            leaves.text("/assignment", None)

    def _log(self, log: tuple[FightLog, ...]) -> list[tuple[int, float]]:
        known = self.logs.get(id(log))
        if known is not None and known[0] is log:
            return known[1]
        pairs: list[tuple[int, float]] = [
            (self.encoder.bucket("/log#len"), float(len(log))),
            (self.encoder.bucket("/log#len#set"), 1.0),
        ]
        fights = self.fights
        for index, fight in enumerate(log):
            known_fight = fights.get((index, id(fight)))
            if known_fight is None or known_fight[0] is not fight:
                if len(fights) >= MEMO_LIMIT:
                    fights.clear()
                leaves = self.memo.get(("fight", index, fight), _fight, index, fight)
                known_fight = fights[index, id(fight)] = (fight, leaves)  # fight kept alive
            pairs += known_fight[1]
        if len(self.logs) >= 4096:
            self.logs.clear()
        self.logs[id(log)] = (log, pairs)  # the tuple kept: its id is not reused meanwhile
        return pairs

    def _own(
        self, leaves: Leaves, state: CardsState, seat: int, revealed: tuple[bool, bool]
    ) -> None:
        """The leaves that depend on the viewer ``seat`` (``revealed``: whether each
        player's Joker is public, ``observe.joker_revealed``)."""
        leaves.num("/viewer", seat)
        phase = state.phase
        for player in (0, 1):
            path = f"/players/{player}"
            hand, reserve = state.hands[player], state.reserves[player]
            if phase is Phase.RESERVE and seat != player:  # the split is secret
                leaves.text(path + "/hand_count", None)
                leaves.text(path + "/reserve_count", None)
            else:
                leaves.num(path + "/hand_count", hand.bit_count())
                leaves.num(path + "/reserve_count", reserve.bit_count())
            if seat == player or revealed[player]:
                joker = 1 << PLAYER_JOKERS[player]
                leaves.text(path + "/joker", "reserve" if reserve & joker else "hand")
            else:
                leaves.text(path + "/joker", None)
            if seat == player:
                self._cards(leaves, path + "/hand", hand)
                self._cards(leaves, path + "/reserve", reserve)
        if phase is Phase.ASSIGN and state.log[-1].winner == seat:
            self._cards(leaves, "/assignment/pending", state.pending)
            self._cards(leaves, "/assignment/to_hand", state.to_hand)
            self._cards(leaves, "/assignment/to_reserve", state.to_reserve)


def _stack(leaves: Recorder, key: tuple[Any, ...]) -> None:
    """One stack of ``observe.view``'s pyramid, from its key (see ``_public``)."""
    _, stack, size, top, gone, available = key
    path = f"/pyramid/{stack}"
    leaves.text(path + "/available", available)
    leaves.text(path + "/gone", gone)
    leaves.text(path + "/name", STACK_NAMES[stack])
    leaves.num(path + "/size", size)
    leaves.text(path + "/top", None if top is None else card_str(top))


def cards_seat_encoder(encoder: HashedViewEncoder) -> SeatEncoder:
    return CardsSeatEncoder(encoder)
