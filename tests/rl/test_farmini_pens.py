"""The Farmini encoder's own pen finder (``rl.farmini.closed_regions``) finds the engine's pens."""

from __future__ import annotations

import random

import pytest

pytest.importorskip("numpy", reason="the rl extra is not installed")

import farmtable
from farmtable.games.farmini.farm import DEFAULT, Farm
from farmtable.rl.farmini import closed_regions, find_pens
from tests.rl.conftest import ready_or_skip

VARIANT_SETS = ((), ("gaps-not-enclosed",), ("second-variant",), ("penalty-per-empty-cell",))


def _pens(farm: Farm) -> list[tuple[list[tuple[int, int, int]], int]]:
    return sorted((sorted(pen.cells), len(pen.gaps)) for pen in farm.pens())


def _found(farm: Farm) -> list[tuple[list[tuple[int, int, int]], int]]:
    return sorted((sorted(cells), gaps) for cells, gaps in closed_regions(farm.cards, farm.gaps_enclose))


@pytest.mark.parametrize("variants", VARIANT_SETS)
def test_closed_regions_are_the_engines_pens_in_random_games(variants: tuple[str, ...]) -> None:
    """The farm of the mover after every move of random 2- and 4-player games: the same pens (cells and gap
    count) as ``Farm.pens()``."""
    ready_or_skip("farmini")
    game = farmtable.get_game("farmini")
    compared = 0
    for players, seed in ((2, 0), (2, 1), (4, 2), (4, 3)):
        state = game.new_game(players=players, seed=seed, variants=variants)
        rng = random.Random(seed)
        while not state.is_over():
            player = state.actors()[0]
            state.apply(player, rng.choice(state.legal_actions(player)))
            farm = state.farms[player]
            assert _found(farm) == _pens(farm), (variants, seed, state.to_json())
            compared += 1
    assert compared > 300


@pytest.mark.parametrize("gaps_enclose", [True, False])
def test_closed_regions_are_the_engines_pens_on_dense_random_layouts(gaps_enclose: bool) -> None:
    """Cards with two or more fenced arms laid at random in a small box, with holes (``put_card`` does not
    check the rules), and each such farm again without a card of one of its pens: layouts with many pens
    and several per farm, which random play seldom builds."""
    ready_or_skip("farmini")
    fenced = sorted(key for key, card in DEFAULT.oriented.items() if sum(card.arms) >= 2)
    rng = random.Random(11)
    compared = pens = several = 0
    for _ in range(600):
        farm = Farm(gaps_enclose=gaps_enclose, faces=DEFAULT)
        side = rng.randint(2, 5)
        for x in range(side):
            for y in range(side):
                if rng.random() < 0.85:
                    card_id, rot = rng.choice(fenced)
                    farm.put_card(card_id, (x - 2, y - 2), rot)
        if not farm.cards:
            continue
        layouts = [farm]
        for pen in farm.pens():  # the same farm without a card of a pen
            x, y, _ = pen.cells[0]
            holed = Farm(gaps_enclose=gaps_enclose, faces=DEFAULT)
            for pos, card in farm.cards.items():
                if pos != (x, y):
                    holed.put_card(card.card_id, pos, card.rot)
            layouts.append(holed)
        for layout in layouts:
            expected = _pens(layout)
            assert _found(layout) == expected, sorted((pos, o.card_id, o.rot) for pos, o in layout.cards.items())
            compared += 1
            pens += len(expected)
            several += len(expected) > 1
    assert compared > 500 and pens > 100 and several > 5, (compared, pens, several)


@pytest.mark.parametrize("gaps_enclose", [True, False])
def test_closed_regions_count_the_gaps_a_ring_of_fences_encloses(gaps_enclose: bool) -> None:
    """Rings of eight cards around a missing one (DA-FM7): with the gap reading a ring of fences around the
    hole is a pen enclosing one gap (the four all-fenced ``H1`` cards' corners around it); with the first
    reading the hole leaves it open. Random rings of cards with three or four fences, some inside a
    larger ring, give both."""
    ready_or_skip("farmini")
    ring = [(x, y) for x in (-1, 0, 1) for y in (-1, 0, 1) if (x, y) != (0, 0)]
    farm = Farm(gaps_enclose=gaps_enclose, faces=DEFAULT)
    for pos in ring:
        farm.put_card("H1", pos, 0)
    expected = _pens(farm)
    assert _found(farm) == expected
    assert any(gaps == 1 for _, gaps in expected) == gaps_enclose
    fenced = sorted(key for key, card in DEFAULT.oriented.items() if sum(card.arms) >= 3)
    rng = random.Random(5)
    gapped = 0
    for _ in range(300):
        farm = Farm(gaps_enclose=gaps_enclose, faces=DEFAULT)
        reach = rng.choice((1, 2))
        for x in range(-reach, reach + 1):
            for y in range(-reach, reach + 1):
                if (x, y) != (0, 0) and (max(abs(x), abs(y)) == 1 or rng.random() < 0.7):
                    card_id, rot = rng.choice(fenced)
                    farm.put_card(card_id, (x, y), rot)
        expected = _pens(farm)
        assert _found(farm) == expected, sorted((pos, o.card_id, o.rot) for pos, o in farm.cards.items())
        gapped += any(gaps for _, gaps in expected)
    assert (gapped > 10) == gaps_enclose, gapped


@pytest.mark.parametrize("variants", [(), ("gaps-not-enclosed",)])
def test_pens_found_card_by_card_equal_a_fresh_flood(variants: tuple[str, ...]) -> None:
    """``find_pens`` with the parent layout's pens (flooding only from the new card's corners) finds what a
    fresh flood finds and what ``Farm.pens()`` finds: card by card through random games, and through
    dense random layouts laid in a random order (cards far outside the box: a fresh flood)."""
    ready_or_skip("farmini")
    game = farmtable.get_game("farmini")
    compared = 0
    for players, seed in ((2, 4), (3, 5), (4, 6)):
        state = game.new_game(players=players, seed=seed, variants=variants)
        rng = random.Random(seed)
        kept = [find_pens(farm.cards, farm.gaps_enclose) for farm in state.farms]
        while not state.is_over():
            player = state.actors()[0]
            before = len(state.farms[player].cards)
            state.apply(player, rng.choice(state.legal_actions(player)))
            farm = state.farms[player]
            if len(farm.cards) > before:
                kept[player] = find_pens(farm.cards, farm.gaps_enclose, kept[player])
                got = sorted((sorted(cells), gaps) for _, cells, gaps in kept[player].pens)
                assert got == _found(farm) == _pens(farm), (variants, seed, state.to_json())
                compared += 1
    fenced = sorted(key for key, card in DEFAULT.oriented.items() if sum(card.arms) >= 2)
    gaps_enclose = "gaps-not-enclosed" not in variants
    pens = 0
    for _ in range(150):
        positions = [(x, y) for x in range(-2, 3) for y in range(-2, 3) if rng.random() < 0.85]
        rng.shuffle(positions)
        farm = Farm(gaps_enclose=gaps_enclose, faces=DEFAULT)
        found = None
        for pos in positions:
            card_id, rot = rng.choice(fenced)
            farm.put_card(card_id, pos, rot)
            found = find_pens(farm.cards, gaps_enclose, found)
            got = sorted((sorted(cells), gaps) for _, cells, gaps in found.pens)
            assert got == _pens(farm), sorted((p, o.card_id, o.rot) for p, o in farm.cards.items())
            compared += 1
            pens += len(got)
    assert compared > 2000 and pens > 200, (compared, pens)
