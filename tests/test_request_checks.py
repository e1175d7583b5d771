"""What every request goes through: 405s say what is allowed."""

from __future__ import annotations

# 405 answers carry Allow --------------------------------------------------------------------


def _allowed(response) -> set[str]:
    return {method.strip() for method in response.headers["Allow"].split(",")}


def test_a_page_answering_405_says_which_methods_it_allows(client):
    response = client.delete("/login")
    assert response.status_code == 405
    assert {"GET", "POST"} <= _allowed(response)
    assert "That action is not available here." in response.text


def test_an_api_405_says_which_methods_are_allowed_and_stays_json(client):
    response = client.put("/api/v1/players", json={})
    assert response.status_code == 405
    assert {"GET", "POST"} <= _allowed(response)
    assert response.mimetype == "application/json"
    assert response.get_json()["errors"][0]["message"] == "That action is not available here."
    response = client.get("/api/v1/tokens")
    assert response.status_code == 405
    assert {"POST", "DELETE"} <= _allowed(response)


def test_a_logged_in_405_says_which_methods_are_allowed(logged_in):
    response = logged_in.delete("/players/")
    assert response.status_code == 405
    assert {"GET", "POST"} <= _allowed(response)
