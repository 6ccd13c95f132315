"""The deal's outcomes built when read (DealOutcomes) against the whole tuple."""

from __future__ import annotations

import random

from hypothesis import given
from hypothesis import strategies as st

from koth.core.chance import sample_outcome
from koth.games.cards.actions import DEALS, Deal, Single, action_id
from koth.games.cards.engine import DealOutcomes, deal_outcomes
from koth.games.cards.tables import NORMAL_CARDS

undealt_masks = st.integers(1, (1 << NORMAL_CARDS) - 1)


@given(undealt_masks)
def test_every_outcome_is_the_tuple_s_very_object_in_card_order(undealt: int) -> None:
    lazy = DealOutcomes(undealt)
    whole = deal_outcomes(undealt)
    assert len(lazy) == len(whole) == undealt.bit_count()
    for index, (action, probability) in enumerate(whole):
        assert lazy.outcome(index) is action and lazy[index] == (action, probability)
    assert lazy == whole and list(lazy) == list(whole)


@given(undealt_masks)
def test_ids_are_the_ids_of_the_outcomes_in_order(undealt: int) -> None:
    """The oracle of ``DealOutcomes.ids`` (read from tables by nibble, without a Deal):
    the ids of the whole tuple's deals, in its order."""
    ids = DealOutcomes(undealt).ids()
    assert ids == [action_id(action) for action, _ in deal_outcomes(undealt)]


@given(undealt_masks)
def test_offers_holds_exactly_the_deals_of_undealt_cards(undealt: int) -> None:
    lazy = DealOutcomes(undealt)
    for card in range(NORMAL_CARDS):
        assert lazy.offers(DEALS[card]) == bool(undealt >> card & 1)
        assert not lazy.offers(Deal(card))  # equal, but not one of the deal's objects
    assert not lazy.offers(Single(0)) and not lazy.offers("deal 2s")


@given(undealt_masks, st.integers(0, 2**32))
def test_sampling_draws_the_card_the_tuple_would_draw(undealt: int, seed: int) -> None:
    drawn = sample_outcome(DealOutcomes(undealt), random.Random(seed))
    assert drawn is sample_outcome(deal_outcomes(undealt), random.Random(seed))
