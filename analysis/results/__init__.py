"""Results layer: the on-disk run (Parquet parts + manifest) and loading it as a frame."""
