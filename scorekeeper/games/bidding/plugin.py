"""The bidding family's folder, for the app to serve its templates and script from."""

from scorekeeper.games.plugin import GameFamily

FAMILY = GameFamily.from_folder(__file__, "bidding")
