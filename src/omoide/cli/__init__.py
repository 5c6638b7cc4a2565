"""The omoide command (`omoide.cli:main`): typer app, one module per group of commands."""

from __future__ import annotations

from omoide.cli.app import app, main

__all__ = ["app", "main"]
