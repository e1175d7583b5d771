"""schemathesis against the generated OpenAPI document, as ``schemathesis run --checks all``
runs it (its engine, in process on the WSGI app: no network): every check, the examples and
coverage phases one operation per test, the fuzzing phase one operation per test of its own
(so pytest-xdist spreads them), the stateful phase in tests of their own, on an account that
holds a few games. 0 failures of any check.

Which database: every phase runs on both, so a refusal that only PostgreSQL makes (a text
longer than its column, a number beyond its integer) meets the deterministic phases (every
documented value, the boundaries of every length and range, every wrong type, every missing
field), the random fuzzing and the stateful sequences on PostgreSQL too (issue 27: 0 failures
of any check on both databases; the fuzzing and stateful phases add about 20 s to the
PostgreSQL pass on two workers, which is the shorter pass). The text PostgreSQL alone
refuses (NUL, lone surrogates: finding 4) is sent to the API's game, night, rule set and
restore bodies on both databases by tests/test_bad_input.py (and to every form field by
tests/test_input_sweep.py).

The settings beside the defaults: Hypothesis's too_slow health check off (see
``configured``), and: an operation whose answer depends on the state of what
it changes (a hand against the game so far, a name already taken, a game not finished) may
answer a request the document allows with the 409 or 422 it documents
(``spec.STATE_DEPENDENT``); ``state_refusal_only`` then checks that such a 422 is a refusal
of the state, never one of a request's form (a name's characters, a text's length), which
the document must describe.
"""

from __future__ import annotations

import re
import uuid

import pytest
import schemathesis
from schemathesis import engine
from schemathesis.config import SchemathesisConfig
from schemathesis.engine import events
from schemathesis.transport.wsgi import WSGITransport

import scorekeeper.views.api
import scorekeeper.views.api_history  # noqa: F401  (with the lines around: every operation)
import scorekeeper.views.api_seats  # noqa: F401
from scorekeeper.api.spec import STATE_DEPENDENT
from tests.conftest import Api
from tests.conftest import new_token

pytestmark = pytest.mark.drill

#: Examples per operation and phase: enough to reach every refusal path, few for CI.
EXAMPLES = 15
#: Every operation, by id (the view's name), but the document's own: schemathesis makes no
#: case of the operation that serves the schema it reads.
OPERATIONS = sorted(set(STATE_DEPENDENT) - {"openapi"})
#: The operations on one change of a game (``/games/{game_id}/changes/{change_id}``): the
#: stateful phase's own links (inferred, none are declared) fill ``change_id`` with the id
#: of the game just created, and its resource check then takes the 404 of a change that
#: never was for a created resource gone missing. Every other check runs on them.
CHANGE_OPERATIONS = {"correct_change", "remove_change"}

#: What a refusal of a request's form is called: such a 422 to a request the document
#: allows means the document is looser than the server.
FORM_CODES = {"name_invalid", "text_too_long", "wrong_type", "required", "invalid_json"}


def _whole_float(value) -> bool:
    if isinstance(value, float):
        return value.is_integer()
    if isinstance(value, dict):
        return any(_whole_float(item) for item in value.values())
    if isinstance(value, list):
        return any(_whole_float(item) for item in value)
    return False


@schemathesis.hook
def filter_body(ctx, body):
    """The API reads whole numbers strictly (README: ``2.0`` is no ``2``), while JSON Schema's
    ``integer`` takes ``6.0``, which no schema can leave out: a generated body holding such a
    float is not sent. That the server refuses them is checked by tests/test_bad_input.py."""
    return not _whole_float(body)


_KEY = re.compile(r"[\x21-\x7e]{1,200}")


@schemathesis.hook
def map_headers(ctx, headers):
    """A valid Idempotency-Key is made unique to its request: a key the generator happens to
    send twice with the same body would be answered as the first time (API.md), even after
    that game was deleted, which the resource check takes for a created game gone missing.
    Invalid keys are left as generated; replays are tests/test_idempotency.py's subject."""
    key = (headers or {}).get("Idempotency-Key")
    if isinstance(key, str) and _KEY.fullmatch(key):
        headers["Idempotency-Key"] = key[:160] + "-" + uuid.uuid4().hex
    return headers


@schemathesis.check
def state_refusal_only(ctx, response, case):
    """A request the document allows is never refused for its form."""
    meta = case.meta
    if meta is None or not meta.generation.mode.is_positive or response.status_code != 422:
        return None
    codes = {error["code"] for error in response.json()["errors"]}
    assert not codes & FORM_CODES, f"a valid request refused for its form: {response.text}"
    return None


@pytest.fixture
def wsgi_transport(monkeypatch):
    """schemathesis 4's probes without credentials (``ignored_auth``) pass the network
    settings on to werkzeug's test client, which takes none of them: left out here."""
    send = WSGITransport.send

    def without_network_settings(self, case, *, session=None, **kwargs):
        if session is None:
            for name in ("max_redirects", "verify", "cert", "proxies"):
                kwargs.pop(name, None)
        return send(self, case, session=session, **kwargs)

    monkeypatch.setattr(WSGITransport, "send", without_network_settings)


@pytest.fixture
def seeded(app, account, wsgi_transport):
    """The app, with games of three kinds and a night, and a token of the account."""
    client = app.test_client()
    token = new_token(client)
    api = Api(client, token)
    for game, players in (
        ("oh_hell", ["Ann", "Ben", "Cy"]),
        ("pitch", ["Ann", "Ben", "Cy", "Dee"]),
        ("oklahoma_gin", ["Ann", "Ben"]),
    ):
        assert api.post("/games", {"game": game, "players": players}).status_code == 201
    assert api.post("/nights", {"name": "Friday"}).status_code == 201
    return app, token


def configured(
    token: str, phases: list[str], seed: int = 1, only: str | None = None
) -> SchemathesisConfig:
    """The run's settings; ``only``: of that operation alone (the engine reads the filters of
    its settings, not those of the schema). Hypothesis's too_slow health check is off: it
    measures how long making a case takes, which on a loaded CI machine failed a run that
    found nothing (create_night's fuzzing); what is checked of each case is unchanged."""
    left_out = [
        {"include-operation-id": operation, "enabled": False}
        for operation in OPERATIONS
        if only is not None and operation != only
    ]
    return SchemathesisConfig.from_dict(
        {
            "seed": seed,
            "suppress-health-check": ["too_slow"],
            # identity: the in-process transport does not undo a compression it asked for
            "headers": {"Authorization": f"Bearer {token}", "Accept-Encoding": "identity"},
            "checks": {"enabled": True},
            "generation": {"max-examples": EXAMPLES, "mode": "all"},
            "phases": {
                phase: {"enabled": phase in phases}
                for phase in ("examples", "coverage", "fuzzing", "stateful")
            },
            "operations": [
                {
                    "include-operation-id": operation,
                    "checks": {
                        "positive_data_acceptance": {
                            "expected-statuses": [
                                "2xx",
                                "401",
                                "403",
                                "404",
                                "429",
                                *(str(status) for status in statuses),
                            ]
                        },
                        **(
                            {"ensure_resource_availability": {"enabled": False}}
                            if operation in CHANGE_OPERATIONS
                            else {}
                        ),
                    },
                }
                for operation, statuses in STATE_DEPENDENT.items()
                if only is None or operation == only
            ]
            + left_out,
        }
    )


def run(schema) -> tuple[int, list[str], list[str]]:
    """The cases run, the failures found (one line each) and the errors of the run."""
    cases = 0
    failures: list[str] = []
    errors: list[str] = []
    for event in engine.from_schema(schema).execute():
        if isinstance(event, events.ScenarioFinished):
            recorder = event.recorder
            cases += len(recorder.cases)
            for checks in recorder.checks.values():
                for check in checks:
                    if check.failure_info is not None:
                        failure = check.failure_info.failure
                        sample = check.failure_info.code_sample
                        failures.append(f"{event.label}: {check.name}: {failure.title}\n{sample}")
        elif isinstance(event, events.NonFatalError | events.FatalError):
            errors.append(str(getattr(event, "info", event))[:800])
    return cases, failures, errors


def drill(seeded, operation: str, phases: list[str]) -> None:
    """Every check over ``phases`` of one operation: cases made, no error, no failure."""
    app, token = seeded
    config = configured(token, phases, only=operation)
    schema = schemathesis.openapi.from_wsgi("/api/v1/openapi.json", app, config=config)
    cases, failures, errors = run(schema)
    print(f"schemathesis {operation} {phases}: {cases} cases, {len(failures)} failures")
    assert cases > 0
    assert errors == []
    assert not failures, "\n\n".join(failures)


@pytest.mark.parametrize("operation", OPERATIONS)
def test_every_check_passes_on_every_operation(seeded, operation):
    """The deterministic phases, on both databases."""
    drill(seeded, operation, ["examples", "coverage"])


@pytest.mark.parametrize("operation", OPERATIONS)
def test_every_check_passes_on_random_requests_to_every_operation(seeded, operation):
    """The fuzzing phase (random values of the document's forms), on both databases."""
    drill(seeded, operation, ["fuzzing"])


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_every_check_passes_in_stateful_sequences(seeded, seed):
    """Sequences of calls linked by the document's links and the ids the answers give (the
    token's revocation left out: it would end the sequence), on both databases."""
    app, token = seeded
    config = configured(token, ["stateful"], seed)
    schema = schemathesis.openapi.from_wsgi("/api/v1/openapi.json", app, config=config)
    schema = schema.exclude(operation_id="revoke_token")
    cases, failures, errors = run(schema)
    print(f"schemathesis stateful seed {seed}: {cases} cases, {len(failures)} failures")
    assert errors == []
    assert not failures, "\n\n".join(failures)
