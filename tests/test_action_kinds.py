"""Action kinds recorded per seat per game: play_game counts and runner columns.

Nim with the take-max bot on a pile of 10 (two players) is a game whose every decision is
known: seat 0 takes 3, seat 1 takes 3, seat 0 takes 3, seat 1 takes the last 1.
"""

from __future__ import annotations

import pytest

import engines.core as core
from analysis.results import store
from analysis.run import tournament
from engines import GAMES
from engines.bots import make_bot
from engines.core import play_game
from tests.toy_games import NIM, SHOWDOWN


def _nim_record(**kwargs):
    bots = [make_bot("heuristic", NIM) for _ in range(2)]
    return play_game(NIM, bots, seed=1, num_players=2, **kwargs)


def test_play_game_counts_the_kind_of_every_chosen_action():
    record = _nim_record()
    # kinds: take one, take two, take three or more
    assert record.kinds_chosen == [[0, 0, 2], [1, 0, 1]]


def test_availability_counts_the_decisions_at_which_each_kind_was_legal():
    assert _nim_record().kinds_available is None  # measured only when asked
    # seat 0 at piles 10 and 4, seat 1 at piles 7 and 1 (only "take one")
    assert _nim_record(availability=True).kinds_available == [[2, 2, 2], [2, 1, 1]]


def test_kinds_can_be_switched_off_and_a_game_without_kinds_records_none():
    assert _nim_record(kinds=False).kinds_chosen is None
    import dataclasses

    plain = dataclasses.replace(NIM, action_kinds=())
    bots = [make_bot("heuristic", plain) for _ in range(2)]
    assert play_game(plain, bots, 1, 2).kinds_chosen is None


def test_kind_columns_are_identifiers_and_read_back_as_words():
    names = store.kind_columns(("sensei skill", "buy deed: 6 points", "Ki +1", "ki  +1"))
    assert names == ["sensei_skill", "buy_deed_6_points", "ki_1", "ki_1_"]
    assert all(n.isidentifier() for n in names)
    assert store.kind_label("k_sensei_skill") == "sensei skill"
    assert store.kind_label("a_buy_deed_6_points") == "buy deed 6 points"


@pytest.fixture
def toy_games_registered(monkeypatch):
    monkeypatch.setitem(GAMES, NIM.name, NIM)
    monkeypatch.setitem(GAMES, SHOWDOWN.name, SHOWDOWN)


def test_runner_writes_k_and_a_columns_per_seat(toy_games_registered, tmp_path):
    spec = tournament.RunSpec(game=NIM.name, players=2, games=6, bots=("heuristic", "random"),
                              seed=3, chunk_size=4)
    frame = tournament.run(spec, tmp_path / "nim", jobs=1).frame
    kinds = ["k_take_one", "k_take_two", "k_take_three_or_more"]
    available = ["a_take_one", "a_take_two", "a_take_three_or_more"]
    assert {c for c in frame.columns if c.startswith(("k_", "a_"))} == {*kinds, *available}
    assert (frame[kinds].dtypes == "int32").all()
    # every decision is counted once, by the seat that made it
    per_game = frame.groupby("game_index")[kinds].sum().sum(axis=1)
    decisions = frame.groupby("game_index")["decisions"].first()
    assert per_game.tolist() == decisions.tolist()
    # the take-max bot only ever takes three stones or, at the end, what is left
    heuristic = frame[frame["bot"] == "heuristic"]
    assert heuristic["k_take_three_or_more"].sum() >= heuristic["k_take_two"].sum()
    # availability is measured in game 0 (and every AVAILABILITY_EVERY-th game): NaN elsewhere
    measured = frame[available].notna().all(axis=1)
    assert frame.loc[measured, "game_index"].unique().tolist() == [0]
    assert frame[available].isna().any(axis=1).eq(~measured).all()
    first = frame[(frame["game_index"] == 0) & (frame["seat"] == 0)]
    assert (first[available] >= 1).all().all()  # pile 10: every kind legal for seat 0


def test_showdown_kinds_follow_the_bot(toy_games_registered, tmp_path):
    spec = tournament.RunSpec(game=SHOWDOWN.name, players=3, games=9,
                              bots=("heuristic", "heuristic", "heuristic"), seed=1)
    frame = tournament.run(spec, tmp_path / "sd", jobs=1).frame
    seat0 = frame[frame["seat"] == 0]
    assert seat0["k_call"].tolist() == [1] * 9 and seat0["k_fold"].sum() == 0
    game0 = seat0[seat0["game_index"] == 0]
    assert game0["a_fold"].tolist() == [1] and game0["a_call"].tolist() == [1]
    assert seat0.loc[seat0["game_index"] > 0, "a_fold"].isna().all()
    others = frame[(frame["seat"] != 0) & (frame["game_index"] == 0)]
    assert (others[["k_fold", "k_call", "a_fold", "a_call"]] == 0).all().all()


def test_a_kind_missing_from_some_parts_loads_as_zero(tmp_path):
    """Parts written before a game gained a kind (or by another version) lack its columns."""
    run = tmp_path / "run"
    run.mkdir()
    store.write_manifest(run, {"game": "g", "run_id": "r", "games": 2, "chunk_size": 1})
    meta = {"run_id": "r", "game": "g", "rules": "", "dataset": "d"}
    with_kinds = core.GameRecord(scores=[1.0, 0.0], winners=[0], ranks=[1, 2], breakdown={},
                                 decisions=2, truncated=False, kinds_chosen=[[1, 0], [0, 1]],
                                 kinds_available=[[1, 1], [0, 1]])
    without = core.GameRecord(scores=[0.0, 1.0], winners=[1], ranks=[2, 1], breakdown={},
                              decisions=2, truncated=False)
    for number, (record, kinds) in enumerate([(with_kinds, ("bid", "pass")), (without, ())]):
        columns = store.chunk_columns([record], number, [number], [("x", "y")], meta, kinds)
        store.write_part(run, number, store.columns_to_table(columns))
    frame = store.load_run(run)
    assert frame["k_bid"].tolist() == [1, 0, 0, 0]
    assert frame["a_pass"].tolist()[:2] == [1, 1] and frame["a_pass"].iloc[2:].isna().all()
    assert str(frame["k_bid"].dtype) == "int32"
