"""`search=uct`: single-observer ISMCTS (Cowling et al. 2012) for the `mcts` bot.

One tree over the acting seat's information set: every iteration samples a world with
`determinize`, descends by UCB over the actions legal in that world (availability counts),
expands one edge, plays a rollout and backs up every player's own reward.  Needs hundreds
of iterations; at the default budget the paired search (`search.py`) plays better.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable

from engines.core import Bot, State
from engines.kit import world_rng

#: A child key packs (action, player): players are < 8.
PLAYER_BITS = 3


class Node:
    """Statistics of one (player, action) edge and the subtree below it."""

    __slots__ = ("children", "visits", "total", "avail")

    def __init__(self) -> None:
        self.children: dict[int, Node] = {}
        self.visits = 0
        self.total = 0.0
        self.avail = 1


def uct_search(
    root_world: State,
    legal: list[int],
    seat: int,
    rng: random.Random,
    limit: float,
    deadline: float,
    rollout: Callable[[State, random.Random], list[float]],
    c: float,
    determinizations: int,
    prior_bot: Bot | None,
    prior: float,
) -> tuple[int, int, Node]:
    """Search from `root_world` (already determinized for `seat`); returns (the most
    visited action, iterations done, the root)."""
    root = Node()
    prior_key = -1
    if prior_bot is not None:
        hint = prior_bot.choose(root_world.clone(), rng)
        prior_key = hint << PLAYER_BITS | seat
    pool: list[State] = []
    if determinizations > 0:
        pool = [root_world.determinize(seat, rng) for _ in range(determinizations)]
    done = 0
    while done < limit:
        if pool:
            world = pool[done % len(pool)].clone_with_rng(world_rng(rng))
        else:
            world = root_world.determinize(seat, rng)
        _iterate(root, world, rng, rollout, c, prior_key, prior)
        done += 1
        if deadline != math.inf and time.perf_counter() >= deadline:
            break
    return _best(root, legal, seat), done, root


def root_stats(root: Node, legal: list[int], seat: int) -> dict[int, tuple[int, float]]:
    """Visits and mean reward of each root action that was tried."""
    stats = {}
    for action in legal:
        child = root.children.get(action << PLAYER_BITS | seat)
        if child is not None:
            stats[action] = (child.visits, child.total / child.visits)
    return stats


def _iterate(
    root: Node,
    world: State,
    rng: random.Random,
    rollout: Callable[[State, random.Random], list[float]],
    c: float,
    prior_key: int,
    prior: float,
) -> None:
    log = math.log
    sqrt = math.sqrt
    node = root
    path: list[tuple[Node, int]] = []
    while not world.is_terminal():
        player = world.current_player()
        legal = world.legal_actions()
        children = node.children
        untried: list[int] | None = None
        best_child: Node | None = None
        best_action = -1
        best_value = -math.inf
        for action in legal:
            key = action << PLAYER_BITS | player
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
                action = prior_key >> PLAYER_BITS  # the heuristic's move is tried first
            else:
                action = untried[int(rng.random() * len(untried))]
            child = Node()
            children[action << PLAYER_BITS | player] = child
            world.apply_action(action)
            path.append((child, player))
            break
        world.apply_action(best_action)
        path.append((best_child, player))  # type: ignore[arg-type]
        node = best_child  # type: ignore[assignment]
    rewards = rollout(world, rng)
    for child, player in path:
        child.visits += 1
        child.total += rewards[player]


def _best(root: Node, legal: list[int], seat: int) -> int:
    """Most visited root action (ties: higher mean reward, then first legal)."""
    best = legal[0]
    best_key = (-1, -math.inf)
    for action in legal:
        child = root.children.get(action << PLAYER_BITS | seat)
        if child is None:
            continue
        key = (child.visits, child.total / child.visits if child.visits else 0.0)
        if key > best_key:
            best_key = key
            best = action
    return best
