"""The shared contract suite for every Tiny Farms variant and player count, with a secrets probe."""

from __future__ import annotations

import json
from typing import Any

import pytest

import farmtable
from farmtable.core import State
from farmtable.games.tiny_farms.rules import TinyFarmsState
from tests.contract import check_contract

GAME = farmtable.get_game("tiny-farms")


def secrets(state: State[Any], player: int) -> list[str]:
    """What no view may show: the RNG state, from which every future roll follows."""
    assert isinstance(state, TinyFarmsState)
    return [str(state.rng.state)]


CASES = [
    (players, variants)
    for variants in [(), *((v,) for v in GAME.variants)]
    for players in range(GAME.min_players, GAME.max_players + 1)
    if players == 1 or not variants
]


@pytest.mark.parametrize(("players", "variants"), CASES)
def test_contract_with_secrets(players: int, variants: tuple[str, ...]) -> None:
    check_contract("tiny-farms", players, variants, games=3, seed=17 + players, secrets=secrets)


def test_every_solo_variant_is_covered() -> None:
    assert {v for _, vs in CASES for v in vs} == set(GAME.variants)


def test_view_hides_the_rng_and_determinize_redraws_it() -> None:
    state = GAME.new_game(players=2, seed=5)
    assert isinstance(state, TinyFarmsState)
    assert "rng" not in json.dumps(state.view(0))
    det = state.determinize(0, 99)
    assert isinstance(det, TinyFarmsState)
    assert det.rng.state != state.rng.state and det.view(0) == state.view(0)


def test_same_seed_same_game_bit_for_bit() -> None:
    a = GAME.new_game(players=3, seed=42)
    b = GAME.new_game(players=3, seed=42)
    while not a.is_over():
        p = a.actors()[0]
        action = a.legal_actions(p)[-1]
        a.apply(p, action)
        b.apply(p, action)
        assert a.to_json() == b.to_json()


def test_damaged_saves_are_refused() -> None:
    state = GAME.new_game(players=2, seed=5)
    good = json.loads(state.to_json())
    for field, bad in [
        ("milk", [4, 3]),
        ("red", 4),  # on Blue's space
        ("dice", [7, 1, 1]),
        ("phase", "dancing"),
        ("boards", [[0] * 32]),
        ("boards", [[0] * 31 + [12], [0] * 32]),  # a crop outside the solo game
        ("emma_filled", [0, 0, 0, 9, 0, 0, 0]),
        ("variants", ["emma-easy"]),
        ("current", 1),
        ("rotation", "3"),
    ]:
        data = json.loads(json.dumps(good))
        data["state"][field] = bad
        with pytest.raises(farmtable.CorruptSave):
            GAME.from_json(json.dumps(data))
    data = json.loads(json.dumps(good))
    del data["state"]["pending"]
    with pytest.raises(farmtable.CorruptSave, match="pending"):
        GAME.from_json(json.dumps(data))
