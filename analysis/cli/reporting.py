"""Reports that need games played first: the thin orchestration the commands (and notebooks)
call.  Each loads the runs (`results`), computes the family of tests (`stats`), plays what
the report needs — the confirmation replay on fresh deals, the reference runs of the skipped
systems, the example games (`run`) — and only then renders (`present`), so no lower layer
plays a game."""

from __future__ import annotations

import os
import warnings
from collections.abc import Callable, Sequence
from pathlib import Path

import pandas as pd

from analysis.present import designer, report, whatif
from analysis.results import runs
from analysis.run import confirm as confirmation
from analysis.run import experiments, rebuild, reference, sweep, tune
from analysis.stats import findings


def write_report(paths: Sequence[str | os.PathLike], out: str | os.PathLike,
                 title: str = "", bootstrap: int = 100, confirm: bool = False,
                 confirm_games: int | None = None, jobs: int = 1,
                 announce: Callable[[str], None] | None = None, backend: str = "loky",
                 scheduler: str | None = None, extra: Sequence[str] = (),
                 family_extra: pd.DataFrame | None = None,
                 late_sections: Callable[[pd.DataFrame], list[str]] | None = None,
                 variants: Callable[[pd.DataFrame], dict] | None = None,
                 on_summary: Callable[[pd.DataFrame], None] | None = None,
                 allow_incomplete: bool = False) -> Path:
    """Load the runs under `paths` and write the report to `out` (atomically).

    With `confirm`, every finding significant after adjustment is first replayed on fresh
    deals beside its runs (`run.confirm.confirm`; at least `confirm_games` games each).
    `family_extra`: further tests of the output (an experiment's sweep effects) that join
    the report's one family; `late_sections(tests)` renders sections placed before the
    manifests from the adjusted family, and `variants(tests)` gives the designer summary's
    variant worth testing per (game, players).  `on_summary` receives the designer summary
    (`simulate run` prints it).
    `allow_incomplete` reports the games on disk of a run with missing or bad parts, with a
    warning line (to `announce`, or as a Python warning) and in the report.
    """
    out = report.check_report_path(out)
    confirmation.check_games(confirm_games)
    frame, manifests = runs.load(paths, allow_incomplete)
    for manifest in manifests:
        if manifest.get("incomplete"):
            (announce or warnings.warn)(manifest["incomplete"])
    tests = findings.family(frame, extra=family_extra)
    if confirm:
        tests = confirmation.confirm(tests, manifests, confirm_games, jobs, announce, backend,
                                     scheduler)
    extra = [*extra, *(late_sections(tests) if late_sections else [])]
    summary = designer.summary_table(frame, tests, variants(tests) if variants else None,
                                     reference.skipped_against_reference(frame, manifests))
    text = report.render(frame, manifests, title, bootstrap, tests, extra, summary,
                         rebuild.report_examples(manifests), rebuild.MAX_EXAMPLE_RUNS)
    if on_summary is not None:
        on_summary(summary)
    tmp = out.with_name(out.name + ".tmp")
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, out)
    return out


def sweep_html(spec: sweep.SweepSpec, frame: pd.DataFrame, title: str = "",
               table: pd.DataFrame | None = None, family: str = "the table") -> str:
    """A sweep's report section (`present.whatif.sweep_html`).  `table`: the effects with p
    adjusted in the output's family (`family` names it); computed here, Holm over this sweep
    alone, when not given."""
    table = sweep.effects(spec, frame) if table is None else table
    conclusions = (sweep.conclusions(spec, frame, table) if spec.design == "one-at-a-time"
                   else None)
    return whatif.sweep_html(spec, frame, table, sweep.ranking(table), conclusions, title,
                             family)


def sweep_sections(sweeps: list[tuple], tests: pd.DataFrame) -> list[str]:
    """Each sweep's report section, its effects adjusted in the report's family `tests`."""
    if not sweeps:
        return []
    tables = sweep.readjusted([table for _, _, table in sweeps], tests)
    size = int(tests["tests"].iloc[0]) if len(tests) else 0
    return [report._section(f"What-if sweep: {spec.game} {spec.players}p",
                            sweep_html(spec, frame, table=table,
                                       family=f"the report's {size} tests"))
            for (spec, frame, _), table in zip(sweeps, tables)]


def run_experiment(experiment: experiments.Experiment, jobs: int = -1,
                   progress: Callable[[experiments.PlannedRun | None, int], None] | None = None,
                   backend: str | None = None, scheduler: str | None = None,
                   confirm: bool = True, confirm_games: int | None = None,
                   announce: Callable[[str], None] | None = None,
                   on_summary: Callable[[pd.DataFrame], None] | None = None) -> Path:
    """Play (or resume) every planned run, sweep and tune (`experiments.play`), then write
    the combined report; returns its path.

    With `confirm` (the default) every finding significant after adjustment is replayed on
    fresh deals beside its runs before the report is written.  `on_summary` receives the
    designer summary table (`analysis.present.designer`).
    """
    played = experiments.play(experiment, jobs, progress, backend, scheduler, announce)
    backend = backend or experiment.backend
    scheduler = scheduler or experiment.scheduler
    title = f"Experiment {experiment.name}" + (
        f": {experiment.description}" if experiment.description else "")
    tunes = [report._section(f"Tuning: {spec.bot} in {spec.game} {spec.players}p",
                             whatif.tune_html(spec.command(), tune.summary_lines(spec, result),
                                              result.table, style))
             for spec, result, style in played.tunes]
    sweeps = played.sweeps
    if not experiment.runs:  # sweeps and tunes only: their sections are the report
        tests = findings.family(pd.DataFrame(), extra=experiments.sweep_family(sweeps))
        out = experiment.out_dir / "report.html"
        tmp = out.with_name(out.name + ".tmp")
        tmp.write_text(report.page(title, "".join(sweep_sections(sweeps, tests) + tunes)),
                       encoding="utf-8")
        os.replace(tmp, out)
        return out
    return write_report([r.path for r in experiment.runs],
                        experiment.out_dir / "report.html", title=title,
                        confirm=confirm, confirm_games=confirm_games, jobs=jobs,
                        announce=announce, backend=backend, scheduler=scheduler,
                        extra=tunes, family_extra=experiments.sweep_family(sweeps),
                        late_sections=lambda tests: sweep_sections(sweeps, tests),
                        variants=lambda tests: experiments.sweep_variants(sweeps, tests),
                        on_summary=on_summary)
