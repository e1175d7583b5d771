"""The shared (read-only) view of every game, in every language (issue 21): no markup printed
as text, the game's own words for who starts (no "bids first" in a game without bids), and no
hint to correct a hand (the reader cannot)."""

from __future__ import annotations

import re

import pytest

from scorekeeper.games import GAMES
from tests.test_reader_digits import GAME_PLAY
from tests.test_reader_digits import bengali  # noqa: F401  (a fixture)
from tests.test_reader_digits import play

LANGUAGES = ["en", "su", "lo", "bn"]
NO_BIDS = {"hearts", "score_pad", "oklahoma_gin"}
HINTS = ("Tap a round’s number to correct it.", "Tap a hand’s number to correct it.")


def translated(app, code: str, message: str) -> str:
    from flask_babel import force_locale
    from flask_babel import gettext

    with app.test_request_context(), force_locale(code):
        return gettext(message)


def test_every_game_is_played_here():
    assert set(GAME_PLAY) == set(GAMES)


@pytest.mark.parametrize("kind", sorted(GAME_PLAY))
def test_the_shared_view_prints_no_markup_no_bid_words_and_no_correction_hint(
    app,
    bengali,  # noqa: F811
    kind,
):
    client, account_id = bengali
    game = play(app, account_id, kind, GAME_PLAY[kind], finish=False)
    assert client.post(f"/games/{game}/share").status_code == 302
    path = re.search(r"/view/[\w-]+", client.get(f"/games/{game}/share").text).group(0)
    # The scorekeeper's own page keeps the hint (in Bengali, the account's language).
    own = client.get(f"/games/{game}").text
    assert any(translated(app, "bn", hint) in own for hint in HINTS)
    for code in LANGUAGES:
        viewer = app.test_client()
        viewer.post("/language", data={"code": code, "next": "/"})
        page = viewer.get(path)
        assert page.status_code == 200
        assert f'<html lang="{code}">' in page.text
        # Markup is markup, never text the reader sees.
        assert "&lt;" not in page.text, (code, re.findall(r".{40}&lt;.{40}", page.text))
        # Who bids first only where the game has bids, the name in bold.
        bids_first = translated(app, code, "%(name)s bids first")
        pattern = re.escape(bids_first).replace(re.escape("%(name)s"), "<strong>[^<]+</strong>")
        if kind in NO_BIDS:
            assert bids_first.replace("%(name)s", "") not in page.text, code
        else:
            assert re.search(pattern, page.text), code
        # The reader cannot correct a hand: no hint to tap one, no link to a correction.
        for hint in HINTS:
            assert translated(app, code, hint) not in page.text, (code, hint)
        if code == "en":
            assert "to correct it" not in page.text
        assert "hand-link" not in page.text and "/edit" not in page.text
