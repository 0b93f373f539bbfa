"""Ninjato names its game systems: every decision has a named kind (a game system), and random
play reaches every kind."""

from __future__ import annotations

from engines.ninjato import GAME
from engines.ninjato import components as comp
from engines.ninjato.actions import (
    A_HOUSE,
    A_SENSEI,
    NUM_ACTIONS,
    PH_DRAW,
    PH_PLACE,
    action_to_str,
)
from tests.playouts import playout

KINDS = GAME.action_kinds


def test_action_kinds_are_distinct_names() -> None:
    assert len(set(KINDS)) == len(KINDS) > 20
    s = GAME.new_state(4, 0)
    assert all(0 <= s.action_kind(a) < len(KINDS) for a in range(A_HOUSE, NUM_ACTIONS))


def test_every_legal_action_on_random_playouts_has_a_valid_kind() -> None:
    for seed in range(12):
        for s in playout(GAME, 2 + seed % 3, seed):
            for a in s.legal_actions():
                kind = KINDS[s.action_kind(a)]
                text = action_to_str(a)
                if text.startswith("raid house"):
                    assert kind == "raid by " + text.rsplit(" ", 1)[1]
                if kind == "banzai" or kind == "retreat":
                    assert text == kind


def test_action_kind_tells_a_sensei_disguise_tile_from_a_skill() -> None:
    s = GAME.new_state(4, 3)
    skill = next(t for t, e in enumerate(s.C.skill_effect) if e != comp.E_DISGUISE)
    disguise = next(t for t, e in enumerate(s.C.skill_effect) if e == comp.E_DISGUISE)
    s.phase = PH_PLACE
    s.sensei = [skill, disguise]
    assert KINDS[s.action_kind(A_SENSEI)] == "sensei skill"
    assert KINDS[s.action_kind(A_SENSEI + 1)] == "sensei disguise"


def test_random_play_reaches_every_action_kind() -> None:
    """The rarest kind, choosing which masked envoy a Disguise lifts, needs a Disguise tile
    and two masked envoys: about 1 random game in 200 (2-4 players), hence the cap."""
    missing = set(range(len(KINDS)))
    seed = 0
    while missing and seed < 1500:
        for _ in playout(GAME, 2 + seed % 3, seed,
                         on_move=lambda s, a: missing.discard(s.action_kind(a))):
            pass
        seed += 1
    assert not missing, f"never chosen in {seed} games: {[KINDS[k] for k in missing]}"


def test_action_kind_a_dojo_placement_is_the_visit_and_later_draws_are_draws() -> None:
    """The dojo placement is the visit's first draw (draws come one at a time): it counts
    as the visit; the draws after it count as a face-up card or a deck draw."""
    s = GAME.new_state(4, 5)
    p = s.current_player()
    s.hands[p] = [0, 0, 0, 0, 0]  # an empty hand draws 4: the visit goes on after one
    s._legal_cache = None
    first = min(s.legal_actions())
    assert first < A_SENSEI and KINDS[s.action_kind(first)] == "dojo"
    s.apply_action(first)
    assert s.phase == PH_DRAW
    kinds = {KINDS[s.action_kind(a)] for a in s.legal_actions()}
    assert kinds <= {"dojo face-up card", "dojo deck draw"} and "dojo deck draw" in kinds
