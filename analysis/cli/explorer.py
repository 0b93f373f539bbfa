"""The interactive balance explorer of `notebooks/explorer.ipynb`: ipywidgets to pick a game,
its player count, a line-up, rule options, data items, games and seed; Run plays the run
under a progress bar and shows the designer summary, the seat chart and the scoring sources.

One job: build and wire the widgets.  The work is the toolkit's own: the run is
`tournament.run` (its progress callback feeds the bar), the words are
`designer.summary_table`, the charts `plots.seat_advantage` and `plots.scoring_sources`.  It
plays and then renders, as the commands do, so it sits beside them in `cli`.  The results go
into the Output widget's `outputs` directly (not captured from printing), so a test can
drive the widgets without a kernel: set the values, `run_button.click()`, read `outputs`.
"""

from __future__ import annotations

import tempfile
import traceback
from pathlib import Path
from typing import Any

import ipywidgets as widgets
from IPython.display import Image

from analysis.present import designer, plots
from analysis.present.formats import rate, styled
from analysis.run import tournament
from analysis.stats import balance
from engines import GAMES, datasets, get_game
from engines.bots import bot_names
from engines.core import rule_options
from engines.errors import BadInput

#: The label width of every picker, so that the rows line up.
_STYLE = {"description_width": "15em"}
_WIDE = widgets.Layout(width="31em")


def _rule_widget(option: dict[str, Any]) -> widgets.ValueWidget:
    """The picker of one rule option: its choices, a tick box, a number or a text field."""
    common = {"description": option["name"], "tooltip": option["help"],
              "style": _STYLE, "layout": _WIDE}
    if option["choices"]:
        return widgets.Dropdown(options=[(str(c), c) for c in option["choices"]],
                                value=option["default"], **common)
    if option["type"] == "bool":
        return widgets.Checkbox(value=option["default"], indent=False, **common)
    if option["type"] == "int":
        return widgets.IntText(value=option["default"], **common)
    if option["type"] == "float":
        return widgets.FloatText(value=option["default"], **common)
    return widgets.Text(value=str(option["default"]), **common)


def _item_widget(item: dict[str, Any]) -> widgets.Dropdown:
    """The picker of one data item: its shipped value and the alternatives its rules page
    names (`simulate data GAME --items`)."""
    shown = [(f"{item['value']} (shipped)", item["value"])]
    shown += [(value, value) for value in item["plausible"] if value != item["value"]]
    return widgets.Dropdown(options=shown, value=item["value"],
                            description=item["item"],
                            tooltip=f"{item['provenance']}: {item['source']}",
                            style=_STYLE, layout=_WIDE)


class Explorer:
    """The widgets and what Run does with them; display the explorer to show them.

    `out_dir` holds one run directory per click (a temporary directory when None);
    `run_dirs` lists them, newest last, and `frame` is the newest run's frame."""

    def __init__(self, game: str = "tabula-rasa", players: int | None = None,
                 bots: str = "heuristic", games: int = 200, seed: int = 1,
                 rules: dict[str, Any] | None = None, jobs: int = 1,
                 out_dir: str | Path | None = None) -> None:
        self.jobs = jobs
        self.out_dir = Path(out_dir) if out_dir else Path(tempfile.mkdtemp(prefix="explorer-"))
        self.run_dirs: list[Path] = []
        self.frame = None
        self._manifest: dict[str, Any] = {}
        self._rate = ""
        self.game = widgets.Dropdown(options=sorted(GAMES), value=game, description="game",
                                     style=_STYLE, layout=_WIDE)
        self.players = widgets.Dropdown(description="players", style=_STYLE, layout=_WIDE)
        self.games = widgets.BoundedIntText(value=games, min=1, max=10**7, description="games",
                                            style=_STYLE, layout=_WIDE)
        self.seed = widgets.BoundedIntText(value=seed, min=0, max=2**31 - 1,
                                           description="seed", style=_STYLE, layout=_WIDE)
        self.run_button = widgets.Button(description="Run", button_style="primary",
                                         icon="play")
        self.progress = widgets.IntProgress(value=0, min=0, max=games)
        self.status = widgets.Label()
        self.output = widgets.Output()
        self.seats = widgets.VBox()
        self.rules = widgets.VBox()
        self.items = widgets.VBox()
        self._switching = False
        self._set_game(game, players, bots, rules or {})
        self.game.observe(lambda change: self._set_game(change["new"]), names="value")
        self.players.observe(self._players_changed, names="value")
        self.run_button.on_click(self._clicked)
        self.widget = widgets.VBox([
            widgets.HBox([widgets.VBox([self.game, self.players, self.games, self.seed]),
                          widgets.VBox([widgets.HTML("<b>line-up</b> (seats from 1)"),
                                        self.seats])]),
            widgets.HBox([widgets.VBox([widgets.HTML("<b>rule options</b>"), self.rules]),
                          widgets.VBox([widgets.HTML("<b>data items</b>"), self.items])]),
            widgets.HBox([self.run_button, self.progress, self.status]),
            self.output,
        ])

    def _ipython_display_(self) -> None:
        from IPython.display import display

        display(self.widget)

    # ---------------------------------------------------------------------------------------
    # The pickers follow the game and the player count
    # ---------------------------------------------------------------------------------------

    def _set_game(self, name: str, players: int | None = None, bots: str | None = None,
                  rules: dict[str, Any] | None = None) -> None:
        """Every picker for game `name`: its player counts, bots, rule options and data items
        (at their defaults, or at `rules`: option names and `components.ITEM` keys)."""
        game = get_game(name)
        counts = list(range(game.min_players, game.max_players + 1))
        wanted = players if players in counts else (
            self.players.value if self.players.value in counts else game.players_default)
        self._switching = True  # the player count follows the game: no seat update halfway
        try:
            self.players.options = counts
            self.players.value = wanted
        finally:
            self._switching = False
        self._set_seats([spec.strip() for spec in bots.split(",")] if bots else None)
        self.rules.children = [_rule_widget(option) for option in rule_options(game.Rules)]
        items = [_item_widget(item) for item in datasets.items_table(name) if item["plausible"]]
        self.items.children = items or [widgets.Label("none: every component is official")]
        for picker, key in [(p, p.description) for p in self.rules.children] + \
                [(p, datasets.PREFIX + p.description) for p in items]:
            if key in (rules or {}):
                value = rules[key]
                if isinstance(picker, widgets.Dropdown) and value not in picker.options and \
                        value not in [v for _, v in picker.options]:
                    picker.options = [*picker.options, (str(value), value)]  # Run checks it
                picker.value = value

    def _players_changed(self, _change: dict) -> None:
        if not self._switching:
            self._set_seats()

    def _set_seats(self, bots: list[str] | None = None) -> None:
        """One bot picker per seat; the seats kept keep their bot, a new seat takes the last
        seat's (the runner's rule: the last bot fills the remaining seats)."""
        game = get_game(self.game.value)
        names = bot_names(game)
        before = bots or [picker.value for picker in self.seats.children] or ["heuristic"]
        before = [b if b in names else "heuristic" for b in before]
        lineup = tournament.fill_lineup(before[:self.players.value], self.players.value)
        self.seats.children = [widgets.Dropdown(options=names, value=bot,
                                                description=f"seat {seat + 1}",
                                                style={"description_width": "4em"},
                                                layout=widgets.Layout(width="16em"))
                               for seat, bot in enumerate(lineup)]

    # ---------------------------------------------------------------------------------------
    # Run
    # ---------------------------------------------------------------------------------------

    def chosen_rules(self) -> dict[str, Any]:
        """The rule options and data items that differ from the game's defaults (nothing for
        the official rules and the shipped data set)."""
        game = get_game(self.game.value)
        defaults = {o["name"]: o["default"] for o in rule_options(game.Rules)}
        chosen = {p.description: p.value for p in self.rules.children
                  if p.value != defaults[p.description]}
        shipped = {i["item"]: i["value"] for i in datasets.items_table(self.game.value)}
        chosen |= {f"{datasets.PREFIX}{p.description}": p.value for p in self.items.children
                   if isinstance(p, widgets.Dropdown) and p.value != shipped[p.description]}
        return chosen

    def spec(self) -> tournament.RunSpec:
        """The run the widgets describe, validated (a bad value raises `BadInput`)."""
        return tournament.RunSpec(
            game=self.game.value, players=self.players.value, games=self.games.value,
            bots=tuple(picker.value for picker in self.seats.children), seed=self.seed.value,
            rules=self.chosen_rules()).validated()

    def run(self) -> tournament.RunResult | None:
        """Play the run the widgets describe and show what it says; a bad value is shown as
        one `error:` line and plays nothing (None)."""
        self.output.outputs = ()
        try:
            spec = self.spec()
        except BadInput as exc:
            self.progress.bar_style = "danger"
            self.status.value = "not run"
            self.output.append_stderr(f"error: {exc}\n")
            return None
        self.progress.max, self.progress.value, self.progress.bar_style = spec.games, 0, ""
        self.status.value = f"0 of {spec.games:,} games"

        def advance(games: int) -> None:
            self.progress.value += games
            self.status.value = f"{self.progress.value:,} of {spec.games:,} games"

        run_dir = self.out_dir / f"{len(self.run_dirs) + 1:03d}-{spec.game}-{spec.players}p"
        self.run_button.disabled = True
        try:
            result = tournament.run(spec, run_dir, jobs=self.jobs, progress=advance)
        finally:
            self.run_button.disabled = False
        self.progress.bar_style = "success"
        self.run_dirs.append(run_dir)
        self.frame, self._manifest = result.frame, result.manifest
        self._rate = rate(result.games_per_second)
        self._show()
        return result

    def results(self) -> list[Any]:
        """What Run shows for the newest run, in order: lines of text (str), the designer
        summary (a Styler) and the charts (PNG images); nothing before the first run."""
        if self.frame is None:
            return []
        frame, manifest = self.frame, self._manifest
        summary = designer.summary_table(frame)
        shown = [f"{manifest['game']}, {manifest['players']} players, "
                 f"{manifest['rules_str'] or 'official rules'}, data set {manifest['dataset']};"
                 f" line-up {', '.join(manifest['bots'])} (rotated over the seats); "
                 f"{manifest['games']:,} games, seed {manifest['seed']}, {self._rate} games/s;"
                 f" results in {self.run_dirs[-1]}",
                 styled(summary), designer.note(summary),
                 Image(plots.to_png(plots.seat_advantage(frame)))]
        if balance.source_columns(frame):
            shown.append(Image(plots.to_png(plots.scoring_sources(frame, "seat"))))
        else:
            shown.append(f"{manifest['game']} records no points by scoring source.")
        return shown

    def show_results(self) -> None:
        """Display `results` as the cell's own outputs: what a saved notebook or a page
        without the widget scripts still shows."""
        from IPython.display import display

        for item in self.results():
            if isinstance(item, str):
                print(item)
            else:
                display(item)

    def _show(self) -> None:
        for item in self.results():
            if isinstance(item, str):
                self.output.append_stdout(item + "\n")
            else:
                self.output.append_display_data(item)

    def _clicked(self, _button: widgets.Button) -> None:
        """Run; a bug (not a bad value) is shown in the output, where a notebook user sees
        it, instead of only in JupyterLab's log."""
        try:
            self.run()
        except Exception:
            self.progress.bar_style = "danger"
            self.output.append_stderr("internal error (a bug in tabletop-sim, not in your "
                                      "choices):\n" + traceback.format_exc())
