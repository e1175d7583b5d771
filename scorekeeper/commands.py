"""Command-line tools: ``flask --app app <command>``."""

from __future__ import annotations

import click
from flask import Flask


def register(app: Flask) -> None:
    @app.cli.command("create-account")
    @click.argument("username")
    @click.password_option()
    def create_account_command(username: str, password: str) -> None:
        """Create an account (works even with sign-up switched off)."""
        from scorekeeper.errors import Refusal
        from scorekeeper.services import accounts

        enabled = app.config["SIGNUP_ENABLED"]
        app.config["SIGNUP_ENABLED"] = True
        try:
            account = accounts.create_account(username, password)
        except Refusal as error:
            raise click.ClickException(error.message) from None
        finally:
            app.config["SIGNUP_ENABLED"] = enabled
        click.echo(f"Created account {account.username}.")
