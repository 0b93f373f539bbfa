"""Tournament runner, result frames, statistics, plots and reports on top of `engines`."""

from analysis.results.store import RunError, load_run

__all__ = ["RunError", "load_run"]
