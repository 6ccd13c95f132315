"""The OpenAPI document describes every JSON response body and every error response."""

from __future__ import annotations

import re
from typing import Any

import pytest

from koth.server.app import create_app
from koth.server.errors import ERROR_TABLE, ErrorCode
from koth.server.settings import Settings


@pytest.fixture(scope="module")
def openapi() -> dict[str, Any]:
    # the schema is built from the routes alone: no database is opened
    document: dict[str, Any] = create_app(Settings()).openapi()
    return document


def _resolve(schema: dict[str, Any], document: dict[str, Any]) -> dict[str, Any]:
    while "$ref" in schema:
        name = schema["$ref"].rsplit("/", 1)[-1]
        schema = document["components"]["schemas"][name]
    return schema


def _has_properties(schema: dict[str, Any], document: dict[str, Any]) -> bool:
    """An object with properties, a list of such, or a union each of whose members is."""
    schema = _resolve(schema, document)
    if schema.get("type") == "array":
        return _has_properties(schema["items"], document)
    for union in ("anyOf", "oneOf"):
        if union in schema:
            return all(_has_properties(member, document) for member in schema[union])
    return bool(schema.get("properties"))


def _operations(document: dict[str, Any]) -> list[tuple[str, str, dict[str, Any]]]:
    return [
        (path, method, operation)
        for path, methods in document["paths"].items()
        for method, operation in methods.items()
    ]


def test_every_json_success_response_has_a_schema_with_properties(
    openapi: dict[str, Any],
) -> None:
    checked = 0
    for path, method, operation in _operations(openapi):
        for status in ("200", "201"):
            response = operation["responses"].get(status)
            if response is None or "application/json" not in response.get("content", {}):
                continue
            schema = response["content"]["application/json"].get("schema", {})
            assert _has_properties(schema, openapi), (method, path, status, schema)
            checked += 1
    assert checked >= 30  # games and quiz alike


def test_every_error_response_is_the_error_body_with_its_codes(openapi: dict[str, Any]) -> None:
    codes = {code.value for code in ErrorCode}
    for path, method, operation in _operations(openapi):
        if "operations" in operation.get("tags", []):
            continue  # /readyz answers 503 with the readiness report itself
        for status, response in operation["responses"].items():
            if not status.startswith(("4", "5")):
                continue
            schema = response["content"]["application/json"]["schema"]
            assert schema["$ref"].endswith("/ErrorResponse"), (method, path, status)
            named = set(re.findall(r"`([a-z_]+)`", response["description"]))
            assert named <= codes and (named or status == "422"), (method, path, status)


def test_every_error_class_has_one_code_and_every_code_one_meaning() -> None:
    kinds = list(ERROR_TABLE.values())
    assert len({kind.code for kind in kinds}) == len(kinds)


def test_judge_commands_each_document_their_own_body(openapi: dict[str, Any]) -> None:
    prefix = "/api/quiz/events/{event_id}/judge/"
    commands = {
        p.removeprefix(prefix): m["post"]
        for p, m in openapi["paths"].items()
        if p.startswith(prefix)
    }
    assert len(commands) == 28  # return_team undoes a withdrawal; media plays a sound
    for command in commands.values():  # a resent command is applied once
        assert "Idempotency-Key" in {p["name"] for p in command.get("parameters", [])}
    body = commands["extend"]["requestBody"]["content"]["application/json"]["schema"]
    assert "seconds" in _resolve(body, openapi)["required"]
    appeal = _resolve(
        commands["appeal"]["requestBody"]["content"]["application/json"]["schema"], openapi
    )
    assert {"question", "team", "correct"} <= set(appeal["required"])
