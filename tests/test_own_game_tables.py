"""Tables of a frame stacked from several games list each context's own kinds and sources.

Runs of different games carry different `k_`/`a_`/`pts_` columns; stacked, every row has
every game's columns, NaN in the other games' rows.  A table per context lists only the
columns its game recorded.
"""

from __future__ import annotations

import pandas as pd

from analysis.stats import balance, robustness


def stacked_frame() -> pd.DataFrame:
    """Two toy games, two seats, four games each: `alpha` knows kind `dig` and source
    `gold`, `beta` kind `fly` and source `wings`; built by concat as `results.runs.load` does."""
    frames = []
    for game, kind, source in (("alpha", "dig", "gold"), ("beta", "fly", "wings")):
        rows = []
        for game_index in range(4):
            for seat in range(2):
                won = (game_index + seat) % 2 == 0
                rows.append({"run_id": game, "game": game, "rules": "", "players": 2,
                             "game_index": game_index, "seed": game_index, "seat": seat,
                             "bot": "heuristic", "score": 3.0 if won else 1.0,
                             "win_share": 1.0 if won else 0.0, "truncated": False,
                             f"k_{kind}": game_index % 2, f"a_{kind}": 1.0,
                             f"pts_{source}": 3.0 if won else 1.0, "pts_common": 0.0})
        frames.append(pd.DataFrame(rows))
    return pd.concat(frames, ignore_index=True)


def test_coverage_lists_only_the_kinds_of_each_context_s_own_game():
    table = balance.coverage(stacked_frame())
    kinds = table.groupby("game")["kind"].apply(set).to_dict()
    assert kinds == {"alpha": {"dig"}, "beta": {"fly"}}
    assert (table["used_share"] == 0.5).all()


def test_scoring_tables_list_only_each_game_s_own_sources():
    frame = stacked_frame()
    mean = balance.scoring_balance(frame, "seat")
    assert mean.groupby("game")["source"].apply(set).to_dict() == {
        "alpha": {"common", "gold"}, "beta": {"common", "wings"}}
    separation = balance.source_separation(frame)
    assert separation.groupby("game")["source"].apply(set).to_dict() == {
        "alpha": {"common", "gold", "score"}, "beta": {"common", "wings", "score"}}
    shares = robustness.source_shares(frame)
    assert shares.groupby("game")["source"].apply(set).to_dict() == {
        "alpha": {"common", "gold"}, "beta": {"common", "wings"}}
    assert shares.set_index(["game", "source"])["share"].loc[("alpha", "gold")] == 1.0
