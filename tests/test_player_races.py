"""Two requests taking the same name at the same moment: one wins, the other is told the name is
taken (422 name_taken), never a 500. Both requests pass the service's "is it free?" check
before either writes (the check is made to wait for the other), as on a busy server."""

from __future__ import annotations

import threading

import pytest

from scorekeeper.extensions import db
from scorekeeper.models import Player
from scorekeeper.services import players
from tests.conftest import new_token
from tests.live import at_once
from tests.live import send
from tests.live import serving


@pytest.fixture
def checks_meet(monkeypatch):
    """Call it to make the next two name checks wait for each other, so that both pass
    before either writes."""

    def arm() -> None:
        barrier = threading.Barrier(2)
        real = players._check_free

        def check_then_wait(*args, **kwargs):
            real(*args, **kwargs)
            barrier.wait(timeout=10)

        monkeypatch.setattr(players, "_check_free", check_then_wait)

    return arm


def _names(app) -> list[str]:
    with app.app_context():
        return sorted(db.session.scalars(db.select(Player.name)))


def _add(app, name: str) -> int:
    from scorekeeper.models import Account

    with app.app_context():
        account = db.session.scalar(db.select(Account))
        return players.add_player(account, name).id


def _statuses_and_codes(answers):
    return sorted(
        (answer.status, answer.json()["errors"][0]["code"] if answer.status >= 400 else None)
        for answer in answers
    )


def test_two_api_adds_of_the_same_new_name_at_once(app, account, checks_meet):
    token = new_token(app.test_client())
    headers = {"Authorization": f"Bearer {token}"}
    checks_meet()
    with serving(app) as base:
        answers = at_once(
            2,
            lambda i: send(
                f"{base}/api/v1/players",
                "POST",
                json_body={"name": ["Cy", "cy"][i]},
                headers=headers,
            ),
        )
    assert _statuses_and_codes(answers) == [(201, None), (422, "name_taken")]
    assert len(_names(app)) == 1


def test_two_api_renames_to_the_same_name_at_once(app, account, checks_meet):
    ids = [_add(app, "Ann"), _add(app, "Ben")]
    token = new_token(app.test_client())
    headers = {"Authorization": f"Bearer {token}"}
    checks_meet()
    with serving(app) as base:
        answers = at_once(
            2,
            lambda i: send(
                f"{base}/api/v1/players/{ids[i]}",
                "PATCH",
                json_body={"name": "Cy"},
                headers=headers,
            ),
        )
    assert _statuses_and_codes(answers) == [(200, None), (422, "name_taken")]
    assert sorted(name for name in _names(app)) in (["Ann", "Cy"], ["Ben", "Cy"])


def test_two_page_adds_and_renames_at_once(app, account, checks_meet):
    from tests.conftest import PASSWORD

    ids = [_add(app, "Ann"), _add(app, "Ben")]
    with serving(app) as base:
        # The pages need a session: log in once, reuse the cookie in both requests.
        import urllib.request

        opener = urllib.request.build_opener()
        login = urllib.request.Request(
            f"{base}/login",
            data=f"username=friday-club&password={PASSWORD.replace(' ', '+')}".encode(),
            method="POST",
        )

        class Stop(urllib.request.HTTPRedirectHandler):
            def redirect_request(self, *args, **kwargs):
                return None

        opener = urllib.request.build_opener(Stop)
        try:
            opener.open(login)
        except urllib.error.HTTPError as answer:
            cookies = "; ".join(
                value.split(";")[0]
                for name, value in answer.headers.items()
                if name.lower() == "set-cookie"
            )
        headers = {"Cookie": cookies}
        checks_meet()
        renames = at_once(
            2,
            lambda i: send(
                f"{base}/players/{ids[i]}/rename", "POST", data={"name": "Cy"}, headers=headers
            ),
        )
        adds = at_once(
            2, lambda i: send(f"{base}/players/", "POST", data={"name": "Dee"}, headers=headers)
        )
    for answers in (renames, adds):
        assert sorted(answer.status for answer in answers) == [302, 422]
        refused = next(answer for answer in answers if answer.status == 422)
        assert "There is already a player called" in refused.body.decode()
    assert _names(app).count("Cy") == 1
    assert _names(app).count("Dee") == 1


def test_a_name_taken_between_check_and_write_is_name_taken(app, account, monkeypatch):
    """Without threads: the check is skipped, as if another request took the name after it."""
    from scorekeeper.errors import Refusal
    from scorekeeper.models import Account

    ids = [_add(app, "Ann"), _add(app, "Ben")]
    monkeypatch.setattr(players, "_check_free", lambda *args, **kwargs: None)
    with app.app_context():
        owner = db.session.scalar(db.select(Account))
        with pytest.raises(Refusal) as refused:
            players.add_player(owner, "ann")
        assert refused.value.code == "name_taken"
        with pytest.raises(Refusal) as refused:
            players.update_player(owner, ids[1], name="ANN")
        assert refused.value.code == "name_taken"
        assert refused.value.message == "There is already a player called ANN."
    assert _names(app) == ["Ann", "Ben"]
