"""``Farm.penned`` (the wolf's question, issue 16: flood only the prey's regions, stop at the first
opening) must agree with the full flood fill's pens on every farm random play builds, both gap readings."""

from __future__ import annotations

import random

import farmtable
from farmtable.games.farmini.farm import Farm
from farmtable.games.farmini.scoring import GAPS_OPEN


def _all_cells(farm: Farm) -> list[tuple[int, int, int]]:
    return [(x, y, q) for (x, y) in farm.cards for q in range(4)]


def test_penned_equals_the_pens_of_the_full_flood_fill() -> None:
    game = farmtable.get_game("farmini")
    compared = with_pens = 0
    for variants in [(), (GAPS_OPEN,)]:
        for seed in range(25):
            state = game.new_game(players=2, seed=seed, variants=variants)
            rng = random.Random(seed)
            while not state.is_over():
                player = state.actors()[0]
                legal = state.legal_actions(player)
                state.apply(player, legal[rng.randrange(len(legal))])
                for farm in state.farms:
                    cells = _all_cells(farm)
                    asked = [*rng.sample(cells, min(len(cells), rng.randint(1, 6))), (99, 99, 0)]
                    fresh = farm.copy()  # no regions cached: the partial flood runs
                    fresh._regions = None
                    got = fresh.penned(asked)
                    assert got == set(asked) & farm.pen_cells()
                    assert fresh.penned(cells) == farm.pen_cells()
                    compared += 1
                    with_pens += bool(got)
    assert compared > 1000
    assert with_pens > 20  # some asked cells really were in pens


def test_animal_cells_kept_up_to_date_card_by_card_equal_a_fresh_count() -> None:
    game = farmtable.get_game("farmini")
    compared = 0
    for seed in range(15):
        state = game.new_game(players=2, seed=seed)
        rng = random.Random(seed)
        while not state.is_over():
            for farm in state.farms:
                farm.animal_cells()  # known before the next card: put_card adds to it
            player = state.actors()[0]
            legal = state.legal_actions(player)
            state.apply(player, legal[rng.randrange(len(legal))])
            for farm in state.farms:
                fresh = farm.copy()
                fresh._changed()
                assert farm.animal_cells() == fresh.animal_cells()
                compared += 1
    assert compared > 500
