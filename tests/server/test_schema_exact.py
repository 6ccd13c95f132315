"""The published schema says exactly what the server takes and gives: times with their
offset, one of action/action_id, strict booleans, named spur teams, a pack text that
fits in a request body."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from fastapi.testclient import TestClient

from koth.server.settings import Settings
from tests.server.conftest import create_game


def component(client: TestClient, name: str) -> dict[str, Any]:
    schema: dict[str, Any] = client.get("/openapi.json").json()["components"]["schemas"][name]
    return schema


def test_created_times_carry_their_offset(client: TestClient) -> None:
    create_game(client)
    listed = client.get("/api/games", params={"status": ["open"]}).json()
    assert datetime.fromisoformat(listed[0]["created"]).utcoffset() is not None


def test_exactly_one_of_action_and_action_id_is_in_the_schema(client: TestClient) -> None:
    schema = component(client, "ActionRequest")
    assert schema["oneOf"] == [{"required": ["action"]}, {"required": ["action_id"]}]
    assert schema["properties"]["action"]["type"] == "string"
    assert schema["properties"]["action_id"] == {
        "description": "the action's integer id",
        "minimum": 0,
        "title": "Action Id",
        "type": "integer",
    }
    game = create_game(client)
    both = {"action": "stake 1", "action_id": 0}
    assert (
        client.post(f"/api/games/{game.id}/actions", json=both, headers=game.auth(0)).status_code
        == 422
    )


def test_booleans_are_booleans(client: TestClient) -> None:
    response = client.post("/api/quiz/events", json={"phones_show_question": 0})
    assert response.status_code == 422
    settings = component(client, "EventSettings")
    assert settings["properties"]["spurs"]["propertyNames"] == {"minLength": 1}


def test_the_pack_text_limit_fits_in_a_request_body(client: TestClient) -> None:
    text = component(client, "PackUpload")["properties"]["text"]
    assert text["maxLength"] <= Settings().max_body_bytes


def test_a_legal_actions_type_is_an_enum_of_the_registered_games_kinds(
    client: TestClient,
) -> None:
    enum = component(client, "LegalAction")["properties"]["type"]["enum"]
    assert {"single", "run", "joker_play", "turn_ring", "move_area", "end"} <= set(enum)
    assert {"stake", "choice"} <= set(enum)  # the toy game the tests register
    game = create_game(client, "cards")
    me = client.get(f"/api/games/{game.id}", headers=game.auth(0)).json()
    assert me["legal"] and {entry["type"] for entry in me["legal"]} <= set(enum)


def test_a_recent_events_code_is_an_enum(client: TestClient) -> None:
    code = component(client, "NoteEntry")["properties"]["code"]
    assert code["enum"] == ["dice_forfeited", "turn_skipped"]
