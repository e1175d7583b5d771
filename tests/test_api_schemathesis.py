"""schemathesis against the generated OpenAPI document: every operation, with bounded
examples (valid and invalid ones), on an account that holds a few games. No answer may be a
server error, and every answer must match what the document says of it (status, media type
and body)."""

from __future__ import annotations

import pytest
import schemathesis
from hypothesis import HealthCheck
from hypothesis import given
from hypothesis import settings
from schemathesis import GenerationMode
from schemathesis.checks import content_type_conformance
from schemathesis.checks import not_a_server_error
from schemathesis.checks import response_schema_conformance
from schemathesis.checks import status_code_conformance

from tests.conftest import Api
from tests.conftest import new_token

pytestmark = pytest.mark.drill

#: Examples per operation: enough to reach every refusal path, few enough for CI.
EXAMPLES = 25
CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_schema_conformance,
]


@pytest.fixture
def api_schema(app, account):
    client = app.test_client()
    api = Api(client, new_token(client))
    for game, players in (
        ("oh_hell", ["Ann", "Ben", "Cy"]),
        ("pitch", ["Ann", "Ben", "Cy", "Dee"]),
        ("oklahoma_gin", ["Ann", "Ben"]),
    ):
        assert api.post("/games", {"game": game, "players": players}).status_code == 201
    night = api.post("/nights", {"name": "Friday"})
    assert night.status_code == 201
    schema = schemathesis.openapi.from_wsgi("/api/v1/openapi.json", app)
    schema.token = api.token
    return schema


def test_no_input_gets_a_server_error_or_an_undocumented_answer(api_schema):
    # identity: the in-process transport does not undo the compression real clients ask for
    headers = {"Authorization": f"Bearer {api_schema.token}", "Accept-Encoding": "identity"}
    tried: dict[str, int] = {}
    failures: list[str] = []
    for found in api_schema.get_all_operations():
        operation = found.ok()
        label = operation.label
        if label == "DELETE /api/v1/tokens":
            continue  # would revoke the token every other case uses
        tried[label] = 0
        for mode in (GenerationMode.POSITIVE, GenerationMode.NEGATIVE):
            run_cases(operation, mode, label, headers, tried, failures)
    print(f"schemathesis: {sum(tried.values())} cases over {len(tried)} operations")
    assert len(tried) >= 18
    assert failures == []


def run_cases(operation, mode, label, headers, tried, failures) -> None:
    """Up to ``EXAMPLES`` cases of one operation (valid ones, or ones the document says are
    invalid); a failing check is noted, not raised."""

    @given(case=operation.as_strategy(generation_mode=mode))
    @settings(
        max_examples=EXAMPLES,
        deadline=None,
        suppress_health_check=list(HealthCheck),
        derandomize=True,
        database=None,
    )
    def run(case):
        tried[label] += 1
        try:
            case.call_and_validate(headers=headers, checks=CHECKS)
        except (Exception, BaseExceptionGroup) as failure:  # every failure, reported together
            failures.append(f"{label}: {failure}"[:800])

    run()
