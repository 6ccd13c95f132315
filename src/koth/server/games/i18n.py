"""The texts of the game pages' scripts (lobby, table, replay), by key.

Written in English, translated in the catalogs (docs/translating.md); a page gets
:func:`strings` of its language as JSON and its scripts write ``KOTH.t("key", {...})``.
"""

from __future__ import annotations

import functools
from typing import Any, Final

from koth.i18n import N_, N_plural, Translator

EN: Final = {
    "seat": N_("Seat {n}"),
    "spectator": N_("spectator"),
    "seat_computer": N_("{seat} (computer)"),
    "seat_you": N_("{seat} (you)"),
    "you_watch": N_("You are watching as a spectator."),
    "you_are": N_("You are Seat {n}."),
    "a_draw": N_("a draw"),
    "you_share": N_("you share the win"),
    "you_won": N_("you won"),
    "won_by": N_("won by {who}"),
    "game_over": N_("{you} Game over ({how}): {result}."),
    "secret_yours": N_("Your choice (secret until all have chosen)."),
    "secret_in": N_("Your choice is in."),
    "secret": N_("Secret choices."),
    "waiting_for": N_("Waiting for {who}."),
    "your_turn": N_("Your turn."),
    "other_moves": N_("Other moves"),
    "replay_step": N_("decision {n} of {of}"),
    "replay_over": N_("The game is over."),
    "replay_running": N_("The game is still running: the replay shows only what you could see."),
    "your_move": N_("Your move"),
    "hidden": N_("hidden / none"),
    "connecting": N_("connecting…"),
    "reconnecting": N_("reconnecting in {s} s…"),
    "closed": N_("closed"),
    "live": N_("live"),
    "offline_banner": N_("No connection to the server: reconnecting…"),
    "move_not_sent": N_(
        "Your move did not reach the server (no connection); make it again once the page is live."
    ),
    "error_status": N_("error {status}"),
    # the card game (Larry Levy's rules)
    "you": N_("You"),
    "joker": N_("Joker: {n}"),
    "fighting_for": N_("Fighting for stack {stack}"),
    "tied_so_far": N_("Tied so far — tie-break rounds:"),
    "attacks_face_down": N_(
        "Attacks stay face down until both are in, then they are revealed together."
    ),
    "your_hand": N_("Your hand ({n})"),
    "sequences": N_("Sequences:"),
    "your_reserve": N_("Your reserve ({n})"),
    "won_card_where": N_("Where does the won card go?"),
    "turn": N_("Turn {n}"),
    "you_choose_stack": N_("{who} choose a stack"),
    "chooses_stack": N_("{who} chooses a stack"),
    "phase_deal": N_("deal"),
    "phase_reserve": N_("reserve"),
    "phase_choose": N_("choose"),
    "phase_attack": N_("attack"),
    "phase_tiebreak": N_("tie-break"),
    "phase_assign": N_("assign"),
    "phase_over": N_("over"),
    "end_apex_won": N_("apex won"),
    "end_apex_discarded": N_("apex discarded"),
    # the board game (Florian Jehn's rules)
    "round": N_("Round {n}"),
    "points_short": N_("{n} pts"),
    "in_hand": N_("in hand:"),
    "areas_to_place": N_("Starting areas to place: {areas}"),
    "area_of": N_("{area} (Seat {n})"),
    "selected_unit": N_(
        "Selected {unit}: click a highlighted tile (click {unit} again to cancel)."
    ),
    "click_unit": N_("Click one of your glowing units to see where it can go."),
    "click_outer": N_("Click an outer-ring tile to place your starting area beside it."),
    "move_to_with": N_("Move to {dst} with…"),
    "recent_events": N_("Recent events"),
    "phase_terrain": N_("terrain"),
    "phase_draw": N_("drawing"),
    "phase_place": N_("placing"),
    "phase_exclude": N_("exclude"),
    "phase_roll": N_("roll"),
    "phase_turn": N_("turn"),
    "phase_answer": N_("answer"),
    "phase_ally_die": N_("ally dies"),
    "end_target_points": N_("target points"),
    "end_countdown": N_("countdown"),
    "end_round_limit_draw": N_("round limit: draw"),
    # the game's log and the replay
    "log_title": N_("Game log"),
    "log_empty": N_("Nothing has happened yet."),
    "replay_over_cards": N_("The game is over: all cards are shown in this replay."),
    "finished": N_("finished"),
    # the card table that forgives
    "face_down": N_("face down"),
    "joker_card": N_("Joker"),
    "joker_hand": N_("in hand"),
    "joker_reserve": N_("in the reserve"),
    "pyramid": N_("pyramid"),
    "hand_count": N_("hand {n}"),
    "reserve_count": N_("reserve {n}"),
    "revealed_hand": N_("hand:"),
    "revealed_reserve": N_("reserve:"),
    "known_cards": N_("known cards:"),
    "played": N_("played"),
    "take_back": N_("Take back"),
    "confirm_attack": N_("Attack with {attack}"),
    "cancel": N_("Cancel"),
    "choosing": N_("choosing…"),
    "pick_a_card": N_("pick a card or sequence below"),
    "pick_card": N_("Pick {card}"),
    "assigning": N_("{who}: placing the won cards, {placed} placed, {left} to go."),
    "fight_history": N_("Every fight ({n})"),
    "fight_title": N_("Stack {stack} ({top} ×{n})"),
    "fight_won_by": N_("won by {who}"),
    "fight_discarded": N_("both played the Joker: discarded"),
    "attack_round": N_("attack"),
    "tiebreak_round": N_("tie-break {n}"),
    "reserve_title": N_("Your reserve: choose it on one screen"),
    "reserve_hint": N_(
        "Tap a card to move it between hand and reserve; confirm when the split is right."
    ),
    "reserve_sending": N_("Confirmed: your choices are sent round by round as the rounds open."),
    "plan_to_hand": N_("{card}: back to the hand"),
    "plan_to_reserve": N_("{card}: to the reserve"),
    "plan_in_hand": N_("hand"),
    "plan_in_reserve": N_("reserve"),
    "reserve_summary": N_("Hand: {hand} cards · Reserve: {reserve} cards"),
    "undo": N_("Undo"),
    "reserve_confirm": N_("Confirm the reserve"),
    "to_hand": N_("to hand"),
    "to_reserve": N_("to reserve"),
    "discarded": N_("discarded ({n}): "),
    "dealer": N_("dealer: {who}"),
    "result_apex": N_("{who} won the apex and the game (C12)."),
    "result_draw": N_("The apex was discarded: a draw (C12)."),
}


#: texts with a count: the scripts pass it as ``n`` and get the form of the page's
#: language (``KOTH.t("cards_count", {n: 5})``)
PLURALS: Final = {
    "stack_title": N_plural("stack {stack}: {n} card", "stack {stack}: {n} cards"),
    "cards_count": N_plural("{n} card", "{n} cards"),
}


@functools.cache
def strings(lang: str) -> dict[str, Any]:
    """The table of ``lang``: every key's text, and the plural texts by CLDR category
    (the scripts choose with ``Intl.PluralRules``)."""
    _ = Translator(lang)
    table: dict[str, Any] = {key: _(text) for key, text in EN.items()}
    for key, (one, many) in PLURALS.items():
        table[key] = _.plural_forms(one, many)
    return table
