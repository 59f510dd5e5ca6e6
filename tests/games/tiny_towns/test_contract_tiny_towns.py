"""The shared contract suite for every Tiny Towns variant and player count, with a secrets probe."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import pytest

from farmtable.core import State
from farmtable.games.tiny_towns.rules import GAME, TinyTownsState
from tests.contract import check_contract


def monument_secrets(state: State[Any], player: int) -> Iterable[str]:
    """Other players' monument cards (kept or discarded) that ``player`` has not seen built."""
    assert isinstance(state, TinyTownsState)
    built = {t.monument for t in state.towns if t.built}
    for q, town in enumerate(state.towns):
        if q != player:
            yield from (m for m in town.dealt if m not in built)


def _cases() -> list[tuple[int, tuple[str, ...]]]:
    cases = []
    for variants in [(), *((v,) for v in GAME.variants)]:
        for players in range(GAME.min_players, GAME.max_players + 1):
            try:
                GAME.new_game(players=players, seed=0, variants=variants)
            except ValueError:
                continue
            cases.append((players, variants))
    return cases


@pytest.mark.parametrize(("players", "variants"), _cases())
def test_contract_with_secret_monuments(players: int, variants: tuple[str, ...]) -> None:
    check_contract("tiny-towns", players, variants, games=1, seed=100 + players, secrets=monument_secrets)


def test_every_variant_and_player_count_is_covered() -> None:
    cases = _cases()
    # Town Hall is not a solo game; solo-removes-feast-hall is only one
    assert len(cases) == (1 + len(GAME.variants)) * 6 - 1 - 5
