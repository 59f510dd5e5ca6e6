"""Hypothesis properties: legal lists, refusals, the board's bookkeeping, scoring and saves."""

from __future__ import annotations

import random
from itertools import combinations

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from farmtable.core import IllegalAction
from farmtable.games.tiny_towns import components as C
from farmtable.games.tiny_towns.patterns import AROUND, COLUMN, ROW
from farmtable.games.tiny_towns.rules import GAME, Action, TinyTownsState
from farmtable.games.tiny_towns.scoring import TownFacts, best_feeding, cottage_groups, score_buildings

VARIANT_SETS = [(), ("cavern",), ("town-hall",), ("first-game", "no-monuments")]


def _play(players: int, variants: tuple[str, ...], seed: int, steps: int) -> TinyTownsState:
    state = GAME.new_game(players=players, seed=seed, variants=variants)
    rng = random.Random(seed)
    for _ in range(steps):
        if state.is_over():
            break
        p = rng.choice(state.actors())
        state.apply(p, rng.choice(state.legal_actions(p)))
    return state


def _buildings(state: TinyTownsState, p: int) -> int:
    return sum(1 for v in state.towns[p].grid if v in C.ALL_CARDS)


@settings(max_examples=25, deadline=None)
@given(
    players=st.integers(2, 6),
    variant=st.sampled_from(VARIANT_SETS),
    seed=st.integers(0, 10**6),
    steps=st.integers(0, 150),
)
def test_legal_lists_are_exact_distinct_and_refusals_change_nothing(
    players: int, variant: tuple[str, ...], seed: int, steps: int
) -> None:
    state = _play(players, variant, seed, steps)
    if state.is_over():
        return
    for p in state.actors():
        legal = state.legal_actions(p)
        assert legal and len(set(legal)) == len(legal)
        for action in legal:
            state.check_action(p, action)  # every legal action passes
            assert str(action) == str(state.parse_action(p, str(action)))
        before = state.to_json()
        for wrong in (
            Action("place", "wood", target=99 % 16),
            Action("build", "Cottage", (0, 1, 4), 0),
            Action("done"),
        ):
            if wrong not in legal:
                try:
                    state.check_action(p, wrong)
                except IllegalAction as exc:
                    assert str(exc)
                else:
                    raise AssertionError(f"{wrong} was accepted")
        assert state.to_json() == before


@settings(max_examples=20, deadline=None)
@given(players=st.integers(1, 6), seed=st.integers(0, 10**6))
def test_buildings_never_disappear_and_each_round_places_one_resource(players: int, seed: int) -> None:
    state = GAME.new_game(players=players, seed=seed, variants=("cavern",) if players > 1 else ())
    rng = random.Random(seed)
    while not state.is_over():
        p = rng.choice(state.actors())
        counts = [_buildings(state, q) for q in range(players)]
        before_place = state.phase == "place"
        snapshot = [
            (
                16 - state.towns[q].grid.count(""),
                len(state.towns[q].cavern),
                state.towns[q].warehouse_cubes(),
                len(state.towns[q].statue),
            )
            for q in range(players)
        ]
        state.apply(p, rng.choice(state.legal_actions(p)))
        assert all(_buildings(state, q) >= counts[q] for q in range(players))
        if before_place and state.phase != "place":  # the placements were just revealed
            for q in range(players):
                filled, cavern, stored, statue = snapshot[q]
                now = state.towns[q]
                gained = (
                    (16 - now.grid.count("") - filled)
                    + (len(now.cavern) - cavern)
                    + (now.warehouse_cubes() - stored)
                    + (len(now.statue) - statue)
                )
                placer = not now.complete and not state.sits_out(q)
                assert gained == (1 if placer else 0)  # one resource for each player who placed
    result = state.result()
    for total, sheet in zip(result.totals, result.breakdown, strict=True):
        assert total == sum(sheet.values())


TOKENS = ["", "wood", "Cottage", "Cottage", "Cottage", "Farm", "Greenhouse", "Granary", "Orchard", "Temple", "Chapel"]
MAX_BRUTE_COTTAGES = 9


def _brute_force_best(grid: list[str]) -> int:
    """Best total over every fed set the feeders allow, found independently of scoring.py's search."""
    cottages = [q for q, v in enumerate(grid) if v == "Cottage"]
    fixed: set[int] = set()
    for sq, v in enumerate(grid):
        if v == "Granary":
            fixed |= {q for q in AROUND[sq] if grid[q] == "Cottage"}
        if v == "Orchard":
            fixed |= {q for q in ROW[sq] + COLUMN[sq] if grid[q] == "Cottage"}
    groups = cottage_groups(grid)
    greenhouse_choices = [
        set().union(*combo)
        for k in range(grid.count("Greenhouse") + 1)
        for combo in combinations(groups, min(k, len(groups)))
    ]
    capacity = 4 * grid.count("Farm")
    best = None
    for size in range(len(cottages) + 1):
        for fed in combinations(cottages, size):
            wanted = set(fed)
            if any(len(wanted - fixed - chosen) <= capacity for chosen in greenhouse_choices):
                points = sum(score_buildings(TownFacts(grid), frozenset(wanted), None, frozenset()).values())
                best = points if best is None else max(best, points)
    assert best is not None
    return best


@settings(max_examples=150, deadline=None)
@given(st.lists(st.sampled_from(TOKENS), min_size=16, max_size=16))
def test_best_feeding_equals_a_brute_force_over_every_allowed_fed_set(grid: list[str]) -> None:
    assume(grid.count("Cottage") <= MAX_BRUTE_COTTAGES)
    best, _fed = best_feeding(TownFacts(grid), None, frozenset())
    assert sum(best.values()) == _brute_force_best(grid)
    assert sum(score_buildings(TownFacts(grid), frozenset(), None, frozenset()).values()) <= sum(best.values())


@settings(max_examples=15, deadline=None)
@given(players=st.integers(1, 6), seed=st.integers(0, 10**6), steps=st.integers(0, 200))
def test_saves_round_trip_exactly(players: int, seed: int, steps: int) -> None:
    state = _play(players, (), seed, steps)
    text = state.to_json()
    again = GAME.from_json(text)
    assert again.to_json() == text
    assert again.clone().to_json() == text
