"""The shared contract suite for Farmini, every variant alone and every player count, with a
secrets probe: the deck's cards (its order is hidden) never appear in any view."""

from __future__ import annotations

from typing import Any

import pytest

from farmtable.core import State
from farmtable.games.farmini.rules import GAME
from tests.contract import check_contract


def deck_secrets(state: State[Any], player: int) -> list[str]:
    """Every card still face down in the deck, as it would appear in view JSON."""
    return [f'"{card}"' for card in getattr(state, "deck", [])]


def _cases() -> list[tuple[int, tuple[str, ...]]]:
    cases = []
    for variants in [(), *((v,) for v in GAME.variants), ("penalty-per-empty-cell", "second-variant")]:
        for players in range(GAME.min_players, GAME.max_players + 1):
            try:
                GAME.new_game(players=players, seed=0, variants=variants)
            except ValueError:
                continue
            cases.append((players, variants))
    return cases


def test_the_solo_only_variant_is_refused_for_more_players() -> None:
    assert (2, ("solo-wolf-clears-all",)) not in _cases()
    assert (1, ("solo-wolf-clears-all",)) in _cases()


@pytest.mark.parametrize(("players", "variants"), _cases())
def test_contract_with_secrets(players: int, variants: tuple[str, ...]) -> None:
    check_contract("farmini", players, variants, games=2, seed=players + 10, secrets=deck_secrets)


def test_the_probe_would_catch_a_leak() -> None:
    state = GAME.new_game(players=2, seed=3)
    leaky = str(state.to_dict())  # the full state does show the deck
    assert any(secret.strip('"') in leaky for secret in deck_secrets(state, 0))
    assert deck_secrets(state, 0)  # and there is something to hide
