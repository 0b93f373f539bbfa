"""The options of the `mcts` bot: what each means, its default, and the spec parsing.

Options (spec `mcts:key=value,...`, values arrive as strings):

- `iterations=N`   rollouts (uct: iterations) per decision, an upper bound for the paired
                   search's early stop (default `DEFAULT_ITERATIONS`; a game may set its
                   own, see per-game defaults below); at most `MAX_ITERATIONS`.
- `time=SECONDS`   wall-clock budget per decision instead; `iterations`, if also given, is
                   then an upper bound.  A time budget makes play NOT reproducible.  At most
                   `MAX_SECONDS`.
- `search=paired|uct`  the paired flat search (`search.py`, default) or SO-ISMCTS
                   (`ismcts.py`).
- `confidence=Z`   paired: standard errors by which an action must beat the heuristic's move
                   (default 1; 0 = take the best mean).
- `c=X`            uct: UCB exploration constant (default 0.7; rewards lie in [0, 1]).
- `rollout=random|heuristic|heuristic:STYLE`  rollout policy (default:
                   `game.heuristics["default"]` when the game has one, else random).  A style
                   (`heuristic:v1`, a style file, one option such as `heuristic:spread=0.5`)
                   also plays the paired search's incumbent move: the search then models a
                   table of that style as it models a table of the default, which is what
                   "how far can search exploit this style" needs (`simulate exploit
                   --against`, `simulate tune --against mcts`).
- `rollout_depth=D` stop rollouts after D actions and score the position with the game's
                   `Game.mcts_evaluation` (one value in [0, 1] per seat, e.g. counting
                   points still on the table), else normalized `scores()` (default: play
                   to the end).
- `evaluation=game|scores`  what a cut rollout is worth: the game's `mcts_evaluation`
                   (default, where the game declares one) or normalized `scores()`.
- `rollout_rounds=R` stop rollouts once R rounds have ended (a round ends when
                   `round_label()` changes: a tournament in Ivanhoe) and score the position
                   as a depth cut-off does; 0 (default) = off.
- `determinizations=K`  sample K worlds once per decision and cycle through them (each
                   iteration gets a fresh chance stream); 0 (default) = a fresh world each.
- `prior=W`        uct: progressive bias W/(visits+1) at the root towards the default
                   heuristic's move, which is also expanded first (default 0 = off).
- `reward=win|score|mix|margin`  terminal reward (`rewards.py`), default mix.

Presets: `mcts:strong` = `rollout=heuristic,reward=mix` plus the game's own options for it
(`Game.mcts_presets`, a budget per game); options given next to it override it.

Per-game defaults: a game may declare `Game(mcts_defaults=...)` (spec options as strings,
e.g. `{"iterations": "120", "confidence": "2"}`); they replace the defaults
above for that game, and a preset or explicit options override them (`time=` alone
drops a per-game `iterations`).  Why per game and not one budget in simulated work: a
rollout costs about as much in Ivanhoe and Tabula Rasa as in Ninjato (`simulate bench`), so
an equal-work budget would not give them more rollouts; what they need is more evidence
than Ninjato does before leaving a strong heuristic.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from engines.bots import BotSpecError
from engines.bots.mcts.rewards import REWARDS
from engines.bots.options import check_known, parse_choice, parse_float, parse_int
from engines.core import Game

#: Iterations per decision when neither `iterations` nor `time` is given (what a decision
#: costs with it: README, "Bots").
DEFAULT_ITERATIONS = 28
#: The most rollouts (and rollout depth, and sampled worlds) a decision may ask for: a
#: million rollouts already take minutes per decision in these games, and a larger number is
#: a typo (`iterations=1000000000`) that would start a run that never ends.
MAX_ITERATIONS = 1_000_000
#: The longest thinking time per decision `time=` accepts (an hour).
MAX_SECONDS = 3600.0

ROLLOUTS = ("random", "heuristic")
EVALUATIONS = ("game", "scores")
SEARCHES = ("paired", "uct")
OPTIONS = (
    "iterations", "time", "c", "rollout", "rollout_depth", "determinizations", "reward", "prior",
    "search", "confidence", "evaluation", "rollout_rounds",
)
#: Named option sets (`mcts:strong`); a game adds its own options for each
#: (`Game.mcts_presets`) and explicit options override both.  `strong` is the paired search
#: with heuristic rollouts at a budget each game chooses so that 2,000 all-strong games run
#: in about 10 minutes on two cores: the line-up for checking conclusions under strong play.
PRESETS: dict[str, dict[str, str]] = {
    "strong": {"rollout": "heuristic", "reward": "mix"},
}


@dataclass(frozen=True)
class MCTSConfig:
    """Validated options of one MCTS bot."""

    iterations: int | None = DEFAULT_ITERATIONS
    time: float | None = None
    c: float = 0.7
    rollout: str | None = None  # None: heuristic if the game has a default heuristic;
    # random, heuristic, or a heuristic style spec (heuristic:STYLE)
    rollout_depth: int | None = None
    rollout_rounds: int = 0
    determinizations: int = 0
    reward: str = "mix"
    prior: float = 0.0
    search: str = "paired"
    confidence: float = 1.0
    evaluation: str = "game"  # "game": Game.mcts_evaluation where declared


def parse_options(game: Game, options: dict[str, str]) -> MCTSConfig:
    """Turn the spec's string options into an `MCTSConfig`; bad ones raise `BotSpecError`."""
    check_known("mcts", options, OPTIONS)
    values: dict[str, object] = {}
    if "time" in options:
        values["time"] = parse_float("mcts", "time", options["time"], positive=True,
                                     maximum=MAX_SECONDS)
        values["iterations"] = None
    if "iterations" in options:
        values["iterations"] = parse_int("mcts", "iterations", options["iterations"], 1,
                                         MAX_ITERATIONS)
    if "c" in options:
        values["c"] = parse_float("mcts", "c", options["c"])
    if "rollout" in options:
        values["rollout"] = _rollout(game, options["rollout"])
    if "rollout_depth" in options:
        values["rollout_depth"] = parse_int("mcts", "rollout_depth", options["rollout_depth"], 1,
                                            MAX_ITERATIONS)
    if "rollout_rounds" in options:
        values["rollout_rounds"] = parse_int("mcts", "rollout_rounds", options["rollout_rounds"],
                                             0, MAX_ITERATIONS)
    if "determinizations" in options:
        values["determinizations"] = parse_int(
            "mcts", "determinizations", options["determinizations"], 0, MAX_ITERATIONS
        )
    if "reward" in options:
        values["reward"] = parse_choice("mcts", "reward", options["reward"], REWARDS)
    if "prior" in options:
        values["prior"] = parse_float("mcts", "prior", options["prior"])
        if values["prior"] and "default" not in game.heuristics:
            raise BotSpecError(f"prior=: {game.name} has no default heuristic bot")
    if "search" in options:
        values["search"] = parse_choice("mcts", "search", options["search"], SEARCHES)
    if "confidence" in options:
        values["confidence"] = parse_float("mcts", "confidence", options["confidence"])
    if "evaluation" in options:
        values["evaluation"] = parse_choice("mcts", "evaluation", options["evaluation"],
                                            EVALUATIONS)
    return MCTSConfig(**values)  # type: ignore[arg-type]


def _rollout(game: Game, raw: str) -> str:
    """`random`, `heuristic` or a heuristic style spec the game can build."""
    if raw.startswith("heuristic:"):
        from engines.bots import make_bot

        try:
            make_bot(raw, game)
        except BotSpecError as exc:
            raise BotSpecError(f"mcts option rollout={raw}: {exc}") from None
        return raw
    if raw not in ROLLOUTS:
        raise BotSpecError(f"mcts option rollout= must be one of random|heuristic|"
                           f"heuristic:STYLE, got {raw!r}")
    if raw == "heuristic" and "default" not in game.heuristics:
        raise BotSpecError(f"rollout=heuristic: {game.name} has no default heuristic bot")
    return raw


def game_presets(game: Game) -> Mapping[str, Mapping[str, str]]:
    """The game's own options for named presets (`Game.mcts_presets`), laid over `PRESETS`."""
    return game.mcts_presets


def merged_options(game: Game, variant: str | None, options: dict[str, str]) -> MCTSConfig:
    """The game's `mcts_defaults`, then the preset `variant` (its generic options, then the
    game's own for it), then the explicit options."""
    if variant is not None and variant not in PRESETS:
        raise BotSpecError(
            f"unknown mcts preset {variant!r} (known: {', '.join(PRESETS)}); "
            f"options are key=value: {', '.join(OPTIONS)}"
        )
    preset = {**PRESETS.get(variant or "", {}), **game_presets(game).get(variant or "", {})}
    chosen = {**preset, **options}
    base = dict(game.mcts_defaults)
    if "time" in chosen and "iterations" not in chosen:
        base.pop("iterations", None)  # a time budget alone is not capped by a default count
    return parse_options(game, {**base, **chosen})
