"""Property tests: best-partition scoring against brute force, and invariants of random play."""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Iterator

from hypothesis import given, settings
from hypothesis import strategies as st

import farmtable
from farmtable.games.tiny_farms import components as c
from farmtable.games.tiny_farms import scoring
from farmtable.games.tiny_farms.rules import OVER, TinyFarmsState

CELLS = st.lists(st.integers(0, 15), min_size=0, max_size=8, unique=True)


def adjacent(a: int, b: int) -> bool:
    """Orthogonal neighbours on a 4x4 farm, computed from coordinates."""
    (ra, ca), (rb, cb) = divmod(a, 4), divmod(b, 4)
    return abs(ra - rb) + abs(ca - cb) == 1


def connected(block: list[int]) -> bool:
    """Whether the cells form one orthogonally connected group."""
    seen = {block[0]}
    frontier = [block[0]]
    while frontier:
        x = frontier.pop()
        for y in block:
            if y not in seen and adjacent(x, y):
                seen.add(y)
                frontier.append(y)
    return len(seen) == len(block)


def partitions(items: list[int]) -> Iterator[list[list[int]]]:
    """Every set partition of ``items``."""
    if not items:
        yield []
        return
    first, rest = items[0], items[1:]
    for sub in partitions(rest):
        yield [[first], *sub]
        for i in range(len(sub)):
            yield [*sub[:i], [first, *sub[i]], *sub[i + 1 :]]


def best(cells: list[int], block_points: Callable[[list[int]], int | None]) -> int:
    """The best total over all partitions whose blocks are all allowed (None: not allowed)."""
    top = 0
    for parts in partitions(cells):
        points = [block_points(b) for b in parts]
        if all(p is not None for p in points):
            top = max(top, sum(p for p in points if p is not None))
    return top


def pig_block(block: list[int]) -> int | None:
    """A single pig 1, two adjacent pigs 6, nothing else is a set."""
    if len(block) == 1:
        return 1
    if len(block) == 2 and connected(block):
        return 6
    return None


def sheep_block(block: list[int]) -> int | None:
    """A single sheep 0, two adjacent 2, three adjacent 12, nothing else is a set."""
    if len(block) <= 3 and connected(block):
        return (0, 0, 2, 12)[len(block)]
    return None


def mask(cells: list[int]) -> int:
    """The bit mask of a list of cells."""
    return sum(1 << i for i in cells)


@settings(max_examples=150, deadline=None)
@given(CELLS)
def test_pigs_score_the_best_partition(cells: list[int]) -> None:
    assert scoring.pig_points(mask(cells)) == best(cells, pig_block)


@settings(max_examples=150, deadline=None)
@given(CELLS)
def test_sheep_score_the_best_partition(cells: list[int]) -> None:
    assert scoring.sheep_points(mask(cells)) == best(cells, sheep_block)


@settings(max_examples=100, deadline=None)
@given(st.lists(st.integers(0, 2), min_size=5, max_size=5).filter(lambda xs: sum(xs) <= 7))
def test_forest_sets_are_the_best_grouping(counts: list[int]) -> None:
    friends = [kind for kind, n in enumerate(counts) for _ in range(n)]
    top = 0
    for parts in partitions(list(range(len(friends)))):
        kinds = [[friends[i] for i in block] for block in parts]
        if all(len(set(k)) == len(k) for k in kinds):
            top = max(top, sum(c.FOREST_SET_POINTS[len(k)] for k in kinds))
    assert scoring.forest_points(counts) == top


@settings(max_examples=25, deadline=None)
@given(
    seed=st.integers(0, 2**32),
    players=st.integers(1, 4),
    variant=st.sampled_from([(), ("emma-hard",), ("emma-epic", "emma-advanced")]),
)
def test_random_play_invariants(seed: int, players: int, variant: tuple[str, ...]) -> None:
    if players > 1:
        variant = ()
    game = farmtable.get_game("tiny-farms")
    state = game.new_game(players=players, seed=seed, variants=variant)
    assert isinstance(state, TinyFarmsState)
    rng = random.Random(seed)
    previous = [list(b) for b in state.boards]
    milk = list(state.milk)
    while not state.is_over():
        # the farmers never share a space; milk only goes down; written spaces are never rewritten
        assert state.red != state.blue
        player = state.actors()[0]
        legal = state.legal_actions(player)
        assert legal and len(legal) == len(set(legal))
        if rng.random() < 0.05:
            copy = game.from_json(state.to_json())
            assert copy.to_json() == state.to_json()
            clone = state.clone()
            clone.apply(player, legal[0])
            assert state.legal_actions(player) == legal
        state.apply(player, rng.choice(legal))
        for p in range(players):
            assert all(0 <= m <= c.START_MILK for m in state.milk)
            assert state.milk[p] <= milk[p]
            for before, after in zip(previous[p], state.boards[p], strict=True):
                assert before == c.EMPTY or after in (before, c.CROSSED)
        previous = [list(b) for b in state.boards]
        milk = list(state.milk)
        # Emma never overfills her card
        assert all(f <= cap for f, (_, _, cap) in zip(state.emma_filled, c.EMMA_TRACKS, strict=True))
    assert state.phase == OVER
    result = state.result()
    for sheet, total in zip(result.breakdown, result.totals, strict=True):
        assert sum(sheet.values()) == total and sheet["balance"] <= 0
    json.dumps(result.to_dict())
