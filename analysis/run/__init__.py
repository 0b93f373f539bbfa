"""Run layer: plan and play games (tournaments, duplicate comparisons, confirmation replays,
reference runs, rebuilt example games, sweeps, searches, tuning, experiment files) on local
processes or a dask cluster; writes run directories.  Reports are drawn by `present`."""
