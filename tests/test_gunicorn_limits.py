"""An address too long to answer, under gunicorn with the repository's gunicorn.conf.py: up
to gunicorn's ``limit_request_line`` the app answers 414 in the API's error format; beyond
it gunicorn answers 414 itself, with its own HTML page (as a proxy in front would beyond its
own limit). Either answer is one the OpenAPI document describes (issue 27, item 5)."""

from __future__ import annotations

import pytest

from tests.conftest import make_account
from tests.conftest import new_token
from tests.live import Gunicorn
from tests.live import send
from tests.openapi_check import document

pytestmark = [pytest.mark.drill, pytest.mark.once]  # gunicorn's parser: any database


def test_every_414_under_gunicorn_is_described_by_the_document(app, tmp_path):
    make_account(app)
    headers = {"Authorization": f"Bearer {new_token(app.test_client())}"}
    described = document(app)["paths"]["/api/v1/games"]["get"]["responses"]["414"]["content"]
    medias = set()
    with Gunicorn(app.config["SQLALCHEMY_DATABASE_URI"], tmp_path, WEB_CONCURRENCY="1") as server:
        assert send(f"{server.base}/api/v1/games?player=Ann", headers=headers).status == 200
        for length in (3000, 5000, 9000):
            answer = send(f"{server.base}/api/v1/games?player=" + "a" * length, headers=headers)
            assert answer.status == 414, (length, answer.body[:200])
            assert answer.media in described, (length, answer.media, list(described))
            if answer.media == "application/json":
                assert answer.json()["errors"][0]["code"] == "uri_too_long"
            medias.add(answer.media)
    assert medias == {"application/json", "text/html"}  # the app's own, then gunicorn's
