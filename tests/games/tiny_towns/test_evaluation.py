"""The Tiny Towns evaluation: it knows what a town is worth, on the final score's scale.

Hand-built towns are 16 tokens, row by row (A1 B1 C1 D1 / A2 ...): ``.`` empty, W H B G S
cubes, three-letter building codes (see ``builder.py``). Each comparison pits two towns that
score the same as they stand, so only the evaluation's knowledge of the rest of the game can
tell them apart. The first-game set is in play: Cottage, Farm, Well, Theater, Chapel, Tavern,
Factory.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

from farmtable.games.tiny_towns import components as C
from farmtable.games.tiny_towns import evaluation as E
from farmtable.games.tiny_towns.rules import GAME, NAME_PHASE, PLACE_PHASE, TinyTownsState
from tests.games.tiny_towns.builder import position

EMPTY = ". . . ."


def town(*rows: str) -> str:
    """Join four rows of four tokens (missing rows are empty)."""
    return " ".join([*rows, *[EMPTY] * (4 - len(rows))])


def solo(text: str) -> TinyTownsState:
    """A solo position in the building step with this town."""
    return position([text])


def value(text: str) -> float:
    """The solo evaluation of a town."""
    return solo(text).evaluate()[0]


def feature(text: str, name: str) -> float:
    """One feature of a solo town."""
    return float(E.town_features(solo(text), 0)[E.FEATURES.index(name)])


def played(players: int, seed: int, moves: int | None = None) -> TinyTownsState:
    """A game played at random for ``moves`` decisions (to the end when None)."""
    state = GAME.new_game(players=players, seed=seed)
    rng = random.Random(seed)
    step = 0
    while not state.is_over() and (moves is None or step < moves):
        player = state.actors()[0]
        state.apply(player, rng.choice(state.legal_actions(player)))
        step += 1
    return state


# --- what a town is worth ------------------------------------------------------------------------


def test_fed_cottages_beat_unfed_ones() -> None:
    fed = town("COT COT COT FAR")
    unfed = town("COT COT COT FAC")  # a Factory scores 0 like a Farm, but feeds nobody
    assert solo(fed).result().totals[0] > solo(unfed).result().totals[0]
    assert value(fed) > value(unfed)


def test_unfed_cottages_with_a_farm_one_cube_away_beat_ones_no_feeder_is_near() -> None:
    # The same cubes: H H / W . is a Farm short of one wood; H G / W . is no feeder's start.
    near = town("COT COT COT .", "H H . .", "W . . .")
    far = town("COT COT COT .", "H G . .", "W . . .")
    assert solo(near).result().totals[0] == solo(far).result().totals[0]
    assert feature(near, "unfed_feedable") == 3
    assert feature(far, "unfed_feedable") == 0
    assert value(near) > value(far)


def test_a_stranded_cube_is_worth_less_than_one_a_building_can_use() -> None:
    # A wood on A1 between two Taverns can never be part of a pattern; on A2 it still can.
    stranded = town("W TAV . .", "TAV . . .")
    used = town("TAV TAV . .", "W . . .")
    assert solo(stranded).result().totals[0] == solo(used).result().totals[0]
    assert feature(stranded, "stranded") == 1
    assert feature(used, "stranded") == 0
    assert value(used) > value(stranded)


def test_a_nearly_complete_valuable_pattern_beats_scattered_cubes() -> None:
    # Two Taverns built; B B in a line wants one glass for a third Tavern (+4 points).
    near = town("TAV TAV . .", "B B . .")
    scattered = town("TAV TAV . .", "B . . .", EMPTY, ". . . B")
    assert solo(near).result().totals[0] == solo(scattered).result().totals[0]
    assert value(near) > value(scattered)


def test_an_empty_town_is_worth_more_than_its_minus_16() -> None:
    assert value(town()) > solo(town()).result().totals[0]


# --- the contract: one float per player, the result at the end --------------------------------


@pytest.mark.parametrize("players", [1, 2, 4])
def test_one_float_per_player(players: int) -> None:
    state = played(players, seed=players, moves=25)
    values = state.evaluate()
    assert len(values) == players
    assert all(isinstance(v, float) and np.isfinite(v) for v in values)


@pytest.mark.parametrize(("players", "seed"), [(1, 3), (1, 4), (2, 5), (3, 6)])
def test_a_finished_game_evaluates_to_its_result(players: int, seed: int) -> None:
    state = played(players, seed)
    assert state.is_over()
    result = state.result()
    expected = [float(result.solo_score)] if players == 1 else [float(t) for t in result.totals]
    assert state.evaluate() == expected


def test_a_complete_town_in_a_running_game_is_its_score() -> None:
    for seed in range(20):  # find a deal where one town completes before the other
        state = GAME.new_game(players=2, seed=seed)
        rng = random.Random(seed)
        while not state.is_over() and not any(t.complete for t in state.towns):
            player = state.actors()[0]
            state.apply(player, rng.choice(state.legal_actions(player)))
        if not state.is_over():
            break
    else:
        pytest.fail("no deal where one town completes first")
    p = next(p for p, t in enumerate(state.towns) if t.complete)
    assert state.evaluate()[p] == float(state.result().totals[p])


# --- hidden information -------------------------------------------------------------------------


def test_solo_evaluation_does_not_depend_on_the_unseen_deck_order() -> None:
    state = played(1, seed=21, moves=12)
    seen = {tuple(state.determinize(0, seed).evaluate()) for seed in range(6)}
    decks = {tuple(state.determinize(0, seed).deck) for seed in range(6)}
    assert len(decks) > 1  # the determinizations really differ
    assert seen == {tuple(state.evaluate())}


def test_own_estimate_does_not_depend_on_others_secrets() -> None:
    state = GAME.new_game(players=2, seed=8)
    rng = random.Random(8)
    while not (state.phase == PLACE_PHASE and state.towns[1].choice is not None):
        player = state.actors()[-1]  # player 1 places first, player 0 has not yet
        state.apply(player, rng.choice(state.legal_actions(player)))
    worlds = [state.determinize(0, seed) for seed in range(8)]
    assert len({str(w.towns[1].choice) for w in worlds} | {w.towns[1].monument for w in worlds}) > 1
    assert {w.evaluate()[0] for w in worlds} == {state.evaluate()[0]}


# --- the greedy agent's heuristic --------------------------------------------------------------


def test_heuristic_values_a_resource_to_place_on_its_best_square() -> None:
    state = played(1, seed=31, moves=2)  # monument kept, resource picked: it must be placed now
    assert state.phase == PLACE_PHASE
    children = []
    for action in state.legal_actions(0):
        child = state.clone()
        child.apply(0, action)
        children.append(child.evaluate()[0])
    assert state.heuristic(0) == pytest.approx(max(children))


def test_solo_evaluation_puts_the_resource_to_place_on_its_best_square(monkeypatch: pytest.MonkeyPatch) -> None:
    state = played(1, seed=31, moves=2)  # the resource is picked: it must be placed now
    assert state.phase == PLACE_PHASE
    monkeypatch.setattr(E, "SOLO_LOOKAHEAD", 1)
    placed = []
    for action in state.legal_actions(0):
        child = state.clone()
        child.apply(0, action)
        placed.append(child.evaluate()[0])
    assert state.evaluate()[0] == pytest.approx(max(placed))
    monkeypatch.setattr(E, "SOLO_LOOKAHEAD", 0)  # the town as it stands: the cube is not counted
    assert state.evaluate()[0] == pytest.approx(E.estimate(state, 0))
    assert E.estimate(state, 0) != pytest.approx(max(placed))


def test_solo_evaluation_can_look_at_the_best_face_up_card(monkeypatch: pytest.MonkeyPatch) -> None:
    state = played(1, seed=32, moves=1)  # the monument is kept: a face-up card is to be picked
    assert state.phase == NAME_PHASE
    monkeypatch.setattr(E, "SOLO_LOOKAHEAD", 2)
    picked = []
    for action in state.legal_actions(0):
        child = state.clone()
        child.apply(0, action)
        picked.append(child.evaluate()[0])
    assert len(set(picked)) > 1  # the cards are worth different amounts here
    assert state.evaluate()[0] == pytest.approx(max(picked))


def test_two_player_heuristic_is_own_estimate_minus_the_other() -> None:
    state = played(2, seed=41, moves=30)
    while state.phase == PLACE_PHASE:  # a step without a pending placement
        player = state.actors()[0]
        state.apply(player, state.legal_actions(player)[0])
    values = state.evaluate()
    assert state.heuristic(0) == pytest.approx(values[0] - values[1])


# --- the weights ----------------------------------------------------------------------------------


def test_the_shipped_weights_match_the_features() -> None:
    models = E.load_weights()
    assert "solo" in models
    assert all(vec.shape == (len(E.FEATURES),) for vec in models.values())


def test_bad_weights_are_refused_and_change_nothing() -> None:
    before = value(town("COT COT . .", "H H W ."))
    with pytest.raises(ValueError, match="numbers"):
        E.set_weights({"solo": [1.0, 2.0]})
    with pytest.raises(ValueError, match="solo"):
        E.set_weights({"multi": [0.0] * len(E.FEATURES)})
    assert value(town("COT COT . .", "H H W .")) == before


def test_set_weights_changes_the_estimate_and_none_restores() -> None:
    state = solo(town("COT COT . .", "H H W ."))
    shipped = state.evaluate()[0]
    only_score = [0.0] * len(E.FEATURES)
    only_score[E.FEATURES.index("score")] = 1.0
    try:
        E.set_weights({"solo": only_score})
        assert state.evaluate()[0] == float(state.result().totals[0])
    finally:
        E.set_weights(None)
    assert state.evaluate()[0] == shipped


@pytest.mark.parametrize("variants", [(), ("mausoleum-wood-pattern",)])
def test_patterns_match_the_rules_under_each_reading(variants: tuple[str, ...]) -> None:
    state = GAME.new_game(players=2, seed=1, variants=variants)
    for name in (*state.buildings, *C.MONUMENTS):
        assert E.pattern_for(name, state.variants) == state.pattern_of(name)
