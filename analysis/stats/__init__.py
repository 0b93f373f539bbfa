"""Stats layer: balance statistics, the tested family of findings, coverage and robustness
of conclusions, all computed from result frames."""
