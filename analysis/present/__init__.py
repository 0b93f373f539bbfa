"""Present layer: charts, the HTML report, the run summary, transcripts, what-if and tuning
sections and play by hand; it renders what `results`, `stats` and the callers give it and
plays no game of a run."""
