"""The interface texts of quiz hosting, by key, for the pages and their scripts.

The texts are written here in English and translated in the gettext catalogs
(``koth/locale``, docs/translating.md): a page gets :func:`strings` of its language as
``t`` (templates write ``{{ t.key }}``; the scripts read the same table from the page
and write ``Q.t("key", {...})``). A new text is a new key here, then ``make messages``
and its translation in each ``messages.po``.
"""

from __future__ import annotations

import functools
from typing import Any, Final

from koth.games.quiz.wording import (
    DECLARATION_TEXTS,
    END_TEXTS,
    NOTE_TEXTS,
    PROBLEM_TEXTS,
)
from koth.i18n import COOKIE, LANGUAGES, N_, N_plural, Translator, pick_language

__all__ = ["COOKIE", "LANGUAGES", "pick_language", "strings"]

EN: dict[str, str] = {
    "app": N_("King of the Hill quiz"),
    "host_title": N_("Host a quiz evening"),
    "create": N_("Create the event"),
    "title": N_("Title"),
    "teams_upfront": N_("Teams (optional, one per line; others join by phone)"),
    "steps": N_("Steps on a slope"),
    "hold_moves": N_("Moves the King must hold the Peak"),
    "questions": N_("Main questions"),
    "backup_questions": N_("Backup questions"),
    "final_questions": N_("Questions of the final"),
    "partner_questions": N_("Partner questions (numbers, comma separated)"),
    "prize_places": N_("Prize places"),
    "format": N_("Format"),
    "format_single": N_("Single game"),
    "format_semifinals": N_("Two semifinals and a final"),
    "qualifiers": N_("Teams going to the final from each semifinal (K)"),
    "spurs_manual": N_("Spurs set by hand (one line per team: Name: 4 7)"),
    "spurs_per_slope": N_("Spurs drawn per slope"),
    "spur_seed": N_("Seed of the spur draw (empty: random)"),
    "answer_seconds": N_("Answering time (seconds)"),
    "join_title": N_("Join the quiz"),
    "join_code": N_("Join code"),
    "team_name": N_("Team name"),
    "join": N_("Join"),
    "recover": N_("Move my team to this phone"),
    "recovery_code": N_("Recovery code"),
    "recovery_hint": N_("Keep this code: with it your team can continue on another phone."),
    "your_team": N_("Your team"),
    "position": N_("Position"),
    "points": N_("Points"),
    "place": N_("Place"),
    "step_of": N_("step {pos} of {steps}"),
    "peak": N_("Peak"),
    "king": N_("King"),
    "hold": N_("holds {hold} of {need}"),
    "declare": N_("Before the question is read"),
    "your_declaration": N_("Your declaration for this question: {what}"),
    "ordinary": N_("Ordinary move"),
    "jump": N_("Jump (+2 / −1)"),
    "revolution": N_("Revolution!"),
    "declared": N_("Declared: {what}"),
    "your_answer": N_("Your answer"),
    "send": N_("Send"),
    "answer_accepted": N_("Answer accepted: “{text}”"),
    "answer_right": N_("Right: “{text}”"),
    "answer_wrong": N_("Wrong: “{text}”"),
    "answer_sending": N_("Sending…"),
    "answer_retry": N_("Not sent yet, retrying…"),
    "answering_closed": N_("Answering is closed."),
    "waiting_question": N_("Waiting for the next question."),
    "question": N_("Question {n}"),
    # a question's number in a list of appeals and downgrades
    "question_short": N_("Q{n}"),
    "partner_question": N_("Partner question (+1 point)"),
    "stage_lobby": N_("Teams are joining"),
    "stage_declaring": N_("Declarations open"),
    "stage_read": N_("The question is being read"),
    "stage_answering": N_("Answer now"),
    "stage_judging": N_("Answers are being judged"),
    "stage_between": N_("Between questions"),
    "stage_lightning": N_("Lightning round for tied places"),
    "stage_part_over": N_("Part over"),
    "stage_finished": N_("The game is over"),
    "time_left": N_("{s} s left"),
    "paused": N_("paused"),
    "last_move": N_("Last question"),
    "right": N_("right"),
    "wrong": N_("wrong"),
    "no_answer": N_("no answer"),
    "not_playing": N_("Your team does not play in this part."),
    "results": N_("Results"),
    "judge_console": N_("Judge console"),
    "projector": N_("Projector"),
    "team_page": N_("Team page"),
    "host_link": N_("Host link (secret: keep it to yourself)"),
    "open_question": N_("Open question {n}"),
    "lock": N_("Question read: lock declarations"),
    "open_answering": N_("Open answering"),
    "pause": N_("Pause"),
    "resume": N_("Resume"),
    "extend": N_("+{s} s"),
    "close_answering": N_("Close answering"),
    "resolve": N_("Resolve the question"),
    "mark_right": N_("Right"),
    "mark_wrong": N_("Wrong"),
    "partner_flag": N_("Partner question"),
    "appeal": N_("Appeal: correct a judgement"),
    "comment": N_("Comment"),
    "apply": N_("Apply"),
    "start_part": N_("Start {name}"),
    "start_game": N_("Start the game"),
    "take_break": N_("Break"),
    "lightning": N_("Lightning question for {teams}"),
    "lightning_right": N_("Tick the teams that answered right"),
    "missing": N_("No answer yet"),
    "declarations": N_("Declarations"),
    "groups": N_("Answers (identical ones grouped)"),
    "teams": N_("Teams"),
    "spurs": N_("Spurs"),
    "export_csv": N_("CSV"),
    "export_json": N_("JSON"),
    "export_protocol": N_("Protocol (koth quiz score)"),
    "export_stats": N_("Statistics (CSV)"),
    "stats_title": N_("Every question in figures"),
    "stats_heading": N_("Right answers, by declared move, common wrong answers"),
    "stats_wrong": N_("wrong"),
    "downgraded": N_("Downgraded by the correction"),
    "reconnecting": N_("reconnecting…"),
    "live": N_("live"),
    "error_answering_closed": N_("Answering is closed: your answer was not accepted."),
    "error_forbidden": N_("This page is not yours (wrong or missing token)."),
    "error_name_taken": N_("This team name is taken. If it is your team, use the recovery code."),
    "error_join_closed": N_("The game has started: new teams cannot join."),
    "error_not_found": N_("No such event or join code."),
    "places": N_("Final places"),
    "per_question": N_("Every question"),
    "team": N_("Team"),
    "answer": N_("Answer"),
    "declaration": N_("Declaration"),
    "judgement": N_("Judgement"),
    "move": N_("Move"),
    "join_with": N_("Join at {url} with code {code}"),
    "moves_title": N_("Moves on question {n}"),
    "qualified": N_("Going to the final"),
    "late": N_("late"),
    "spurs_example": N_("Owls: 4"),
    "mountain": N_("the mountain"),
    # one letter on the projector's move column: a jump, a Revolution
    "mark_jump": N_("J"),
    "mark_revolution": N_("R"),
    "error_status": N_("error {status}"),
    "void": N_("void"),
    "error_wrong_phase": N_("Not possible at this point of the event."),
    "error_invalid_request": N_("These values cannot be used."),
    "error_malformed_request": N_("The request does not have the expected shape."),
    "error_already_answered": N_("Only the first answer counts."),
    "error_rate_limited": N_("Too many requests: wait a little and retry."),
    "error_storage_unavailable": N_("Nothing was stored: retry."),
    "error_too_many_connections": N_("Too many open connections."),
    "error_illegal_action": N_("This breaks a rule of the game."),
    "error_seconds": N_(
        "The answering time must be a whole number of seconds from {min} to {max}, "
        "not “{value}”: nothing was started."
    ),
    # the host's control, the show and seasons
    "appeal_answer": N_("The answer the team gave"),
    "appeal_admitted": N_("answer typed in by the judge"),
    "show_part_game": N_("Game"),
    "show_part_semifinal_1": N_("Semifinal 1 of 2"),
    "show_part_semifinal_2": N_("Semifinal 2 of 2"),
    "show_part_final": N_("Final"),
    "show_question_of": N_("Question {n} of {m}"),
    "show_backup_question": N_("Backup question {n}"),
    "show_answer": N_("Answer"),
    "show_accepted": N_("Also accepted"),
    "show_partner": N_("Partner question · {name}"),
    "show_challenge": N_("{teams} challenge the King!"),
    "show_and": N_("and"),
    "show_king_of_hill": N_("King of the Hill"),
    "show_place_2": N_("2nd place"),
    "show_place_3": N_("3rd place"),
    "show_reason_king_held": N_("The King held the Peak"),
    "show_reason_questions_exhausted": N_("The questions ran out"),
    "show_reason_no_challenger": N_("No team can overthrow the King any more"),
    "show_holds": N_("holds the Peak {x}/{y}"),
    "show_legend_right": N_("✓ right"),
    "show_legend_wrong": N_("✗ wrong"),
    "show_legend_jump": N_("J jump"),
    "show_legend_revolution": N_("R Revolution"),
    "show_legend_king": N_("♛ King"),
    "show_legend_steps": N_("+2/+3 steps/points"),
    "show_legend_spur": N_("◆ spur"),
    "show_legend_downgraded": N_("↓ downgraded"),
    "show_legend_peak": N_("▲ on the Peak"),
    "show_fullscreen": N_("Full screen"),
    "show_contrast": N_("High contrast"),
    "show_sound_on": N_("Sound on"),
    "show_sound_off": N_("Sound off"),
    "show_screen_question": N_("Show the question"),
    "show_screen_answer": N_("Show the answer"),
    "show_screen_standings": N_("Show the mountain"),
    "show_expected": N_("Expected answer"),
    "show_matches": N_("matches the answer: confirm"),
    "reveal_expected": N_("Show the expected answer (hidden while the room may see it)"),
    "show_pack": N_("Question pack"),
    "show_missing_pictures": N_("Pictures still missing: {names}"),
    "show_missing_media": N_("Sounds and videos still missing: {names}"),
    "show_media_audio": N_("Sound:"),
    "show_media_video": N_("Video:"),
    "show_media_play": N_("Play"),
    "show_media_pause": N_("Pause"),
    "show_media_replay": N_("Replay from the start"),
    "show_media_phones": N_("on the phones too"),
    "show_media_blocked": N_("Click anywhere on this screen to let it play the sound"),
    "show_pack_file": N_(
        "Question pack (optional): a CSV, JSON or YAML file, with its pictures, sounds and videos"
    ),
    "show_phones_question": N_("Phones show the question text once it is on the screen"),
    "show_pack_failed": N_("The question pack was not loaded: {error}"),
    "show_picture_failed": N_("The picture {name} was not stored: {error}"),
    "show_media_failed": N_("The sound or video {name} was not stored: {error}"),
    "show_print": N_("Print"),
    "show_certificates": N_("Certificates"),
    "show_certificate": N_("Certificate"),
    "show_certificate_place": N_("place {place}"),
    "show_certificate_text": N_("awarded to the team"),
    "show_end_reason": N_("The game ended: {reason}"),
    "show_lightning_rounds": N_("Lightning rounds"),
    "show_lightning_question": N_("Lightning question {n}"),
    "show_lightning_row": N_("{teams}: right {right}"),
    "show_protocol": N_("Protocol"),
    "show_nobody": N_("nobody"),
    "season": N_("Season"),
    "season_create": N_("Create a season"),
    "season_title": N_("Season title"),
    "season_formula": N_("Season standing"),
    "season_formula_places": N_(
        "Sum of places (lower is better; a missed event counts as last + 1)"
    ),
    "season_formula_points": N_("Sum of points"),
    "season_formula_best": N_("Points of the best N events"),
    "season_best": N_("N (events counted)"),
    "season_apply": N_("Apply"),
    "season_add_event": N_("Add an event you host (from this browser)"),
    "season_add": N_("Add"),
    "season_merge": N_("Count two spellings as one team"),
    "season_into": N_("into"),
    "season_score": N_("Score"),
    "season_played": N_("Events"),
    "season_export": N_("Season table (CSV)"),
    "season_running": N_("running"),
    "season_no_events": N_("No events yet."),
    "season_untitled": N_("An event without a title"),
    "season_host_link": N_("Keep this link: it lets you manage the season."),
    "offline": N_("offline"),
    "offline_banner": N_("No connection to the server: reconnecting…"),
    "error_http": N_("The server could not do this (HTTP {status}); try again."),
    "error_network": N_("No connection to the server: nothing was sent."),
    "declaration_waiting": N_(
        "No connection: your declaration will be sent as soon as the connection is back."
    ),
    "reopen": N_("Re-open question {n}"),
    "show_spurs": N_("Show spurs"),
    "hide_spurs": N_("Hide spurs"),
    "withdrawn": N_("withdrawn"),
    "group_appeal": N_("Appeal for everyone with the same answer:"),
    "new_name": N_("New name"),
    "team_list": N_("Team list"),
    "rename": N_("Rename"),
    "remove": N_("Remove"),
    "merge_into": N_("joins"),
    "merge": N_("Merge"),
    "lock_joining": N_("Lock joining"),
    "unlock_joining": N_("Open joining"),
    "joining_locked": N_("Joining is locked: only the host adds teams."),
    "joining_open": N_("Teams may join by phone."),
    "withdraw": N_("Withdraw the team"),
    "withdraw_confirm": N_("Withdraw {team}? It answers nothing from now on."),
    "withdraw_yes": N_("Yes, withdraw {team}"),
    "cancel": N_("Cancel"),
    "return_team": N_("Undo the withdrawal"),
    "change_returned": N_("{team} is back in the game after question {question} ({part})"),
    "change_renamed": N_("{detail} is now called {team}"),
    "change_removed": N_("{team} removed"),
    "change_rejoined": N_("{team} joined again"),
    "change_merged": N_("{detail} merged into {team}"),
    "change_joining_locked": N_("joining locked"),
    "change_joining_opened": N_("joining opened"),
    "change_withdrawn": N_("{team} withdrew after question {question} ({part})"),
    "change_reopened": N_("question {question} re-opened ({part})"),
    "shortcuts": N_(
        "Keyboard: ↑/↓ (J/K) choose an answer group · R right · W wrong · X the rest "
        "wrong · O open (question, then answering) · L question read · P pause/resume · "
        "C close answering · S resolve · E re-open"
    ),
    "presenter_mode": N_("Presenter mode"),
    "presenter_on": N_("on"),
    "presenter_off": N_("off"),
    "shortcuts_show": N_(
        "Q show the question · A show the answer · M show the mountain · V show the "
        "expected answer on this console · ? these keys in large type (Esc closes)"
    ),
    "team_removed_title": N_("Your team is not in this event any more"),
    "team_removed": N_("The host removed it from the team list. Ask the host, or join again."),
    "join_again": N_("Join again"),
    "team_withdrawn": N_(
        "Your team has withdrawn from the game. Its results stay in the standings."
    ),
}

#: the parts' names as the event keeps them, in words
PART_TEXTS: Final = {
    "game": N_("game"),
    "semifinal 1": N_("semifinal 1"),
    "semifinal 2": N_("semifinal 2"),
    "final": N_("final"),
}

#: texts with a count: key -> (singular, plural); ``{n}`` is the count that picks the form
PLURALS: Final = {
    "waiting_start": N_plural(
        "Waiting for the game to start. {n} team has joined",
        "Waiting for the game to start. {n} teams have joined",
    ),
    "answered_count": N_plural("{x} of {n} team answered", "{x} of {n} teams answered"),
    "teams_count": N_plural("{n} team", "{n} teams"),
    "offline_queued": N_plural(
        "No connection to the server: reconnecting… {n} command waits and will be sent.",
        "No connection to the server: reconnecting… {n} commands wait and will be sent in order.",
    ),
    "stats_right": N_plural("{right} of {n} team right", "{right} of {n} teams right"),
    "presenter_veiled": N_plural(
        "{n} answer group, hidden while teams answer (presenter mode)",
        "{n} answer groups, hidden while teams answer (presenter mode)",
    ),
    "pack_questions": N_plural("{n} question", "{n} questions"),
    "pack_backups": N_plural("{n} backup question", "{n} backup questions"),
    "pack_lightning": N_plural("{n} lightning question", "{n} lightning questions"),
    "mark_rest_wrong": N_plural(
        "Mark the other {n} answer wrong", "Mark the other {n} answers wrong"
    ),
}

#: the language switch names the other language in that language (never translated)
SWITCH_LABELS: Final = {"en": "Язык: русский", "ru": "Language: English"}


@functools.cache
def strings(lang: str) -> dict[str, Any]:
    """The table of ``lang``: every key's text, the plural texts by CLDR category (the
    scripts choose with ``Intl.PluralRules``) and the engine's words (``note_*``,
    ``problem_*``, ``decl_*``, ``end_*``) for the notes the messages carry as codes."""
    _ = Translator(lang)
    table: dict[str, Any] = {key: _(text) for key, text in EN.items()}
    for prefix, texts in (
        ("note_", NOTE_TEXTS),
        ("problem_", PROBLEM_TEXTS),
        ("decl_", DECLARATION_TEXTS),
        ("end_", END_TEXTS),
        ("part_", PART_TEXTS),
    ):
        table.update({prefix + str(key): _(text) for key, text in texts.items()})
    for key, (one, many) in PLURALS.items():
        table[key] = _.plural_forms(one, many)
    table["language"] = SWITCH_LABELS.get(_.lang, SWITCH_LABELS["en"])
    return table
