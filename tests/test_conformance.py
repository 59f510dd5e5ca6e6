"""Every registered game, each variant alone and every player count it takes, through the contract suite."""

from __future__ import annotations

import pytest

import farmtable
from tests.contract import check_contract


def _cases() -> list[tuple[str, int, tuple[str, ...]]]:
    cases = []
    for gid in farmtable.list_games():
        game = farmtable.get_game(gid)
        for variants in [(), *((v,) for v in game.variants)]:
            for players in range(game.min_players, game.max_players + 1):
                try:
                    game.new_game(players=players, seed=0, variants=variants)
                except ValueError:
                    continue  # this variant does not take this player count (it says why)
                cases.append((gid, players, variants))
    return cases


@pytest.mark.parametrize(("game_id", "players", "variants"), _cases())
def test_contract(game_id: str, players: int, variants: tuple[str, ...]) -> None:
    check_contract(game_id, players, variants, games=2, seed=players)


def test_all_five_games_are_registered() -> None:
    assert farmtable.list_games() == ["farmerama", "farmers-finances", "farmini", "tiny-farms", "tiny-towns"]
