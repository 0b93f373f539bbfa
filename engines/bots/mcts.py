"""Information-set Monte Carlo search, the `mcts[:options]` bot: paired flat search (default)
or single-observer ISMCTS (`search=uct`).

Why this design: our games have hidden cards and chance, so every search samples worlds with
`determinize(seat, rng)` (the bot never reads what its seat cannot see) and plays them out.
At the default budget (a few dozen rollouts, ~50 ms on Ninjato) a tree cannot grow, and
random rollouts misjudge these games, so the default is a *policy-improvement* step on top
of the game's default heuristic:

- `search=paired` (default): the heuristic's move is the incumbent.  Each sampled world (a
  determinization, one seed for its chance stream, one for the rollout policy) is played out
  after EVERY surviving root action with heuristic rollouts (common random numbers: the
  actions are compared on identical luck, a paired comparison).  With more than two actions,
  about half the budget screens them all and keeps the best challenger; the rest confirms it
  against the incumbent on fresh worlds.  The challenger replaces the incumbent only if its
  mean paired gain exceeds `confidence` standard errors, so a tiny noisy budget does not
  make play worse than the heuristic.  The search stops early when `EARLY_STOP_WORLDS`
  worlds gave every candidate the same reward.  Without a default heuristic it is plain
  flat Monte Carlo with common random numbers.
- `search=uct`: SO-ISMCTS (Cowling et al. 2012): one tree over the seat's information set,
  UCB over the actions legal in each world (availability counts), one expansion, a rollout,
  and every player's own reward backed up.  Needs hundreds of iterations.

Both back up each player's own reward, with partners both in `winners()`, so they work for
2-6 players and for teams.

Options (spec `mcts:key=value,...`, values arrive as strings):

- `iterations=N`   rollouts (uct: iterations) per decision, an upper bound for the paired
                   search's early stop (default `DEFAULT_ITERATIONS` = 28: about 50 ms of
                   CPU per Ninjato 4p decision with heuristic rollouts; a game may set its
                   own, see per-game defaults below).
- `time=SECONDS`   wall-clock budget per decision instead; `iterations`, if also given, is
                   then an upper bound.  A time budget makes play NOT reproducible.
- `search=paired|uct`  see above (default paired).
- `confidence=Z`   paired: standard errors by which an action must beat the heuristic's move
                   (default 1; 0 = take the best mean).
- `c=X`            uct: UCB exploration constant (default 0.7; rewards lie in [0, 1]).
- `rollout=random|heuristic`  rollout policy (default: `game.heuristics["default"]` when
                   the game has one, else random).
- `rollout_depth=D` stop rollouts after D actions and score the position with normalized
                   `scores()` (default: play to the end).
- `determinizations=K`  sample K worlds once per decision and cycle through them (each
                   iteration gets a fresh chance stream); 0 (default) = a fresh world each.
- `prior=W`        uct: progressive bias W/(visits+1) at the root towards the default
                   heuristic's move, which is also expanded first (default 0 = off).
- `reward=win|score|mix|margin`  terminal reward: win share (1/k for a k-way shared win),
                   normalized score ((s - min) / (max - min)), their average (default), or
                   win share plus the squashed score lead over the best other seat.

Presets: `mcts:strong` = `iterations=150,rollout=heuristic,reward=mix` (options given
next to it override it).

Per-game defaults: a game may declare `Game(mcts_defaults=...)` (spec options as strings,
e.g. `{"iterations": "80", "confidence": "2"}` for Ivanhoe); they replace the defaults
above for that game, and a preset or explicit options override them (`time=` alone
drops a per-game `iterations`).  Why per game and not one budget in simulated work: a
rollout costs about as much in Ivanhoe and Tabula Rasa as in Ninjato (`simulate bench`), so
an equal-work budget would not give them more rollouts; what they need is more evidence
than Ninjato does before leaving a strong heuristic.

Strength (experiments/strength-ladder.toml: one default `mcts` seat, with each game's own
defaults, against the default heuristic in every other seat, seats rotating, seed 7): win
share with 95% interval vs the fair share 1/n -- Ninjato 4p 0.44 [0.36, 0.52] (150 games),
Big Cheese 4p 0.47 [0.40, 0.55] (150), Time Pirates 4p 0.69 [0.58, 0.78] (80), Tabula Rasa
3p 0.46 [0.38, 0.54] (150, vs 1/3), Ivanhoe 4p 0.32 [0.251, 0.40] (150; only just above
1/4).
With 28 rollouts and confidence 1, Tabula Rasa reached only 0.35 and Ivanhoe 0.20: there
the heuristic is close to the best reply to itself, and most departures found by a small
budget were noise.

With an iteration budget the bot is a pure function of (position as seen by its seat, rng).
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable
from dataclasses import dataclass

from engines.core import Bot, Game, State

__all__ = ["DEFAULT_ITERATIONS", "MCTSBot", "MCTSConfig", "benchmark_mcts", "make_mcts"]

#: Iterations per decision when neither `iterations` nor `time` is given.
DEFAULT_ITERATIONS = 28
#: The paired search stops once this many worlds gave every candidate the same reward.
EARLY_STOP_WORLDS = 6
#: Rollouts of games that can stall end here and are scored like a depth cut-off.
ROLLOUT_SAFETY_CAP = 20_000
#: A child key packs (action, player): players are < 8.
_PLAYER_BITS = 3

REWARDS = ("win", "score", "mix", "margin")
ROLLOUTS = ("random", "heuristic")
SEARCHES = ("paired", "uct")


@dataclass(frozen=True)
class MCTSConfig:
    """Validated options of one MCTS bot."""

    iterations: int | None = DEFAULT_ITERATIONS
    time: float | None = None
    c: float = 0.7
    rollout: str | None = None  # None: heuristic if the game has a default heuristic
    rollout_depth: int | None = None
    determinizations: int = 0
    reward: str = "mix"
    prior: float = 0.0
    search: str = "paired"
    confidence: float = 1.0


class _Node:
    """Statistics of one (player, action) edge and the subtree below it."""

    __slots__ = ("children", "visits", "total", "avail")

    def __init__(self) -> None:
        self.children: dict[int, _Node] = {}
        self.visits = 0
        self.total = 0.0
        self.avail = 1


def _mean(values: dict[int, float]) -> float:
    return sum(values.values()) / len(values) if values else -math.inf


def _normalized_scores(state: State) -> list[float]:
    scores = state.scores()
    lo = min(scores)
    span = max(scores) - lo
    if span <= 0:
        return [0.5] * len(scores)
    return [(s - lo) / span for s in scores]


def _win_shares(state: State) -> list[float]:
    winners = state.winners()
    out = [0.0] * state.num_players
    if winners:
        share = 1.0 / len(winners)
        for seat in winners:
            out[seat] = share
    return out


def _mixed(state: State) -> list[float]:
    return [0.5 * (w + s) for w, s in zip(_win_shares(state), _normalized_scores(state))]


def _margins(state: State) -> list[float]:
    """Win share plus the score lead over the best other seat, squashed into (-0.5, 0.5)."""
    scores = state.scores()
    wins = _win_shares(state)
    out = []
    for seat, own in enumerate(scores):
        best = max(x for i, x in enumerate(scores) if i != seat)
        lead = (own - best) / (abs(own) + abs(best) + 1.0)
        out.append(0.5 * (wins[seat] + 0.5 + 0.5 * lead))
    return out


_REWARD_FUNCS: dict[str, Callable[[State], list[float]]] = {
    "win": _win_shares,
    "score": _normalized_scores,
    "mix": _mixed,
    "margin": _margins,
}


class MCTSBot:
    """ISMCTS over the acting seat's information set (see the module docstring).

    After each `choose`, `last_iterations` and `last_seconds` describe that decision and
    `total_iterations` / `total_seconds` / `decisions` accumulate (for benchmarks).
    """

    def __init__(self, game: Game, config: MCTSConfig | None = None) -> None:
        self.game = game
        self.config = config or MCTSConfig()
        self.name = "mcts"
        self._reward = _REWARD_FUNCS[self.config.reward]
        self._rollout_bot: Bot | None = None
        self._prior_bot: Bot | None = None
        has_heuristic = "default" in game.heuristics
        rollout = self.config.rollout or ("heuristic" if has_heuristic else "random")
        if rollout == "heuristic":
            self._rollout_bot = game.heuristics["default"]()
        if has_heuristic and (self.config.prior > 0 or self.config.search == "paired"):
            self._prior_bot = self._rollout_bot or game.heuristics["default"]()
        self._last_stats: dict[int, tuple[int, float]] = {}
        #: The heuristic's move at the last paired decision (-1: none), for diagnosis.
        self.last_incumbent = -1
        self._prior_key = -1
        self.last_iterations = 0
        self.last_seconds = 0.0
        self.total_iterations = 0
        self.total_seconds = 0.0
        self.decisions = 0
        self.last_root = _Node()

    # --- public -------------------------------------------------------------------------
    @property
    def iterations_done(self) -> int:
        """Iterations over all decisions so far (what `simulate bench` reports per second)."""
        return self.total_iterations

    def choose(self, state: State, rng: random.Random) -> int:
        """Search from `state` for its current player and return the most visited action."""
        start = time.perf_counter()
        seat = state.current_player()
        local = random.Random(rng.getrandbits(64))
        # The first (and only) thing done with the real state: hide what `seat` cannot see.
        root_world = state.determinize(seat, local)
        legal = root_world.legal_actions()
        if len(legal) == 1:
            self.last_incumbent = -1
            self._account(0, start)
            return legal[0]
        cfg = self.config
        limit = cfg.iterations if cfg.iterations is not None else math.inf
        deadline = start + cfg.time if cfg.time is not None else math.inf
        if cfg.search == "paired":
            action, done = self._paired(root_world, legal, seat, local, limit, start, deadline)
            self._account(done, start)
            return action
        root = _Node()
        self._prior_key = -1
        if self._prior_bot is not None:
            hint = self._prior_bot.choose(root_world.clone(), local)
            self._prior_key = hint << _PLAYER_BITS | seat
        pool: list[State] = []
        if cfg.determinizations > 0:
            pool = [root_world.determinize(seat, local) for _ in range(cfg.determinizations)]
        done = 0
        while done < limit:
            if pool:
                world = pool[done % len(pool)].clone()
                world.rng = random.Random(local.getrandbits(64))
            else:
                world = root_world.determinize(seat, local)
            self._iterate(root, world, local)
            done += 1
            if deadline != math.inf and time.perf_counter() >= deadline:
                break
        self._account(done, start)
        self.last_root = root
        self._last_stats = {}
        for action in legal:
            child = root.children.get(action << _PLAYER_BITS | seat)
            if child is not None:
                self._last_stats[action] = (child.visits, child.total / child.visits)
        return self._best(root, legal, seat)

    def root_stats(self, seat: int, legal: list[int]) -> dict[int, tuple[int, float]]:
        """Visits and mean reward of each root action of the last search (for diagnosis)."""
        return {a: self._last_stats[a] for a in legal if a in self._last_stats}

    # --- paired flat search (the default) -----------------------------------------------
    def _paired(
        self,
        root_world: State,
        legal: list[int],
        seat: int,
        rng: random.Random,
        limit: float,
        start: float,
        deadline: float,
    ) -> tuple[int, int]:
        """Common-random-numbers comparison of the root actions; returns (action, rollouts).

        Every sampled world (a determinization plus one seed for its chance stream and one
        for the rollout policy) is played out after EACH candidate, so candidates are
        compared on identical luck.  With more than two actions, about half the budget
        screens them all and picks the best challenger; the rest confirms it against the
        heuristic's move on fresh worlds (the screening worlds favour the challenger by
        selection).  The challenger wins only by more than `confidence` standard errors.
        """
        cfg = self.config
        incumbent = -1
        if self._prior_bot is not None:
            incumbent = self._prior_bot.choose(root_world.clone(), rng)
        # results[action][world index] = the seat's reward after `action` in that world
        results: dict[int, dict[int, float]] = {a: {} for a in legal}
        survivors = list(legal)
        rounds = 2 if len(survivors) > 2 else 1  # screen all, then confirm the best
        pool = [root_world.determinize(seat, rng) for _ in range(cfg.determinizations)]
        worlds = 0
        first_fresh = 0
        done = 0
        plan = limit  # rollouts the schedule plans for (estimated under `time=`)
        rnd = 0
        stalled = False
        while done < limit and time.perf_counter() < deadline:
            if plan == math.inf:  # time budget: one world first, then estimate the rest
                per = 1
            elif rnd + 1 < rounds:  # screening: about half the budget
                per = max(1, int(plan / 2 // len(survivors)))
            else:
                per = max(1, math.ceil(max(plan - done, len(survivors)) / len(survivors)))
            for _ in range(per):
                if done >= limit or time.perf_counter() >= deadline:
                    break
                world = pool[worlds % len(pool)] if pool else root_world.determinize(seat, rng)
                chance_seed = rng.getrandbits(64)
                policy_seed = rng.getrandbits(64)
                order = survivors
                if limit - done < len(survivors):  # last, partial world: the best few
                    order = sorted(survivors, key=lambda a: (a != incumbent, -_mean(results[a])))
                    order = order[: int(limit - done)]
                for action in order:
                    trial = world.clone()
                    trial.rng = random.Random(chance_seed)
                    trial.apply_action(action)
                    reward = self._rollout(trial, random.Random(policy_seed))[seat]
                    results[action][worlds] = reward
                    done += 1
                worlds += 1
                stalled = worlds >= EARLY_STOP_WORLDS and self._all_equal(
                    results, survivors, worlds)
                if stalled:
                    break
            if stalled:
                break  # every candidate scored alike in every world: nothing to learn
            if plan == math.inf:
                spent = max(time.perf_counter() - start, 1e-9)
                plan = math.floor(done * (deadline - start) / spent)
            rnd += 1
            if rnd < rounds and len(survivors) > 2:
                first_fresh = worlds  # the confirming test must not reuse these worlds
                ranked = sorted(survivors, key=lambda a: -_mean(results[a]))
                kept = [a for a in ranked if a != incumbent][: 1 if incumbent >= 0 else 2]
                survivors = [a for a in legal if a in kept or a == incumbent]
        self._last_stats = {a: (len(v), _mean(v)) for a, v in results.items() if v}
        self.last_incumbent = incumbent
        fresh = {a: {w: x for w, x in v.items() if w >= first_fresh} for a, v in results.items()}
        return self._paired_choice(survivors, fresh, incumbent), done

    @staticmethod
    def _all_equal(results: dict[int, dict[int, float]], survivors: list[int], worlds: int) -> bool:
        """Did every survivor get the same reward as the others in each of the worlds?"""
        for w in range(worlds):
            values = {results[a][w] for a in survivors if w in results[a]}
            if len(values) > 1:
                return False
        return True

    def _paired_choice(
        self, survivors: list[int], results: dict[int, dict[int, float]], incumbent: int
    ) -> int:
        """The incumbent unless a survivor beats it clearly on the worlds both were tried in
        (only the confirming worlds are passed in)."""
        tried = [a for a in survivors if results[a]]
        if incumbent < 0 or not results[incumbent]:
            return max(tried, key=lambda a: _mean(results[a])) if tried else survivors[0]
        base = results[incumbent]
        best, best_gain = incumbent, 0.0
        z = self.config.confidence
        for action in tried:
            if action == incumbent:
                continue
            diffs = [x - base[w] for w, x in results[action].items() if w in base]
            n = len(diffs)
            if not n:
                continue
            gain = sum(diffs) / n
            if gain <= best_gain + 1e-12:
                continue
            if z > 0:
                if n < 2:
                    continue
                var = sum((d - gain) ** 2 for d in diffs) / (n - 1)
                if gain <= z * math.sqrt(var / n):
                    continue
            best, best_gain = action, gain
        return best

    # --- search -------------------------------------------------------------------------
    def _iterate(self, root: _Node, world: State, rng: random.Random) -> None:
        c = self.config.c
        prior_key = self._prior_key
        prior = self.config.prior
        log = math.log
        sqrt = math.sqrt
        node = root
        path: list[tuple[_Node, int]] = []
        while not world.is_terminal():
            player = world.current_player()
            legal = world.legal_actions()
            children = node.children
            untried: list[int] | None = None
            best_child: _Node | None = None
            best_action = -1
            best_value = -math.inf
            for action in legal:
                key = action << _PLAYER_BITS | player
                child = children.get(key)
                if child is None:
                    if untried is None:
                        untried = [action]
                    else:
                        untried.append(action)
                    continue
                child.avail += 1
                if untried is None:
                    visits = child.visits
                    value = child.total / visits + c * sqrt(log(child.avail) / visits)
                    if key == prior_key and node is root:  # progressive bias to the heuristic
                        value += prior / (visits + 1)
                    if value > best_value:
                        best_value = value
                        best_child = child
                        best_action = action
            if untried is not None:
                if node is root and prior_key >= 0 and prior_key not in children:
                    action = prior_key >> _PLAYER_BITS  # the heuristic's move is tried first
                else:
                    action = untried[int(rng.random() * len(untried))]
                child = _Node()
                children[action << _PLAYER_BITS | player] = child
                world.apply_action(action)
                path.append((child, player))
                break
            world.apply_action(best_action)
            path.append((best_child, player))  # type: ignore[arg-type]
            node = best_child  # type: ignore[assignment]
        rewards = self._rollout(world, rng)
        for child, player in path:
            child.visits += 1
            child.total += rewards[player]

    def _rollout(self, world: State, rng: random.Random) -> list[float]:
        depth = self.config.rollout_depth
        cap = ROLLOUT_SAFETY_CAP if depth is None else depth
        bot = self._rollout_bot
        is_terminal = world.is_terminal
        legal_actions = world.legal_actions
        apply_action = world.apply_action
        steps = 0
        if bot is None:
            rand = rng.random
            while not is_terminal():
                if steps >= cap:
                    return _normalized_scores(world)
                legal = legal_actions()
                apply_action(legal[int(rand() * len(legal))])
                steps += 1
        else:
            choose = bot.choose
            while not is_terminal():
                if steps >= cap:
                    return _normalized_scores(world)
                apply_action(choose(world, rng))
                steps += 1
        return self._reward(world)

    @staticmethod
    def _best(root: _Node, legal: list[int], seat: int) -> int:
        """Most visited root action (ties: higher mean reward, then first legal)."""
        best = legal[0]
        best_key = (-1, -math.inf)
        for action in legal:
            child = root.children.get(action << _PLAYER_BITS | seat)
            if child is None:
                continue
            key = (child.visits, child.total / child.visits if child.visits else 0.0)
            if key > best_key:
                best_key = key
                best = action
        return best

    def _account(self, iterations: int, start: float) -> None:
        elapsed = time.perf_counter() - start
        self.last_iterations = iterations
        self.last_seconds = elapsed
        self.total_iterations += iterations
        self.total_seconds += elapsed
        self.decisions += 1


# --------------------------------------------------------------------------------------------
# Spec parsing
# --------------------------------------------------------------------------------------------


def _parse_int(key: str, raw: str, minimum: int) -> int:
    from engines.bots import BotSpecError

    try:
        value = int(raw)
    except ValueError:
        raise BotSpecError(f"mcts option {key}= expects an integer, got {raw!r}") from None
    if value < minimum:
        raise BotSpecError(f"mcts option {key}= must be >= {minimum}, got {value}")
    return value


def _parse_float(key: str, raw: str, positive: bool) -> float:
    from engines.bots import BotSpecError

    try:
        value = float(raw)
    except ValueError:
        raise BotSpecError(f"mcts option {key}= expects a number, got {raw!r}") from None
    if not math.isfinite(value) or value < 0 or (positive and value == 0):
        bound = "> 0" if positive else ">= 0"
        raise BotSpecError(f"mcts option {key}= must be a finite number {bound}, got {raw!r}")
    return value


def _parse_choice(key: str, raw: str, choices: tuple[str, ...]) -> str:
    from engines.bots import BotSpecError

    if raw not in choices:
        raise BotSpecError(f"mcts option {key}= must be one of {'|'.join(choices)}, got {raw!r}")
    return raw


OPTIONS = (
    "iterations", "time", "c", "rollout", "rollout_depth", "determinizations", "reward", "prior",
    "search", "confidence",
)


def parse_options(game: Game, options: dict[str, str]) -> MCTSConfig:
    """Turn the spec's string options into an `MCTSConfig`; bad ones raise `BotSpecError`."""
    from engines.bots import BotSpecError

    unknown = sorted(set(options) - set(OPTIONS))
    if unknown:
        raise BotSpecError(
            f"unknown mcts option {unknown[0]!r}; known options: {', '.join(OPTIONS)}"
        )
    values: dict[str, object] = {}
    if "time" in options:
        values["time"] = _parse_float("time", options["time"], positive=True)
        values["iterations"] = None
    if "iterations" in options:
        values["iterations"] = _parse_int("iterations", options["iterations"], 1)
    if "c" in options:
        values["c"] = _parse_float("c", options["c"], positive=False)
    if "rollout" in options:
        values["rollout"] = _parse_choice("rollout", options["rollout"], ROLLOUTS)
        if values["rollout"] == "heuristic" and "default" not in game.heuristics:
            raise BotSpecError(f"rollout=heuristic: {game.name} has no default heuristic bot")
    if "rollout_depth" in options:
        values["rollout_depth"] = _parse_int("rollout_depth", options["rollout_depth"], 1)
    if "determinizations" in options:
        values["determinizations"] = _parse_int(
            "determinizations", options["determinizations"], 0
        )
    if "reward" in options:
        values["reward"] = _parse_choice("reward", options["reward"], REWARDS)
    if "prior" in options:
        values["prior"] = _parse_float("prior", options["prior"], positive=False)
        if values["prior"] and "default" not in game.heuristics:
            raise BotSpecError(f"prior=: {game.name} has no default heuristic bot")
    if "search" in options:
        values["search"] = _parse_choice("search", options["search"], SEARCHES)
    if "confidence" in options:
        values["confidence"] = _parse_float("confidence", options["confidence"], positive=False)
    return MCTSConfig(**values)  # type: ignore[arg-type]


#: Named option sets (`mcts:strong`); explicit options override them.  `strong` is the
#: default paired search with 150 rollouts instead of 28 (roughly 5x the time per decision).
PRESETS: dict[str, dict[str, str]] = {
    "strong": {"iterations": "150", "rollout": "heuristic", "reward": "mix"},
}


def make_mcts(game: Game, variant: str | None, options: dict[str, str]) -> MCTSBot:
    """Factory behind the spec `mcts[:options]` (see the module docstring for the options):
    the game's `mcts_defaults`, then the preset, then the explicit options."""
    from engines.bots import BotSpecError

    if variant is not None and variant not in PRESETS:
        raise BotSpecError(
            f"unknown mcts preset {variant!r} (known: {', '.join(PRESETS)}); "
            f"options are key=value: {', '.join(OPTIONS)}"
        )
    chosen = {**PRESETS.get(variant or "", {}), **options}
    base = dict(game.mcts_defaults)
    if "time" in chosen and "iterations" not in chosen:
        base.pop("iterations", None)  # a time budget alone is not capped by a default count
    merged = {**base, **chosen}
    return MCTSBot(game, parse_options(game, merged))


# --------------------------------------------------------------------------------------------
# Benchmark
# --------------------------------------------------------------------------------------------


def benchmark_mcts(
    game: Game,
    num_players: int | None = None,
    seconds: float = 5.0,
    options: dict[str, str] | None = None,
    seed: int = 0,
) -> dict[str, float]:
    """Play games with MCTS in every seat for about `seconds` and measure the search speed.

    Returns `iterations_per_second`, `ms_per_decision`, `iterations_per_decision`,
    `decisions`, `iterations`, `games` (finished games) and `seconds` (time spent searching;
    the budget is checked between decisions, so a long decision can overshoot it).
    """
    num_players = num_players or game.players_default
    game.check_players(num_players)
    bots = [make_mcts(game, None, dict(options or {})) for _ in range(num_players)]
    start = time.perf_counter()
    games = 0
    rng = random.Random(seed)
    while time.perf_counter() - start < seconds:
        state = game.new_state(num_players, seed + games)
        cap = game.max_decisions
        steps = 0
        while not state.is_terminal() and time.perf_counter() - start < seconds:
            if cap is not None and steps >= cap:
                break
            state.apply_action(bots[state.current_player()].choose(state, rng))
            steps += 1
        if state.is_terminal() or (cap is not None and steps >= cap):
            games += 1
    iterations = sum(b.total_iterations for b in bots)
    decisions = sum(b.decisions for b in bots)
    searched = sum(b.total_seconds for b in bots)
    return {
        "iterations_per_second": iterations / searched if searched else 0.0,
        "ms_per_decision": 1000.0 * searched / decisions if decisions else 0.0,
        "iterations_per_decision": iterations / decisions if decisions else 0.0,
        "decisions": float(decisions),
        "iterations": float(iterations),
        "games": float(games),
        "seconds": searched,
    }
