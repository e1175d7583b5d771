"""Each game's own templates and static files, served from its plug-in folder.

A game's templates are found as ``games/<key>/<name>`` (the loader below looks the game up in
the registry each time, so a game registered later, even by a test, is found too), and its
static files at ``/static/games/<key>/<name>``.
"""

from __future__ import annotations

from flask import Blueprint
from flask import abort
from flask import current_app
from flask import send_from_directory
from jinja2 import BaseLoader
from jinja2 import FileSystemLoader
from jinja2 import TemplateNotFound

from scorekeeper.games import GAMES

bp = Blueprint("game_assets", __name__)


class GameTemplateLoader(BaseLoader):
    """``games/<key>/<name>`` from the folder of the registered game ``<key>``."""

    def get_source(self, environment, template):
        parts = template.split("/", 2)
        if len(parts) != 3 or parts[0] != "games" or parts[1] not in GAMES:
            raise TemplateNotFound(template)
        loader = FileSystemLoader(str(GAMES[parts[1]].template_folder))
        return loader.get_source(environment, parts[2])


@bp.get("/static/games/<key>/<path:filename>")
def static(key: str, filename: str):
    """A game's own stylesheet or script (cached for a year: its URL carries a hash)."""
    if key not in GAMES:
        abort(404)
    return send_from_directory(
        GAMES[key].static_folder,
        filename,
        max_age=current_app.get_send_file_max_age(filename),
    )
