"""Every bad input of the ``koth`` command: one error naming the problem, exit code 2, no
traceback, and nothing lost or half written."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from koth.cli import app
from koth.core.chance import random_game
from koth.core.errors import RecordError
from koth.core.record import GameRecord, replay
from koth.games.cards.game import CardsGame
from koth.games.terminal import (
    EXIT_ABANDONED,
    EXIT_BAD_INPUT,
    BadInput,
    save_record,
)
from tests.cli_text import plain

runner = CliRunner()
EXAMPLES = Path(__file__).resolve().parents[1] / "examples" / "quiz"
CARD_RECORD = {"format": "koth-record/1", "game": "cards", "params": {}, "moves": []}


def _write(tmp_path: Path, name: str, doc: object) -> str:
    path = tmp_path / name
    path.write_text(json.dumps(doc))
    return str(path)


@pytest.mark.parametrize(
    ("args", "env", "message"),
    [
        (["quiz", "score", "{card}"], {}, "not a quiz protocol: check it with `koth replay`"),
        (["quiz", "score", "{odd}"], {}, "format: 'x' is not an object"),
        (["replay", str(EXAMPLES / "king_held.json")], {}, "score it with `koth quiz score`"),
        (["play", "cards", "--record", "/nonexistent/dir/g.json"], {}, "does not exist"),
        (["play", "board", "--record", "/nonexistent/dir/g.json"], {}, "does not exist"),
        (["play", "cards", "--record", "{folder}"], {}, "is a folder"),
        (["play", "board", "--set", "round_limit"], {}, "write KEY=VALUE"),
        (["play", "cards", "--set", "jokers=9"], {}, "jokers"),
        (["play", "board", "--seat", "human", "--vs", "random", "--vs", "random"], {}, "has 2"),
        (["play", "cards", "--vs", "nobody"], {}, "Seat 2 ('nobody')"),
        (["simulate", "cards", "--agents", "random,random", "--set", "x"], {}, "KEY=VALUE"),
        (["serve", "--port", "99999"], {}, "less than or equal to 65535"),
        (["serve"], {"KOTH_PORT": "abc"}, "KOTH_PORT"),
        (["serve", "--database", "bogus://x"], {}, "not 'bogus'"),
    ],
)  # fmt: skip
def test_bad_input_exits_2_with_one_error_and_no_traceback(
    tmp_path: Path, args: list[str], env: dict[str, str], message: str
) -> None:
    names = {
        "{card}": _write(tmp_path, "card.json", CARD_RECORD),
        "{odd}": _write(tmp_path, "odd.json", {"format": "x", "teams": ["A", "B"]}),
        "{folder}": str(tmp_path),
    }
    args = [names.get(a, a) for a in args]
    # the game would wait for input: none is read, since the check comes first
    result = runner.invoke(app, args, env=env, input="")
    text = plain(result.output)
    assert result.exit_code == EXIT_BAD_INPUT, text
    assert message in text
    assert "Traceback" not in text
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert "Choose your reserve" not in text and "King of the Hill (board)" not in text


def test_a_lone_action_at_a_simultaneous_node_names_its_rule(tmp_path: Path) -> None:
    state = random_game(CardsGame(), seed=3)
    record = GameRecord.from_state(state)
    first_joint = next(k for k, m in enumerate(record.moves) if m.joint is not None)
    joint = record.moves[first_joint].joint
    assert joint is not None
    record.moves[first_joint] = record.moves[first_joint].model_copy(
        update={"joint": None, "player": 0, "action": joint[0]}
    )
    with pytest.raises(RecordError) as caught:
        replay(record)
    assert caught.value.rule == "C4.1" and "(rule C4.1)" in str(caught.value)
    path = tmp_path / "bad.json"
    record.save(path)
    result = runner.invoke(app, ["replay", str(path), "--json"])
    assert result.exit_code == EXIT_BAD_INPUT
    assert json.loads(result.output)["rule"] == "C4.1"


def test_a_record_is_written_whole_or_not_at_all(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "game.json"
    GameRecord(game="cards").save(path)
    before = path.read_text()

    def broken(self: GameRecord) -> str:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(GameRecord, "to_json_text", broken)
    with pytest.raises(OSError):
        GameRecord(game="board").save(path)
    assert path.read_text() == before  # the old record is intact
    assert [p.name for p in tmp_path.iterdir()] == ["game.json"]  # no half file left


def test_a_record_that_cannot_be_saved_after_the_game_is_kept_elsewhere(tmp_path: Path) -> None:
    from rich.console import Console

    gone = tmp_path / "gone" / "game.json"  # its folder vanished during the game
    with pytest.raises(BadInput) as caught:
        save_record(Console(), GameRecord(game="cards", meta={"seed": 4}), gone, "record")
    spare = Path(str(caught.value.message).rsplit(" ", 1)[1])
    assert json.loads(spare.read_text())["meta"] == {"seed": 4}
    spare.unlink()


@pytest.mark.parametrize(
    ("game", "text"),
    [("cards", "done\n" + "1\n" * 3), ("board", "1\n" * 2)],
)
def test_end_of_input_exits_with_the_same_code_in_every_game(
    tmp_path: Path, game: str, text: str
) -> None:
    record = tmp_path / "partial.json"
    result = runner.invoke(app, ["play", game, "--seed", "3", "--record", str(record)], input=text)
    assert result.exit_code == EXIT_ABANDONED, result.output
    assert "End of input: the game is abandoned" in result.output
    assert GameRecord.load(record).meta["finished"] is False
