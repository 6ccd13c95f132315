"""Schemathesis against the real server (``koth serve``) on SQLite and on PostgreSQL:
every operation of the OpenAPI document, with generated valid and invalid requests,
answers without a server error, with a documented status code and content type, and
with a body that matches its schema."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
import schemathesis
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis.errors import Unsatisfiable
from schemathesis import GenerationMode
from schemathesis.checks import not_a_server_error
from schemathesis.schemas import APIOperation
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from tests.server.conftest import postgres_schema
from tests.server.live_server import LiveServer

CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_schema_conformance,
]
#: examples per operation and database: enough to reach every error path of the
#: schema, few enough to keep CI within its time
EXAMPLES = 8


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def database(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[str]:
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path_factory.mktemp('schemathesis') / 'koth.sqlite3'}"
        return
    with postgres_schema("koth_st") as url:
        yield url


@pytest.fixture(scope="module")
def api_schema(database: str) -> Iterator[schemathesis.BaseSchema]:
    server = LiveServer(database, extra_games=("tests.core.toy_game",)).start()
    try:
        yield schemathesis.openapi.from_url(f"{server.url}/openapi.json")
    finally:
        server.stop()


def check_operation(operation: APIOperation, mode: GenerationMode) -> str | None:
    """Run generated requests of one kind against one operation; the first failure."""

    @given(case=operation.as_strategy(generation_mode=mode))
    @settings(
        max_examples=EXAMPLES,
        deadline=None,
        suppress_health_check=list(HealthCheck),
        derandomize=True,
        database=None,
        phases=[Phase.explicit, Phase.generate],
    )
    def run(case: schemathesis.Case) -> None:
        case.call_and_validate(checks=CHECKS)

    try:
        run()
    except Unsatisfiable:  # no invalid request exists (e.g. a path id may be anything)
        assert mode is GenerationMode.NEGATIVE
    except (Exception, ExceptionGroup) as exc:  # collected: every operation is tried
        return f"{operation.method.upper()} {operation.path} ({mode.value}): {exc}"
    return None


@pytest.mark.slow
def test_every_operation_answers_as_documented(api_schema: schemathesis.BaseSchema) -> None:
    failures = []
    operations = [result.ok() for result in api_schema.get_all_operations()]
    assert len(operations) >= 35
    for operation in operations:
        for mode in GenerationMode:
            failure = check_operation(operation, mode)
            if failure is not None:
                failures.append(failure)
    assert failures == [], "\n\n".join(failures)
