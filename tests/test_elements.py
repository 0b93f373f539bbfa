"""`simulate elements`: restricted play, correlations and removal, on a toy game whose
elements' worths are known (`tests.toy_games.CARDS`: the Ace always wins when played, the
Blank never changes the outcome, the Joker never comes up) and on the games' declarations."""

from __future__ import annotations

import random

import numpy as np
import pandas as pd
import pytest

import engines
from analysis.cli import main
from analysis.run import elements as run_elements
from analysis.stats import elements as stats
from engines import GAMES, play_game
from engines.bots import BotSpecError, make_bot
from engines.elements import element_id
from tests.toy_games import ACE, BLANK, CARDS, DRAW


@pytest.fixture
def cards(monkeypatch):
    monkeypatch.setitem(engines.GAMES, CARDS.name, CARDS)
    return CARDS


def _spec(**kw):
    return run_elements.ElementsSpec(**{"game": CARDS.name, "players": 2, "games": 300,
                                        "seed": 1, "elements": ("blank", "ace", "joker", "draw"),
                                        **kw})


# --------------------------------------------------------------------------------------------
# The declarations
# --------------------------------------------------------------------------------------------


def test_the_five_games_declare_their_elements():
    groups = {name: {e.group for e in GAMES[name].elements} for name in (
        "tabula-rasa", "big-cheese", "ivanhoe", "time-pirates", "ninjato")}
    assert groups["ivanhoe"] == {"action card"} and len(GAMES["ivanhoe"].elements) == 17
    assert groups["ninjato"] == {"skill"} and len(GAMES["ninjato"].elements) == 10
    assert all(groups.values())


@pytest.mark.parametrize("name", sorted(n for n in GAMES if GAMES[n].elements))
def test_every_declared_element_names_real_kinds_and_actions(name):
    game = GAMES[name]
    ids = [e.id for e in game.elements]
    assert len(set(ids)) == len(ids)
    for element in game.elements:
        assert element.actions and max(element.actions) < game.num_actions
        assert set(element.played) <= set(game.action_kinds), element.name
        assert element.removal or element.note, f"{element.name}: say why it cannot be removed"


@pytest.mark.parametrize("name, element", [(n, e) for n in sorted(GAMES)
                                           for e in GAMES[n].elements if e.removal])
def test_each_removal_is_a_playable_rule_set_without_the_element(name, element):
    game = GAMES[name]
    rules = game.checked_rules(**element.removal)
    for seed in range(3):
        bots = [make_bot("heuristic", game) for _ in range(game.players_default)]
        record = play_game(game, bots, seed, game.players_default, rules)
        assert not record.truncated
        played = [game.action_kinds.index(k) for k in element.played]
        assert all(seat[k] == 0 for seat in record.kinds_chosen for k in played)


def test_element_ids_are_one_bot_spec_word():
    assert element_id("Change Weapon") == "change-weapon"
    assert element_id("Seishin-teki kyoyo") == "seishin-teki-kyoyo"
    assert element_id("draw level (block)") == "draw-level-block"


# --------------------------------------------------------------------------------------------
# The restricted bot
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize("name, ident", [("ivanhoe", "riposte"), ("ninjato", "boryaku")])
def test_a_restricted_seat_never_takes_a_forbidden_action_while_it_has_another(name, ident):
    game = GAMES[name]
    bot = make_bot(f"heuristic:forbid={ident}", game)
    element = bot.element
    others = make_bot("heuristic", game)
    bitten = 0
    for seed in range(4):
        state = game.new_state(game.players_default, seed)
        rng = random.Random(seed)
        forbidden_left = 0
        while not state.is_terminal():
            legal = state.legal_actions()
            if state.current_player() == 0:
                action = bot.choose(state, rng)
                allowed = [a for a in legal if not element.forbids(state, a)]
                assert action in (allowed or legal)
                assert state.legal_actions() is legal  # the real legal list is restored
                forbidden_left += 0 < len(allowed) < len(legal)
            else:
                action = others.choose(state, rng)
            state.apply_action(action)
        counts = bot.take_counts()
        assert counts["forbid_offered"] == forbidden_left >= counts["forbid_bit"]
        bitten += counts["forbid_bit"]
    assert bitten > 0
    assert set(bot.take_counts().values()) == {0}


def test_a_restriction_that_never_bites_plays_the_same_game(cards):
    plain = [make_bot("heuristic", cards) for _ in range(2)]
    for seed in range(20):
        joker = [make_bot("heuristic:forbid=joker", cards), make_bot("heuristic", cards)]
        a = play_game(cards, joker, seed, 2, record=True)
        b = play_game(cards, plain, seed, 2, record=True)
        assert a.actions == b.actions and a.winners == b.winners


def test_a_sole_forbidden_option_is_played_and_counted():
    from engines.bots.restricted import RestrictedBot
    from engines.elements import Element

    state = CARDS.new_state(2, 0)
    state.blank = [False, False]
    state.ace = [False, False]
    draw_only = RestrictedBot(make_bot("heuristic", CARDS),
                              Element("Draw", "action", frozenset({DRAW})))
    assert draw_only.choose(state, random.Random(0)) == DRAW
    assert draw_only.take_counts()["forbid_sole"] == 1


def test_a_bot_that_ignores_the_list_gets_the_one_allowed_action_or_a_counted_guess():
    from engines.bots.restricted import RestrictedBot
    from engines.elements import Element

    class AlwaysAce:
        name = "ace"

        def choose(self, state, rng):
            return ACE

    state = CARDS.new_state(2, 0)
    state.ace, state.blank = [True, True], [True, True]
    one_left = RestrictedBot(AlwaysAce(), Element("Ace and Blank", "card",
                                                  frozenset({ACE, BLANK})))
    assert one_left.choose(state, random.Random(0)) == DRAW
    assert one_left.take_counts()["forbid_guess"] == 0
    two_left = RestrictedBot(AlwaysAce(), Element("Ace", "card", frozenset({ACE})))
    assert two_left.choose(state, random.Random(0)) in (DRAW, BLANK)
    assert two_left.take_counts()["forbid_guess"] == 1


def test_forbid_names_an_element_of_the_game():
    with pytest.raises(BotSpecError, match="ivanhoe has no element 'excalibur'"):
        make_bot("heuristic:forbid=excalibur", GAMES["ivanhoe"])
    assert make_bot("heuristic:v1,forbid=Unhorse", GAMES["ivanhoe"]).element.id == "unhorse"


# --------------------------------------------------------------------------------------------
# The statistics
# --------------------------------------------------------------------------------------------


def test_clustered_difference_is_the_two_sample_interval_when_every_value_is_its_own_cluster():
    rng = np.random.default_rng(1)
    values = rng.random(400)
    group = rng.random(400) < 0.3
    diff, low, high, _ = stats.clustered_difference(values, group, np.arange(400))
    a, b = values[group], values[~group]
    se = np.sqrt(a.var() / len(a) + b.var() / len(b))
    assert diff == pytest.approx(a.mean() - b.mean())
    assert (high - low) / 2 == pytest.approx(1.96 * se, rel=0.01)


#: The worths that count as none at 4 players with the default tolerance (x1.1 of fair).
BAND = stats.worth_band(0.25)


def test_the_tolerance_band_keeps_the_restricted_seat_within_the_relative_tolerance():
    low, high = stats.worth_band(0.25, 1.1)
    assert low == pytest.approx(0.25 - 0.275) and high == pytest.approx(0.25 - 0.25 / 1.1)


def _row(worth, low, high, p, bit=0.5, tie=np.nan, offered=0.6):
    return {"worth": worth, "worth_low": low, "worth_high": high, "worth_p_adjusted": p,
            "bit_share": bit, "offered_share": offered, "tie_p_adjusted": tie}


@pytest.mark.parametrize("row, expected", [
    (_row(0.0, -0.02, 0.02, 1.0), "no measurable worth: inconsequential"),
    (_row(0.01, -0.03, 0.05, 0.6), "cannot tell"),  # reaches beyond the band
    (_row(0.02, 0.01, 0.022, 0.001), "small real worth, inside the tolerance"),
    (_row(0.0, -0.02, 0.0235, 1.0), "cannot tell"),  # above fair x 1.1 - fair: outside
    (_row(0.08, 0.05, 0.11, 0.001), "real worth"),
    (_row(-0.06, -0.09, -0.03, 0.001), "costs the bot"),
    (_row(0.0, 0.0, 0.0, 1.0, bit=0.0), "never chosen by the bot"),
    (_row(0.0, 0.0, 0.0, 1.0, bit=0.0, offered=0.0), "never came up"),
])
def test_each_verdict_follows_the_interval_and_the_adjusted_p(row, expected):
    assert stats.category(row, False, False, BAND) == expected


def test_an_element_not_told_from_the_strongest_is_tied_with_it():
    row = _row(0.04, 0.0, 0.08, 0.2, tie=0.3)
    assert stats.category(row, False, True, BAND) == "tied with the strongest"
    assert stats.category(row, False, False, BAND) == "cannot tell"  # no strongest: no tie


# --------------------------------------------------------------------------------------------
# The study, end to end on the toy game
# --------------------------------------------------------------------------------------------


def test_the_dominant_card_is_strongest_and_the_useless_one_inconsequential(cards, tmp_path):
    result = run_elements.run_elements(_spec(), tmp_path / "el", jobs=1)
    table, family = result.table()
    verdict = dict(zip(table["id"], table["verdict"]))
    assert verdict == {"ace": "strongest", "blank": "no measurable worth: inconsequential",
                       "joker": "never came up", "draw": "never chosen by the bot"}
    assert list(table["id"])[:2] == ["ace", "blank"]  # by worth; the untested ones last
    rows = table.set_index("id")
    assert rows.at["blank", "worth_low"] == rows.at["blank", "worth_high"] == 0.0
    assert rows.at["blank", "bit_share"] > 0.3  # it bit: the seat held a Blank
    assert rows.at["ace", "worth_low"] > 0.05
    # restricted seats always hold their rotation: every deal once per seat
    assert rows.at["ace", "games"] == 2 * rows.at["ace", "deals"] == 300
    # removal: without the Ace the winning score falls (an Ace win scores 100 more); a game
    # without Blanks plays exactly as before
    assert rows.at["ace", "removal_high"] < 0 and rows.at["blank", "removal_diff"] == 0
    assert rows.at["joker", "removal_note"] == "the deck has no Joker"
    assert family.size == int(table[["worth_p", "tie_p", "played_p", "held_p", "removal_p"]]
                              .notna().sum().sum())


def test_the_designer_lines_name_the_strongest_and_label_correlation(cards, tmp_path):
    from analysis.stats.verdicts import element_family_members, element_lines

    result = run_elements.run_elements(_spec(), tmp_path / "el", jobs=1)
    table, family = result.table()
    lines = element_lines(table, "heuristic", 0.5, family.note(element_family_members(table)))
    assert lines[0].startswith("Ace is the strongest element for heuristic")
    assert any(line.startswith("no measurable worth, inconsequential (interval within [-5.00, "
                               "+4.55] points: the restricted seat within ×1.1 of the fair 50.0% "
                               "(45.5–55.0%)): Blank") for line in lines)
    assert any(line.startswith("never came up") and "Joker" in line for line in lines)
    assert any(line.startswith("never chosen by heuristic") and "Draw" in line
               for line in lines)
    assert any(line.startswith("correlation, not cause") for line in lines)
    assert not any(line.startswith("seldom chosen") for line in lines)  # both bit often
    seldom = table.assign(bit_share=table["bit_share"].where(table["id"] != "blank", 0.05))
    assert any(line.startswith("seldom chosen by heuristic") and "Blank (5%)" in line
               for line in element_lines(seldom, "heuristic", 0.5, ""))
    assert lines[-1].startswith("p-values adjusted with Holm over the")


def test_ordinary_runs_have_no_bot_count_columns(cards, tmp_path):
    result = run_elements.run_elements(_spec(elements=("ace",), games=20), tmp_path / "el",
                                       jobs=1)
    assert not [c for c in result.baseline.columns if c.startswith("b_")]
    restricted = result.restricted["ace"]
    lone = restricted[restricted["bot"] == "heuristic:forbid=ace"]
    assert (lone["b_forbid_bit"] > 0).any()
    assert (restricted[restricted["bot"] == "heuristic"]["b_forbid_bit"] == 0).all()
    assert (lone["k_play_ace"] == 0).all()  # the restricted seat never played its Ace


# --------------------------------------------------------------------------------------------
# The command
# --------------------------------------------------------------------------------------------


def test_elements_cli_ranks_resumes_and_writes_a_report(cards, tmp_path, capsys):
    out, report = tmp_path / "el", tmp_path / "elements.html"
    argv = ["elements", CARDS.name, "--players", "2", "--games", "200", "--seed", "4",
            "--jobs", "1", "--out", str(out), "-q", "--report", str(report)]
    assert main(argv) == 0
    text = capsys.readouterr().out
    assert "Ace is the strongest element for heuristic" in text
    assert "no measurable worth, inconsequential" in text and "Blank" in text
    assert "correlation, not cause" in text
    assert "Elements: too strong or useless?" in report.read_text()
    first = run_elements.load_elements(out).table()[0]
    # an interrupted study: a part of one comparison and of the baseline lost
    next((out / "ace" / "perm-01").glob("part-*.parquet")).unlink()
    next((out / "baseline").glob("part-*.parquet")).unlink()
    assert main(argv) == 0
    assert "Ace is the strongest element" in capsys.readouterr().out
    pd.testing.assert_frame_equal(run_elements.load_elements(out).table()[0], first)
    other = [a if a != "4" else "5" for a in argv]
    assert main(other) == 2
    assert "holds a different elements study" in capsys.readouterr().err


def test_an_experiment_file_plays_an_elements_study_in_the_reports_one_family(cards, tmp_path,
                                                                            capsys):
    spec_file = tmp_path / "elements.toml"
    spec_file.write_text('name = "cards"\nseed = 2\n[[elements]]\ngame = "toy-cards"\n'
                         'players = 2\ngames = 200\nelements = ["ace", "blank"]\n')
    argv = ["run", str(spec_file), "--out", str(tmp_path / "out"), "--jobs", "1", "-q",
            "--no-confirm"]
    assert main(["run", str(spec_file), "--out", str(tmp_path / "out"), "--dry-run"]) == 0
    assert "elements of toy-cards forbidden to one heuristic seat: ace, blank" in \
        capsys.readouterr().out
    assert main(argv) == 0
    page = (tmp_path / "out" / "cards" / "report.html").read_text()
    assert "Elements: too strong or useless?" in page
    assert "Ace is the strongest element for heuristic" in page
    assert "adjusted with Holm over the report&#x27;s" in page
    assert (tmp_path / "out" / "cards" / "elements-toy-cards-2p" / "elements.json").is_file()


def test_simulate_list_shows_each_games_elements(capsys):
    assert main(["list"]) == 0
    text = capsys.readouterr().out
    assert "elements (`simulate elements ivanhoe`): Unhorse, Change Weapon" in text
    assert "Kenjutsu" in text


def test_time_pirates_heuristic_plays_on_without_its_atomic_jumps():
    """Its jump planner assumed an atomic action legal whenever it held an atomic artifact."""
    game = GAMES["time-pirates"]
    for seed in range(6):
        bots = [make_bot("heuristic:forbid=atomic-jump", game)] + [
            make_bot("heuristic", game) for _ in range(game.players_default - 1)]
        assert not play_game(game, bots, seed, game.players_default).truncated
