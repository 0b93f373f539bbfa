"""Present layer: charts, the HTML report, the run summary, transcripts, what-if sections and
play by hand; it renders what `results` and `stats` give it and plays no game of a run."""
