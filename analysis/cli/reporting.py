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
from analysis.present.landscape import landscape_html as _landscape_html
from analysis.results import runs
from analysis.run import confirm as confirmation
from analysis.run import elements, experiments, landscape, rebuild, reference, sweep, tune
from analysis.run import ladder as ladder_runs
from analysis.stats import elements as element_stats
from analysis.stats import findings, ladder, robustness


def write_report(paths: Sequence[str | os.PathLike], out: str | os.PathLike,
                 title: str = "", bootstrap: int = 100, confirm: bool = False,
                 confirm_games: int | None = None, jobs: int = 1,
                 announce: Callable[[str], None] | None = None, backend: str = "loky",
                 scheduler: str | None = None, extra: Sequence[str] = (),
                 family_extra: pd.DataFrame | None = None,
                 late_sections: Callable[[pd.DataFrame], list[str]] | None = None,
                 variants: Callable[[pd.DataFrame], dict] | None = None,
                 on_summary: Callable[[pd.DataFrame], None] | None = None,
                 allow_incomplete: bool = False,
                 ladders: Sequence[ladder_runs.LadderResult] = (),
                 on_ladders: Callable[[list[tuple[ladder.Ladder, dict]]], None] | None = None,
                 on_robustness: Callable[[pd.DataFrame], None] | None = None,
                 ) -> Path:
    """Load the runs under `paths` and write the report to `out` (atomically).

    With `confirm`, every finding significant after adjustment is first replayed on fresh
    deals beside its runs (`run.confirm.confirm`; at least `confirm_games` games each).
    `family_extra`: further tests of the output (an experiment's sweep effects) that join
    the report's one family; `late_sections(tests)` renders sections placed before the
    manifests from the adjusted family, and `variants(tests)` gives the designer summary's
    variant worth testing per (game, players).  `on_summary` receives the designer summary
    (`simulate run` prints it), `on_robustness` the robustness verdicts when some context was
    played with several line-ups (`findings.robustness_verdicts`: the commands print them).
    `allow_incomplete` reports the games on disk of a run with missing or bad parts, with a
    warning line (to `announce`, or as a Python warning) and in the report.
    `ladders`: skill ladders played beside the runs: their trend tests join the family, the
    designer summary gains "under stronger play" and the report their section;
    `on_ladders` receives them as the report reads them (each with its levels' games/s).
    """
    out = report.check_report_path(out)
    confirmation.check_games(confirm_games)
    frame, manifests = runs.load(paths, allow_incomplete)
    for manifest in manifests:
        if manifest.get("incomplete"):
            (announce or warnings.warn)(manifest["incomplete"])
    skills = [ladder.of_frame(result.frame, result.spec.levels) for result in ladders]
    parts = [part for part in (family_extra, ladder.family_rows(skills))
             if part is not None and len(part)]
    if parts:
        family_extra = pd.concat(parts, ignore_index=True)
    tests = findings.family(frame, extra=family_extra)
    if confirm:
        tests = confirmation.confirm(tests, manifests, confirm_games, jobs, announce, backend,
                                     scheduler)
    skills = ladder.readjusted(skills, tests, "report")
    extra = [*extra, *(late_sections(tests) if late_sections else [])]
    skipped = reference.skipped_against_reference(frame, manifests)
    summary = designer.summary_table(frame, tests, variants(tests) if variants else None,
                                     skipped,
                                     {skill.key: skill.stronger_play() for skill in skills})
    costed = [(skill, result.cost) for skill, result in zip(skills, ladders)]
    checks = findings.robustness_verdicts(frame, tests) if robustness.has_lineups(frame) \
        else None
    text = report.render(frame, manifests, title, bootstrap, tests, extra, summary,
                         rebuild.report_examples(manifests), rebuild.MAX_EXAMPLE_RUNS, costed,
                         skipped=skipped, checks=checks)
    if on_summary is not None:
        on_summary(summary)
    if on_ladders is not None:
        on_ladders(costed)
    if on_robustness is not None and checks is not None:
        on_robustness(checks)
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


def sweep_conclusions(sweeps: list[tuple], tests: pd.DataFrame
                      ) -> list[tuple[sweep.SweepSpec, pd.DataFrame]]:
    """Each one-at-a-time sweep with its conclusions (`sweep.conclusions`: which conclusions
    of the base setting hold over every varied value), a change counted only when it is
    significant in the report's family `tests` (what the report's sections say too)."""
    tables = sweep.readjusted([table for _, _, table in sweeps], tests)
    return [(spec, sweep.conclusions(spec, frame, table))
            for (spec, frame, _), table in zip(sweeps, tables) if spec.design == "one-at-a-time"]


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


def landscape_html(analysis: landscape.Analysis) -> str:
    """A strategy landscape's report section body (`present.landscape.landscape_html`)."""
    return _landscape_html(analysis.spec.command(), analysis.lines(), analysis.matrix(),
                           analysis.cells, analysis.alpharank, analysis.nash,
                           analysis.solutions.alpha, analysis.solutions.population)


def landscape_sections(analyses: list[landscape.Analysis], tests: pd.DataFrame) -> list[str]:
    """Each landscape's report section, its cells adjusted in the report's family `tests`."""
    return [report._section(f"Strategy landscape: {a.spec.game} {a.spec.players}p",
                            landscape_html(a))
            for a in landscape.readjusted(analyses, tests)]


def elements_sections(results: list[elements.ElementsResult], tests: pd.DataFrame
                      ) -> list[str]:
    """Each elements study's report section, its tests adjusted in the report's family
    `tests` (`stats.elements.family_rows` members)."""
    from analysis.stats.verdicts import element_family_members, element_lines

    size = int(tests["tests"].iloc[0]) if len(tests) else 0
    tables = element_stats.readjusted([r.raw() for r in results], tests)
    out = []
    for result, table in zip(results, tables):
        note = (f"p-values adjusted with Holm over the report's {size} tests (this study's: "
                f"{element_family_members(table)}); 'significant' means adjusted p < 0.05.")
        lines = element_lines(table, result.spec.bot, 1.0 / result.spec.players, note)
        out.append(report.elements_section(table, lines, result.head()))
    return out


def run_experiment(experiment: experiments.Experiment, jobs: int = -1,
                   progress: Callable[[experiments.PlannedRun | None, int], None] | None = None,
                   backend: str | None = None, scheduler: str | None = None,
                   confirm: bool = True, confirm_games: int | None = None,
                   announce: Callable[[str], None] | None = None,
                   on_summary: Callable[[pd.DataFrame], None] | None = None,
                   on_ladders: Callable[[list[tuple[ladder.Ladder, dict]]], None] | None = None,
                   on_robustness: Callable[[pd.DataFrame], None] | None = None,
                   on_sweeps: Callable[[list[tuple[sweep.SweepSpec, pd.DataFrame]], str],
                                       None] | None = None,
                   ) -> Path:
    """Play (or resume) every planned run, ladder, sweep and tune (`experiments.play`), then
    write the combined report; returns its path.

    With `confirm` (the default) every finding significant after adjustment is replayed on
    fresh deals beside its runs before the report is written.  `on_summary` receives the
    designer summary table (`analysis.present.designer`), `on_ladders` the skill ladders,
    `on_robustness` the robustness verdicts (see `write_report`) and `on_sweeps` the
    one-at-a-time sweeps' conclusions (`sweep_conclusions`) with the family they were
    adjusted in, in words.
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
    sweeps, landscapes, studied = played.sweeps, played.landscapes, played.elements
    family_extra = pd.concat([experiments.sweep_family(sweeps),
                              landscape.family_rows(landscapes),
                              element_stats.family_rows([r.raw() for r in studied])],
                             ignore_index=True)

    def late(tests: pd.DataFrame) -> list[str]:
        if on_sweeps is not None and sweeps:
            size = int(tests["tests"].iloc[0]) if len(tests) else 0
            on_sweeps(sweep_conclusions(sweeps, tests), f"the report's {size} tests")
        return (sweep_sections(sweeps, tests) + landscape_sections(landscapes, tests)
                + elements_sections(studied, tests))

    if not experiment.runs:  # sweeps, tunes and landscapes only: their sections are the report
        tests = findings.family(pd.DataFrame(), extra=family_extra)
        out = experiment.out_dir / "report.html"
        tmp = out.with_name(out.name + ".tmp")
        tmp.write_text(report.page(title, "".join(late(tests) + tunes)), encoding="utf-8")
        os.replace(tmp, out)
        return out
    return write_report([r.path for r in experiment.runs],
                        experiment.out_dir / "report.html", title=title,
                        confirm=confirm, confirm_games=confirm_games, jobs=jobs,
                        announce=announce, backend=backend, scheduler=scheduler,
                        extra=tunes, family_extra=family_extra, late_sections=late,
                        variants=lambda tests: experiments.sweep_variants(sweeps, tests),
                        on_summary=on_summary, ladders=played.ladders, on_ladders=on_ladders,
                        on_robustness=on_robustness)
