"""``_find_builds`` reuses the placements that fitted a town's previous board (issue 16): it must list
exactly what a plain search over every placement lists, on boards reached by play and by random edits."""

from __future__ import annotations

import random

import farmtable
from farmtable.games.tiny_towns import components as C
from farmtable.games.tiny_towns.patterns import PACK_SHIFT, SQUARE_NAMES, fit_table, placements, resource_counts
from farmtable.games.tiny_towns.rules import BUILD, SQUARES_IN_NAME_ORDER, Action, TinyTownsState, Town, build_targets


def reference_builds(state: TinyTownsState, town: Town) -> list[Action]:
    """Every placement of every building tried on its own, as the rulebook reads."""
    names = list(state.buildings)
    if town.monument and not town.built:
        names.append(town.monument)
    anywhere = town.has("Obelisk of the Crescent")
    grid = town.grid
    options: list[Action] = []
    for name in names:
        found: dict[int, tuple[int, ...]] = {}
        for pl in placements(state.pattern_of(name)):
            cells_ok = all(grid[sq] == res or grid[sq] == "Trading Post" for sq, res in pl.cells)
            if cells_ok and any(grid[sq] in C.RESOURCES for sq, _ in pl.cells):
                found.setdefault(pl.mask, pl.squares)
        actions = []
        for squares in found.values():
            real = [sq for sq in squares if grid[sq] in C.RESOURCES]
            empty = {sq for sq in range(C.SQUARES) if not grid[sq]}
            spots = set(real) | (empty if anywhere or name == "Shed" else set())
            actions += [Action(BUILD, name, squares, sq) for sq in SQUARES_IN_NAME_ORDER if sq in spots]
        actions.sort(key=lambda a: (tuple(SQUARE_NAMES[s] for s in a.squares), SQUARE_NAMES[a.target]))
        options += actions
    return options


def test_builds_equal_the_plain_search_along_random_games() -> None:
    game = farmtable.get_game("tiny-towns")
    checked = 0
    for seed in range(12):
        state = game.new_game(players=2, seed=seed)
        rng = random.Random(seed)
        while not state.is_over():
            for town in state.towns:
                assert state._find_builds(town) == reference_builds(state, town)
                checked += 1
            player = state.actors()[0]
            legal = state.legal_actions(player)
            state.apply(player, legal[rng.randrange(len(legal))])
    assert checked > 500


def test_builds_equal_the_plain_search_after_arbitrary_edits() -> None:
    """Cubes added, removed and swapped, Trading Posts and buildings put down: the kept fits stay right."""
    state = farmtable.get_game("tiny-towns").new_game(players=2, seed=5, variants=())
    town = state.towns[0]
    town.monument = "Obelisk of the Crescent"
    rng = random.Random(9)
    contents = ["", "", *C.RESOURCES, *C.RESOURCES, "Trading Post", "Cottage"]
    found_some = 0
    for step in range(400):
        for _ in range(rng.randint(1, 4)):
            town.grid[rng.randrange(C.SQUARES)] = rng.choice(contents)
        town.built = step % 50 > 40  # the Obelisk built: any building may go on an empty square
        builds = state._find_builds(town)
        assert builds == reference_builds(state, town)
        found_some += bool(builds)
    assert found_some > 50


def test_a_town_seen_for_the_first_time_is_searched_from_the_empty_board() -> None:
    """No remembered fits (a loaded or new town): every cube and Trading Post is a change from the empty
    board, so the placements through them are all the placements that can fit."""
    state = farmtable.get_game("tiny-towns").new_game(players=2, seed=3, variants=())
    rng = random.Random(4)
    contents = ["", "", *C.RESOURCES, *C.RESOURCES, *C.RESOURCES, "Trading Post", "Well"]
    found_some = 0
    for _ in range(300):
        town = Town()
        town.grid = [rng.choice(contents) for _ in range(C.SQUARES)]
        builds = state._find_builds(town)
        assert builds == reference_builds(state, town)
        found_some += bool(builds)
    assert found_some > 100


def test_resource_counts_count_the_pattern_cells() -> None:
    for card in C.ALL_CARDS.values():
        cells = placements(card.pattern)[0].cells
        assert resource_counts(card.pattern) == tuple(sum(1 for _, r in cells if r == res) for res in C.RESOURCES)


def test_build_targets_are_every_square_in_notation_order() -> None:
    listed = build_targets("Cottage", (0, 4, 5))
    assert [a for _, a in listed] == [Action(BUILD, "Cottage", (0, 4, 5), sq) for sq in SQUARES_IN_NAME_ORDER]
    assert [bit for bit, _ in listed] == [1 << sq for sq in SQUARES_IN_NAME_ORDER]
    assert build_targets("Cottage", (0, 4, 5)) is listed  # made once


def test_fit_tables_list_the_placements_by_what_they_need() -> None:
    for pattern in {card.pattern for card in C.ALL_CARDS.values()} | {C.MAUSOLEUM_ALT_PATTERN}:
        table = fit_table(pattern)
        for sq in range(C.SQUARES):
            assert table.anywhere[sq] == tuple(pair for pair in table.placements if pair[1] >> sq & 1)
            for i in range(len(C.RESOURCES)):
                wanted = tuple(pair for pair in table.placements if pair[0] >> (PACK_SHIFT * i + sq) & 1)
                assert table.through[i][sq] == wanted
        assert len(table.placements) == len(placements(pattern))
