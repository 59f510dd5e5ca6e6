"""Farmini's frontier kept card by card and the legal lists read from it (issue 16, session 9).

Each fast path is compared with the plain computation from the cards on every position of random
games (both face sets, both gap readings, 1 to 4 players): the numbered frontier (``Farm._open``,
``_filled``) against ``Farm.plain_slots``; ``Farm.placements`` and the fence actions
(read from the slot codes) against ``Farm.fits`` over every rotation; the take list against
``FarminiState._playable``; ``free_count`` against ``free_cells``.
"""

from __future__ import annotations

import random

import pytest

import farmtable
from farmtable.games.farmini.components import ALL_CARDS, CARDS_V1, FENCE_CARDS, FenceCard
from farmtable.games.farmini.farm import (
    CARD_LIMIT,
    DEFAULT,
    FACES,
    KIND_BITS,
    KIND_SHIFT,
    ROTATIONS,
    Faces,
    Farm,
    Pos,
    code_pos,
    pos_code,
    slot_kind,
    slot_of_code,
)
from farmtable.games.farmini.rules import Discard, FarminiState, Place, Take
from farmtable.games.farmini.scoring import GAPS_OPEN

GAME = farmtable.get_game("farmini")


def plain_placements(farm: Farm, card_id: str) -> list[tuple[Pos, int]]:
    """Every (position, rotation) the rules allow, from ``fits`` over the plain frontier."""
    return [
        (pos, rot)
        for pos, _, _ in farm.plain_slots()
        for rot in farm.faces.distinct_rotations[card_id]
        if farm.fits(farm.faces.oriented[card_id, rot], pos)
    ]


def check_farm(farm: Farm) -> None:
    """The numbered frontier, slots, placements and free count equal their plain computations."""
    plain = farm.plain_slots()
    assert farm.slots() == tuple(plain)
    assert [slot_of_code(code) for code in farm.slot_codes()] == plain
    assert farm.frontier() == [pos for pos, _, _ in plain]
    assert farm._filled == {pos_code(pos): card.arms for pos, card in farm.cards.items()}
    assert sorted(farm._open) == [pos_code(pos) for pos, _, _ in plain]
    assert farm.free_count() == len(farm.free_cells())


def check_state(state: FarminiState) -> int:
    """Every fast path of this position against its plain computation; how many fence cards were checked."""
    for farm in state.farms:
        check_farm(farm)
    farm = state.farms[state.current]
    checked = 0
    for cid in {*state.table, *([state.pending] if state.pending else [])}:
        if isinstance(ALL_CARDS[cid], FenceCard):
            plain = plain_placements(farm, cid)
            assert farm.placements(cid) == plain
            assert farm.can_place(cid) == bool(plain)
            checked += 1
    legal = state.legal_actions(state.current)
    if state.pending is None:
        playable: list[Take | Discard] = [
            Take(i + 1) for i, cid in enumerate(state.table) if state._playable(farm, cid)
        ]
        expected = playable or [Discard(i + 1) for i in range(len(state.table))]
        assert legal == expected
        assert [type(a) for a in legal] == [type(a) for a in expected]
    elif isinstance(ALL_CARDS[state.pending], FenceCard):
        assert legal == [Place(state.pending, x, y, rot) for (x, y), rot in plain_placements(farm, state.pending)]
    return checked


@pytest.mark.parametrize(
    ("players", "variants"),
    [(2, ()), (2, (CARDS_V1,)), (1, ()), (3, (GAPS_OPEN,)), (4, (CARDS_V1, GAPS_OPEN))],
)
def test_fast_paths_equal_the_plain_rules_along_random_games(players: int, variants: tuple[str, ...]) -> None:
    checked = 0
    for seed in range(6):
        state = GAME.new_game(players=players, seed=seed, variants=variants)
        rng = random.Random(seed)
        while not state.is_over():
            checked += check_state(state)
            player = state.actors()[0]
            legal = state.legal_actions(player)
            state.apply(player, legal[rng.randrange(len(legal))])
        check_state(state)
    assert checked > 200


def test_a_copy_keeps_its_own_frontier() -> None:
    farm = Farm()
    farm.put_card("H1", (0, 0), 0)
    other = farm.copy()
    other.put_card("D1", (1, 0), 90)
    check_farm(farm)
    check_farm(other)
    assert (1, 0) in farm.frontier()
    assert (1, 0) not in other.frontier()


def test_a_card_laid_over_another_rebuilds_the_frontier() -> None:
    farm = Farm()
    farm.put_card("H1", (0, 0), 0)
    farm.put_card("D1", (1, 0), 90)
    farm.put_card("F1", (1, 0), 0)  # F1 has no fences: the slots east of it change
    check_farm(farm)
    assert farm.cards[1, 0].card_id == "F1"


def test_positions_number_in_order_and_read_back() -> None:
    rng = random.Random(3)
    positions = [(rng.randint(-CARD_LIMIT, CARD_LIMIT), rng.randint(-CARD_LIMIT, CARD_LIMIT)) for _ in range(500)]
    positions += [(0, 0), (-1, 0), (0, -1), (CARD_LIMIT, -CARD_LIMIT)]
    for pos in positions:
        assert code_pos(pos_code(pos)) == pos
        kind = rng.randrange(1 << KIND_BITS)
        assert slot_of_code(pos_code(pos) << KIND_BITS | kind) == (pos, kind >> KIND_SHIFT, kind & 15)
    assert sorted(positions) == sorted(positions, key=pos_code)


def test_a_card_too_far_out_is_refused_and_changes_nothing() -> None:
    farm = Farm()
    farm.put_card("H1", (0, 0), 0)
    before = (dict(farm.cards), dict(farm._open), dict(farm._filled))
    with pytest.raises(ValueError, match="too far out"):
        farm.put_card("D1", (CARD_LIMIT, 0), 0)
    assert (dict(farm.cards), dict(farm._open), dict(farm._filled)) == before


@pytest.mark.parametrize("name", sorted(FACES))
def test_fit_tables_equal_the_fit_rotations(name: str) -> None:
    faces: Faces = FACES[name]
    for card in FENCE_CARDS:
        fits = faces.fit_rotations(card.id)
        table = faces.fit_table(card.id)
        assert len(table) == 1 << KIND_BITS
        for mask in range(16):
            for value in range(16):
                assert table[slot_kind(mask, value)] == fits.get((mask, value), ())
        assert faces.kind_set(card.id) == {slot_kind(m, v) for m, v in faces.fit_kinds(card.id)}


def test_oriented_adds_name_the_facing_side_and_its_fence() -> None:
    for (card_id, rot), card in DEFAULT.oriented.items():
        assert rot in ROTATIONS and card.card_id == card_id
        for side in range(4):
            facing = 1 << ((side + 2) % 4)
            assert card.adds[side] == (facing << KIND_SHIFT | (facing if card.arms[side] else 0))
