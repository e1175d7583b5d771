"""Auction Pitch (Setback): one folder (see ``scorekeeper.games.plugin``);
``plugin.GAME`` is the plug-in.

Imports nothing, so that ``rules`` imports alone (pure Python).
"""
