"""The project's contract suite for every variant and player count, with a probe of hidden information."""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

import pytest

import farmtable
from farmtable.core import State
from tests.contract import check_contract

GAME = farmtable.get_game("farmers-finances")


def secrets(state: State[Any], player: int) -> Iterable[str]:
    """What no view may show: the RNG (the future die) and, solo, the order of the piles below their tops."""
    yield f'"rng": {state.rng.state}'  # type: ignore[attr-defined]
    yield str(state.rng.state)  # type: ignore[attr-defined]
    for pile in (state.left, state.right):  # type: ignore[attr-defined]
        if len(pile) > 1:
            yield json.dumps(pile)
            yield json.dumps(pile[:-1])


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


def test_cases_cover_every_player_count_and_variant() -> None:
    assert _cases() == [
        (1, ()),
        (2, ()),
        (3, ()),
        (4, ()),
        (1, ("solo-six-choose",)),
        (2, ("empty-market-extra-change",)),
        (3, ("empty-market-extra-change",)),
        (4, ("empty-market-extra-change",)),
        (2, ("player-two-wins-at-once",)),
        (2, ("last-card-of-a-pile",)),
        (3, ("last-card-of-a-pile",)),
        (4, ("last-card-of-a-pile",)),
    ]


@pytest.mark.parametrize(("players", "variants"), _cases())
def test_contract_with_secret_probe(players: int, variants: tuple[str, ...]) -> None:
    check_contract("farmers-finances", players, variants, games=3, seed=17 + players, secrets=secrets)


def test_the_probe_catches_a_view_that_leaks_the_piles(monkeypatch: pytest.MonkeyPatch) -> None:
    from farmtable.games.farmers_finances.rules import FarmersFinancesState

    honest = FarmersFinancesState.view

    def leaky(self: FarmersFinancesState, player: int | None) -> dict[str, Any]:
        return {**honest(self, player), "left_pile": list(self.left)}

    monkeypatch.setattr(FarmersFinancesState, "view", leaky)
    with pytest.raises(AssertionError, match="view shows"):
        check_contract("farmers-finances", 1, (), games=1, seed=3, secrets=secrets)
