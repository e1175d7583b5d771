"""Score pad (any other game): the game plug-in (the rules are in ``rules``; the wiring
adds GAME)."""
