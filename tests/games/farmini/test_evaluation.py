"""The Farmini evaluation: final scores estimated from a position (``evaluation.py``).

Hand-built positions where one is plainly better must be rated higher; a finished game is rated
by its result; the estimate is one float per player and never reads the hidden deck order.
"""

from __future__ import annotations

import json
import random

import pytest

import farmtable
from farmtable.games.farmini import evaluation
from farmtable.games.farmini.components import ALL_CARDS, AnimalCard, FenceCard, WolfCard
from farmtable.games.farmini.rules import FarminiState
from tests.games.farmini.builders import PEN_2X2, make_state

THREE_OF_THE_PEN = """
farm at 0,0
C1 at 1,0 rot 270
C3 at 0,1 rot 90
"""
"""PEN_2X2 without its last card: the four cornfields lie in an open region."""

PEN_WITH_ANIMAL_CELL = """
farm at 0,0
C2 at 1,0 rot 270
C3 at 0,1 rot 90
C7 at 1,1 rot 180
"""
"""An enclosed pen with 3 cornfields and the animal cell (1,0)/NW; the farm card's own animal
cells (0,0)/SE, SW, NW lie outside it."""

WOLVES = sorted(cid for cid, c in ALL_CARDS.items() if isinstance(c, WolfCard))
FENCES = sorted(cid for cid, c in ALL_CARDS.items() if isinstance(c, FenceCard) and not c.farm and not c.starting)
ANIMALS = sorted(cid for cid, c in ALL_CARDS.items() if isinstance(c, AnimalCard))


def _random_play(players: int, seed: int, stop_after: int | None = None) -> FarminiState:
    state = farmtable.get_game("farmini").new_game(players=players, seed=seed)
    rng = random.Random(seed)
    steps = 0
    while not state.is_over() and (stop_after is None or steps < stop_after):
        p = state.actors()[0]
        state.apply(p, rng.choice(state.legal_actions(p)))
        steps += 1
    assert isinstance(state, FarminiState)
    return state


@pytest.mark.parametrize("players", [1, 2, 3])
def test_a_finished_game_is_rated_by_its_result(players: int) -> None:
    state = _random_play(players, seed=players)
    result = state.result()
    expected = [float(result.solo_score)] if players == 1 else [float(t) for t in result.totals]
    assert state.evaluate() == expected


@pytest.mark.parametrize("players", [1, 2, 4])
def test_one_float_per_player(players: int) -> None:
    state = _random_play(players, seed=5, stop_after=20)
    values = state.evaluate()
    assert len(values) == players
    assert all(isinstance(v, float) for v in values)


def test_the_hidden_deck_order_does_not_matter() -> None:
    state = _random_play(2, seed=3, stop_after=15)
    assert state.deck, "the position must still have a hidden deck"
    seen = {tuple(state.determinize(0, random.Random(s)).evaluate()) for s in range(6)}
    assert seen == {tuple(state.evaluate())}


def test_an_enclosed_pen_is_worth_more_than_the_same_corn_in_the_open() -> None:
    deck = FENCES[:6] + WOLVES
    closed = make_state([PEN_2X2], table=ANIMALS[:4], deck_top_first=deck)
    open_ = make_state([THREE_OF_THE_PEN], table=ANIMALS[:4], deck_top_first=deck)
    assert closed.evaluate()[0] > open_.evaluate()[0]


def test_an_exposed_animal_is_worth_less_while_its_wolf_is_still_to_come() -> None:
    pig_wolves = [w for w in WOLVES if ALL_CARDS[w].kind == "pig"]  # type: ignore[union-attr]
    other_wolves = [w for w in WOLVES if w not in pig_wolves]
    farm = PEN_WITH_ANIMAL_CELL + "pig at 0,0/SW\n"  # outside the pen
    hunted = make_state([farm], table=ANIMALS[4:8], deck_top_first=FENCES[:6] + pig_wolves)
    spared = make_state([farm], table=ANIMALS[4:8], deck_top_first=FENCES[:6] + other_wolves[: len(pig_wolves)])
    assert hunted.evaluate()[0] < spared.evaluate()[0]


def test_heuristic_with_several_players_is_own_estimate_minus_the_best_other() -> None:
    state = _random_play(3, seed=11, stop_after=25)
    values = state.evaluate()
    assert state.heuristic(1) == pytest.approx(values[1] - max(values[0], values[2]))


def test_solo_heuristic_is_the_estimate() -> None:
    state = _random_play(1, seed=2, stop_after=10)
    assert state.heuristic(0) == state.evaluate()[0]


def test_the_shipped_weights_match_the_features() -> None:
    models = evaluation.weights()
    assert set(models) == {evaluation.SOLO_MODEL, evaluation.MULTI_MODEL}
    assert all(len(w) == len(evaluation.FEATURES) for w in models.values())


@pytest.mark.parametrize(
    "payload",
    [
        {"features": ["bias"], "solo": [0.0], "multi": [0.0]},
        {"features": list(evaluation.FEATURES), "solo": [0.0]},
        {"features": list(evaluation.FEATURES), "solo": "x", "multi": [0.0] * len(evaluation.FEATURES)},
    ],
)
def test_weights_that_do_not_fit_the_features_are_refused(payload: dict[str, object]) -> None:
    with pytest.raises(ValueError, match=r"weights\.json"):
        evaluation.parse_weights(json.dumps(payload))


RING = "farm at 0,0\nA1 at 1,0\nA2 at 2,0\nA3 at 0,1\nA4 at 2,1\nH2 at 0,2\nH3 at 1,2\nH4 at 2,2\n"
"""A 3 x 3 ring of fence crosses around a missing centre card (1,1)."""


def test_the_evaluation_reads_a_ring_around_a_gap_as_a_pen_one_card_short() -> None:
    # Under the default gap reading the ring is an enclosed fence (scored now), but the features
    # read the farm as the first reading does: the ring's corn is open corn one card from a pen.
    state = make_state([RING], ["B1", "B2", "B3", "B4"], ["B5"])
    farm = state.farms[0]
    assert any(r.closed and r.gaps for r in farm.regions())
    assert not any(r.closed for r in farm.regions_without_gaps())
    inner = next(r for r in farm.regions_without_gaps() if (0, 0, 0) in r.cells)  # the farm card's corn
    corn, _, faced = evaluation._shape(inner, farm.cards)
    assert not inner.closed and len(faced) == 1 and corn >= 1  # its cornfields: one card from a pen
    feats = dict(zip(evaluation.FEATURES, evaluation.features(state, 0), strict=True))
    assert feats["pen_free_cells"] == 0
    assert feats["open_corn_near"] >= 4
    first = make_state([RING], ["B1", "B2", "B3", "B4"], ["B5"], variants=("gaps-not-enclosed",))
    assert evaluation.features(first, 0) == evaluation.features(state, 0)
    assert state.evaluate() != first.evaluate()  # the score now differs (2 against 0)


# --- the turn a take completes (LOOKAHEAD) ---------------------------------------------------


def test_a_taken_card_is_judged_by_the_best_way_to_play_it() -> None:
    # THREE_OF_THE_PEN needs one more card at (1,1) whose N and E arms are fences: C7 closes the
    # pen (4 cornfields scored); D5 (fences N and S) fits at (1,1) turned but cannot close it.
    deck = ["E1", "E2", "F1", "F2", *WOLVES]
    table = ["B2", "B3", "B4"]
    closing = make_state([THREE_OF_THE_PEN], table=table, deck_top_first=deck, pending="C7", pending_left=1)
    other = make_state([THREE_OF_THE_PEN], table=table, deck_top_first=deck, pending="D5", pending_left=1)
    assert closing.evaluate()[0] > other.evaluate()[0] + 1


@pytest.mark.parametrize("seed", [1, 2])
def test_the_estimate_of_a_taken_fence_card_is_its_best_placement(seed: int) -> None:
    # first gap reading: the quick values are exact, so the best of all placements is found
    state = farmtable.get_game("farmini").new_game(players=1, seed=seed, variants=("gaps-not-enclosed",))
    rng = random.Random(seed)
    checked = 0
    while not state.is_over() and checked < 6:
        if state.pending is not None and isinstance(ALL_CARDS[state.pending], FenceCard):
            values = []
            for action in state.legal_actions(0):
                child = state.clone()
                child.farms[0].put_card(action.card, (action.x, action.y), action.rot)
                child.pending, child.pending_left = None, 0  # played, nothing revealed yet
                values.append(child.evaluate()[0])
            assert isinstance(state, FarminiState)
            assert state.evaluate()[0] == pytest.approx(max(values))
            checked += 1
        state.apply(0, rng.choice(state.legal_actions(0)))
    assert checked == 6


@pytest.mark.parametrize("variants", [(), ("gaps-not-enclosed",), ("cards-v1", "gaps-not-enclosed")])
def test_the_quick_placement_values_match_laying_the_card(variants: tuple[str, ...]) -> None:
    state = farmtable.get_game("farmini").new_game(players=1, seed=7, variants=variants)
    assert isinstance(state, FarminiState)
    rng = random.Random(7)
    model = evaluation.weights()[evaluation.SOLO_MODEL]
    compared = 0
    while not state.is_over():
        if state.pending is not None and isinstance(ALL_CARDS[state.pending], FenceCard):
            for quick, pos, rot, _ in evaluation._rank_placements(state, 0, state.pending, model):
                trial = state.farms[0].copy()
                trial.put_card(state.pending, pos, rot)
                exact = evaluation._value(state, 0, trial, model)
                if variants:  # the first gap reading: exactly the same
                    assert quick == pytest.approx(exact)
                else:  # default: equal unless the card closes or opens a ring around a gap
                    compared += quick == pytest.approx(exact)
                compared += 1
        state.apply(0, rng.choice(state.legal_actions(0)))
    assert compared > 20


def test_the_lookahead_switch_falls_back_to_the_hand_features(monkeypatch: pytest.MonkeyPatch) -> None:
    deck = ["E1", "E2", "F1", "F2", *WOLVES]
    table = ["B2", "B3", "B4"]
    state = make_state([THREE_OF_THE_PEN], table=table, deck_top_first=deck, pending="C7", pending_left=1)
    with_lookahead = state.evaluate()[0]
    monkeypatch.setattr(evaluation, "LOOKAHEAD", False)
    without = state.evaluate()[0]
    feats = evaluation.features(state, 0)
    model = evaluation.weights()[evaluation.SOLO_MODEL]
    assert without == pytest.approx(sum(w * f for w, f in zip(model, feats, strict=True)))  # score now: 0
    assert with_lookahead > without


# --- the cheap evaluation: caches and incremental work give the same values ----------------


def _by_copies(state: FarminiState, kind: str, tokens: int, model: tuple[float, ...]) -> float | None:
    """The first lookahead for an animal card: each token laid on a copy of the farm, re-valued whole."""
    current = state.farms[0]
    value: float | None = None
    for _ in range(tokens):
        step: tuple[float, object] | None = None
        for cell in current.free_cells():
            trial = current.copy()
            trial._changed()  # flood it afresh: no region shared with the cache
            trial.animals[cell] = kind
            trial_value = evaluation._value(state, 0, trial, model)
            if step is None or trial_value > step[0]:
                step = (trial_value, trial)
        if step is None:
            break
        value, current = step  # type: ignore[assignment]
    return value


@pytest.mark.parametrize(
    "variants",
    [(), ("gaps-not-enclosed",), ("second-variant",), ("penalty-per-empty-cell",), ("cards-v1",)],
)
def test_the_incremental_animal_lookahead_equals_laying_each_token_on_a_copy(variants: tuple[str, ...]) -> None:
    model = evaluation.weights()[evaluation.SOLO_MODEL]
    compared = 0
    for seed in (3, 4):
        state = farmtable.get_game("farmini").new_game(players=1, seed=seed, variants=variants)
        assert isinstance(state, FarminiState)
        rng = random.Random(seed)
        while not state.is_over():
            if state.pending is None and state.farms[0].free_cells():
                for kind in ("pig", "goat"):
                    for tokens in (1, 3):
                        expected = _by_copies(state, kind, tokens, model)
                        got = evaluation._animal_completion(state, 0, kind, tokens, model)
                        assert got == pytest.approx(expected)
                        compared += 1
            state.apply(0, rng.choice(state.legal_actions(0)))
    assert compared > 20


def test_farms_of_one_layout_share_their_regions_and_they_are_the_flooded_ones() -> None:
    evaluation.clear_caches()
    state = _random_play(1, seed=9, stop_after=30)
    first = state.farms[0].copy()
    first._changed()
    evaluation.warm(first)
    second = state.farms[0].copy()
    second._changed()
    evaluation.warm(second)
    assert second.regions() is first.regions()
    fresh = state.farms[0].copy()
    fresh._changed()
    assert fresh.regions() == first.regions()
    assert fresh.regions_without_gaps() == first.regions_without_gaps()


def test_the_cached_evaluation_repeats_the_uncached_one() -> None:
    for players in (1, 2):
        state = _random_play(players, seed=21, stop_after=40)
        evaluation.clear_caches()
        cold = state.evaluate()
        warm_again = state.clone().evaluate()
        assert warm_again == cold


@pytest.mark.parametrize("variants", [(), ("cards-v1",), ("second-variant",)])
def test_the_fence_lookahead_equals_laying_its_best_quick_placements(variants: tuple[str, ...]) -> None:
    # the gap reading: the best EXACT_PLACEMENTS placements by the quick value, each laid on a
    # fresh copy of the farm and valued whole (score sheet and features), as the first lookahead did
    model = evaluation.weights()[evaluation.SOLO_MODEL]
    state = farmtable.get_game("farmini").new_game(players=1, seed=11, variants=variants)
    assert isinstance(state, FarminiState)
    rng = random.Random(11)
    compared = 0
    while not state.is_over():
        if state.pending is not None and isinstance(ALL_CARDS[state.pending], FenceCard):
            ranked = evaluation._rank_placements(state, 0, state.pending, model)
            laid = []
            for _, pos, rot, _ in ranked[: evaluation.EXACT_PLACEMENTS]:
                trial = state.farms[0].copy()
                trial.put_card(state.pending, pos, rot)
                trial._changed()
                laid.append(evaluation._value(state, 0, trial, model))
            assert evaluation._best_completion(state, 0, model) == pytest.approx(max(laid))
            compared += 1
        state.apply(0, rng.choice(state.legal_actions(0)))
    assert compared > 5
