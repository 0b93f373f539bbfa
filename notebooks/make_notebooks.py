"""Generate the notebooks from one template: a balance notebook per registered game, the
studies (compare, robustness, what-if, seat edges, tune, landscape, elements) and the
explorer.

`python -m tools.generate` writes them (after registering a game too: the list of notebooks
comes from `engines.GAMES`); every notebook takes its parameters from its first cell (the
test suite replaces that cell with small values).
"""

from __future__ import annotations

import sys
from pathlib import Path

import nbformat
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook

HERE = Path(__file__).resolve().parent

#: How every notebook shows pandas tables: wide, and no text cut off at a column width.
DISPLAY = """pd.set_option("display.width", 160)
pd.set_option("display.max_columns", 30)
pd.set_option("display.max_colwidth", None)  # a verdict in full, never cut off"""

SETUP = '''\
import tempfile
from pathlib import Path

import pandas as pd
from IPython.display import Image, display

from analysis.cli.reporting import write_report
from analysis.present import coverage, plots
from analysis.present.formats import percent, styled
from analysis.results.runs import load
from analysis.run import compare, confirm, experiments, rebuild, reference, tournament
from analysis.stats import balance, findings, robustness
from engines import get_game
from engines.bots import split_specs

''' + DISPLAY + '''


def show(fig):
    """Display a matplotlib figure as PNG (works with any backend, also headless)."""
    display(Image(plots.to_png(fig)))


out_dir = Path(OUT_DIR) if OUT_DIR else Path(tempfile.mkdtemp(prefix="notebook-"))
print("results in", out_dir)'''


FINDINGS_MD = ("## Findings that hold up\n\nOne call gives the report's one family of tests "
               "(every seat, every bot of a mixed line-up, every heterogeneity test across "
               "line-ups): raw p-values and p-values Holm-adjusted over the whole family, the "
               "detectable effect at 80% power (a planning figure, not a bound), and — with "
               "`confirm_on` — each significant finding replayed on fresh deals (stored beside "
               "its run as `RUN-confirm`) and quoted with the fresh estimate. See "
               "docs/reading-findings.md.")


def summary_cells() -> list:
    """The designer summary first: the answers per game and player count."""
    return [
        new_markdown_cell(
            "## Designer summary\n\nOne row per game and player count: balanced or not "
            "(every seat's 95% interval within ×1.2 of the fair share and no seat off it after "
            "the family's Holm adjustment; a seat off the fair share is named, as a small real "
            "edge while its interval stays inside, otherwise 'cannot tell'), the "
            "largest seat edge with its interval, the largest scoring source (a tie when "
            "intervals overlap) and the systems the bots skipped although random play "
            "reaches them. The details follow below."),
        new_code_cell("from analysis.present import designer\n\n"
                      "skipped = reference.skipped_against_reference(frame, manifests)\n"
                      "styled(designer.summary_table(frame, skipped=skipped))"),
    ]


def balance_notebook(game: str, description: str) -> nbformat.NotebookNode:
    from analysis.present.formats import seat_order

    cells = [
        new_code_cell(
            "# Parameters (edit and run all; the tests inject small values here)\n"
            f"GAME = {game!r}\n"
            "PLAYERS = None  # None = every player count the game allows, or e.g. [3, 4]\n"
            "GAMES = 300  # games per player count\n"
            "BOTS = \"heuristic\"  # line-up; the last bot fills the remaining seats\n"
            "RULES = {}  # variant options, e.g. {\"option\": \"value\"}\n"
            "SEED = 1\n"
            "JOBS = 1  # worker processes (-1 = all cores)\n"
            "OUT_DIR = None  # None = a temporary directory"),
        new_markdown_cell(
            f"# Balance of {game}\n\n{description}\n\n"
            "Seat rotation: in game *i* the line-up is rotated by *i*, so every bot plays every "
            "seat equally. Seats are numbered from 1 in every table, chart and verdict (the "
            f"stored frame's `seat` column counts from 0); under the official rules "
            f"{seat_order(game)}."),
        new_code_cell(SETUP),
        new_code_cell(
            "game = get_game(GAME)\n"
            "counts = PLAYERS or list(range(game.min_players, game.max_players + 1))\n"
            "run_dirs = []\n"
            "for n in counts:\n"
            "    spec = tournament.RunSpec(game=GAME, players=n, games=GAMES, seed=SEED,\n"
            "                              bots=tournament.fill_lineup(split_specs(BOTS), n),\n"
            "                              rules=dict(RULES))\n"
            "    result = tournament.run(spec.validated(), out_dir / f\"{n}p\", jobs=JOBS)\n"
            "    run_dirs.append(result.run_dir)\n"
            "    print(f\"{n} players: {GAMES} games, {result.games_per_second:.0f} games/s\")\n"
            "frame, manifests = load(run_dirs)\n"
            "frame.head()  # the stored frame: seat 0 here is seat 1"),
        *summary_cells(),
        *systems_cells(),
        new_markdown_cell("## Balance table (Ludii-style)\n\nfirst_edge = seat 1's win share "
                          "minus the fair share; balance = 1 − (best − worst seat share)."),
        new_code_cell("styled(balance.balance_table(frame))"),
        new_markdown_cell(FINDINGS_MD),
        new_code_cell("styled(confirm.confirmed_table(frame, manifests, jobs=JOBS))"),
        new_markdown_cell("## Seat advantage"),
        new_code_cell("show(plots.seat_advantage(frame))\n"
                      "styled(balance.seat_advantage(frame))"),
        new_markdown_cell("## Scores, margins and ties"),
        new_code_cell("show(plots.score_distributions(frame, \"seat\"))\n"
                      "styled(balance.margins(frame))"),
        new_markdown_cell("## Scoring balance\n\nMean points by source per seat, and how much "
                          "each source separates winners from the others."),
        new_code_cell("if balance.source_columns(frame):\n"
                      "    show(plots.scoring_sources(frame, \"seat\"))\n"
                      "styled(balance.source_separation(frame))"),
        new_markdown_cell("## Convergence and precision"),
        new_code_cell("show(plots.convergence(frame, \"seat\"))  # a panel per player count\n"
                      "styled(balance.games_needed([0.02, 0.01], share=[1 / n for n in counts]))"),
        new_markdown_cell("## The most extreme game\n\nThe game with the largest winning margin "
                          "of these runs, replayed from its seed and line-up (`simulate show "
                          "RUN --pick largest-margin` prints the same; `--html FILE` folds it "
                          "by round). Lines marked | changed with the move above them, * by "
                          "chance."),
        new_code_cell("from analysis.present import transcript\n\n"
                      "extreme = rebuild.most_extreme(run_dirs)\n"
                      "print(transcript.to_text(extreme))"),
        new_markdown_cell("## HTML report"),
        new_code_cell("path = write_report(run_dirs, out_dir / \"report.html\")\n"
                      "print(\"report:\", path)"),
    ]
    return _notebook(cells)


def systems_cells() -> list:
    """Section "Game systems used": which action kinds the bots chose, against availability."""
    return [
        new_markdown_cell(
            "## Game systems used\n\nA balance figure only describes the game the bots "
            "actually played. Per bot: share of its games in which it chose each kind of "
            "action (used) and in which the kind was legal at a sampled decision (available, "
            "a lower bound). A bot that (almost) never uses an available system is named, and "
            "so is every system it skipped although random play reaches it (`skipped`, from "
            "the designer summary above)."),
        new_code_cell("print(\"\\n\".join(coverage.neglect_lines(frame, skipped=skipped)\n"
                      "                + coverage.reference_lines(skipped)))\n"
                      "if balance.kind_columns(frame):\n"
                      "    show(plots.systems_used(frame))\n"
                      "styled(balance.coverage(frame))"),
    ]


def robustness_notebook() -> nbformat.NotebookNode:
    """Does a seat edge or a dominant scoring source hold with other bots?"""
    cells = [
        new_code_cell(
            "# Parameters (edit and run all; the tests inject small values here)\n"
            "GAME = \"ninjato\"\n"
            "PLAYERS = None  # None = the game's usual player count\n"
            "BOTS = \"random,heuristic:*\"  # one line-up per bot, that bot in every seat;\n"
            "#                                heuristic:* = the default and every style\n"
            "GAMES = 2000  # games per line-up\n"
            "MCTS_GAMES = 100  # games of the all-MCTS line-up (0 = none): ~1,000x slower\n"
            "SEED = 15\n"
            "JOBS = 1  # worker processes (-1 = all cores)\n"
            "OUT_DIR = None  # None = a temporary directory"),
        new_markdown_cell(
            "# Does it hold with other bots?\n\nThe same game played by several line-ups "
            "(random, every heuristic style, MCTS with fewer games): seat win shares and "
            "scoring-source shares side by side with 95% intervals, and per seat a verdict "
            "from a heterogeneity test (χ² line-up × win, Holm-adjusted in the output's one "
            "family) read with each line-up's direction; a line-up with too few games to "
            "tell is named and never vetoes. The same study for every game: "
            "`simulate run experiments/robustness.toml`."),
        new_code_cell(SETUP),
        new_code_cell(
            "game = get_game(GAME)\n"
            "players = PLAYERS or game.players_default\n"
            "lineups = [(bot, GAMES) for bot in experiments.expand_styles(split_specs(BOTS), "
            "game)]\n"
            "if MCTS_GAMES:\n"
            "    lineups.append((\"mcts\", MCTS_GAMES))\n"
            "run_dirs = []\n"
            "for bot, games in lineups:\n"
            "    spec = tournament.RunSpec(game=GAME, players=players, games=games, seed=SEED,\n"
            "                              bots=(bot,) * players)\n"
            "    result = tournament.run(spec.validated(), out_dir / bot.replace(\":\", \"-\"),"
            "\n                            jobs=JOBS)\n"
            "    run_dirs.append(result.run_dir)\n"
            "    print(f\"{bot}: {games} games, {result.games_per_second:.1f} games/s\")\n"
            "frame, manifests = load(run_dirs)\n"
            "frame = robustness.with_lineups(frame)"),
        *summary_cells(),
        new_markdown_cell("## Verdicts"),
        new_code_cell("checks = findings.robustness_verdicts(frame)\n"
                      "for row in checks.itertuples():\n"
                      "    print(f\"{row.verdict}\\n    {row.details}\")\n"
                      "styled(checks)"),
        new_markdown_cell("## Seat win shares and scoring sources, side by side"),
        new_code_cell("show(plots.seats_by_lineup(frame))\n"
                      "styled(robustness.side_by_side(robustness.seat_shares(frame), \"seat\"))"),
        new_code_cell("styled(robustness.side_by_side(robustness.source_shares(frame), "
                      "\"source\"))"),
        *systems_cells(),
        new_markdown_cell("## HTML report"),
        new_code_cell("path = write_report(run_dirs, out_dir / \"report.html\")\n"
                      "print(\"report:\", path)"),
    ]
    return _notebook(cells)


def compare_notebook() -> nbformat.NotebookNode:
    cells = [
        new_code_cell(
            "# Parameters (edit and run all; the tests inject small values here)\n"
            "GAME = \"tabula-rasa\"\n"
            "PLAYERS = 2\n"
            "BOTS = \"heuristic,random\"  # at least two different bot specs\n"
            "GAMES = 400  # in all: rounded up to whole deals x seat permutations\n"
            "FILL = \"last\"  # fewer bots than seats: 'last' (A,B,B,B) or 'alternate' (A,B,A,B)\n"
            "RULES = {}\n"
            "SEED = 1\n"
            "JOBS = 1\n"
            "VS_ROTATION = True  # also play plain rotation to see the interval narrowing\n"
            "OUT_DIR = None"),
        new_markdown_cell(
            "# Bot comparison in duplicate format\n\nEvery deal (game seed) is replayed once "
            "per seat permutation of the line-up, so the luck of the deal cancels out."),
        new_code_cell(SETUP),
        new_code_cell(
            "spec = compare.CompareSpec(game=GAME, players=PLAYERS, games=GAMES,\n"
            "                           bots=tuple(split_specs(BOTS)), seed=SEED,\n"
            "                           rules=dict(RULES), fill=FILL)\n"
            "result = compare.run_duplicate(spec, out_dir / \"duplicate\", jobs=JOBS)\n"
            "frame = result.frame\n"
            "print(f\"{spec.deals} deals x {len(spec.seatings)} seatings; \"\n"
            "      f\"line-up {spec.lineup}\")\n"
            "styled(balance.clustered_win_share(frame), shares=[\"se\"])"),
        new_markdown_cell(FINDINGS_MD),
        new_code_cell("_, manifests = load(result.run_dirs)\n"
                      "styled(confirm.confirmed_table(frame, manifests, jobs=JOBS))"),
        new_markdown_cell("## Ratings and pairwise matrix"),
        new_code_cell("ladder = balance.ratings(frame, bootstrap=100)\n"
                      "show(plots.rating_ladder(ladder))\nstyled(ladder)"),
        new_code_cell("balance.pairwise_matrix(frame).map(percent)"),
        new_code_cell("show(plots.convergence(frame, \"bot\"))"),
        new_markdown_cell("## Duplicate vs plain rotation"),
        new_code_cell("if VS_ROTATION:\n"
                      "    rotation = compare.run_rotation(spec, out_dir / \"rotation\", "
                      "jobs=JOBS)\n"
                      "    display(styled(compare.narrowing(frame, rotation)))"),
        new_code_cell("path = write_report(result.run_dirs, out_dir / \"report.html\")\n"
                      "print(\"report:\", path)"),
    ]
    return _notebook(cells)


def what_if_notebook() -> nbformat.NotebookNode:
    """A paired sweep over rules and component data, then a balance search."""
    cells = [
        new_code_cell(
            "# Parameters (edit and run all; the tests inject small values here)\n"
            "GAME = \"ninjato\"\n"
            "PLAYERS = 4  # a count (or a list: its first entry is used)\n"
            "BOTS = \"heuristic\"\n"
            "GAMES = 300  # games per cell; every cell plays the same deals\n"
            "VARY = {\"token_choice\": [\"free\", \"lowest\"],\n"
            "        \"components.token_values\": [[2, 4, 6, 8, 10], [2, 4, 6, 8]],\n"
            "        \"components.alarm_guards\": [10, 5, 15]}\n"
            "DESIGN = \"one-at-a-time\"  # or \"grid\"\n"
            "SEARCH_VARY = {\"components.alarm_guards\": [5, 10, 15, 20]}\n"
            "OBJECTIVE = \"first_edge\"  # first_edge, seat_spread, source_share:NAME\n"
            "SEARCH_BUDGET = None  # None = 8 x GAMES\n"
            "RULES = {}\n"
            "SEED = 1\n"
            "JOBS = 1\n"
            "OUT_DIR = None"),
        new_markdown_cell(
            "# What if? Paired sweeps over rules and component data\n\n"
            "Every cell of the sweep plays the **same deals** (common random numbers), so the "
            "difference a setting makes is measured game by game and its interval is narrow. "
            "Data items are rule keys `components.ITEM` (`simulate data GAME --items`)."),
        new_code_cell(
            "import tempfile\nfrom pathlib import Path\n\nimport pandas as pd\n"
            "from IPython.display import Image, display\n\n"
            "from analysis.cli.reporting import sweep_html\n"
            "from analysis.present import plots, report\n"
            "from analysis.present.formats import styled\n"
            "from analysis.present.whatif import effects_shown\n"
            "from analysis.run import search, sweep, tournament\n"
            "from engines import datasets, get_game\nfrom engines.bots import split_specs\n\n"
            f"{DISPLAY}\n\n\n"
            "def show(fig):\n    display(Image(plots.to_png(fig)))\n\n\n"
            "out_dir = Path(OUT_DIR) if OUT_DIR else Path(tempfile.mkdtemp(prefix=\"what-if-\"))\n"
            "players = PLAYERS[0] if isinstance(PLAYERS, list) else PLAYERS\n"
            "lineup = tournament.fill_lineup(split_specs(BOTS), players)\n"
            "print(\"results in\", out_dir)"),
        new_markdown_cell("## The data set's items, their provenance and named alternatives"),
        new_code_cell("styled(pd.DataFrame(datasets.items_table(GAME)))"),
        new_markdown_cell("## The sweep"),
        new_code_cell(
            "spec = sweep.SweepSpec(game=GAME, players=players, games=GAMES, bots=lineup,\n"
            "                       seed=SEED, rules=dict(RULES),\n"
            "                       vary=tuple((k, tuple(v)) for k, v in VARY.items()),\n"
            "                       design=DESIGN)\n"
            "frame = sweep.run_sweep(spec, out_dir / \"sweep\", jobs=JOBS)\n"
            "effects = sweep.effects(spec, frame)\n"
            "styled(effects_shown(effects))  # each value in its statistic's unit"),
        new_code_cell(
            "print(\"What matters most:\")\n"
            "for line in sweep.ranking(effects):\n    print(\" \", line)\n"
            "print(f\"paired intervals are {sweep.narrowing(effects):.1f}x narrower than \"\n"
            "      \"independent runs of the same size\")"),
        new_markdown_cell("## Effect sizes (red: significant after Holm)"),
        new_code_cell("show(plots.effect_sizes(effects))"),
        new_markdown_cell("## Which conclusions of the base setting hold"),
        new_code_cell("if DESIGN == \"one-at-a-time\":\n"
                      "    display(styled(sweep.conclusions(spec, frame, effects)))"),
        new_markdown_cell("## The most balanced setting: successive halving on shared deals"),
        new_code_cell(
            "search_spec = search.SearchSpec(\n"
            "    GAME, players, lineup, SEED,\n"
            "    tuple((k, tuple(v)) for k, v in SEARCH_VARY.items()), OBJECTIVE,\n"
            "    SEARCH_BUDGET or 8 * GAMES, dict(RULES))\n"
            "found = search.run_search(search_spec, out_dir / \"search\", jobs=JOBS)\n"
            "print(\"\\n\".join(search.summary_lines(search_spec, found)))\n"
            "styled(found.table, shares=[\"objective\", \"statistic\"])"),
        new_code_cell(
            "path = out_dir / \"report.html\"\n"
            "path.write_text(report.page(f\"What if: {GAME}\", sweep_html(spec, frame)))\n"
            "print(\"report:\", path)"),
    ]
    return _notebook(cells)


def seat_edge_notebook() -> nbformat.NotebookNode:
    """Why a seat wins (seat levers, paired by deal) and what compensation fixes it."""
    cells = [
        new_code_cell(
            "# Parameters (edit and run all; the tests inject small values here)\n"
            "GAME = \"time-pirates\"\n"
            "PLAYERS = 4  # a count (or a list: its first entry is used)\n"
            "BOTS = \"heuristic\"  # line-up; the last bot fills the remaining seats\n"
            "GAMES = 1000  # games per setting of the explanation; all play the same deals\n"
            "LEVERS = []  # seat levers to try; [] = every lever of the game\n"
            "UNIT = 1  # compensation candidates: steps of UNIT in the game's bonus unit,\n"
            "STEPS = 3  # up to STEPS steps,\n"
            "SHAPE = \"monotone\"  # seat 1 gets 0, later seats at least the seat before\n"
            "BUDGET = None  # games of the compensation search; None = 8 x GAMES\n"
            "TOLERANCE = 1.2  # balanced = every seat's interval within x1.2 of the fair share\n"
            "RULES = {}\n"
            "SEED = 1\n"
            "JOBS = 1\n"
            "OUT_DIR = None"),
        new_markdown_cell(
            "# Why a seat wins, and what compensation fixes it\n\n"
            "The explanation replays the **same deals** under every choice of every seat lever "
            "(rule options that change one seat-order mechanism, `simulate list`) and measures "
            "how much of each seat's edge each lever removes, paired by deal.  The compensation "
            "search races `seat_bonus` vectors on shared deals and reads the answer with the "
            "balance rule (within the tolerance only when every seat's interval lies within "
            "×1.2 of the fair share), and checks every cheaper candidate on the same deals "
            "before calling its answer the smallest.  See docs/explain-compensate.md."),
        new_code_cell(
            "import tempfile\nfrom pathlib import Path\n\nimport pandas as pd\n"
            "from IPython.display import Image, display\n\n"
            "from analysis.present import plots, report, whatif\n"
            "from analysis.present.formats import styled\n"
            "from analysis.run import compensate, explain, tournament\n"
            "from engines.bots import split_specs\n\n"
            f"{DISPLAY}\n\n\n"
            "def show(fig):\n    display(Image(plots.to_png(fig)))\n\n\n"
            "out_dir = Path(OUT_DIR) if OUT_DIR else Path(tempfile.mkdtemp(prefix=\"seats-\"))\n"
            "players = PLAYERS[0] if isinstance(PLAYERS, list) else PLAYERS\n"
            "lineup = tournament.fill_lineup(split_specs(BOTS), players)\n"
            "print(\"results in\", out_dir)"),
        new_markdown_cell("## Each seat's edge and what each lever removes"),
        new_code_cell(
            "spec = explain.ExplainSpec(game=GAME, players=players, games=GAMES, bots=lineup,\n"
            "                           seed=SEED, rules=dict(RULES), levers=tuple(LEVERS))\n"
            "frame = explain.run_explain(spec, out_dir / \"explain\", jobs=JOBS)\n"
            "why = explain.explain(spec.sweep_spec(), frame)\n"
            "print(\"\\n\".join(why.lines()))\n"
            "styled(why.effects, *whatif.EXPLAIN_UNITS[\"effects\"])"),
        new_markdown_cell("## Edge removed per lever and seat (red: significant after Holm)"),
        new_code_cell("show(plots.effect_sizes(whatif.as_sweep_effects(why.effects)))"),
        new_markdown_cell("## Where the edge comes from: points by source (and round) per "
                          "seat, decisions per seat"),
        new_code_cell("display(styled(why.sources, *whatif.EXPLAIN_UNITS[\"sources\"]))\n"
                      "styled(why.decisions, *whatif.EXPLAIN_UNITS[\"decisions\"])"),
        new_markdown_cell("## The smallest compensation: a racing search over seat bonuses"),
        new_code_cell(
            "offer = compensate.CompensateSpec(GAME, players, lineup, SEED, 1, dict(RULES),\n"
            "                                  UNIT, STEPS, SHAPE, TOLERANCE)\n"
            "offer = compensate.CompensateSpec(GAME, players, lineup, SEED,\n"
            "                                  max(BUDGET or 8 * GAMES, offer.least_budget()),\n"
            "                                  dict(RULES), UNIT, STEPS, SHAPE, TOLERANCE)\n"
            "found = compensate.run_compensate(offer, out_dir / \"compensate\", jobs=JOBS)\n"
            "print(\"\\n\".join(found.lines()))\n"
            "styled(found.candidates, shares=[\"objective\"])"),
        new_code_cell(
            "path = out_dir / \"report.html\"\n"
            "path.write_text(report.page(f\"Why a seat wins: {GAME}\", "
            "whatif.explain_html(why)))\n"
            "print(\"report:\", path)"),
    ]
    return _notebook(cells)


def tune_notebook() -> nbformat.NotebookNode:
    """Tuning a heuristic's parameters in duplicate format (docs/tune.md)."""
    cells = [
        new_code_cell(
            "# Parameters (edit and run all; the tests inject small values here)\n"
            "GAME = \"tabula-rasa\"\n"
            "PLAYERS = 3\n"
            "BOT = \"heuristic\"  # heuristic, heuristic:STYLE or heuristic:FILE.toml\n"
            "VARY = {\"spread\": [0.3, 0.5, 0.8], \"castle_weight\": [3, 4, 5]}\n"
            "AGAINST = None  # None = heuristic (+ heuristic:v1); e.g. [\"heuristic\", \"mcts\"]\n"
            "BUDGET = 3000  # games in all\n"
            "RULES = {}\n"
            "SEED = 1\n"
            "JOBS = 1\n"
            "OUT_DIR = None"),
        new_markdown_cell(
            "# Tuning a heuristic\n\n"
            "Every candidate setting plays a duplicate comparison (one candidate seat, every "
            "seat permutation of each deal) against each bot of the league, on the **same "
            "deals** as the other candidates; successive halving drops the worse half after "
            "each round.  `simulate list` shows each game's parameters and ranges; "
            "docs/tune.md explains the method."),
        new_code_cell(
            "import tempfile\nfrom pathlib import Path\n\n"
            "import matplotlib.pyplot as plt\nfrom IPython.display import Image, display\n\n"
            "from analysis.present import plots, report, whatif\n"
            "from analysis.present.formats import styled\nfrom analysis.run import tune\n"
            "from engines import get_game\nfrom engines.bots import make_bot\n\n"
            "out_dir = Path(OUT_DIR) if OUT_DIR else Path(tempfile.mkdtemp(prefix=\"tune-\"))\n"
            "print(\"results in\", out_dir)\n"
            "for p in get_game(GAME).heuristic_params:\n    print(p.describe())"),
        new_code_cell(
            "pairs = [f\"{k}={','.join(map(str, v))}\" for k, v in VARY.items()]\n"
            "spec = tune.TuneSpec(GAME, PLAYERS, BOT, tune.parse_vary(GAME, pairs),\n"
            "                     tuple(AGAINST) if AGAINST else tune.default_league(GAME),\n"
            "                     BUDGET, SEED, rules=dict(RULES))\n"
            "result = tune.run_tune(spec, out_dir / \"tune\", jobs=JOBS)\n"
            "print(\"\\n\".join(tune.summary_lines(spec, result)))\n"
            "styled(result.table, shares=[\"difference\", \"diff_low\", \"diff_high\"])"),
        new_markdown_cell("## Win share of every candidate (95% interval; dashed: fair)"),
        new_code_cell(
            "table = result.table.sort_values(\"win_share\")\n"
            "fig, ax = plt.subplots(figsize=(7, 0.35 * len(table) + 1))\n"
            "ax.errorbar(table[\"win_share\"], range(len(table)),\n"
            "            xerr=[table[\"win_share\"] - table[\"ci_low\"],\n"
            "                  table[\"ci_high\"] - table[\"win_share\"]], fmt=\"o\")\n"
            "ax.set_yticks(range(len(table)), table[\"candidate\"])\n"
            "ax.axvline(1 / PLAYERS, ls=\"--\", color=\"grey\")\n"
            "ax.set_xlabel(\"win share against the league\")\n"
            "display(Image(plots.to_png(fig)))"),
        new_markdown_cell("## The best setting as a style file (play it as heuristic:FILE)"),
        new_code_cell(
            "style = out_dir / \"best.toml\"\n"
            "style.write_text(tune.style_file_text(spec, result))\n"
            "print(style.read_text())\n"
            "make_bot(f\"heuristic:{style}\", get_game(GAME))\n"
            "path = out_dir / \"report.html\"\n"
            "path.write_text(report.page(f\"Tuning {BOT} in {GAME}\", whatif.tune_html(\n"
            "    spec.command(), tune.summary_lines(spec, result), result.table, style)))\n"
            "print(\"report:\", path)"),
    ]
    return _notebook(cells)


def landscape_notebook() -> nbformat.NotebookNode:
    """A strategy landscape: every style as a lone seat against a table of every other
    (docs/landscape.md)."""
    cells = [
        new_code_cell(
            "# Parameters (edit and run all; the tests inject small values here)\n"
            "GAME = \"tabula-rasa\"\n"
            "PLAYERS = 3\n"
            "STYLES = [\"heuristic\", \"heuristic:v1\", \"heuristic:v2\", \"heuristic:v3\"]\n"
            "GAMES = 300  # per cell: one style's lone seat against one table\n"
            "BOOTSTRAP = 500  # resamplings of the deals for the α-Rank and Nash intervals\n"
            "RULES = {}\n"
            "SEED = 1\n"
            "JOBS = 1\n"
            "OUT_DIR = None"),
        new_markdown_cell(
            "# Is there a dominant strategy?\n\n"
            "Each style plays one seat against a table of each other style, in duplicate "
            "format on the **same deals** for every cell.  Entry (i, j) of the matrix is "
            "style i's win share at j's table as a multiple of the fair share.  The verdicts "
            "say whether one style dominates, name every cycle whose links are all "
            "significant after Holm over the cells, and give α-Rank and a Nash mixture "
            "with bootstrap intervals over deals (docs/landscape.md)."),
        new_code_cell(
            "import tempfile\nfrom pathlib import Path\n\n"
            "from IPython.display import Image, display\n\n"
            "from analysis.cli.reporting import landscape_html\n"
            "from analysis.present import plots, report\n"
            "from analysis.present.formats import styled\nfrom analysis.run import landscape\n\n"
            "out_dir = (Path(OUT_DIR) if OUT_DIR\n"
            "           else Path(tempfile.mkdtemp(prefix=\"landscape-\")))\n"
            "print(\"results in\", out_dir)"),
        new_code_cell(
            "spec = landscape.LandscapeSpec(game=GAME, players=PLAYERS, games=GAMES, seed=SEED,\n"
            "                               styles=tuple(STYLES), rules=dict(RULES),\n"
            "                               bootstrap=BOOTSTRAP)\n"
            "analysis = landscape.analyse(landscape.run_landscape(spec, out_dir / \"landscape\",\n"
            "                                                     jobs=JOBS))\n"
            "print(\"\\n\".join(analysis.lines()))\n"
            "analysis.matrix().round(2)"),
        new_markdown_cell("## The matrix (framed: significant after Holm over the cells)"),
        new_code_cell(
            "display(Image(plots.to_png(plots.landscape_heatmap(analysis.matrix(),\n"
            "                                                   analysis.cells))))"),
        new_markdown_cell("## α-Rank and the Nash mixture, with bootstrap intervals"),
        new_code_cell("display(styled(analysis.alpharank, shares=[\"mass\", \"support\", "
                      "\"top\"]))\nstyled(analysis.nash, shares=[\"nash\", \"support\", \"top\"])"),
        new_code_cell(
            "path = out_dir / \"report.html\"\n"
            "path.write_text(report.page(f\"Strategy landscape: {GAME}\", "
            "landscape_html(analysis)))\n"
            "print(\"report:\", path)"),
    ]
    return _notebook(cells)


def elements_notebook() -> nbformat.NotebookNode:
    """Which card, skill or action is too strong or useless: restricted play, correlation and
    removal (docs/elements.md)."""
    cells = [
        new_code_cell(
            "# Parameters (edit and run all; the tests inject small values here)\n"
            "GAME = \"ivanhoe\"\n"
            "PLAYERS = 4\n"
            "BOT = \"heuristic\"\n"
            "ELEMENTS = None  # None: every element the game declares; or a list of names\n"
            "GAMES = 1000  # per element: the restricted seat in every seat of each deal\n"
            "RULES = {}\n"
            "SEED = 11\n"
            "JOBS = 1\n"
            "OUT_DIR = None"),
        new_markdown_cell(
            "# Which element is too strong or useless?\n\n"
            "Each element (a card, skill or action the game declares) is forbidden to one "
            "seat in turn while the other seats play as usual, on the **same deals** as an "
            "unrestricted baseline.  Its worth is the baseline seat's win share minus the "
            "restricted seat's, in points, with an interval clustered by deal.  Beside it: "
            "the win share of seats that played it (correlation, not cause) and, where the "
            "data set allows, the game with the element removed.  Every p-value is in one "
            "Holm family; 'inconsequential' is an equivalence claim (docs/elements.md)."),
        new_code_cell(
            "import tempfile\nfrom pathlib import Path\n\n"
            "from analysis.present import report\nfrom analysis.present.formats import styled\n"
            "from analysis.run import elements\n"
            "from analysis.stats.verdicts import element_family_members, element_lines\n\n"
            "out_dir = (Path(OUT_DIR) if OUT_DIR\n"
            "           else Path(tempfile.mkdtemp(prefix=\"elements-\")))\n"
            "print(\"results in\", out_dir)"),
        new_code_cell(
            "spec = elements.default_spec(GAME, PLAYERS, GAMES, SEED, bot=BOT,\n"
            "                             elements=None if ELEMENTS is None else "
            "tuple(ELEMENTS),\n"
            "                             rules=dict(RULES))\n"
            "result = elements.run_elements(spec, out_dir / \"elements\", jobs=JOBS)\n"
            "table, family = result.table()\n"
            "lines = element_lines(table, spec.bot, 1 / spec.players,\n"
            "                      family.note(element_family_members(table)))\n"
            "print(result.head())\nprint(\"\\n\".join(lines))"),
        new_markdown_cell("## The ranked table (strongest first; worth and differences as "
                          "shares, shown in percent)"),
        new_code_cell(
            "shown = table[[\"element\", \"offered_share\", \"bit_share\", \"worth\", "
            "\"worth_low\",\n"
            "               \"worth_high\", \"worth_p_adjusted\", \"played_diff\", "
            "\"verdict\"]]\n"
            "styled(shown, shares=[\"worth\", \"worth_low\", \"worth_high\", "
            "\"played_diff\"])"),
        new_markdown_cell("## Each element's worth with its interval"),
        new_code_cell(
            "import matplotlib.pyplot as plt\nfrom IPython.display import Image, display\n\n"
            "from analysis.present import plots\n\n"
            "fig, ax = plt.subplots(figsize=(7, 1 + 0.35 * len(table)))\n"
            "rows = range(len(table))\n"
            "ax.errorbar(100 * table[\"worth\"], rows, fmt=\"o\",\n"
            "            xerr=[100 * (table[\"worth\"] - table[\"worth_low\"]),\n"
            "                  100 * (table[\"worth_high\"] - table[\"worth\"])])\n"
            "ax.axvline(0, color=\"grey\", linewidth=1)\n"
            "ax.set_yticks(list(rows), table[\"element\"])\nax.invert_yaxis()\n"
            "ax.set_xlabel(\"worth: baseline seat minus restricted seat (points, 95% CI)\")\n"
            "display(Image(plots.to_png(fig)))"),
        new_code_cell(
            "path = out_dir / \"report.html\"\n"
            "path.write_text(report.page(f\"Elements: {GAME}\",\n"
            "                            report.elements_section(table, lines, "
            "result.head())))\n"
            "print(\"report:\", path)"),
    ]
    return _notebook(cells)


def explorer_notebook() -> nbformat.NotebookNode:
    """The interactive balance explorer (`analysis.cli.explorer`): widgets, Run, results."""
    cells = [
        new_code_cell(
            "# Parameters: where the widgets start (edit them, or just use the widgets)\n"
            "GAME = \"tabula-rasa\"\n"
            "PLAYERS = None  # None = the game's usual count (or a list: its first entry)\n"
            "BOTS = \"heuristic\"  # line-up; the last bot fills the remaining seats\n"
            "GAMES = 200\n"
            "RULES = {}  # rule options and data items, e.g. {\"components.alarm_guards\": \"5\"}\n"
            "SEED = 1\n"
            "JOBS = 1  # worker processes (-1 = all cores)\n"
            "OUT_DIR = None  # None = a temporary directory"),
        new_markdown_cell(
            "# Balance explorer\n\n"
            "Pick a game, its player count, a bot for each seat, rule options and data items "
            "(the alternatives its rules page names; `simulate list` and `simulate data GAME "
            "--items` list them all), the number of games and the seed, then click **Run**: "
            "the games play under the progress bar, seats rotating over the line-up, and the "
            "output below shows the designer summary (balanced or not, the largest seat edge "
            "with its 95% interval, the largest scoring source), win share by seat and the "
            "mean points by scoring source. Every run is stored as a run directory "
            "(`simulate report DIR` reads it).\n\n"
            "Widgets need a running kernel: open this notebook with `jupyter lab "
            "notebooks/explorer.ipynb`. A copy without one (this page on the docs site) shows "
            "the widgets as they were saved after a first run with the parameters above, and "
            "the same results as plain outputs below them."),
        new_code_cell(
            "from analysis.cli.explorer import Explorer\n"
            "from analysis.cli.reporting import write_report\n\n"
            "explorer = Explorer(game=GAME,\n"
            "                    players=PLAYERS[0] if isinstance(PLAYERS, list) else PLAYERS,\n"
            "                    bots=BOTS, games=GAMES, seed=SEED, rules=dict(RULES), "
            "jobs=JOBS,\n"
            "                    out_dir=OUT_DIR)\n"
            "explorer.run()  # a first run, so that the output opens with results\n"
            "explorer"),
        new_markdown_cell("## The newest run, as plain outputs\n\nWhat the output widget "
                          "shows for the newest run (run this cell again after a click)."),
        new_code_cell("explorer.show_results()"),
        new_markdown_cell("## HTML report of every run the explorer played"),
        new_code_cell("path = write_report(explorer.run_dirs, explorer.out_dir / "
                      "\"report.html\")\n"
                      "print(\"report:\", path)"),
    ]
    return _notebook(cells)


def _notebook(cells: list) -> nbformat.NotebookNode:
    nb = new_notebook(cells=cells)
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3",
                                 "language": "python"}
    nb.metadata["language_info"] = {"name": "python"}
    for i, cell in enumerate(nb.cells):
        cell["id"] = f"cell-{i:02d}"
    return nb


def notebooks() -> dict[str, nbformat.NotebookNode]:
    """File name -> notebook, for every registered game plus the comparison."""
    from engines import GAMES

    out = {f"balance-{name}.ipynb": balance_notebook(name, GAMES[name].description)
           for name in sorted(GAMES)}
    out["compare-bots.ipynb"] = compare_notebook()
    out["robustness.ipynb"] = robustness_notebook()
    out["what-if.ipynb"] = what_if_notebook()
    out["seat-edges.ipynb"] = seat_edge_notebook()
    out["tune.ipynb"] = tune_notebook()
    out["landscape.ipynb"] = landscape_notebook()
    out["elements.ipynb"] = elements_notebook()
    out["explorer.ipynb"] = explorer_notebook()
    return out


def main(target: Path = HERE) -> list[Path]:
    written = []
    for name, nb in notebooks().items():
        path = target / name
        nbformat.write(nb, path)
        written.append(path)
    return written


if __name__ == "__main__":
    for path in main(Path(sys.argv[1]) if len(sys.argv) > 1 else HERE):
        print(path)
