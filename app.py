"""Entry point: ``flask run`` and ``gunicorn app:app`` find the app here (each gunicorn worker
builds its own, then keeps its objects out of the collector's full passes: ``settled``)."""

from scorekeeper.factory import create_app
from scorekeeper.factory import settled

app = settled(create_app())
