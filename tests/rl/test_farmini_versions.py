"""Farmini's change counter (``Farm.version``) and the encoder that keeps each farm's entry by it.

- two farms with the same version hold the same cards and animals (on every position of random games,
  their clones and determinizations), and a move that changes a farm gives it a version never seen;
- the fast encoder, whose memo lives as long as its ``Spec``, still writes what the view-based
  encoding gives after the same farm objects were seen, changed, copied and edited by hand (``touch``).
"""

from __future__ import annotations

import json
import random

import pytest

pytest.importorskip("numpy", reason="the rl extra is not installed")

import numpy as np

import farmtable
from farmtable.games.farmini.farm import Farm
from farmtable.games.farmini.rules import FarminiState
from farmtable.rl.catalogue import spec
from tests.rl.conftest import ready_or_skip

VARIANT_SETS = ((), ("gaps-not-enclosed",), ("second-variant",), ("penalty-per-empty-cell",), ("cards-v1",))


def _content(farm: Farm) -> str:
    """A farm's cards (with their order) and animals, as text."""
    return json.dumps(
        [list(map(list, farm.cards)), [(o.card_id, o.rot) for o in farm.cards.values()], sorted(farm.animals.items())]
    )


@pytest.mark.parametrize("variants", VARIANT_SETS)
def test_equal_versions_mean_equal_farms(variants: tuple[str, ...]) -> None:
    """Every farm after every move of random 1–4 player games, of clones and of determinized copies:
    a version always names one content, and a farm whose content changed has a new version."""
    ready_or_skip("farmini")
    game = farmtable.get_game("farmini")
    seen: dict[int, str] = {}
    changed = kept = 0
    for players, seed in ((1, 0), (2, 1), (3, 2), (4, 3)):
        if "solo" in "".join(variants) and players != 1:
            continue
        state = game.new_game(players=players, seed=seed, variants=variants)
        rng = random.Random(seed)
        while not state.is_over():
            before = [(farm.version, _content(farm)) for farm in state.farms]
            copies = [state.clone(), state.determinize(0, rng.randrange(1 << 30))]
            player = state.actors()[0]
            state.apply(player, rng.choice(state.legal_actions(player)))
            for other in copies:
                for farm in other.farms:
                    assert seen.setdefault(farm.version, _content(farm)) == _content(farm)
            for farm, (version, content) in zip(state.farms, before, strict=True):
                now = _content(farm)
                assert seen.setdefault(farm.version, now) == now
                if now != content:
                    assert farm.version != version
                    changed += 1
                else:
                    kept += farm.version == version
    assert changed > 100 and kept > 100


def test_put_card_touch_and_loading_give_new_versions() -> None:
    """Each way a farm changes outside a move draws a new number; a copy keeps its original's."""
    state = farmtable.get_game("farmini").new_game(players=2, seed=4)
    farm = state.farms[0]
    first = farm.version
    copy = farm.copy()
    assert copy.version == first
    farm.touch()
    assert farm.version != first and copy.version == first
    loaded = FarminiState.from_dict(state.to_dict())
    assert {f.version for f in loaded.farms}.isdisjoint({f.version for f in state.farms})


@pytest.mark.parametrize("variants", VARIANT_SETS[:4])
def test_encoder_kept_by_version_equals_the_view_encoding(variants: tuple[str, ...]) -> None:
    """One encoder (its memo kept across games) on every position of random 2-player games, the same
    positions again from clones (their farms share versions with the originals), and a position whose
    farm was edited by hand and touched: always the vector the view gives."""
    ready_or_skip("farmini")
    sp = spec("farmini", 2, variants)
    game = farmtable.get_game("farmini")
    checked = 0
    for seed in range(3):
        state = game.new_game(players=2, seed=seed, variants=variants)
        rng = random.Random(seed)
        history: list[FarminiState] = []
        while not state.is_over():
            history.append(state.clone())
            for p in range(2):
                assert np.array_equal(sp.observe(state, p), sp.observe_view(state, p))
                checked += 1
            player = state.actors()[0]
            state.apply(player, rng.choice(state.legal_actions(player)))
        for old in history[::7]:  # positions met before: every farm is known by its version
            for p in range(2):
                assert np.array_equal(sp.observe(old, p), sp.observe_view(old, p))
                checked += 1
        edited = history[-1]
        farm = edited.farms[0]
        sp.observe(edited, 0)  # known now, then edited by hand: an animal comes off
        if farm.animals:
            cell = next(iter(farm.animals))
            kind = farm.animals.pop(cell)
            edited.farmyard[kind] += 1
            farm.touch()
            assert np.array_equal(sp.observe(edited, 0), sp.observe_view(edited, 0))
            checked += 1
    assert checked > 300
