"""The API declared once: spectree checks each request body and query against its pydantic
model before the view runs; the view answers with an instance of the documented model, which
spectree writes out (anything else it checks against the model first); and the OpenAPI
document (served at /api/v1/openapi.json) is drawn from the same models.

Only spectree's public API is used: ``SpecTree.validate`` declares each operation, and the
document is spectree's ``spec`` with the models' schemas drawn again by its model adapter
whenever a game is registered (``document``).

A refused request keeps the app's error format, ``{"errors": [{code, field, message}]}``:
pydantic's findings become the API's codes (``wrong_type``, ``required``, ...).
"""

from __future__ import annotations

import copy
from functools import wraps
from typing import Any

from flask import request
from pydantic import BaseModel
from pydantic import ValidationError
from spectree import Response
from spectree import SecurityScheme
from spectree import SpecTree
from spectree.models import SecuritySchemeData

from scorekeeper.api import schemas
from scorekeeper.errors import Problem
from scorekeeper.errors import Refusal
from scorekeeper.games import GAMES
from scorekeeper.games.i18n import _

#: What a value of each pydantic type had to be, in words.
#: What a field of each kind must be, as a whole sentence per kind.
KINDS = {
    "int": lambda field: _("“%(field)s” must be a whole number.", field=field),
    "string": lambda field: _("“%(field)s” must be text.", field=field),
    "bool": lambda field: _("“%(field)s” must be true or false.", field=field),
    "dict": lambda field: _("“%(field)s” must be an object.", field=field),
    "model": lambda field: _("“%(field)s” must be an object.", field=field),
    "list": lambda field: _("“%(field)s” must be a list.", field=field),
    "tuple": lambda field: _("“%(field)s” must be a list.", field=field),
    "float": lambda field: _("“%(field)s” must be a number.", field=field),
    "none": lambda field: _("“%(field)s” must be null.", field=field),
}

BEARER = {"bearer": []}
BASIC = {"basic": []}


def _where(location: tuple) -> str | None:
    return ".".join(str(part) for part in location) or None


def problems_of(error: ValidationError | list[dict]) -> list[Problem]:
    """pydantic's findings as the API's problems: a missing field is ``required``, an
    unknown one or a value of the wrong kind ``wrong_type``, a value out of its range
    ``option_value`` under ``options`` and ``wrong_type`` elsewhere."""
    problems: list[Problem] = []
    found_errors = error.errors(include_url=False) if isinstance(error, ValidationError) else error
    for found in found_errors:
        location = tuple(part for part in found["loc"] if not _is_branch(part))
        field = _where(location)
        kind = found["type"]
        if found.get("ctx", {}).get("refusal"):  # the app's own refusal (``schemas.Text``)
            problems.append(Problem(kind, found["msg"], field))
            continue
        if kind == "missing":
            problems.append(Problem("required", _("“%(field)s” is missing.", field=field), field))
            continue
        if kind == "extra_forbidden":
            code = "unknown_option" if location[:1] == ("options",) else "wrong_type"
            problems.append(
                Problem(code, _("There is no field called “%(field)s”.", field=field), field)
            )
            continue
        base = kind.removesuffix("_type").removesuffix("_parsing")
        if base in KINDS:
            message = KINDS[base](field) if field else None
        else:
            message = (
                _("“%(field)s”: %(problem)s.", field=field, problem=found["msg"]) if field else None
            )
        message = message or _("The request body must be a JSON object.")
        code = "option_value" if location[:1] == ("options",) else "wrong_type"
        problems.append(Problem(code, message, field))
    # A value that fits none of a union's types is one problem, not one per type.
    unique = list(
        {(problem.code, problem.field): problem for problem in reversed(problems)}.values()
    )
    unique.reverse()
    return unique or [Problem("wrong_type", _("The request body is not what was expected."))]


def _is_branch(part: Any) -> bool:
    """Union branches in pydantic's locations ("int", "function-after[...]") are no fields."""
    return isinstance(part, str) and ("[" in part or part in KINDS or part.endswith("-nullable"))


def refuse_invalid(req, resp, error, instance, model_adapter) -> None:
    """spectree's hook before the view: a request its models refuse becomes a Refusal."""
    if error is not None:
        if isinstance(error, ValidationError):
            raise Refusal.of(problems_of(error))
        raise Refusal("wrong_type", _("The request is not what was expected."))


#: The document is served by the API blueprint itself (/api/v1/openapi.json); spectree's own
#: documentation routes are not registered (its pages would load scripts from a CDN).
spec = SpecTree(
    "flask",
    title="Scorekeeper API",
    version="1",
    description="Keep score of card games played at a real table. Errors are "
    "{errors: [{code, field, message}]}; a refused request changes nothing.",
    mode="strict",
    naming_strategy=lambda model: model.__name__,
    # A nested model keeps its own name, so the references pydantic writes are the document's.
    nested_naming_strategy=lambda parent, child: child,
    page_templates={},  # no documentation pages: they would load scripts from a CDN
    annotations=False,
    before=refuse_invalid,
    validation_error_status=400,
    validation_error_model=schemas.Errors,
    security_schemes=[
        SecurityScheme(name="bearer", data=SecuritySchemeData(type="http", scheme="bearer")),
        SecurityScheme(name="basic", data=SecuritySchemeData(type="http", scheme="basic")),
    ],
)

#: Every model an operation declares, with the mode its schema is drawn in, in the order
#: spectree meets them: bodies and queries are read ("validation"), answers written
#: ("serialization").
DECLARED: dict[tuple[type[BaseModel], str], None] = {}
#: Operations whose success answer is no JSON (a CSV file): their media type.
RAW_MEDIA: dict[str, str] = {}
#: Operations whose body the view reads itself (a backup, plain or gzip-compressed): its model.
RAW_BODY: dict[str, type[BaseModel]] = {}
REF = "#/components/schemas/{model}"
_drawn: dict[int, dict] = {}


def document() -> dict:
    """The OpenAPI document, for the games registered now.

    spectree writes the paths (once: they do not depend on the games); the models' schemas
    are drawn again here, with spectree's own model adapter, whenever a game is added or
    removed, since the models of the games' states, hands and statistics follow the
    registered games (``schemas.game_models``)."""
    found = _drawn.get(GAMES.version)
    if found is None:
        found = copy.deepcopy(spec.spec)
        found["components"]["schemas"] = schemas_now()
        for item in found["paths"].values():
            for operation in item.values():
                body = RAW_BODY.get(operation.get("operationId"))
                if body is not None:
                    operation["requestBody"] = {
                        "required": True,
                        "content": {
                            "application/json": {
                                "schema": {"$ref": REF.format(model=spec.naming_strategy(body))}
                            },
                            "application/gzip": {"schema": {"type": "string", "format": "binary"}},
                        },
                    }
                operation["responses"]["414"]["content"].update(TOO_LONG_PAGE)
                if operation.get("operationId") in KEYED_OPERATIONS:
                    for status, answer in operation["responses"].items():
                        if status < "300":
                            answer["headers"] = REPLAYED
                media = RAW_MEDIA.get(operation.get("operationId"))
                if media is not None:
                    success = operation["responses"]["200"]
                    said = {"type": "string"}
                    if media == "text/event-stream":  # each event, its data JSON text
                        said = {
                            "type": "object",
                            "properties": {
                                "id": {"type": "string"},
                                "event": {"type": "string", "enum": ["game"]},
                                "retry": {"type": "integer"},
                                "data": {
                                    "type": "string",
                                    "contentMediaType": "application/json",
                                    "contentSchema": {
                                        "$ref": REF.format(
                                            model=spec.naming_strategy(schemas.GameEvent)
                                        )
                                    },
                                },
                            },
                        }
                    success["content"] = {media: {"schema": said}}
        found = schemas.with_texts(found)
        _drawn.clear()
        _drawn[GAMES.version] = found
    return found


def schemas_now() -> dict[str, dict]:
    """Each declared model's schema under its name, then the models nested in them (the
    first one of a name), as spectree lays out ``components.schemas``."""
    drawn = {
        spec.naming_strategy(model): spec.model_adapter.json_schema(
            model, ref_template=REF, mode=mode
        )
        for model, mode in DECLARED
    }
    nested: dict[str, dict] = {}
    for schema in drawn.values():
        for name, each in schema.pop("$defs", {}).items():
            nested.setdefault(name, each)
    return {**drawn, **nested, **schemas.text_schemas()}


#: What every operation may answer besides its own answers: an address longer than the app
#: takes (``web.URL_MAX``, below gunicorn's ``limit_request_line``), in the error format;
#: longer still, the server in front answers it with a page of its own (``TOO_LONG_PAGE``).
EVERY = {
    414: "The address (path and query) is longer than 2048 characters: uri_too_long, in the "
    "error format. A request line longer than the server in front of the app reads (gunicorn "
    "with gunicorn.conf.py: 4094 bytes; a proxy: its own limit) is answered 414 by that "
    "server, with a short HTML page of its own."
}
#: The media type of the 414 that gunicorn (or a proxy) writes itself.
TOO_LONG_PAGE = {"text/html": {"schema": {"type": "string"}}}
#: What every operation with a request body may answer besides.
WITH_BODY = {
    400: "Not JSON (invalid_json), not an object, or not what the schema says (wrong_type, "
    "required, name_invalid, ...).",
    413: "A body over 2 MB (a restore: over the backup limit).",
}
#: What every write that takes an ``Idempotency-Key`` may answer besides (API.md,
#: "Idempotency keys"); the answer to a repeat carries ``Idempotent-Replayed: true``.
KEYED = {
    400: "An Idempotency-Key that is not 1 to 200 printable ASCII characters "
    "(idempotency_key_invalid).",
    409: "The first request with this Idempotency-Key still being answered after 10 seconds "
    "(conflict, with Retry-After).",
    422: "The Idempotency-Key came before with another request (idempotency_mismatch): "
    "nothing was changed.",
}
REPLAYED = {
    "Idempotent-Replayed": {
        "description": "`true` on the answer to a repeat of an earlier request with the same "
        "Idempotency-Key: that first answer again, nothing changed a second time.",
        "schema": {"type": "string", "enum": ["true"]},
    }
}
#: The operations that take an ``Idempotency-Key`` (their ids).
KEYED_OPERATIONS: set[str] = set()


def answers(*errors: int | tuple[int, str], **success: Any) -> Response:
    """The documented answers of an operation: ``HTTP_201=Model`` (``HTTP_204=None`` for
    no body) and the error statuses it may give, each in the error format: a status, or a
    status with what it means for this operation (``(409, "The game is over")``)."""
    empty = [code for code, model in success.items() if model is None]
    models = {code: model for code, model in success.items() if model is not None}
    described = dict(EVERY)
    for each in errors:
        status, description = each if isinstance(each, tuple) else (each, None)
        described[status] = description
    for status, description in sorted(described.items()):
        models[f"HTTP_{status}"] = (schemas.Errors, description) if description else schemas.Errors
    return Response(*empty, **models)


#: Operations whose answer to a request the document allows may still be 422 (or 409), by the
#: state of what they change (a hand against the game so far, a name already taken, a game
#: not finished): operation id -> the statuses. The schemathesis drill reads it.
STATE_DEPENDENT: dict[str, tuple[int, ...]] = {}


def check_json_body() -> None:
    """Before spectree reads a body: it must be JSON (spectree would read a body that is
    not, or no body at all, as an empty object), and a JSON object (spectree would read
    ``false`` or ``[]`` as an empty one too): every body this API takes is an object."""
    raw = request.get_data(cache=True)
    value = request.get_json(silent=True)
    if not raw or (value is None and raw.strip() != b"null"):
        raise Refusal("invalid_json", _("The request body must be JSON."))
    an_object(value)


def an_object(value: Any) -> dict:
    """A body read as JSON, refused unless it is an object (``false``, ``[]``, ``""``):
    every body of the API, those spectree reads and the one a view reads itself (a backup)."""
    if not isinstance(value, dict):
        raise Refusal("wrong_type", _("The request body must be a JSON object."))
    return value


def declare(
    *,
    resp: Response,
    json: type[BaseModel] | None = None,
    query: type[BaseModel] | None = None,
    security: dict | None = BEARER,
    tags: tuple[str, ...] = (),
    raw: str | None = None,
    raw_body: type[BaseModel] | None = None,
    streamed: bool = False,
    keyed: bool = False,
):
    """Declare an operation once: its body and query models (checked before the view), its
    answers (the models the view answers with), its security; ``raw`` names the media type
    of an answer that is no JSON (a CSV file), ``raw_body`` the model of a body the view
    reads itself (documented, not checked here: a backup, plain or gzipped). A ``streamed``
    answer (a whole account's backup) is documented but not checked: spectree would read all
    of it into memory. A ``keyed`` operation (a write of a game) takes an ``Idempotency-Key``
    header: declared here (``schemas.KeyHeaders``, with the 400, 409 and 422 it may add),
    kept by the decorator the views wrap it in (``scorekeeper.views.idempotency.keyed``)."""

    def wrap(view):
        if json is not None:
            for status, description in WITH_BODY.items():
                resp.code_models.setdefault(f"HTTP_{status}", schemas.Errors)
                resp._raw_code_models.setdefault(f"HTTP_{status}", schemas.Errors)
                resp.code_descriptions.setdefault(f"HTTP_{status}", description)
        if keyed:
            KEYED_OPERATIONS.add(view.__name__)
            for status, description in KEYED.items():
                code = f"HTTP_{status}"
                resp.code_models.setdefault(code, schemas.Errors)
                resp._raw_code_models.setdefault(code, schemas.Errors)
                before = resp.code_descriptions.get(code)
                resp.code_descriptions[code] = (
                    f"{before} Or: {description}" if before else description
                )
        documented = {int(code[5:]) for code in resp._raw_code_models}
        STATE_DEPENDENT[view.__name__] = tuple(sorted(documented & {409, 422}))
        validated = spec.validate(
            json=json,
            query=query,
            headers=schemas.KeyHeaders if keyed else None,
            resp=resp,
            security=security,
            tags=list(tags),
            operation_id=view.__name__,
        )(view)
        # What spectree has just added to the document (the error model included).
        for model, mode in ((query, "validation"), (json, "validation")):
            if model is not None:
                DECLARED[(model, mode)] = None
        for model in resp.models:
            DECLARED[(model, "serialization")] = None
        if raw:
            RAW_MEDIA[view.__name__] = raw
            if raw == "text/event-stream":
                DECLARED[(schemas.GameEvent, "serialization")] = None
        if raw_body is not None:
            RAW_BODY[view.__name__] = raw_body
            DECLARED[(raw_body, "validation")] = None
        if streamed:
            if json is not None or query is not None:
                raise TypeError("a streamed answer's operation takes no body or query")

            @wraps(validated)  # spectree finds the declaration through __wrapped__
            def unchecked(*args, **kwargs):
                return view(*args, **kwargs)

            return unchecked
        if json is None:
            return validated

        @wraps(validated)
        def checked(*args, **kwargs):
            check_json_body()
            return validated(*args, **kwargs)

        return checked

    return wrap
