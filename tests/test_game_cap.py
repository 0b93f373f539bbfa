"""`max_decisions` is the game's safety cap, not a rule of the game."""

from __future__ import annotations

import pytest

from analysis.cli import main
from engines import GAMES, get_game, play_game
from engines.bots import make_bot


@pytest.mark.parametrize("name", sorted(GAMES))
def test_max_decisions_is_no_rule_option(name):
    """Asking for it as a rule says where it went, instead of 'unknown option'."""
    game = get_game(name)
    assert "max_decisions" not in {f for f in game.Rules.__dataclass_fields__}
    with pytest.raises(ValueError, match=r"no longer a rule option.*Game.max_decisions"):
        game.make_rules(max_decisions="10")


def test_rule_max_decisions_on_the_command_line_is_a_clear_error(capsys):
    code = main(["ivanhoe", "--games", "2", "--jobs", "1", "--rule", "max_decisions=10"])
    err = capsys.readouterr().err
    assert code == 2
    assert err.startswith("error: ") and "Game.max_decisions" in err
    assert "Traceback" not in err


@pytest.mark.parametrize("name", sorted(GAMES))
def test_every_game_has_a_cap_or_a_length_its_games_keep(name):
    """A game that can stall needs `max_decisions`; one without a cap declares the most
    decisions a game takes (`max_game_length`, which the RL adapters rely on), and random
    games at every player count keep to it."""
    game = get_game(name)
    if game.max_decisions is not None:
        assert game.max_decisions > 0
        return
    assert game.max_game_length > 0, f"{name}: set Game.max_decisions or max_game_length"
    for players in range(game.min_players, game.max_players + 1):
        bots = [make_bot("random", game)] * players
        for seed in range(3):
            assert play_game(game, bots, seed).decisions <= game.max_game_length


def test_play_game_stops_at_the_games_cap_or_the_callers():
    game = get_game("ivanhoe")
    bots = [make_bot("random", game)] * 3
    full = play_game(game, bots, 0)
    assert not full.truncated and full.decisions > 10
    cut = play_game(game, bots, 0, max_decisions=10)
    assert cut.truncated and cut.decisions == 10 and cut.winners == []
    capped = game.__class__(**{**game.__dict__, "max_decisions": 10})
    assert play_game(capped, bots, 0).decisions == 10
