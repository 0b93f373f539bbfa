"""Stats layer: balance statistics, the tested family of findings, coverage and robustness of
conclusions, skipped systems: pure functions of result frames (no game played, nothing
printed)."""
