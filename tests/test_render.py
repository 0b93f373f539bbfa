"""Every game renders what one seat sees, and never more.

The no-peek test mirrors `test_bots_do_not_peek_at_hidden_information`: two worlds that
`seat` cannot tell apart (determinizations for `seat`) must render identically for `seat`,
and identically to the real position.  The named positions check that the view carries
the right numbers, in the game's own words.
"""

from __future__ import annotations

import random

import pytest

from engines import GAMES, get_game
from engines.declarations import declarations
from tests.playouts import random_midgame

CASES = [(name, n) for name, game in sorted(GAMES.items())
         for n in range(game.min_players, game.max_players + 1)]
IDS = [f"{name}-{n}p" for name, n in CASES]


@pytest.mark.parametrize("name,n", CASES, ids=IDS)
def test_render_for_a_seat_never_shows_what_it_cannot_see(name, n):
    game = get_game(name)
    for seed in range(4):
        for fraction in (0.2, 0.6, 0.97):
            state = random_midgame(game, n, seed, fraction)
            for seat in range(n):
                mine = state.render(seat)
                world_a = state.determinize(seat, random.Random(100 + seed))
                world_b = state.determinize(seat, random.Random(200 + seed))
                assert world_a.render(seat) == mine
                assert world_b.render(seat) == mine


@pytest.mark.parametrize("name,n", CASES, ids=IDS)
def test_full_render_shows_hidden_information(name, n):
    """render(None) is the transcript view: it differs between worlds a seat cannot tell apart."""
    game = get_game(name)
    differs = 0
    for seed in range(4):
        state = random_midgame(game, n, seed, 0.3)
        world = state.determinize(0, random.Random(seed))
        differs += world.render() != state.render()
        assert state.round_label()
    # A game whose hidden information is never on show mid-game (a deck's order) declares
    # it (`full_view_shows_hidden = false` in its game file, which says why).
    assert bool(differs) == declarations(name).tests.full_view_shows_hidden, (
        "the full view never shows a hidden card" if not differs else
        "the full view shows hidden information: drop full_view_shows_hidden = false")


def _lines_with(text: str, *words: str) -> list[str]:
    return [line for line in text.splitlines() if all(w in line for w in words)]


def _row(text: str, start: str) -> list[str]:
    return next(line for line in text.splitlines() if line.startswith(start)).split()


def test_render_shows_a_tabula_rasa_position():
    state = get_game("tabula-rasa").new_state(3, seed=1)
    state.tally = [0] * 30
    state.tally[0 * 10 + 4] = 3   # seat 1: three cards at number 5
    state.tally[1 * 10 + 4] = 1   # seat 2: one card there -> treasure
    state.tally[2 * 10 + 5] = 2   # seat 3: two cards at the first colour
    state._result = None
    state.hands[0] = [0, 24]
    text = state.render(0)
    row = _row(text, "seat 1 ")
    assert row[2:12] == [".", ".", ".", ".", "3", ".", ".", ".", ".", "."]
    assert row[-1] == "5"  # number 5 territory
    assert _row(text, "seat 2 ")[-1] == "1"  # its treasure
    assert _row(text, "seat 3 ")[-1] == "5"  # the red territory
    assert "hand seat 1: red 1, yellow 5" in text
    assert "hand seat 2: 8 cards" in text


def test_render_shows_a_big_cheese_position():
    state = get_game("big-cheese").new_state(3, seed=2)
    state.points = [40, 7, 0]
    state.pool = [5, 9, 12]
    state.proj_cards[1] = [20]
    state.proj_due[1] = [state.awards + 3]
    state.vetoes[2] = 1
    text = state.render(1)
    assert "seat 1: 40 points · 5 chips free · projects: none" in text
    assert "seat 2 (you): 7 points · 9 chips free · projects: 20 (3 chips)" in text
    assert _lines_with(text, "seat 3:", "Veto x1")
    assert f"up for auction: {state.render().split('up for auction: ')[1].split(' ')[0]}" in text


def test_render_shows_an_ivanhoe_position():
    from engines.ivanhoe.components import COLOUR_NAMES, NAMES, RED

    state = get_game("ivanhoe").new_state(3, seed=3)
    state.colour = RED
    red3, red4 = NAMES.index("red 3"), NAMES.index("red 4")
    squire2 = NAMES.index("squire 2")
    state.displays[1] = [red3, red4, squire2]
    state.vsum[1] = 9
    state.tokens[2] = 0b00011  # purple and red
    text = state.render(0)
    assert "seat 2: display red 3, red 4, squire 2 = 9" in text
    assert _lines_with(text, "seat 3 tokens: purple, red")
    assert f"colour {COLOUR_NAMES[RED]}" in text
    assert f"seat 2 tokens: none · hand: {len(state.hands[1])} cards" in text


def test_render_shows_a_time_pirates_position():
    from engines.time_pirates import components as C

    state = get_game("time-pirates").new_state(3, seed=4)
    state.hands[2] = [0] * C.NUM_KINDS
    state.hands[2][C.WHITE_KIND] = 2
    state.year_scores = [[3, 0, 11]]
    state.year = 1
    text = state.render(2)
    assert "seat 3 (you): 11 points" in text
    assert "hand: white x2" in text
    assert "year 2 of" in text
    assert "scored: year 1: 3/0/11" in text


def test_render_shows_a_ninjato_position():
    state = get_game("ninjato").new_state(4, seed=5)
    state.honour = [0, 14, 3, 0]
    state.hands[1] = [2, 0, 1, 0, 1]  # 1 1 3 5
    state.treasures[1] = [0, 2, 0, 0, 1]
    state.row = [2, 4, 4]
    sentry = state.house_sentry[2]
    text = state.render(1)
    assert "seat 2 (you): honour 14 · hand 1 1 3 5 · treasures scroll x2, gold" in text
    assert "dojo row: 2 4 4" in text
    assert f"sentry {state.C.gval[sentry]}" in _lines_with(text, "house 2 ")[0]
    assert "seat 1: honour 0 · hand 4 cards" in text
    assert "1 1 3 5" not in state.render(0)


def test_default_render_lists_the_observation_of_a_game_without_a_view():
    """A game without render.py (the toy Showdown) still renders, from its observation."""
    from tests.toy_games import SHOWDOWN

    state = SHOWDOWN.new_state(3, seed=4)
    text = state.render(1)
    for key, value in state.observation(1).items():
        assert f"{key}: {value}" in text
    for seat in range(3):
        world = state.determinize(seat, random.Random(seat))
        assert world.render(seat) == state.render(seat)
    assert state.round_label() == ""
