"""The turn structure's fast paths (issue 16, session 10) against the plain computations they stand for,
on every position of random games over player counts, variants and building sets."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

import farmtable
from farmtable.games.tiny_towns import components as C
from farmtable.games.tiny_towns.patterns import (
    ALL_SQUARES_MASK,
    RANK_SHIFT,
    SQUARE_NAMES,
    fit_table,
    parse_pattern,
    placements,
)
from farmtable.games.tiny_towns.rules import (
    ACTORS_KEY,
    BIT_SELECTORS,
    BUILD_PHASE,
    CAVERN,
    CAVERN_VERB,
    NAME_ACTIONS,
    NAME_PHASE,
    PLACE,
    PLACE_ACTIONS,
    PLACE_PHASE,
    STORE,
    TAG_SHIFT,
    TOWN_HALL,
    Action,
    TinyTownsState,
    build_search,
    tagged_table,
)

GAME = farmtable.get_game("tiny-towns")
STORING = ["Cottage", "Farm", "Well", "Theater", "Chapel", "Tavern", "Warehouse"]
SWAPPING = ["Cottage", "Granary", "Shed", "Bakery", "Temple", "Inn", "Factory"]
SETTINGS: list[tuple[int, tuple[str, ...], list[str] | None]] = [
    (1, (), None),
    (2, (), None),
    (2, (CAVERN,), STORING),
    (3, (TOWN_HALL,), SWAPPING),
    (4, (CAVERN,), SWAPPING),
    (2, (TOWN_HALL, CAVERN), STORING),
    (5, (), None),
]


def plain_placement_options(state: TinyTownsState, player: int) -> list[Action]:
    """Rulebook "Resource Placement" with the Factory, Warehouse, Statue and Cavern, written plainly."""
    town = state.towns[player]
    empties = [sq for sq in range(C.SQUARES) if not town.grid[sq]]
    others = state.named_by_another(player)
    if state.free_round:
        forbidden = state.forbidden_by_banks(player)
        kinds = [r for r in C.RESOURCES if r not in forbidden]
    elif others and state.named in town.factory.values():
        kinds = list(C.RESOURCES)
    else:
        kinds = [state.named]
    options = [Action(PLACE, r, target=sq) for r in kinds for sq in empties]
    if not others:
        return options
    named = state.named
    if town.has("Statue of the Bondmaker"):
        cottages = [sq for sq, v in enumerate(town.grid) if v == "Cottage" and sq not in town.statue]
        options += [Action(PLACE, named, target=sq) for sq in cottages]
    for where in sorted(town.stored):
        cubes = town.stored[where]
        if len(cubes) < C.WAREHOUSE_CAPACITY:
            options.append(Action(STORE, named, (where,)))
        for taken in sorted(set(cubes) - {named}):
            options += [Action(STORE, named, (where,), sq, taken) for sq in empties]
    if CAVERN in state.variants and len(town.cavern) < C.CAVERN_CAPACITY:
        options.append(Action(CAVERN_VERB, named))
    return options


def positions(games: int) -> Iterator[TinyTownsState]:
    """Every position of ``games`` random games per setting (every actor of a simultaneous step moves)."""
    for players, variants, buildings in SETTINGS:
        options = {"buildings": buildings} if buildings else {}
        for seed in range(games):
            state = GAME.new_game(players=players, seed=seed, variants=variants, **options)
            rng = random.Random(seed)
            while not state.is_over():
                yield state
                for player in state.actors():
                    legal = state.legal_actions(player)
                    state.apply(player, legal[rng.randrange(len(legal))])
                    if state.is_over():
                        break
                    yield state


def test_actors_carried_by_a_move_are_the_actors_computed_afresh() -> None:
    """``_do`` hands the next position the actors it found (a placement or ``done`` taking one player out,
    the Master Builder after a round): they equal ``_compute_actors`` of the new position."""
    carried = 0
    for state in positions(6):
        kept = state._cache.get(ACTORS_KEY)
        if kept is not None:
            carried += 1
            assert kept == state._compute_actors()
        assert state.actors() == state._compute_actors()
    assert carried > 2000


def test_placement_options_equal_the_plain_rules() -> None:
    """The fast path (the named resource on each empty square, when nothing else can apply) and the full
    path both list what the plain rules list, in the same order."""
    seen = {"factory": 0, "stored": 0, "cavern": 0, "free": 0, "plain": 0}
    for state in positions(8):
        if state.phase != PLACE_PHASE:
            continue
        for p in state.actors():
            town = state.towns[p]
            assert state.placement_options(p) == plain_placement_options(state, p)
            seen["factory"] += bool(town.factory)
            seen["stored"] += bool(town.stored)
            seen["cavern"] += CAVERN in state.variants
            seen["free"] += state.free_round
            seen["plain"] += not (town.factory or town.stored or town.built or state.free_round)
    assert min(seen.values()) > 20, seen


def test_name_actions_equal_the_nameable_resources() -> None:
    named = 0
    for state in positions(6):
        if state.phase == NAME_PHASE:
            (player,) = state.actors()
            assert state.legal_actions(player) == [NAME_ACTIONS[r] for r in state.nameable(player)]
            named += 1
    assert named > 300


def test_build_lists_end_with_done_and_list_the_builds() -> None:
    checked = 0
    for state in positions(3):
        if state.phase == BUILD_PHASE:
            for p in state.actors():
                if not state.towns[p].pending:
                    legal = state.legal_actions(p)
                    assert legal[:-1] == state.build_options(p)
                    assert str(legal[-1]) == "done"
                    checked += 1
    assert checked > 300


@pytest.mark.parametrize("pattern", sorted({card.pattern for card in C.ALL_CARDS.values()} | {C.MAUSOLEUM_ALT_PATTERN}))
def test_ranked_masks_sort_placements_in_notation_order(pattern: str) -> None:
    table = fit_table(pattern)
    squares_of = {pl.mask: pl.squares for pl in placements(pattern)}
    ranked = sorted({r for _, r in table.placements})
    masks = [r & ALL_SQUARES_MASK for r in ranked]
    assert sorted(masks, key=lambda m: [SQUARE_NAMES[s] for s in squares_of[m]]) == masks
    assert [r >> RANK_SHIFT for r in ranked] == list(range(len(ranked)))
    assert set(masks) == set(squares_of)


def test_search_tables_equal_their_plain_definitions() -> None:
    rng = random.Random(3)
    for _ in range(40):
        names = ("Cottage", *(rng.choice(C.PILE_CARDS[pile]) for pile in C.PILES), rng.choice(list(C.MONUMENTS)))
        patterns = tuple(C.ALL_CARDS[n].pattern for n in names)
        search = build_search(names, patterns)
        cells = [[r for _, _, r in parse_pattern(p)] for p in patterns]
        counts = [[needed.count(res) for res in C.RESOURCES] for needed in cells]
        for i in range(len(C.RESOURCES)):
            for n in range(C.SQUARES + 1):
                plain = sum(1 << k for k, c in enumerate(counts) if c[i] <= n)
                assert search.enough[i][n] == plain
            assert search.needing[i] == sum(1 << k for k, c in enumerate(counts) if c[i])
        assert all(len(row) == C.SQUARES + 1 and row[-1] == (1 << len(names)) - 1 for row in search.enough)
        for buildings in rng.sample(range(1 << len(names)), 20):
            assert BIT_SELECTORS[buildings][: len(names)] == tuple(bool(buildings >> k & 1) for k in range(len(names)))
            for i in range(len(C.RESOURCES)):
                assert search.able_for(buildings, i) == tuple(
                    e for k, e in enumerate(search.by_resource[i]) if buildings >> k & 1
                )
            assert search.able_of(buildings) == tuple(e for k, e in enumerate(search.through) if buildings >> k & 1)


@pytest.mark.parametrize("k", [0, 3, 7])
def test_tagged_tables_are_the_fit_tables_with_the_building_number(k: int) -> None:
    for pattern in {card.pattern for card in C.ALL_CARDS.values()}:
        table = fit_table(pattern)
        through, anywhere, needed = tagged_table(pattern, k)
        base = k << TAG_SHIFT
        for i in range(len(C.RESOURCES)):
            for sq in range(C.SQUARES):
                assert through[i][sq] == tuple((need, base + ranked) for need, ranked in table.through[i][sq])
        for sq in range(C.SQUARES):
            assert anywhere[sq] == tuple((need, base + ranked) for need, ranked in table.anywhere[sq])
        cells = [r for _, _, r in parse_pattern(pattern)]
        assert needed == tuple((1 << k) if res in cells else 0 for res in C.RESOURCES)


def test_build_actions_of_a_placement_equal_the_filtered_targets() -> None:
    names = tuple(C.FIRST_GAME_SET)
    search = build_search(names, tuple(C.ALL_CARDS[n].pattern for n in names))
    rng = random.Random(5)
    for k, table in enumerate(search.tables):
        for _, ranked in table.placements:
            tag = k << TAG_SHIFT | ranked
            for _ in range(3):
                spots = rng.randrange(1 << C.SQUARES)
                listed = search.list_targets(tag)
                assert search.actions_of(tag, spots) == [a for bit, a in listed if spots & bit]
                assert [a.what for a in search.actions_of(tag, spots)] == [names[k]] * bin(spots).count("1")


def test_place_actions_are_made_once() -> None:
    for r in C.RESOURCES:
        assert [str(a) for a in PLACE_ACTIONS[r]] == [f"place {r} {SQUARE_NAMES[sq]}" for sq in range(C.SQUARES)]
