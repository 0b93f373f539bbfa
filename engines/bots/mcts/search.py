"""The `mcts` bot and its default search, `search=paired`: a policy-improvement step on top of
the game's default heuristic.

Why: our games have hidden cards and chance, so every search samples worlds with
`determinize(seat, rng)` (the bot never reads what its seat cannot see) and plays them out.
At the default budget (a few dozen rollouts) a tree cannot grow, and
random rollouts misjudge these games.  So the heuristic's move is the incumbent.  Each
sampled world (a determinization, one seed for its chance stream, one for the rollout
policy) is played out after EVERY surviving root action with heuristic rollouts (common
random numbers: the actions are compared on identical luck, a paired comparison).  With
more than two actions, screening halves the challengers every `SCREEN_WORLDS` worlds until
one is left; the rest of the budget confirms it against the incumbent on fresh worlds.  The
challenger replaces the incumbent only if its mean paired gain exceeds `confidence`
standard errors, so a tiny noisy budget does not make play worse than the heuristic.  The
budget is an upper bound: most decisions are clear (no challenger beats the heuristic's
move while screening, or it soon trails in the confirming test) and stop early, so the
rollouts go to the close ones.  Without a default heuristic it is plain flat Monte Carlo
with common random numbers.

`search=uct` runs the tree search of `ismcts.py` instead.  With an iteration budget the bot
is a pure function of (position as seen by its seat, rng).
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable

from engines.bots.mcts.ismcts import Node, root_stats, uct_search
from engines.bots.mcts.options import MCTSConfig
from engines.bots.mcts.rewards import REWARD_FUNCS, normalized_scores
from engines.core import Bot, Game, State

#: The paired search stops once this many worlds gave every candidate the same reward.
EARLY_STOP_WORLDS = 6
#: Screening halves the challengers every this many worlds.
SCREEN_WORLDS = 2
#: The confirming test stops once the challenger trails the heuristic's move by this many
#: standard errors of the paired gain, on at least `MIN_CONFIRM_WORLDS` worlds.
FUTILITY_Z = 1.0
MIN_CONFIRM_WORLDS = 4
#: Rollouts of games that can stall end here and are scored like a depth cut-off.
ROLLOUT_SAFETY_CAP = 20_000


def _mean(values: dict[int, float]) -> float:
    return sum(values.values()) / len(values) if values else -math.inf


def _alike(results: dict[int, dict[int, float]], survivors: list[int], world: int) -> bool:
    """Did every survivor tried in `world` get the same reward there?"""
    values = {results[a][world] for a in survivors if world in results[a]}
    return len(values) <= 1


class _Gains:
    """The confirming test's paired gains (challenger minus heuristic's move), summarized as
    they come: their count, left-to-right sum and sum of squared deviations (Welford)."""

    def __init__(self) -> None:
        self.n = 0
        self.total = 0.0
        self.mean = 0.0
        self.m2 = 0.0

    def add(self, diff: float) -> None:
        self.n += 1
        self.total += diff
        delta = diff - self.mean
        self.mean += delta / self.n
        self.m2 += delta * (diff - self.mean)

    def futile(self) -> bool:
        """Does the challenger trail by `FUTILITY_Z` standard errors (on at least
        `MIN_CONFIRM_WORLDS` worlds)?"""
        n = self.n
        if n < MIN_CONFIRM_WORLDS:
            return False
        gain = self.total / n
        if gain > 0:
            return False
        var = max(self.m2, 0.0) / (n - 1)
        return gain < -FUTILITY_Z * math.sqrt(var / n) or var == 0.0


class MCTSBot:
    """Information-set search for the acting seat (see the module docstring).

    After each `choose`, `last_iterations` and `last_seconds` describe that decision and
    `total_iterations` / `total_seconds` / `decisions` accumulate (for benchmarks).
    """

    def __init__(self, game: Game, config: MCTSConfig | None = None) -> None:
        self.game = game
        self.config = config or MCTSConfig()
        self.name = "mcts"
        self._reward = REWARD_FUNCS[self.config.reward]
        #: What a rollout cut at `rollout_depth` is worth: the game's evaluation, if any.
        self._cutoff: Callable[[State], list[float]] = normalized_scores
        if self.config.evaluation == "game" and game.mcts_evaluation is not None:
            self._cutoff = game.mcts_evaluation
        self._rollout_bot: Bot | None = None
        self._prior_bot: Bot | None = None
        has_heuristic = "default" in game.heuristics
        rollout = self.config.rollout or ("heuristic" if has_heuristic else "random")
        if rollout == "heuristic":
            self._rollout_bot = game.heuristics["default"]()
        elif rollout.startswith("heuristic:"):
            from engines.bots import make_bot

            self._rollout_bot = make_bot(rollout, game)
        if has_heuristic and (self.config.prior > 0 or self.config.search == "paired"):
            self._prior_bot = self._rollout_bot or game.heuristics["default"]()
        #: A rollout policy that never draws from its rng (`uses_rng = False`) gets one spare
        #: stream instead of a freshly seeded one per rollout: seeding a Mersenne Twister
        #: costs about as much as a short rollout, and unused it changes nothing.
        self._spare_rng: random.Random | None = None
        if self._rollout_bot is not None and not getattr(self._rollout_bot, "uses_rng", True):
            self._spare_rng = random.Random(0)
        self._last_stats: dict[int, tuple[int, float]] = {}
        #: The heuristic's move at the last paired decision (-1: none), for diagnosis.
        self.last_incumbent = -1
        self.last_iterations = 0
        self.last_seconds = 0.0
        self.total_iterations = 0
        self.total_seconds = 0.0
        self.decisions = 0
        self.last_root = Node()

    # --- public -------------------------------------------------------------------------
    @property
    def iterations_done(self) -> int:
        """Iterations over all decisions so far (what `simulate bench` reports per second)."""
        return self.total_iterations

    def choose(self, state: State, rng: random.Random) -> int:
        """Search from `state` for its current player and return the chosen action."""
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
        action, done, root = uct_search(
            root_world, legal, seat, local, limit, deadline, self.rollout, cfg.c,
            cfg.determinizations, self._prior_bot, cfg.prior)
        self._account(done, start)
        self.last_root = root
        self._last_stats = root_stats(root, legal, seat)
        return action

    def root_stats(self, seat: int, legal: list[int]) -> dict[int, tuple[int, float]]:
        """Visits and mean reward of each root action of the last search (for diagnosis)."""
        return {a: self._last_stats[a] for a in legal if a in self._last_stats}

    def rollout(self, world: State, rng: random.Random) -> list[float]:
        """Play `world` out with the rollout policy; every seat's reward."""
        if self.config.rollout_rounds:
            return self._rollout_rounds(world, rng)
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
                    return self._cutoff(world)
                legal = legal_actions()
                apply_action(legal[int(rand() * len(legal))])
                steps += 1
        else:
            choose = bot.choose
            while not is_terminal():
                if steps >= cap:
                    return self._cutoff(world)
                apply_action(choose(world, rng))
                steps += 1
        return self._reward(world)

    def _rollout_rounds(self, world: State, rng: random.Random) -> list[float]:
        """`rollout`, also stopping once `rollout_rounds` rounds have ended (`round_label`)."""
        depth = self.config.rollout_depth
        cap = ROLLOUT_SAFETY_CAP if depth is None else depth
        rounds = self.config.rollout_rounds
        bot = self._rollout_bot
        label = world.round_label
        current = label()
        steps = 0
        while not world.is_terminal():
            if steps >= cap:
                return self._cutoff(world)
            if bot is None:
                legal = world.legal_actions()
                world.apply_action(legal[int(rng.random() * len(legal))])
            else:
                world.apply_action(bot.choose(world, rng))
            steps += 1
            now = label()
            if now != current:
                rounds -= 1
                if rounds <= 0 and not world.is_terminal():
                    return self._cutoff(world)
                current = now
        return self._reward(world)

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
        for the rollout policy) is played out after EACH surviving candidate, so candidates
        are compared on identical luck.  Screening (more than two actions) halves the
        challengers every `SCREEN_WORLDS` worlds, keeping the heuristic's move, until one
        challenger is left; if it did no better than the heuristic's move there, the search
        stops.  Otherwise the rest of the budget confirms it against the heuristic's move on
        fresh worlds (the screening worlds favour it by selection), stopping once it trails
        by `FUTILITY_Z` standard errors; it replaces the heuristic's move only if its mean
        paired gain exceeds `confidence` standard errors.  So the budget is an upper bound,
        spent where the decision is close.  Any phase stops when `EARLY_STOP_WORLDS` worlds
        gave every candidate the same reward.
        """
        cfg = self.config
        incumbent = -1
        if self._prior_bot is not None:
            # a clone sharing the root world's chance stream, which no rollout draws from
            # (each candidate gets its own): no copy of the generator's 625 words
            shared = root_world.rng  # type: ignore[attr-defined]
            incumbent = self._prior_bot.choose(root_world.clone_with_rng(shared), rng)
        # results[action][world index] = the seat's reward after `action` in that world
        results: dict[int, dict[int, float]] = {a: {} for a in legal}
        survivors = list(legal)
        pool = [root_world.determinize(seat, rng) for _ in range(cfg.determinizations)]
        worlds = 0
        first_fresh = 0
        done = 0
        keep = 2 if incumbent < 0 else 1  # challengers that go on to the confirming test
        screening = len(survivors) > 2
        # Running summaries, so each world costs the same whatever the count so far: whether
        # every survivor scored alike in every world of the phase, and the confirming
        # test's paired gains.
        alike = True
        gains = _Gains()
        while done < limit and time.perf_counter() < deadline:
            confirming = not screening and incumbent >= 0 and len(survivors) == 2
            world = pool[worlds % len(pool)] if pool else root_world.determinize(seat, rng)
            chance_seed = rng.getrandbits(64)  # one chance stream per world, for every candidate
            policy_seed = rng.getrandbits(64)
            order = survivors
            if limit - done < len(survivors):  # last, partial world: the best few
                order = sorted(survivors, key=lambda a: (a != incumbent, -_mean(results[a])))
                order = order[: int(limit - done)]
            for action in order:
                trial = world.clone_with_rng(random.Random(chance_seed))
                trial.apply_action(action)
                policy = self._spare_rng or random.Random(policy_seed)
                results[action][worlds] = self.rollout(trial, policy)[seat]
                done += 1
            alike = alike and _alike(results, survivors, worlds)
            worlds += 1
            if worlds - first_fresh >= EARLY_STOP_WORLDS and alike:
                break  # every candidate scored alike in every world: nothing to learn
            if confirming:
                challenger = survivors[0] if survivors[0] != incumbent else survivors[1]
                if worlds - 1 in results[challenger] and worlds - 1 in results[incumbent]:
                    gains.add(results[challenger][worlds - 1] - results[incumbent][worlds - 1])
                if gains.futile():
                    break
            elif screening and (worlds - first_fresh) % SCREEN_WORLDS == 0:
                challengers = sorted((a for a in survivors if a != incumbent),
                                     key=lambda a: -_mean(results[a]))
                challengers = challengers[: max(keep, (len(challengers) + 1) // 2)]
                survivors = [a for a in legal if a in challengers or a == incumbent]
                if len(challengers) > keep:
                    # fewer survivors may agree where more did not: recheck the phase once
                    alike = all(_alike(results, survivors, w) for w in range(first_fresh, worlds))
                    continue
                screening = False
                first_fresh = worlds  # the confirming test must not reuse these worlds
                alike = True
                if incumbent >= 0 and _mean(results[challengers[0]]) <= _mean(results[incumbent]):
                    survivors = [incumbent]  # no challenger did better on the screening worlds
                    break
        self._last_stats = {a: (len(v), _mean(v)) for a, v in results.items() if v}
        self.last_incumbent = incumbent
        fresh = {a: {w: x for w, x in v.items() if w >= first_fresh} for a, v in results.items()}
        return self._paired_choice(survivors, fresh, incumbent), done

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

    def _account(self, iterations: int, start: float) -> None:
        elapsed = time.perf_counter() - start
        self.last_iterations = iterations
        self.last_seconds = elapsed
        self.total_iterations += iterations
        self.total_seconds += elapsed
        self.decisions += 1
