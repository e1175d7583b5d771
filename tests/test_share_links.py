"""Share links and their QR codes are built on the configured public address, never on the
request's Host header; TRUSTED_HOSTS refuses any other Host (issue 27, item 6)."""

from __future__ import annotations

import io
import re

import segno

from scorekeeper.config import env_overrides
from tests.conftest import PASSWORD
from tests.conftest import make_account
from tests.conftest import new_token

PUBLIC = "https://scores.example.org"
EVIL = {"Host": "evil.example"}


def qr_of(link: str) -> bytes:
    out = io.BytesIO()
    segno.make(link, error="m").save(
        out, kind="svg", scale=6, border=2, dark="#000", light="#fff", xmldecl=False
    )
    return out.getvalue()


def a_game(client, token: str) -> int:
    headers = {"Authorization": f"Bearer {token}"}
    body = {"game": "oh_hell", "players": ["Ann", "Ben", "Cy"]}
    return client.post("/api/v1/games", json=body, headers=headers).get_json()["id"]


def test_a_forged_host_never_reaches_a_share_link_or_its_qr_code(make_app):
    app = make_app(PUBLIC_URL=PUBLIC + "/")
    make_account(app)
    client = app.test_client()
    token = new_token(client)
    game = a_game(client, token)
    shared = client.post(
        f"/api/v1/games/{game}/share", headers={"Authorization": f"Bearer {token}", **EVIL}
    )
    assert shared.status_code == 201
    link = shared.get_json()["url"]
    assert re.fullmatch(rf"{re.escape(PUBLIC)}/view/[\w-]+", link), link
    client.post("/login", data={"username": "friday-club", "password": PASSWORD}, headers=EVIL)
    page = client.get(f"/games/{game}/share", headers=EVIL).text
    assert f'<a href="{link}">' in page and "evil.example" not in page
    qr = client.get(f"/games/{game}/share/qr.svg", headers=EVIL)
    assert qr.status_code == 200
    assert qr.data == qr_of(link)  # the QR code holds the public link, byte for byte


def test_without_a_public_address_the_link_is_the_request_s_own(api):
    game = api.post("/games", {"game": "oh_hell", "players": ["Ann", "Ben", "Cy"]}).get_json()
    link = api.post(f"/games/{game['id']}/share").get_json()["url"]
    assert link.startswith("http://localhost/view/")


def test_trusted_hosts_refuse_any_other_host(make_app):
    app = make_app(TRUSTED_HOSTS=["scores.example.org"])
    make_account(app)
    client = app.test_client()
    for path in ("/login", "/api/v1/games", "/no-such-page"):
        refused = client.get(path, headers=EVIL)
        assert refused.status_code == 400, (path, refused.status_code)
        assert refused.text == "This address is not served here."
    ok = client.post(
        "/login",
        data={"username": "friday-club", "password": PASSWORD},
        headers={"Host": "scores.example.org"},
    )
    assert ok.status_code == 302


def test_the_environment_names_them():
    settings = env_overrides(
        {"PUBLIC_URL": PUBLIC, "TRUSTED_HOSTS": "scores.example.org, b.example"}
    )
    assert settings == {"PUBLIC_URL": PUBLIC, "TRUSTED_HOSTS": ["scores.example.org", "b.example"]}
