"""Present layer: charts, the HTML report, the run summary, transcripts and play by hand."""
