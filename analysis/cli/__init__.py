"""The `simulate` command (entry point `analysis.cli:entry`)."""

from analysis.cli.app import app, entry, main

__all__ = ["app", "entry", "main"]
