"""``State.result_totals`` (issue 16: a totals-only scorer for search) gives exactly ``result()``'s
totals, ranking and solo objective, for every game, player count and variant, mid-game and at the end."""

from __future__ import annotations

import random

import pytest

import farmtable


@pytest.mark.parametrize("game_id", farmtable.list_games())
def test_result_totals_match_the_full_result(game_id: str) -> None:
    game = farmtable.get_game(game_id)
    compared = 0
    for players in range(game.min_players, game.max_players + 1):
        for variants in [(), *((v,) for v in game.variants)]:
            for seed in range(3):
                try:
                    state = game.new_game(players=players, seed=seed, variants=variants)
                except ValueError:
                    break  # a variant these players may not use
                rng = random.Random(seed)
                steps = 0
                while not state.is_over():
                    player = state.actors()[0]
                    legal = state.legal_actions(player)
                    state.apply(player, legal[rng.randrange(len(legal))])
                    steps += 1
                    if steps % 37 == 0 or state.is_over():
                        full, quick = state.result(), state.result_totals()
                        assert (quick.totals, quick.ranking, quick.solo_score) == (
                            full.totals,
                            full.ranking,
                            full.solo_score,
                        ), f"{game_id} players={players} variants={variants} seed={seed} step={steps}"
                        compared += 1
    assert compared > 20
