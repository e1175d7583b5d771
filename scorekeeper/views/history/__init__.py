"""History pages (one blueprint): game nights and past games (``nights``), statistics and
leaderboards (``statistics``), backup and restore (``backup``)."""

from scorekeeper.views.history import backup
from scorekeeper.views.history import nights
from scorekeeper.views.history import statistics
from scorekeeper.views.history.blueprint import bp

__all__ = ["backup", "bp", "nights", "statistics"]
