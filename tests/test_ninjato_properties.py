"""Ninjato invariants on random and heuristic playouts: every component is conserved at
every step, games end after 7 rounds, scores equal the sum of their breakdown."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from engines.ninjato import GAME
from engines.ninjato.actions import PH_FIGHT, PH_SKILLPAY, PH_TOKEN
from engines.ninjato.bots import Heuristic
from engines.ninjato.raid import G_ELITE, G_REGULAR
from tests.playouts import final, playout


def check_conservation(s) -> None:
    C = s.C
    cards = sum(s.deck) + sum(s.dojo_discards) + sum(map(sum, s.hands)) + len(s.row)
    assert cards == sum(C.dojo), "dojo cards"
    treasure = (sum(s.bag) + sum(s.treasure_discards) + sum(map(sum, s.treasures))
                + len(s.raid_treasures) + sum(map(len, s.house_plain)) + sum(map(len, s.house_red)))
    assert treasure == sum(C.tcounts), "treasures"
    assert all(x >= 0 for row in s.hands + s.treasures for x in row)
    assert len(s.palace) + len(s.envoy_deck) + sum(map(len, s.envoys)) == len(C.env_clan)
    rumours = len(s.pavilion) + len(s.rumour_deck) + sum(map(len, s.rumours))
    assert rumours == len(C.rum_type), "rumours"
    fighting = s.phase == PH_FIGHT
    guards = (len(s.guard_deck) + len(s.guard_discards) + sum(1 for g in s.house_sentry if g >= 0)
              + (fighting and s.guard_kind == G_REGULAR))
    assert guards == len(C.gval), "guards"
    elites = (len(s.elite_deck) + len(s.elite_discards) + sum(map(len, s.elites))
              + (fighting and s.guard_kind == G_ELITE))
    assert elites == len(C.ehonour), "elites"
    tiles = (len(s.sensei) + len(s.skill_stack) + len(s.disguise_stack) + len(s.skill_discards)
             + len(s.skills_unseen) + sum(map(len, s.tiles))
             + (s.phase == PH_SKILLPAY))
    assert tiles == len(C.skill_effect), "skill tiles"
    # while the raider chooses, the old token is back in the supply and the new one is not taken
    assert sum(map(sum, s.token_supply)) + 5 - (s.phase == PH_TOKEN) == 15, "clan tokens"
    for p in range(s.n):
        assert all(0 <= r <= o for r, o in zip(s.ready[p], s.owned[p]))
        assert all(0 <= k <= c for k, c in zip(s.known[p], s.hands[p])), "known cards held"
        assert sum(s.owned[p]) == len(s.tiles[p])


def checked_playout(n: int, seed: int, heuristic: bool) -> None:
    """A random or heuristic game, every component counted at every step, then its end."""
    bot = Heuristic("default" if seed % 2 else "collector") if heuristic else None

    def legal(s, a):
        assert a in s.legal_actions()

    for s in playout(GAME, n, seed, bot, max_moves=5000, on_move=legal):
        check_conservation(s)
    assert s.is_terminal(), "no termination"
    assert s.round == 8 and s.metrics()["rounds"] == 7
    bd = s.score_breakdown()
    assert set(bd) == {"envoys", "honour_tokens", "rumours", "elite_guards", "unused_treasure"}
    for p in range(n):
        assert sum(v[p] for v in bd.values()) == s.scores()[p]
        assert all(v[p] >= 0 for v in bd.values())
    assert 0 <= s.metrics()["lead_changes"] <= 2


@settings(max_examples=20, deadline=None)
@given(n=st.integers(2, 4), seed=st.integers(0, 2**32 - 1))
def test_random_playouts_conserve_every_component(n, seed):
    checked_playout(n, seed, heuristic=False)


@settings(max_examples=10, deadline=None)
@given(n=st.integers(2, 4), seed=st.integers(0, 2**32 - 1))
def test_heuristic_playouts_conserve_every_component(n, seed):
    checked_playout(n, seed, heuristic=True)


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_determinize_keeps_every_count(seed):
    s = final(GAME, 4, seed, max_moves=random.Random(seed).randrange(1, 150))
    if s.is_terminal():
        return
    w = s.determinize(s.player, random.Random(seed + 1))
    check_conservation(w)
    assert [sum(h) for h in w.hands] == [sum(h) for h in s.hands]
    assert w.hands[s.player] == s.hands[s.player] and w.rumours == s.rumours
    assert all(k <= c for q in range(4) for k, c in zip(s.known[q], w.hands[q]))
