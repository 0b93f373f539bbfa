"""Results layer (lowest): the on-disk run (Parquet parts + manifest), loading runs as frames,
and transcript files of single games."""
