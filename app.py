"""Entry point: ``flask run`` and ``gunicorn app:app`` find the app here."""

from scorekeeper import create_app

app = create_app()
