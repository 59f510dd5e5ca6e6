"""The fast paths of Farmini's legal lists (issue 16) list exactly what the plain rules list: fence
placements made in one pass over the slots, ``can_place`` remembered per layout, animal actions made
once, and the frontier slots kept as tuples; checked on every position of random games, both face sets."""

from __future__ import annotations

import random

import farmtable
from farmtable.games.farmini.components import ALL_CARDS, CARDS_V1, AnimalCard, FenceCard
from farmtable.games.farmini.farm import DELTA, SIDE_COUNT, Farm
from farmtable.games.farmini.rules import FarminiState, Place, PutAnimal


def _plain_slots(farm: Farm) -> list[tuple[tuple[int, int], int, int]]:
    """Each empty position next to the farm: the sides with a neighbour and which of them are fences."""
    found = []
    empty = {(x + dx, y + dy) for (x, y) in farm.cards for dx, dy in DELTA} - set(farm.cards)
    for x, y in sorted(empty):
        mask = value = 0
        for side in range(SIDE_COUNT):
            dx, dy = DELTA[side]
            other = farm.cards.get((x + dx, y + dy))
            if other is not None:
                mask |= 1 << side
                if other.arms[(side + 2) % SIDE_COUNT]:
                    value |= 1 << side
        found.append(((x, y), mask, value))
    return found


def _check_position(state: FarminiState) -> int:
    farm = state.farms[state.current]
    assert list(farm.slots()) == _plain_slots(farm)
    checked = 0
    for cid in {*state.table, *([state.pending] if state.pending else [])}:
        card = ALL_CARDS[cid]
        if isinstance(card, FenceCard):
            plain = [Place(cid, x, y, rot) for (x, y), rot in farm.placements(cid)]
            assert farm.can_place(cid) == bool(plain) == farm.copy().can_place(cid)
            assert bool(plain) == any(
                farm.fits(state.faces.oriented[cid, r], pos) for pos, _, _ in farm.slots() for r in (0, 90, 180, 270)
            )
            checked += 1
    if state.pending is not None:
        card = ALL_CARDS[state.pending]
        legal = state.legal_actions(state.current)
        if isinstance(card, AnimalCard):
            assert legal == [PutAnimal(card.kind, x, y, q) for x, y, q in farm.free_cells()]
        else:
            assert legal == [Place(card.id, x, y, rot) for (x, y), rot in farm.placements(card.id)]
    return checked


def test_fast_legal_lists_equal_the_plain_rules_along_random_games() -> None:
    game = farmtable.get_game("farmini")
    checked = 0
    for variants in [(), (CARDS_V1,)]:
        for seed in range(12):
            state = game.new_game(players=2, seed=seed, variants=variants)
            rng = random.Random(seed)
            while not state.is_over():
                checked += _check_position(state)
                player = state.actors()[0]
                legal = state.legal_actions(player)
                state.apply(player, legal[rng.randrange(len(legal))])
    assert checked > 1000
