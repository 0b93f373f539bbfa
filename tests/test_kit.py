"""The shared engine plumbing (`engines/kit.py`): each helper does its one job,
and the games that use it still determinize from what a seat knows only."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from engines import kit


def test_copy_rng_draws_what_the_original_would_and_is_independent() -> None:
    rng = random.Random(7)
    rng.random()
    copy = kit.copy_rng(rng)
    assert copy is not rng
    assert [copy.random() for _ in range(3)] == [rng.random() for _ in range(3)]
    copy.random()
    assert copy.random() != rng.random()


def test_world_rng_is_seeded_from_the_searchers_stream() -> None:
    a, b = random.Random(1), random.Random(1)
    assert kit.world_rng(a).random() == kit.world_rng(b).random()
    assert kit.world_rng(random.Random(2)).random() != kit.world_rng(random.Random(1)).random()


def test_deal_back_depends_only_on_the_pool_contents_not_its_order() -> None:
    """The determinize rule: a seat that knows the same things gets the same worlds."""
    pool = [5, 1, 4, 1, 3, 9, 2, 6]
    parts_a = kit.deal_back(list(pool), [3, 2], random.Random(4))
    parts_b = kit.deal_back(list(reversed(pool)), [3, 2], random.Random(4))
    assert parts_a == parts_b
    assert [len(p) for p in parts_a] == [3, 2, 3]
    assert sorted(sum(parts_a, [])) == sorted(pool)


def test_deal_back_resamples_uniformly() -> None:
    seen = Counter(tuple(kit.deal_back([0, 1, 2], [1], random.Random(seed))[0])
                   for seed in range(600))
    assert set(seen) == {(0,), (1,), (2,)}
    assert min(seen.values()) > 150


def test_draw_from_removes_one_card_uniformly() -> None:
    rng = random.Random(3)
    seen = Counter()
    for _ in range(900):
        pile = [10, 20, 30]
        card = kit.draw_from(pile, rng)
        assert sorted(pile + [card]) == [10, 20, 30]
        seen[card] += 1
    assert min(seen.values()) > 250


def test_draw_count_takes_one_item_in_proportion_to_the_counts() -> None:
    rng = random.Random(5)
    seen = Counter()
    for _ in range(1000):
        counts = [0, 3, 0, 1, 0]
        kind = kit.draw_count(counts, 4, rng)
        assert counts[kind] == [0, 3, 0, 1, 0][kind] - 1
        seen[kind] += 1
    assert set(seen) == {1, 3}
    assert 650 < seen[1] < 850


def test_refill_takes_the_discards_back_in_place() -> None:
    pile, discard = [], [4, 2]
    assert kit.refill(pile, discard)
    assert pile == [4, 2] and discard == []
    assert not kit.refill(pile := [], [])


def test_refill_counts_moves_the_discard_counts() -> None:
    counts, discard = [0] * 5, [1, 0, 2, 0, 0]
    assert kit.refill_counts(counts, discard)
    assert counts == [1, 0, 2, 0, 0] and discard == [0] * 5
    assert not kit.refill_counts([0] * 5, [0] * 5)


def test_reshuffle_makes_the_discards_the_pile_shuffled() -> None:
    pile, discard = [], list(range(20))
    assert kit.reshuffle(pile, discard, random.Random(1))
    assert sorted(pile) == list(range(20)) and pile != list(range(20)) and discard == []
    assert pile == kit.shuffled(range(20), random.Random(1))


def test_seats_go_clockwise_and_wrap() -> None:
    assert [kit.next_seat(s, 4) for s in range(4)] == [1, 2, 3, 0]
    assert kit.following_seats(3) == (1, 2, 0)
    assert kit.seat_orders(3)[2] == (2, 0, 1)


@pytest.mark.parametrize("seed", range(20))
def test_track_lead_counts_what_lead_changes_counts(seed: int) -> None:
    """One definition, two forms: the running count equals the count over the sequence."""
    rng = random.Random(seed)
    checks = [rng.choice([-1, 0, 1, 2]) for _ in range(12)]
    lead, changes = -1, 0
    for leader in checks:
        lead, changes = kit.track_lead(lead, changes, leader)
    assert changes == kit.lead_changes(None if c < 0 else c for c in checks)


def test_lead_changes_definition() -> None:
    """The first leader is no change; a check without a leader keeps the previous one; a tied
    top (a tuple of seats) is a leader of its own."""
    assert kit.lead_changes([0]) == 0
    assert kit.lead_changes([0, None, 0, 1, None, 1]) == 1
    assert kit.lead_changes([(0,), (0, 1), (1,)]) == 2
    assert kit.lead_changes([]) == 0


# --- one component loader: labels by content ----------------------------------


@pytest.mark.parametrize("game_name,name_key", [("ninjato", "dataset"),
                                                ("time-pirates", "name")])
def test_editing_a_components_file_changes_its_manifest_label(tmp_path, game_name, name_key):
    """The label names the content: the same path edited is a new label (and new components),
    never the cached old one (Ninjato's loader once labelled by file name, cached by path)."""
    from engines import get_game

    game = get_game(game_name)
    path = tmp_path / "mine.toml"
    path.write_text(f'{name_key} = "mine"\n')
    rules = game.make_rules(components=str(path))
    before = game.dataset(rules)
    assert before.startswith("mine#")
    path.write_text(f'{name_key} = "mine"\nyears = 2\n' if game_name == "time-pirates"
                    else f'{name_key} = "mine"\ndojo_counts = [8, 12, 12, 12, 8]\n')
    after = game.dataset(rules)
    assert after.startswith("mine#") and after != before
    state = game.new_state(game.min_players, 0, components=str(path))
    if game_name == "time-pirates":
        assert state.components.years == 2
    else:
        assert state.C.dojo == (8, 12, 12, 12, 8)


def test_a_file_without_a_name_is_labelled_by_path_and_hash(tmp_path):
    from engines import get_game

    path = tmp_path / "plain.toml"
    path.write_text("years = 2\n")
    label = get_game("time-pirates").dataset(get_game("time-pirates").make_rules(
        components=str(path)))
    assert label.startswith(f"file:{path}#") and len(label.split("#")[1]) == 8
