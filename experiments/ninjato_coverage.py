"""How often a Ninjato bot uses each system the heuristic's targets name, per seat-game.

    python experiments/ninjato_coverage.py --bots heuristic --games 1000 --seed 1

`--bots` is a line-up (the last bot fills the seats; every seat of that bot is counted).
Printed per bot: the share of its seat-games in which it gave up a winnable fight (give up
chosen while a winning play was legal), took a Disguise tile, paid a card for a skill, and
played each skill effect (Choho, Taijutsu, switch, refresh, Boryaku), and its Sensei visits
per seat-game — with 95% intervals (normal; the share of seat-games is a mean of 0/1).
"""

from __future__ import annotations

import argparse
import math
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # this checkout's engines

from engines import get_game, play_game  # noqa: E402
from engines.bots import make_bot, split_specs  # noqa: E402
from engines.ninjato.actions import ACTION_KINDS  # noqa: E402

#: label -> the action kinds that count for it
SYSTEMS = {
    "gives up a winnable fight": ("give up",),
    "Disguise tile": ("sensei disguise",),
    "pays a card for a skill": ("skill payment card",),
    "Choho swap": ("choho swap",),
    "Taijutsu +1/-1": ("taijutsu +1 or -1",),
    "switch force/stealth": ("switch force and stealth",),
    "refresh a skill": ("refresh a skill",),
    "Boryaku": ("boryaku",),
}
SENSEI = ("sensei skill", "sensei disguise")


class Counting:
    """Plays like `inner`, counting the kinds it chooses in the current game."""

    def __init__(self, inner) -> None:
        self.inner = inner
        self.name = inner.name
        self.counts: dict[str, int] = {}

    def choose(self, state, rng: random.Random) -> int:
        legal = state.legal_actions()
        action = self.inner.choose(state, rng)
        kind = ACTION_KINDS[state.action_kind(action)]
        if kind == "give up" and len(legal) == 1:
            kind = "forced give up"  # no play could win: not a choice
        self.counts[kind] = self.counts.get(kind, 0) + 1
        return action


def coverage(bots: list[str], games: int, seed: int, players: int = 4) -> dict[str, dict]:
    """Per bot spec: seat-games, per-system counts of seat-games using it, Sensei visits."""
    game = get_game("ninjato")
    lineup = (bots + [bots[-1]] * players)[:players]
    out: dict[str, dict] = {}
    for i in range(games):
        seats = lineup[i % players:] + lineup[:i % players]  # rotate the line-up
        counting = [Counting(make_bot(spec, game)) for spec in seats]
        play_game(game, counting, seed * 1_000_003 + i, players, {})
        for spec, bot in zip(seats, counting):
            row = out.setdefault(spec, {"seat_games": 0, "sensei": [],
                                        **{k: 0 for k in SYSTEMS}})
            row["seat_games"] += 1
            row["sensei"].append(sum(bot.counts.get(k, 0) for k in SENSEI))
            for label, kinds in SYSTEMS.items():
                row[label] += any(bot.counts.get(k, 0) for k in kinds)
    return out


def lines(table: dict[str, dict]) -> list[str]:
    text = []
    for spec, row in table.items():
        n = row["seat_games"]
        text.append(f"{spec} ({n:,} seat-games)")
        for label in SYSTEMS:
            p = row[label] / n
            half = 1.96 * math.sqrt(p * (1 - p) / n)
            text.append(f"  {label:28s} {p:6.1%}  [{max(0, p - half):.1%}, {p + half:.1%}]")
        visits = row["sensei"]
        mean = sum(visits) / n
        sd = math.sqrt(sum((v - mean) ** 2 for v in visits) / max(1, n - 1))
        half = 1.96 * sd / math.sqrt(n)
        text.append(f"  {'Sensei visits per seat-game':28s} {mean:6.2f}  "
                    f"[{mean - half:.2f}, {mean + half:.2f}]")
    return text


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bots", default="heuristic")
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--players", type=int, default=4)
    args = parser.parse_args()
    print("\n".join(lines(coverage(split_specs(args.bots), args.games, args.seed,
                                   args.players))))


if __name__ == "__main__":
    main()
