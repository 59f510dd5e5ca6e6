"""The Tiny Farms evaluation: exact at the end, better than the score as it stands, sensible on hand-built farms."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from farmtable.agents.greedy import greedy_choice
from farmtable.games.tiny_farms import components as c
from farmtable.games.tiny_farms import evaluation
from farmtable.games.tiny_farms.rules import CROP, PLACE, TinyFarmsState
from tests.games.tiny_farms.builder import board, new, position

DIFFICULTIES = ("emma-easy", "emma-medium", "emma-hard", "emma-epic")


def play_to_end(state: TinyFarmsState, seed: int, stop_round: int | None = None) -> TinyFarmsState:
    """Greedy play (on the evaluation) to the end, or until ``stop_round`` begins."""
    rng = random.Random(seed)
    while not state.is_over() and (stop_round is None or state.round < stop_round):
        (player,) = state.actors()
        state.apply(player, state.legal_actions(player)[greedy_choice(state, player, rng)])
    return state


@pytest.mark.parametrize("variants", [(d,) for d in DIFFICULTIES])
def test_a_finished_solo_game_evaluates_to_its_margin(variants: tuple[str, ...]) -> None:
    state = play_to_end(new(1, seed=5, variants=variants), seed=5)
    result = state.result()
    assert state.evaluate() == [float(result.objective)]
    assert result.objective == result.totals[0] - result.details["emma_total"]
    assert state.heuristic(0) == state.evaluate()[0]


def test_a_finished_two_player_game_evaluates_to_its_totals() -> None:
    state = play_to_end(new(2, seed=8), seed=8)
    assert state.evaluate() == [float(t) for t in state.result().totals]
    estimate = state.evaluate()
    assert state.heuristic(0) == estimate[0] - estimate[1]


def test_the_estimate_beats_the_score_as_it_stands_on_unseen_games() -> None:
    """Mid-game (round 4) estimates are closer to the final objective than the objective as it stands."""
    errors_estimate = errors_now = 0.0
    games = [(1, (d,)) for d in DIFFICULTIES] * 2 + [(2, ())] * 4
    for k, (players, variants) in enumerate(games):
        seed = 900_000 + k
        middle = play_to_end(new(players, seed=seed, variants=variants), seed=seed, stop_round=4)
        estimate, now = middle.evaluate(), evaluation.objective_now(middle)
        final = evaluation.objective_now(play_to_end(middle.clone(), seed=seed))
        errors_estimate += sum((e - f) ** 2 for e, f in zip(estimate, final, strict=True))
        errors_now += sum((n - f) ** 2 for n, f in zip(now, final, strict=True))
    assert errors_estimate < errors_now / 2


LATE = 9  # round 9 of 10: little game left, the sets on the board must count


def two_player(red_rows: str, **fields: object) -> TinyFarmsState:
    """A 2-player position late in the game; player 0's board given, player 1's empty."""
    return position(2, seed=3, boards=[board(red_rows), board()], round=LATE, **fields)


def test_a_sheep_triple_beats_three_scattered_sheep() -> None:
    triple = two_player("S S S . | . . . .\n. . . . | . . . .\n. . . . | . . . .\n. . . . | . . . .")
    scattered = two_player("S . S . | . . . .\n. . . . | . . . .\nS . . . | . . . .\n. . . . | . . . .")
    assert triple.evaluate()[0] > scattered.evaluate()[0]
    assert triple.heuristic(0) > scattered.heuristic(0)


def test_paired_pigs_beat_single_pigs_and_calves_by_cows_beat_calves_alone() -> None:
    paired = two_player("P P . . | . . . .\nC cc . . | . . . .\n. . . . | . . . .\n. . . . | . . . .")
    apart = two_player("P . . P | . . . .\nC . . cc | . . . .\n. . . . | . . . .\n. . . . | . . . .")
    assert paired.evaluate()[0] > apart.evaluate()[0]


def test_a_balanced_board_beats_the_same_animals_in_one_farm() -> None:
    balanced = two_player("Ch Ch . . | Ch Ch . .\n. . . . | . . . .\n. . . . | . . . .\n. . . . | . . . .")
    lopsided = two_player("Ch Ch Ch Ch | . . . .\n. . . . | . . . .\n. . . . | . . . .\n. . . . | . . . .")
    assert balanced.evaluate()[0] > lopsided.evaluate()[0]


def test_solo_more_circles_for_emma_means_a_smaller_margin() -> None:
    mine = board("S S S . | P P . .\n. . . . | . . . .\n. . . . | . . . .\n. . . . | . . . .")
    few = position(1, seed=2, boards=[mine], round=6, emma_filled=[2, 1, 1, 1, 0, 0, 0])
    many = position(1, seed=2, boards=[list(mine)], round=6, emma_filled=[4, 3, 2, 2, 1, 2, 1])
    assert few.evaluate()[0] > many.evaluate()[0]


def solo(rows: str, **fields: object) -> TinyFarmsState:
    """A solo position in round 5 of 8 with the given board (Emma easy)."""
    return position(1, seed=3, variants=("emma-easy",), boards=[board(rows)], round=5, **fields)


def test_solo_sets_beat_the_same_animals_apart() -> None:
    triple = solo("S S S . | P P . .\n. . . . | . . . .\n. . . . | . . . .\n. . . . | . . . .")
    apart = solo("S . S . | P . . P\n. . . . | . . . .\nS . . . | . . . .\n. . . . | . . . .")
    assert triple.evaluate()[0] > apart.evaluate()[0]


def best_final_margin(state: TinyFarmsState) -> int:
    """The best final margin over every sequence of the player's decisions (no dice left to roll)."""
    if state.is_over():
        return int(state.result().solo_score)
    best = None
    for action in state.legal_actions(0):
        child = state.clone()
        child.apply(0, action)
        value = best_final_margin(child)
        best = value if best is None else max(best, value)
    assert best is not None
    return best


@pytest.mark.parametrize("seed", [11, 12, 13])
def test_the_last_crop_is_judged_exactly(seed: int) -> None:
    """At the last round's crop the estimate is the best final margin, milk on the crop die included."""
    state = play_to_end(new(1, seed=seed, variants=("emma-medium",)), seed=seed, stop_round=8)
    while state.phase != CROP:
        state.apply(0, state.legal_actions(0)[greedy_choice(state, 0, random.Random(seed))])
    assert state.evaluate()[0] == best_final_margin(state)


@pytest.mark.parametrize("seed", [21, 22, 23, 24])
def test_emmas_reply_is_the_one_the_rules_make(seed: int) -> None:
    """Once the player has taken a die, the evaluation fills Emma's circles as her turn then will."""
    state = new(1, seed=seed, variants=("emma-hard",))
    state.apply(0, state.legal_actions(0)[0])  # round 1: the player first, then Emma
    assert state.phase == PLACE and c.EMMA in state.order[state.turn_index + 1 :]
    predicted = evaluation.resolve(state).filled
    while state.phase == PLACE:
        state.apply(0, state.legal_actions(0)[-1])
    assert state.emma_filled == predicted


def test_emma_take_fills_her_card_as_the_rules_do() -> None:
    rng = random.Random(7)
    state = new(1, seed=1)
    for _ in range(300):
        filled = [rng.randint(0, cap) for _, _, cap in c.EMMA_TRACKS]
        animals = [rng.choice(c.ANIMALS) for _ in range(2)]
        expected = list(filled)
        state._emma_take(expected, animals)
        assert evaluation.emma_take(filled, animals) == expected


def test_features_name_every_weight_and_fade_at_the_end() -> None:
    state = new(1, seed=4, variants=("emma-hard",))
    (feats,) = evaluation.features(state)
    assert set(feats) == set(evaluation.SOLO_FEATURES) == set(evaluation.weights()["solo"])
    state2 = new(2, seed=4)
    assert all(set(f) == set(evaluation.PLAYER_FEATURES) for f in evaluation.features(state2))
    finished = play_to_end(new(1, seed=6), seed=6)
    (end,) = evaluation.features(finished)
    assert all(value == 0.0 for value in end.values())


def test_a_weights_file_missing_a_feature_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    data = json.loads(evaluation.WEIGHTS_FILE.read_text(encoding="utf-8"))
    del data["solo"]["weights"]["milk"]
    broken = tmp_path / "weights.json"
    broken.write_text(json.dumps(data), encoding="utf-8")
    monkeypatch.setattr(evaluation, "WEIGHTS_FILE", broken)
    evaluation.weights.cache_clear()
    try:
        with pytest.raises(ValueError, match="'solo' model must weigh exactly"):
            evaluation.weights()
    finally:
        monkeypatch.undo()
        evaluation.weights.cache_clear()


def test_the_horse_race_counts_in_expectation_and_exactly_at_the_end() -> None:
    exact = evaluation.expected_horse_points([3, 2], 0, 1, 0.6)
    assert exact == [10.0, 0.0]
    assert evaluation.expected_horse_points([2, 2], 0, 1, 0.6) == [10.0, 10.0]
    assert evaluation.expected_horse_points([0, 0], 0, 1, 0.6) == [0.0, 0.0]
    early = evaluation.expected_horse_points([3, 2], 12, 1, 0.6)
    assert 5.0 < early[0] < 10.0 and 0.0 < early[1] < 5.0
    later = evaluation.expected_horse_points([3, 2], 2, 1, 0.6)
    assert later[0] > early[0] and later[1] < early[1]  # a lead is surer with fewer picks to come
    level = evaluation.expected_horse_points([2, 2], 12, 1, 0.6)
    assert level[0] == level[1] > 5.0  # a tie pays both players


@pytest.mark.parametrize("seed", [31, 32, 33, 34])
def test_two_players_the_animals_in_hand_are_judged_where_they_fit_best(seed: int) -> None:
    """With one animal left to write (first player of a round), the estimate is its best child's."""
    state = new(2, seed=seed)
    rng = random.Random(seed)
    while True:
        (player,) = state.actors()
        if state.phase == PLACE and len(state.pending) == 1 and state.turn_index == 0 and state.round < 10:
            break
        state.apply(player, state.legal_actions(player)[greedy_choice(state, player, rng)])
    children = []
    for action in state.legal_actions(player):
        child = state.clone()
        child.apply(player, action)
        children.append(child.evaluate())
    assert state.evaluate()[player] == pytest.approx(max(v[player] for v in children))
    assert state.evaluate()[1 - player] == pytest.approx(children[0][1 - player])


def test_picks_to_come_count_every_die_pick_left_in_the_game() -> None:
    state = new(2, seed=9)
    assert evaluation.picks_to_come(state) == 2 * c.ROUNDS
    (player,) = state.actors()
    state.apply(player, next(a for a in state.legal_actions(player) if a.startswith("die")))
    assert evaluation.picks_to_come(state) == 2 * c.ROUNDS - 1
    finished = play_to_end(new(2, seed=9), seed=9)
    assert evaluation.picks_to_come(finished) == 0


@pytest.mark.parametrize("seed", [31, 32, 33])
def test_a_round_the_player_starts_can_be_valued_as_before_its_roll(seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """With ``ROUND_START_BEFORE_ROLL`` a crop that starts an odd round is worth the same whatever is rolled:
    what the crop's round end estimated for it (without milk to spend, the best plant is the crop's value)."""
    monkeypatch.setattr(evaluation, "ROUND_START_BEFORE_ROLL", True)
    state = play_to_end(new(1, seed=seed, variants=("emma-hard",)), seed=seed, stop_round=4)
    while state.phase != CROP:
        state.apply(0, state.legal_actions(0)[greedy_choice(state, 0, random.Random(seed))])
    assert state.round == 4 and state.modifier == 0
    state.milk = [0]
    plants = state.legal_actions(0)
    values = []
    for action in plants:
        rolled = []
        for roll in range(3):
            child = state.determinize(0, random.Random(roll))
            child.apply(0, action)
            assert child.round == 5 and child.actors() == [0]
            rolled.append(child.evaluate()[0])
        assert len(set(rolled)) == 1, f"{action}: the value depends on the roll: {rolled}"
        values.append(rolled[0])
    assert state.evaluate()[0] == pytest.approx(max(values))
    monkeypatch.setattr(evaluation, "ROUND_START_BEFORE_ROLL", False)
    child = state.determinize(0, random.Random(0))
    child.apply(0, plants[0])
    other = state.determinize(0, random.Random(1))
    other.apply(0, plants[0])
    assert child.dice != other.dice and child.evaluate() != other.evaluate()


def _best_crop_before_session_8(
    s: evaluation._Solo, value: int, may_change: bool, least: int, w: tuple[float, ...]
) -> evaluation._Solo:
    """Session 7's crop rating, kept as the reference: every try rated on the whole board plus the
    crop position's full estimate (``constant``)."""
    options = [(value, 0)]
    if may_change and s.milk > 0:
        options += [(v, 1) for v in (value - 1, value + 1) if c.MIN_DIE_VALUE <= v <= c.DIE_FACES]
    constant = evaluation._estimate(s, least, w) - evaluation._board_part(s.board, s.milk, s.left, w)
    best = s
    best_value = -float("inf")
    for v, cost in options:
        cells = evaluation.SOLO_CELLS[v]
        targets = [(i, c.CROP) for i in cells if s.board[i] == c.EMPTY]
        if not targets:
            targets = [(i, c.CROSSED) for i in cells if s.board[i] != c.CROSSED]
        for i, mark in targets or [(-1, c.EMPTY)]:
            cells_after = list(s.board)
            if i >= 0:
                cells_after[i] = mark
            trial = evaluation._Solo(cells_after, s.milk - cost, s.filled, s.left)
            trial.wheel = s.wheel
            if i >= 0 and s.board[i] in evaluation._GLOBAL_ANIMALS:
                estimate = evaluation._estimate(trial, least, w)
            else:
                estimate = constant + evaluation._board_part(cells_after, trial.milk, s.left, w)
            if estimate > best_value:
                best, best_value = trial, estimate
    return best


@pytest.mark.parametrize("variant", ["emma-easy", "emma-epic"])
def test_the_cheaper_crop_rating_picks_the_same_crop_as_before(variant: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Session 8 rates a crop by the changed farm only: on every PLACE and CROP position of greedy
    games the position it resolves to (board, milk) and its estimate are bit for bit session 7's."""
    positions = []
    for seed in (21, 22, 23):
        rng = random.Random(seed)
        state = new(1, seed=seed, variants=(variant,))
        while not state.is_over():
            if state.phase in (PLACE, CROP):
                positions.append(state.clone())
            state.apply(0, state.legal_actions(0)[greedy_choice(state, 0, rng)])
    assert len(positions) > 40
    now = [(s.board, s.milk, evaluation.solo_estimate(p)) for p in positions for s in [evaluation.resolve(p)]]
    monkeypatch.setattr(evaluation, "_best_crop", _best_crop_before_session_8)
    before = [(s.board, s.milk, evaluation.solo_estimate(p)) for p in positions for s in [evaluation.resolve(p)]]
    assert now == before
