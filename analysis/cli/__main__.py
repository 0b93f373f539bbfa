"""`python -m analysis.cli ...` runs `simulate ...`."""

from analysis.cli.app import entry

entry()
