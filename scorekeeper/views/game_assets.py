"""Each game's own templates and static files, served from its plug-in folder.

A game's templates are found as ``games/<key>/<name>`` (the loader below looks the game up in
the registry each time, so a game registered later, even by a test, is found too), and its
static files at ``/static/games/<key>/<name>``. A family of games (``bidding``) is served the
same way from its own folder.
"""

from __future__ import annotations

from flask import Blueprint
from flask import abort
from flask import current_app
from flask import send_from_directory
from jinja2 import BaseLoader
from jinja2 import FileSystemLoader
from jinja2 import TemplateNotFound

from scorekeeper.games import FAMILIES
from scorekeeper.games import GAMES

bp = Blueprint("game_assets", __name__)


def folder_of(key: str):
    """The registered game ``key``, or the family ``key``; None for neither."""
    if key in GAMES:
        return GAMES[key]
    return FAMILIES.get(key)


class GameTemplateLoader(BaseLoader):
    """``games/<key>/<name>`` from the folder of the registered game (or family) ``<key>``."""

    def get_source(self, environment, template):
        parts = template.split("/", 2)
        owner = folder_of(parts[1]) if len(parts) == 3 and parts[0] == "games" else None
        if owner is None:
            raise TemplateNotFound(template)
        loader = FileSystemLoader(str(owner.template_folder))
        return loader.get_source(environment, parts[2])

    def list_templates(self) -> list[str]:
        """Every template of the registered games and families, by the name it is found by."""
        found = []
        for key, owner in [*GAMES.items(), *FAMILIES.items()]:
            folder = owner.template_folder
            if folder.is_dir():
                found += [
                    f"games/{key}/{name}" for name in FileSystemLoader(str(folder)).list_templates()
                ]
        return sorted(found)


def compile_templates(app) -> None:
    """Compile every template of ``app`` (its own, its games' and families'): about a second,
    once per process, which each kind of page's first request in a worker waited for (the
    first game page of a worker: 245 ms, then 7 ms; 19 ms with them compiled). A gunicorn
    worker does it before it takes requests (gunicorn.conf.py)."""
    environment = app.jinja_env
    for name in environment.list_templates(filter_func=lambda name: name.endswith(".html")):
        environment.get_template(name)


@bp.get("/static/games/<key>/<path:filename>")
def static(key: str, filename: str):
    """A game's (or a family's) own stylesheet or script (cached for a year: its URL carries
    a hash)."""
    owner = folder_of(key)
    if owner is None:
        abort(404)
    return send_from_directory(
        owner.static_folder,
        filename,
        max_age=current_app.get_send_file_max_age(filename),
    )
