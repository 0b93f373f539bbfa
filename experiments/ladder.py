"""Strength ladder: heuristic vs random, then MCTS vs the best heuristic, for every game.

Each rung puts one copy of the stronger bot in a seat that rotates with the game number
(seat g % n in game g) and fills the other seats with the weaker bot.  The stronger bot's
win share (1/k for a k-way shared win) is reported with a 95% Wilson interval next to the
fair share 1/n; a rung "holds" when the interval lies above the fair share.

    .venv/bin/python experiments/ladder.py --games 40 --mcts-games 20
    .venv/bin/python experiments/ladder.py --only ninjato --players 2 3 4 --mcts mcts:iterations=400

The best heuristic is the style with the highest share against random on the first rung.
Not a unit test: it takes minutes and its figures are for the report.
"""

from __future__ import annotations

import argparse
import sys
import time
from dataclasses import dataclass
from multiprocessing import Pool

from analysis.stats import wilson_interval
from engines import GAMES, get_game, play_game
from engines.bots import make_bot


@dataclass
class Rung:
    game: str
    players: int
    strong: str
    weak: str
    games: int = 0
    share: float = 0.0
    truncated: int = 0
    seconds: float = 0.0

    def row(self) -> str:
        fair = 1 / self.players
        counted = self.games - self.truncated
        if counted == 0:
            return f"| {self.game} | {self.players} | {self.strong} vs {self.weak} | 0 | - | - |"
        lo, hi = wilson_interval(self.share, counted)
        mean = self.share / counted
        verdict = "holds" if lo > fair else ("fails" if hi < fair else "unclear")
        return (
            f"| {self.game} | {self.players} | {self.strong} vs {self.weak} | {counted} "
            f"| {mean:.3f} [{float(lo):.3f}, {float(hi):.3f}] | {fair:.3f} | {verdict} "
            f"| {self.truncated} | {self.seconds / max(self.games, 1):.2f} |"
        )


def _play(task: tuple[str, int, str, str, int]) -> tuple[float, bool]:
    """One game: `strong` in seat g % n, `weak` elsewhere; returns (strong's share, truncated)."""
    name, n, strong, weak, g = task
    game = get_game(name)
    seat = g % n
    bots = [make_bot(weak, game) for _ in range(n)]
    bots[seat] = make_bot(strong, game)
    record = play_game(game, bots, 10_000 + g, n)
    if record.truncated or not record.winners:
        return 0.0, True
    return (1 / len(record.winners) if seat in record.winners else 0.0), False


def run_rung(pool: Pool | None, rung: Rung, games: int) -> Rung:
    tasks = [(rung.game, rung.players, rung.strong, rung.weak, g) for g in range(games)]
    start = time.perf_counter()
    results = pool.map(_play, tasks) if pool else list(map(_play, tasks))
    rung.seconds = time.perf_counter() - start
    rung.games = games
    rung.share = sum(share for share, _ in results)
    rung.truncated = sum(1 for _, t in results if t)
    return rung


def _print(rung: Rung) -> None:
    print(rung.row(), flush=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=40, help="games per heuristic rung")
    parser.add_argument("--mcts-games", type=int, default=20, help="games per MCTS rung")
    parser.add_argument("--mcts", nargs="+", default=["mcts"],
                        help="MCTS spec(s) for the top rung (one rung each)")
    parser.add_argument("--only", nargs="*", help="games to run (default: every registered)")
    parser.add_argument("--players", nargs="*", type=int, help="player counts (default: the "
                        "game's default; counts outside its range are skipped)")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes")
    parser.add_argument("--skip-heuristic", action="store_true",
                        help="skip rung 1 and use the default heuristic for rung 2")
    args = parser.parse_args(argv)

    names = args.only or sorted(GAMES)
    print("| game | n | rung | games | win share [95% CI] | fair | verdict | truncated "
          "| s/game |")
    print("|---|---|---|---|---|---|---|---|---|")
    pool = Pool(args.jobs) if args.jobs > 1 else None
    try:
        for name in names:
            game = get_game(name)
            counts = args.players or [game.players_default]
            for n in counts:
                if not game.min_players <= n <= game.max_players:
                    continue
                styles = ["heuristic" if k == "default" else f"heuristic:{k}"
                          for k in game.heuristics]
                best, best_share = "heuristic", -1.0
                if not args.skip_heuristic:
                    for style in styles:
                        rung = run_rung(pool, Rung(name, n, style, "random"), args.games)
                        _print(rung)
                        share = rung.share / max(rung.games - rung.truncated, 1)
                        if share > best_share:
                            best, best_share = style, share
                for spec in args.mcts:
                    _print(run_rung(pool, Rung(name, n, spec, best), args.mcts_games))
    finally:
        if pool:
            pool.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
