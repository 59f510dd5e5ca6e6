"""The shared contract with a secret probe; tile conservation (hypothesis); saves and determinize."""

from __future__ import annotations

import json
import random
from collections.abc import Iterable
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import farmtable
from farmtable.core import State
from farmtable.core.errors import CorruptSave
from farmtable.games.farmerama.components import BUILDINGS, CARDS, PACIFIER_SECTOR
from farmtable.games.farmerama.rules import CHOOSE, FarmeramaState
from tests.contract import check_contract
from tests.games.farmerama.positions import new, tile_totals

GAME = farmtable.get_game("farmerama")
HEAD_SECTORS_AND_AFTER = set(range(PACIFIER_SECTOR))
"""Sectors an animal on a pasture can be under: from its head (k0..k3) up to just before the pacifier."""


def secrets(state: State[Any], player: int) -> Iterable[str]:
    """Others' unrevealed cards and the ids of face-down buildings must not be seen."""
    assert isinstance(state, FarmeramaState)
    found = []
    if state.phase == CHOOSE:
        for q, board in enumerate(state.boards):
            if q != player:
                found += [f"P{q} chose {CARDS[c]}" for c in board.cards]
                found += [f"P{q} chose"] if board.cards else []
    found += [f'"{BUILDINGS[b].id}"' for b in state.stack + state.removed]
    return found


CASES = [(1, ()), *((n, v) for v in ((), ("profi",), ("simultaneous",)) for n in (2, 3, 4))]


@pytest.mark.parametrize(("players", "variants"), CASES)
def test_contract_with_secrets(players: int, variants: tuple[str, ...]) -> None:
    check_contract("farmerama", players, variants, games=2, seed=11 + players, secrets=secrets)


def test_probe_would_catch_a_leak() -> None:
    state = new(2)
    state.apply(0, "card sow")
    leaked = json.dumps(state.view(1)) + "P0 chose sow"
    assert any(s in leaked for s in secrets(state, 1))


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10_000), players=st.integers(1, 4), profi=st.booleans())
def test_tiles_and_buildings_are_conserved(seed: int, players: int, profi: bool) -> None:
    profi = profi and players > 1
    state = new(players, seed=seed, profi=profi)
    rng = random.Random(seed)
    while not state.is_over():
        assert tile_totals(state) == [32] * 5
        places = state.stack + state.display + state.removed + state.set_aside
        places += [b for board in state.boards for b in board.garden]
        assert sorted(places) == list(range(25))
        assert all(min(board.barn) >= 0 for board in state.boards) and min(state.supply) >= 0
        for board in state.boards:
            # DA-FR3: an animal is always back in its stable before the bar reaches its area
            # (so the area under the bar, k6, never holds an animal)
            assert all((where + board.wheel) % 7 in HEAD_SECTORS_AND_AFTER for where in board.pasture if where >= 0)
        actor = rng.choice(state.actors())
        state.apply(actor, rng.choice(state.legal_actions(actor)))
    assert tile_totals(state) == [32] * 5


def test_determinize_resamples_hidden_cards_but_keeps_mine() -> None:
    state = new(4)
    state.apply(0, "card sow")
    state.apply(1, "card feed")
    seen_other = set()
    for seed in range(20):
        det = state.determinize(0, seed)
        assert det.boards[0].cards == state.boards[0].cards
        assert det.view(0) == state.view(0)
        seen_other.add(tuple(det.boards[1].cards))
        assert sorted(det.stack + det.removed) == sorted(state.stack + state.removed)
    assert len(seen_other) > 1


@pytest.mark.parametrize(
    ("change", "words"),
    [
        (lambda d: d["supply"].__setitem__(0, 31), "carrots tiles add up"),
        (lambda d: d.__setitem__("phase", "dance"), "phase"),
        (lambda d: d["boards"][0].__setitem__("wheel", 9), "wheel"),
        (lambda d: d.__setitem__("display", [0, 1, 2]), "face-up"),
        (lambda d: d["boards"][1].__setitem__("cards", [0, 0]), "same card"),
        (lambda d: d.pop("stack"), "stack"),
        (lambda d: d.__setitem__("profi", "yes"), "profi"),
        (lambda d: d.__setitem__("chooser", 0), "award fields"),  # regression: loaded, then stalled
        (lambda d: d["boards"][0].__setitem__("current", 1), "phase-3 fields"),
        (lambda d: d.__setitem__("extra", 1), "unknown fields"),
    ],
)
def test_damaged_saves_are_refused(change: Any, words: str) -> None:
    state = new(2)
    envelope = json.loads(state.to_json())
    change(envelope["state"])
    with pytest.raises(CorruptSave, match=words):
        GAME.from_json(json.dumps(envelope))


def test_heuristic_prefers_products_and_values_animals_nearing_the_pacifier() -> None:
    state = new(2)
    base = state.heuristic(0)
    state.boards[0].products[0] = 1
    assert state.heuristic(0) > base
    board = state.boards[0]
    board.pasture[0] = 3  # the sheep on A3 (k3, its head); the pacifier is 3 turns away
    fresh = state.heuristic(0)
    board.wheel = 2  # A3 now under k5: one turn from the pacifier
    assert state.heuristic(0) > fresh


def test_every_state_of_a_game_round_trips_through_json() -> None:
    for seed, players in ((1, 1), (2, 2), (3, 3), (4, 4)):
        state = new(players, seed=seed, profi=players == 3)
        rng = random.Random(seed)
        while not state.is_over():
            assert GAME.from_json(state.to_json()).to_json() == state.to_json()
            actor = rng.choice(state.actors())
            state.apply(actor, rng.choice(state.legal_actions(actor)))


def _leaf_paths(obj: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    if isinstance(obj, dict):
        return [p for k, v in obj.items() for p in _leaf_paths(v, (*prefix, k))]
    if isinstance(obj, list):
        return [p for i, v in enumerate(obj) for p in _leaf_paths(v, (*prefix, i))]
    return [prefix]


def test_a_damaged_field_is_refused_or_still_plays() -> None:
    # Random damage: either refused as CorruptSave or the game still plays to its end.
    rng = random.Random(0)
    for trial in range(150):
        players = rng.randint(1, 4)
        state = new(players, seed=trial)
        for _ in range(rng.randint(0, 150)):
            if state.is_over():
                break
            actor = rng.choice(state.actors())
            state.apply(actor, rng.choice(state.legal_actions(actor)))
        envelope = json.loads(state.to_json())
        path = rng.choice(_leaf_paths(envelope["state"]))
        target = envelope["state"]
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = rng.choice([0, 1, -1, 99, "x", None, True])
        try:
            loaded = GAME.from_json(json.dumps(envelope))
        except CorruptSave:
            continue
        steps = 0
        while not loaded.is_over() and steps < 3000:
            actor = rng.choice(loaded.actors())
            loaded.apply(actor, rng.choice(loaded.legal_actions(actor)))
            steps += 1
