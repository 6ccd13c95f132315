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
    "you_are_named": N_("You are {name} (Seat {n})."),
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
    # the people at the table (static/games/presence.js, alerts.js, rematch.js)
    "online": N_("online"),
    "away": N_("away"),
    "rating": N_("rating {n}"),
    "score": N_("Score: {score}"),
    "score_draws": N_("{score} ({n} drawn)"),
    "tab_your_turn": N_("Your turn - King of the Hill"),
    "sound_on": N_("Sound on your turn"),
    "notify": N_("Notify me on my turn"),
    "notify_on": N_("Notifications on"),
    "notify_blocked": N_("Notifications are blocked in this browser"),
    "rematch": N_("Rematch"),
    "rematch_offers": N_("{who} offers a rematch"),
    "rematch_accept": N_("Accept the rematch"),
    "rematch_waiting": N_("Rematch offered: waiting for {who}."),
    "rated_game": N_("Rated game"),
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
    "teams": N_("{a} and {b} against {c} and {d}, points {x} : {y} (B16.3)"),
    "in_hand": N_("in hand:"),
    "areas_to_place": N_("Starting areas to place: {areas}"),
    "area_of": N_("{area} (Seat {n})"),
    # the board table: hotspots, the popover, the dice (static/games/board.js)
    "board_label": N_("the board"),
    "the_center": N_("the center"),
    "tile_named": N_("tile {tile}"),
    "area_named": N_("starting area {area}"),
    "ring_named": N_("ring {ring}"),
    "tile_title": N_("tile {tile} ({terrain})"),
    "area_title": N_("{area}: starting area of {seat}"),
    "units_of": N_("{seat}: {units}"),
    "terrain_light": N_("light"),
    "terrain_normal": N_("normal"),
    "terrain_difficult": N_("difficult"),
    "unit_runners": N_("runners"),
    "unit_fighters": N_("fighters"),
    "unit_blockers": N_("blockers"),
    "die_recruit": N_("recruit"),
    "die_move": N_("move"),
    "die_turn": N_("turn"),
    "die_title": N_("die {face}: a {kind} die"),
    "pay_move": N_("a move die"),
    "pay_recruit": N_("a recruit die"),
    "pay_pair": N_("two turn dice"),
    "do_place": N_("Place your starting area beside tile {tile}"),
    "do_recruit": N_("Recruit a {unit} into your starting area, paid with {pay}"),
    "do_move": N_("Move a {unit} from {src} to {dst}, paid with {pay}"),
    "do_attack": N_(
        "Assault the blocker on {target}: your fighter from {lose} is lost, the one from "
        "{keep} may move in; paid with {pay}"
    ),
    "do_ally": N_(
        "Ask {who} to assault the blocker on {target} together: your fighter from {own}, "
        "theirs from {helper}; paid with {pay}"
    ),
    "short_attack": N_("lose {lose}, keep {keep} · {pay}"),
    "short_ally": N_("with {who} from {helper}, yours from {own} · {pay}"),
    "recruit_title": N_("Recruit a unit into your starting area"),
    "do_accept": N_(
        "Accept the offer of {who}: your fighter from {helper} and theirs from {own} "
        "assault the blocker on {target} together; a die decides whose fighter dies: 1-3 "
        "theirs, 4-6 yours (B13)"
    ),
    "do_decline": N_("Decline the offer of {who} (they may not ask you again this turn)"),
    "accept": N_("Accept"),
    "decline": N_("Decline"),
    "do_turn_cw": N_("Turn ring {ring} clockwise"),
    "do_turn_ccw": N_("Turn ring {ring} counter-clockwise"),
    "do_area": N_("Move your starting area {area} with its units beside tile {tile}"),
    "do_swap": N_("Swap the terrain of tiles {a} and {b}"),
    "do_end": N_("End the turn"),
    "do_end_drop": N_("End the turn, giving up: {dice}"),
    "do_exclude": N_("Exclude the {unit} (secret until the end)"),
    "kind_place": N_("Place the starting area"),
    "kind_recruit": N_("Recruit"),
    "kind_move": N_("Move"),
    "kind_attack": N_("Assault"),
    "kind_ally": N_("Alliance offer"),
    "kind_answer": N_("Answer the alliance offer"),
    "kind_turn_ring": N_("Turn a ring"),
    "kind_move_area": N_("Move the starting area"),
    "kind_swap": N_("Swap terrain"),
    "kind_end": N_("End the turn"),
    "kind_exclude": N_("Exclude a unit type"),
    "confirm": N_("Confirm"),
    "cancel": N_("Cancel"),
    "cancel_title": N_("Close without acting"),
    "offer_title": N_("Alliance offer"),
    "end_turn": N_("End turn…"),
    "end_turn_title": N_("End the turn: shows which dice it gives up before you confirm"),
    "exclude_type": N_("Exclude a unit type…"),
    "exclude_title": N_("Choose the unit type you play without"),
    "your_dice": N_("Your dice:"),
    "dice_of": N_("Dice of {who}:"),
    "show_tile_names": N_("Tile names"),
    "hide_tile_names": N_("Tile names: on"),
    "tile_names_title": N_("Write each tile's name (ring.position) on the board"),
    "all_moves_list": N_("All your moves as a list ({n})"),
    "hint_start": N_(
        "Click a glowing unit or tile, a ring arrow (clockwise or counter-clockwise) or "
        "a control above the board."
    ),
    "hint_next": N_("Now click a highlighted target (click the picked one again to cancel)."),
    "hint_confirm": N_("The board shows what happens: confirm it, or pick another choice."),
    "legend": N_("Legend"),
    "legend_light": N_("light: every unit"),
    "legend_normal": N_("normal: runners and fighters"),
    "legend_difficult": N_("difficult: runners only"),
    "legend_center": N_("the center: a point per turn end"),
    "legend_runner": N_("runner (up to 3 tiles)"),
    "legend_fighter": N_("fighter (1 tile, fights)"),
    "legend_blocker": N_("blocker (1 tile, pushes runners)"),
    "legend_die_recruit": N_("1-2: recruit a unit"),
    "legend_die_move": N_("3-4: move a unit (and fight)"),
    "legend_die_turn": N_("5-6: turn a ring, swap terrain, move the area"),
    "legend_count": N_("The number in a unit is how many of that type stand there."),
    "or": N_("or"),
    "expect_place": N_("Place your starting area: click an outer-ring tile."),
    "expect_place_other": N_("{who} places a starting area."),
    "expect_exclude": N_("Exclude one unit type (secret until the end)."),
    "expect_exclude_other": N_("{who} secretly exclude a unit type."),
    "expect_answer": N_("Answer the alliance offer: accept or decline."),
    "expect_answer_other": N_("{who} answers an alliance offer."),
    "expect_turn_other": N_("{who}'s turn (action {slot} of 2)."),
    "expect_turn": N_("Use a die: {uses} (action {slot} of 2), or end the turn."),
    "expect_end": N_("End your turn."),
    "use_recruit": N_("recruit"),
    "use_move": N_("move"),
    "use_turn": N_("turn"),
    "ending_forfeits": N_("Ending now forfeits {what}."),
    "forfeit_choice": N_("one die per unused action ({options})"),
    "forfeit_die": N_("{n} die"),
    "forfeit_dice": N_("{n} dice"),
    "forfeit_nothing": N_("nothing"),
    "both_turns_done": N_("both turns done"),
    "second_turn_skipped": N_("no dice left: second turn skipped"),
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
    # clocks, resigning and absence (static/games/clock.js)
    "end_resigned": N_("resignation"),
    "result_ended": N_("{why}: {who} wins the game."),
    "result_ended_you": N_("{why}: you win the game."),
    "end_out_of_time": N_("out of time"),
    "clocks": N_("Clocks"),
    "clock_seat": N_("{seat}: {time}"),
    "clock_per_decision": N_("{s} s per decision"),
    "clock_chess": N_("{min} min + {inc} s per decision"),
    "clock_not_started": N_("The clocks start once every seat is taken."),
    "computer_for_time": N_("The computer is playing for {seat} (out of time)."),
    "computer_for_resigned": N_("The computer is playing for {seat} (resigned)."),
    "im_back": N_("I'm back"),
    "computer_for_you": N_(
        'The computer is playing for you (out of time): press "I\'m back" to play again.'
    ),
    "seat_computer_plays": N_("{who} (the computer plays)"),
    "computer_for_you_resigned": N_("You resigned: the computer plays your seat on."),
    "resign": N_("Resign"),
    "resign_confirm": N_("Resign this game? It cannot be taken back."),
    "resign_yes": N_("Yes, resign"),
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
    "runners_count": N_plural("{n} runner", "{n} runners"),
    "fighters_count": N_plural("{n} fighter", "{n} fighters"),
    "blockers_count": N_plural("{n} blocker", "{n} blockers"),
}
#: a unit type's name, one of it (``unit_runner``...): the plural entries the game log
#: also words counts with, so the catalog holds each name once
UNIT_WORDS: Final = {
    "runner": N_plural("runner", "runners"),
    "fighter": N_plural("fighter", "fighters"),
    "blocker": N_plural("blocker", "blockers"),
}


@functools.cache
def strings(lang: str) -> dict[str, Any]:
    """The table of ``lang``: every key's text, and the plural texts by CLDR category
    (the scripts choose with ``Intl.PluralRules``)."""
    _ = Translator(lang)
    table: dict[str, Any] = {key: _(text) for key, text in EN.items()}
    for key, (one, many) in PLURALS.items():
        table[key] = _.plural_forms(one, many)
    for unit, (one, many) in UNIT_WORDS.items():
        table[f"unit_{unit}"] = _.plural(one, many, 1)
    return table
