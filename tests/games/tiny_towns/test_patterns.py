"""Pattern geometry: orientations, placements on the 4x4 town, neighbourhoods, square names."""

from __future__ import annotations

import pytest

from farmtable.games.tiny_towns import components as C
from farmtable.games.tiny_towns.patterns import (
    ADJACENT,
    AROUND,
    COLUMN,
    ROW,
    SQUARE_NAMES,
    orientations,
    parse_pattern,
    placements,
)


@pytest.mark.parametrize(
    ("name", "turns", "count"),
    [
        # an L of three different resources: 4 corners x 2 ways round
        ("Cottage", 8, 8 * 9),
        # two rows of a kind: symmetric under one mirror, 4 distinct; a 2x2 box fits 9 ways
        ("Farm", 4, 4 * 9),
        # a domino W S: 2 directions x 2 ways round; 12 positions each way
        ("Well", 4, 4 * 12),
        # B B G in a line: 4; a 1x3 line fits 8 ways in each direction
        ("Tavern", 4, 4 * 8),
        # 4x2 with one corner wood: 8 orientations, 3 positions each
        ("Factory", 8, 8 * 3),
        # 3x2 T-shapes symmetric about the middle: 4 orientations, 6 positions each
        ("Theater", 4, 4 * 6),
    ],
)
def test_orientations_and_placements(name: str, turns: int, count: int) -> None:
    pattern = C.BUILDINGS[name].pattern
    assert len(orientations(parse_pattern(pattern))) == turns
    assert len(placements(pattern)) == count


def test_every_card_pattern_fits_the_town_and_every_placement_is_distinct() -> None:
    for name, card in C.ALL_CARDS.items():
        found = placements(card.pattern)
        assert found, name
        cells = [p.cells for p in found]
        assert len(set(cells)) == len(cells)
        size = len(parse_pattern(card.pattern))
        assert all(len(p.squares) == size for p in found)


def test_square_names_and_neighbourhoods() -> None:
    assert SQUARE_NAMES[0] == "A1" and SQUARE_NAMES[3] == "D1" and SQUARE_NAMES[15] == "D4"
    assert [SQUARE_NAMES[q] for q in ADJACENT[5]] == ["B1", "A2", "C2", "B3"]
    assert len(AROUND[5]) == 8 and len(AROUND[0]) == 3
    assert [SQUARE_NAMES[q] for q in ROW[5]] == ["A2", "C2", "D2"]
    assert [SQUARE_NAMES[q] for q in COLUMN[5]] == ["B1", "B3", "B4"]


def test_bad_pattern_letters_are_refused() -> None:
    with pytest.raises(ValueError, match="unknown resource letter"):
        parse_pattern("X W")


def test_component_data_is_complete_and_consistent() -> None:
    assert len(C.BUILDINGS) == 25 and len(C.MONUMENTS) == 15
    assert all(len(cards) == 4 for cards in C.PILE_CARDS.values())
    assert len(set(C.CODES.values())) == 25
    assert sorted(C.RESOURCE_DECK) == sorted(r for r in C.RESOURCES for _ in range(3))
    for card in C.ALL_CARDS.values():
        assert card.source.startswith(("FOUND", "DERIVED", "DA-"))
