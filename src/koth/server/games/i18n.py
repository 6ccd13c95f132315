"""The texts of the game pages' scripts (lobby, table, replay), by key.

Written in English, translated in the catalogs (docs/translating.md); a page gets
:func:`strings` of its language as JSON and its scripts write ``KOTH.t("key", {...})``.
"""

from __future__ import annotations

import functools
from typing import Final

from koth.i18n import N_, Translator

EN: Final = {
    "seat": N_("Seat {n}"),
    "spectator": N_("spectator"),
    "seat_computer": N_("{seat} (computer)"),
    "seat_you": N_("{seat} (you)"),
    "you_watch": N_("You are watching as a spectator."),
    "you_are": N_("You are seat {n}."),
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
    "replay_step": N_("move {n} of {of}"),
    "replay_over": N_("The game is over: every hand is revealed in this replay."),
    "replay_running": N_("The game is still running: the replay shows only what you could see."),
    "your_move": N_("Your move"),
    # hints (static/games/hint.js)
    "hint_asking": N_("Asking the {level} level…"),
    "hint_says": N_("Hint from the {level} level: {move}. {reason}"),
    "hint_played": N_("{seat} played this move after a hint."),
    # the computer levels (koth.agents.levels), by key
    "level_beginner": N_("Beginner"),
    "level_casual": N_("Casual"),
    "level_strong": N_("Strong"),
    "level_expert": N_("Expert"),
    "analysis_by_level": N_("Analysis by the {level} level (from each seat's view)"),
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
    "last_battle": N_("Last battle: stack {stack} ({top}) — won by {winner}"),
    "last_battle_discarded": N_("Last battle: stack {stack} ({top}) — won by {winner}, discarded"),
    "your_hand": N_("Your hand ({n})"),
    "sequences": N_("Sequences:"),
    "your_reserve": N_("Your reserve ({n})"),
    "hand_or_reserve": N_("Hand or reserve? (secret)"),
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
    "area_of": N_("{area} (player {n})"),
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
}


@functools.cache
def strings(lang: str) -> dict[str, str]:
    _ = Translator(lang)
    return {key: _(text) for key, text in EN.items()}
