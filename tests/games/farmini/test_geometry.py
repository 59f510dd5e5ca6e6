"""Card geometry: rotation, side matching (rulebook, Fence Cards) and pens (enclosed fences)."""

from __future__ import annotations

import pytest

from farmtable.games.farmini.components import CARDS_V1
from farmtable.games.farmini.farm import (
    DEFAULT,
    DISTINCT_ROTATIONS,
    FACES,
    ORIENTED,
    Faces,
    Farm,
    canonical_rotation,
)
from tests.games.farmini.builders import NESTED_PENS, PEN_2X2, PEN_2X2_WITH_ANIMAL_CELL, farm

N, E, S, W = 0, 1, 2, 3
NE, SE, SW, NW = 0, 1, 2, 3


# --- rotation ---------------------------------------------------------------------------------


def test_rotation_turns_arms_and_quarters_clockwise() -> None:
    # C7 is printed with fences N and E and quarters NE=C, SE=C, SW=G, NW=G.
    printed = ORIENTED["C7", 0]
    assert printed.arms == (True, True, False, False)
    assert printed.quarters == "CCGG"
    # Turned 90 degrees clockwise the north arm points east and the east arm south;
    # the NE quarter becomes SE, SE becomes SW.
    turned = ORIENTED["C7", 90]
    assert turned.arms == (False, True, True, False)
    assert turned.quarters == "GCCG"
    half = ORIENTED["C7", 180]
    assert half.arms == (False, False, True, True)
    assert half.quarters == "GGCC"
    three = ORIENTED["C7", 270]
    assert three.arms == (True, False, False, True)
    assert three.quarters == "CGGC"


def test_farm_card_is_a_full_fence_cross_with_one_cornfield() -> None:
    # DA-FM2: arms N, E, S, W are fences; NE cornfield, three animal cells.
    card = ORIENTED["H1", 0]
    assert card.arms == (True, True, True, True)
    assert card.quarters == "CAAA"


V1 = FACES[CARDS_V1]


@pytest.mark.parametrize(
    ("card", "rotations", "faces"),
    [
        ("F1", (0,), V1),  # cards-v1: no fence, all pasture: every turn looks the same
        ("D5", (0, 90), V1),  # cards-v1: straight fence over plain pasture: half a turn looks the same
        ("F1", (0, 90, 180, 270), DEFAULT),  # revised: one cornfield, so every turn differs
        ("A4", (0, 90), DEFAULT),  # fence cross with corn NE and SW: half a turn looks the same
        ("A1", (0, 90, 180, 270), DEFAULT),  # fence cross with C G A G: every turn differs
        ("C7", (0, 90, 180, 270), DEFAULT),
    ],
)
def test_only_distinct_looking_rotations_are_offered(card: str, rotations: tuple[int, ...], faces: Faces) -> None:
    assert faces.distinct_rotations[card] == rotations
    if faces is DEFAULT:
        assert DISTINCT_ROTATIONS[card] == rotations


def test_canonical_rotation_maps_look_alikes_to_the_smallest() -> None:
    assert canonical_rotation("F1", 270, V1) == 0
    assert canonical_rotation("D5", 180, V1) == 0
    assert canonical_rotation("D5", 270, V1) == 90
    assert canonical_rotation("F1", 270) == 270  # revised F1 shows a cornfield
    assert canonical_rotation("A4", 180) == 0
    assert canonical_rotation("A1", 180) == 180


# --- side matching ----------------------------------------------------------------------------


def _farm_with_origin(card: str, rot: int = 0) -> Farm:
    f = Farm()
    f.put_card(card, (0, 0), rot)
    return f


@pytest.mark.parametrize(("side", "pos"), [(N, (0, 1)), (E, (1, 0)), (S, (0, -1)), (W, (-1, 0))])
def test_fence_must_meet_fence_on_every_side(side: int, pos: tuple[int, int]) -> None:
    farm_card = _farm_with_origin("H1")  # fences on all four sides
    # A1 has fences on all four arms: fits on every side of the farm card.
    assert farm_card.fits(ORIENTED["A1", 0], pos)
    # F1 has no fence at all: its side facing the farm is pasture, the farm's is fence.
    assert not farm_card.fits(ORIENTED["F1", 0], pos)
    reason = farm_card.misfit(ORIENTED["F1", 0], pos)
    assert reason is not None and "sides must match" in reason and "pasture" in reason


@pytest.mark.parametrize(("side", "pos"), [(N, (0, 1)), (E, (1, 0)), (S, (0, -1)), (W, (-1, 0))])
def test_pasture_must_meet_pasture_on_every_side(side: int, pos: tuple[int, int]) -> None:
    meadow = _farm_with_origin("F1")  # all pasture
    assert meadow.fits(ORIENTED["F3", 0], pos)
    assert not meadow.fits(ORIENTED["A1", 0], pos)  # fence against pasture


def test_rotation_makes_a_card_fit() -> None:
    # D1 (fences N and S) east of the farm card: its west side must be a fence.
    f = _farm_with_origin("H1")
    assert not f.fits(ORIENTED["D1", 0], (1, 0))  # W arm is pasture
    assert f.fits(ORIENTED["D1", 90], (1, 0))  # turned: fences E and W
    placements = list(f.placements("D1"))
    assert ((1, 0), 90) in placements and ((1, 0), 0) not in placements
    # north of the farm card it fits unturned (fence S meets fence N)
    assert ((0, 1), 0) in placements


def test_every_touching_side_must_match_not_just_one() -> None:
    # An L: farm at 0,0 (fences all round) and D5 rot 90 at 1,0 (fences E, W; pasture N, S).
    f = farm("farm at 0,0\nD5 at 1,0 rot 90")
    # At 1,1 a card touches D5's pasture north side (needs S = pasture) and nothing else.
    assert f.fits(ORIENTED["F1", 0], (1, 1))
    # At 0,1 a card touches the farm's north fence only.
    assert f.fits(ORIENTED["A1", 0], (0, 1))
    # Now put A1 at 0,1: position 1,1 touches A1's east fence (needs W fence) and D5's north
    # pasture (needs S pasture): C-cards turned 270 have W and N, so S is pasture -> fits;
    # F1 (no W fence) does not, nor does a card with a S fence.
    f.put_card("A1", (0, 1), 0)
    assert f.fits(ORIENTED["C1", 270], (1, 1))
    assert not f.fits(ORIENTED["F1", 0], (1, 1))
    assert not f.fits(ORIENTED["A2", 0], (1, 1))


def test_card_must_touch_the_farm_and_not_cover_a_card() -> None:
    f = _farm_with_origin("H1")
    assert not f.fits(ORIENTED["A1", 0], (1, 1))  # only a corner touches
    assert "must touch" in (f.misfit(ORIENTED["A1", 0], (1, 1)) or "")
    assert not f.fits(ORIENTED["A1", 0], (0, 0))
    assert "already holds" in (f.misfit(ORIENTED["A1", 0], (0, 0)) or "")
    assert (1, 1) not in f.frontier()


# --- pens --------------------------------------------------------------------------------------


def test_a_lone_farm_card_has_no_pen() -> None:
    f = _farm_with_origin("H1")
    assert f.pens() == []
    assert len(f.regions()) == 4  # the fence cross splits the four quarters


def test_four_cards_around_a_corner_close_one_pen() -> None:
    f = farm(PEN_2X2)
    pens = f.pens()
    assert len(pens) == 1
    assert set(pens[0].cells) == {(0, 0, NE), (1, 0, NW), (0, 1, SE), (1, 1, SW)}


def test_open_pen_when_a_card_is_missing() -> None:
    # Three of the four cards: the corner quarters face the empty place (1,1): open.
    f = farm("farm at 0,0\nC1 at 1,0 rot 270\nC3 at 0,1 rot 90")
    assert f.pens() == []


def test_open_pen_when_a_fence_is_missing() -> None:
    # (1,0) is D5 turned 90 (fences E, W): its north arm is pasture, so the corner region
    # leaks into D5's NE quarter, which faces the empty place (2,0). (E1 turned 270 has only
    # a west fence, matching C3's east fence and D5's pasture north side.)
    f = farm("farm at 0,0\nD5 at 1,0 rot 90\nC3 at 0,1 rot 90\nE1 at 1,1 rot 270")
    assert f.pens() == []


def test_pen_spanning_two_corners_when_the_fence_between_them_is_pasture() -> None:
    # 3 x 2 cards; the arm between the two inner corners is pasture (D cards turned 90).
    text = """
    farm at 0,0
    D1 at 1,0 rot 90
    C1 at 2,0 rot 270
    C3 at 0,1 rot 90
    D2 at 1,1 rot 90
    C7 at 2,1 rot 180
    """
    pens = farm(text).pens()
    assert len(pens) == 1
    assert len(pens[0].cells) == 8


def test_fence_between_two_corners_makes_two_pens() -> None:
    # Same 3 x 2 outline but the middle cards have a fence between the corners (B turned).
    text = """
    farm at 0,0
    B1 at 1,0 rot 270
    C1 at 2,0 rot 270
    C3 at 0,1 rot 90
    B2 at 1,1 rot 90
    C7 at 2,1 rot 180
    """
    pens = farm(text).pens()
    assert sorted(len(p.cells) for p in pens) == [4, 4]


def test_nested_pens_a_ring_pen_around_an_inner_pen() -> None:
    # 4 x 4 cards: the centre corner is fenced all round (inner pen, 4 quarters) and the
    # eight corners around it form one ring-shaped pen (8 corners x 4 quarters = 32).
    f = farm(NESTED_PENS)
    pens = sorted(f.pens(), key=lambda p: len(p.cells))
    assert [len(p.cells) for p in pens] == [4, 32]
    inner = set(pens[0].cells)
    assert inner == {(1, 1, NE), (2, 1, NW), (1, 2, SE), (2, 2, SW)}
    assert not inner & set(pens[1].cells)


RING_AROUND_A_GAP = """
farm at 0,0
A1 at 1,0
A2 at 2,0
A3 at 0,1
A4 at 2,1
H2 at 0,2
H3 at 1,2
H4 at 2,2
"""
"""A 3 x 3 ring of fence crosses around an empty centre (1,1): every inner corner touches the gap."""


def test_first_reading_a_gap_inside_the_farm_opens_the_pens_touching_it() -> None:
    # Variant gaps-not-enclosed (the first reading): a quarter facing a missing card is never enclosed.
    f = farm("variant gaps-not-enclosed\n" + RING_AROUND_A_GAP)
    assert f.pens() == []
    # The deck has no ninth fence cross to fill the gap; a solid 3 x 2 block of fence crosses
    # closes both of its inner corners.
    block = farm("farm at 0,0\nA1 at 1,0\nA2 at 2,0\nA3 at 0,1\nA4 at 1,1\nH2 at 2,1")
    assert sorted(len(p.cells) for p in block.pens()) == [4, 4]


def test_gap_reading_a_ring_around_a_missing_card_is_one_enclosed_fence() -> None:
    # Default (DA-FM7): the four inner corners meet through the gap and form one enclosed fence of
    # 12 quarters around it: (0,0)/NE, (0,1)/NE+SE, (0,2)/SE, (1,0)/NE+NW, (1,2)/SE+SW, (2,0)/NW,
    # (2,1)/SW+NW, (2,2)/SW.
    f = farm(RING_AROUND_A_GAP)
    pens = f.pens()
    assert len(pens) == 1
    assert pens[0].gaps == ((1, 1),)
    assert len(pens[0].cells) == 12
    assert (0, 0, NE) in pens[0].cells and (2, 2, SW) in pens[0].cells
    # A gap on the edge of the farm is open field, not a gap inside a fence.
    edge = farm("farm at 0,0\nA1 at 1,0\nA2 at 2,0\nA3 at 0,1\nA4 at 2,1")
    assert all(not p.gaps for p in edge.pens())


def test_regions_partition_every_quarter() -> None:
    f = farm(PEN_2X2_WITH_ANIMAL_CELL)
    cells = [c for r in f.regions() for c in r.cells]
    assert len(cells) == len(set(cells)) == 4 * len(f.cards)


def test_is_connected() -> None:
    f = farm(PEN_2X2)
    assert f.is_connected()
    f.put_card("F1", (5, 5), 0)
    assert not f.is_connected()
