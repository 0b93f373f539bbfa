"""Report charts and tables that stay readable for many runs: one chart per game, shared
scales where bars are compared, partnership games drawn by team, lengths in decisions."""

from __future__ import annotations

import numpy as np
import pandas as pd

from analysis.present import plots, whatif


def seat_frame(game: str, players: int, games: int = 8, winners=lambda g: (g % 2,)):
    """`games` games of `game` at `players`: the seats `winners(g)` share game g's win."""
    rows = []
    for g in range(games):
        won = winners(g)
        for seat in range(players):
            rows.append({"run_id": f"{game}-{players}", "game": game, "rules": "",
                         "players": players, "game_index": g, "seed": g, "seat": seat,
                         "bot": "heuristic", "score": 1.0 if seat in won else 0.0,
                         "win_share": 1 / len(won) if seat in won else 0.0,
                         "truncated": False})
    return pd.DataFrame(rows)


def test_per_game_gives_one_part_per_game_and_splits_a_game_with_many_contexts():
    frame = pd.concat([seat_frame("ivanhoe", n) for n in range(2, 6)]
                      + [seat_frame("ninjato", n) for n in range(2, 5)], ignore_index=True)
    parts = plots.per_game(frame)
    assert [label for label, _ in parts] == ["ivanhoe", "ninjato"]
    assert sorted(parts[0][1]["players"].unique()) == [2, 3, 4, 5]
    assert sum(len(part) for _, part in parts) == len(frame)
    halves = plots.per_game(frame[frame["game"] == "ivanhoe"], panels=3)
    assert [label for label, _ in halves] == ["ivanhoe (1 of 2)", "ivanhoe (2 of 2)"]
    assert [sorted(p["players"].unique()) for _, p in halves] == [[2, 3, 4], [5]]


def test_partnership_seat_chart_draws_teams_against_a_fair_half():
    # Tabula Rasa at four players: seats 1+3 against 2+4; partners share each win
    frame = seat_frame("tabula-rasa", 4, winners=lambda g: (0, 2) if g % 4 else (1, 3))
    fig = plots.seat_advantage(frame)
    ax = fig.axes[0]
    assert [t.get_text() for t in ax.get_xticklabels()] == ["1+3", "2+4"]
    heights = [bar.get_height() for bar in ax.patches]
    assert heights == [0.75, 0.25]  # a team's win is one win, not two halves
    (fair,) = [line for line in ax.get_lines() if line.get_linestyle() == "--"]
    assert fair.get_ydata()[0] == 0.5
    plots.plt.close(fig)


def test_seat_panels_of_one_game_share_their_scale_and_number_seats_from_1():
    frame = pd.concat([seat_frame("ivanhoe", 2), seat_frame("ivanhoe", 5,
                                                            winners=lambda g: (4,))],
                      ignore_index=True)
    fig = plots.seat_advantage(frame)
    two, five = fig.axes[:2]
    assert two.get_ylim() == five.get_ylim()
    assert [t.get_text() for t in five.get_xticklabels()] == ["1", "2", "3", "4", "5"]
    plots.plt.close(fig)


def effects_table() -> pd.DataFrame:
    rows = []
    for setting in ("4", "16"):
        for statistic, effect, low, high, ref in (
                ("first_edge", 0.02, -0.01, 0.05, 0.03), ("share:gold", 0.10, 0.05, 0.15, 0.4),
                ("length", -97.7, -112.8, -82.6, 235.1)):
            rows.append({"key": "chips", "reference_value": "10", "setting": setting,
                         "statistic": statistic, "reference": ref, "estimate": ref + effect,
                         "effect": effect, "ci_low": low, "ci_high": high, "se": 1.0,
                         "se_independent": 1.3, "p": 0.001, "p_adjusted": 0.01,
                         "significant": True})
    return pd.DataFrame(rows)


def test_sweep_table_gives_game_length_in_decisions_never_percent():
    shown = whatif.effects_shown(effects_table())
    length = shown[shown["statistic"] == "length"].iloc[0]
    assert length["unit"] == "decisions" and length["change"] == "-97.7"
    assert length["95% interval"] == "[-112.8, -82.6]" and length["reference"] == "235.1"
    assert not any("%" in str(v) for v in length.to_numpy())
    edge = shown[shown["statistic"] == "first_edge"].iloc[0]
    assert edge["unit"] == "points" and edge["change"] == "+2.0" and edge["reference"] == "3.0%"


def test_effect_panels_in_points_share_one_scale_and_length_keeps_its_own():
    fig = plots.effect_sizes(effects_table())
    titles = [ax.get_title() for ax in fig.axes if ax.get_visible()]
    assert titles == ["first_edge (points)", "share:gold (points)", "length (decisions)"]
    edge, gold, length = fig.axes[:3]
    assert edge.get_xlim() == gold.get_xlim()
    assert edge.get_xlim()[1] >= 15  # the widest share interval, in points
    assert length.get_xlim()[0] <= -112.8
    plots.plt.close(fig)


def test_a_chart_stays_within_the_tallest_and_widest_bounds():
    frame = pd.concat([seat_frame("ivanhoe", n) for n in range(2, 6)] * 1, ignore_index=True)
    for n in range(40):  # forty kinds, all used in every game
        frame[f"k_kind_{n}"] = 1
        frame[f"a_kind_{n}"] = 1.0
    fig = plots.systems_used(frame)
    width, height = fig.get_size_inches()
    assert height <= plots.MAX_HEIGHT and width <= plots.MAX_WIDTH
    assert np.isclose(fig.axes[0].get_xlim(), (0, 1)).all()
    plots.plt.close(fig)
