"""The exports of an evening with a lightning round: the CSV's byte-order mark, columns,
lightning rows, end reason and part names; the results JSON's end reason; the protocol's
lightning question."""

from __future__ import annotations

import csv
import io
from typing import Any

from fastapi.testclient import TestClient

from koth.server.quiz.export import CSV_COLUMNS
from tests.server.quiz.helpers import QuizApi

RIGHT = "Paris"


def tied_evening(api: QuizApi, teams: tuple[str, ...] = ("Совы", "B", "C")) -> None:
    api.create(steps=6, hold_moves=2, questions=1, spurs_per_slope=0, prize_places=1)
    for team in teams:
        api.join(team)
    api.cmd("start")
    api.play(1, {teams[0]: RIGHT, teams[1]: RIGHT}, {RIGHT})
    api.cmd("lightning", teams=[teams[0], teams[1]], right=[teams[1]])


def csv_rows(client: TestClient, api: QuizApi) -> tuple[bytes, list[dict[str, Any]]]:
    raw = client.get(api.url("export.csv")).content
    text = raw.decode("utf-8-sig")
    return raw, list(csv.DictReader(io.StringIO(text)))


def test_the_csv_starts_with_a_byte_order_mark(api: QuizApi, client: TestClient) -> None:
    tied_evening(api)
    raw, _rows = csv_rows(client, api)
    assert raw.startswith(b"\xef\xbb\xbfpart,question,team,")
    assert "Совы".encode() in raw  # plain UTF-8 after the mark


def test_the_csv_has_lightning_rows_end_reason_and_part_names(
    api: QuizApi, client: TestClient
) -> None:
    tied_evening(api)
    _raw, rows = csv_rows(client, api)
    assert list(rows[0]) == CSV_COLUMNS and CSV_COLUMNS[-1] == "end_reason"
    lightning = [r for r in rows if r["question"] == "lightning 1"]
    assert [(r["team"], r["correct"], r["place"]) for r in lightning] == [
        ("Совы", "no", "2"),
        ("B", "yes", "1"),
    ]
    assert {r["part"] for r in rows} == {"game"}
    assert {r["end_reason"] for r in rows} == {"the questions ran out"}
    assert len(rows) == 3 + 2


def test_results_json_names_the_end_reason_and_the_lightning(
    api: QuizApi, client: TestClient
) -> None:
    tied_evening(api)
    part = client.get(api.url("export.json")).json()["parts"][0]
    assert part["name"] == "game" and part["end_reason"] == "the questions ran out"
    assert part["lightning"] == [{"teams": ["Совы", "B"], "right": ["B"]}]
    protocol = client.get(api.url("protocol.json")).json()
    assert protocol["lightning"] == [
        {"teams": ["Совы", "B"], "answers": {"Совы": {"correct": False}, "B": {"correct": True}}}
    ]


def test_a_running_part_has_no_end_reason(api: QuizApi, client: TestClient) -> None:
    api.create(steps=6, hold_moves=2, questions=3, spurs_per_slope=0)
    for team in ("A", "B"):
        api.join(team)
    api.cmd("start")
    api.play(1, {"A": RIGHT}, {RIGHT})
    results = client.get(api.url("results"), headers=api.host).json()
    assert results["parts"][0]["end_reason"] is None
    text = client.get(api.url("export.csv"), headers=api.host).content.decode("utf-8-sig")
    assert {r["end_reason"] for r in csv.DictReader(io.StringIO(text))} == {""}


def test_semifinal_exports_name_every_part(api: QuizApi, client: TestClient) -> None:
    api.create(
        steps=3,
        hold_moves=1,
        questions=2,
        spurs_per_slope=0,
        format="semifinals",
        qualifiers=1,
        prize_places=1,
    )
    for team in ("A", "B", "C", "D"):
        api.join(team)
    api.cmd("start")  # semifinal 1: A and C
    api.play(1, {"A": RIGHT}, {RIGHT})
    api.play(2, {"A": RIGHT}, {RIGHT})
    parts = client.get(api.url("results"), headers=api.host).json()["parts"]
    assert [p["name"] for p in parts] == ["semifinal 1"]
    text = client.get(api.url("export.csv"), headers=api.host).content.decode("utf-8-sig")
    assert {r["part"] for r in csv.DictReader(io.StringIO(text))} == {"semifinal 1"}
