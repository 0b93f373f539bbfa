"""Run layer: plan and play games (tournaments, duplicate comparisons, sweeps, searches,
experiment files) on local processes or a dask cluster; writes run directories."""
