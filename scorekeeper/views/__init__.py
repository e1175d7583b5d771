"""Blueprints: thin views that parse input, call the services and render."""
