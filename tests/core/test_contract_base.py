"""The shared machinery of the contract, on a tiny game: refusals, the JSON envelope, undo, ranking, the RNG."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

import farmtable
from farmtable.core import CorruptSave, History, IllegalAction, Rng, State, rank_by
from tests.contract import check_contract, check_refusals, check_views
from tests.toygame import RACE, RaceState


def test_new_game_refuses_bad_player_counts_and_variants() -> None:
    with pytest.raises(ValueError, match="takes 1–3 players, not 4"):
        RACE.new_game(players=4)
    with pytest.raises(ValueError, match="no variant 'fast'; its variants: short"):
        RACE.new_game(players=2, variants=("fast",))
    with pytest.raises(ValueError, match="named twice"):
        RACE.new_game(players=2, variants=("short", "short"))
    with pytest.raises(ValueError, match="whole number"):
        RACE.new_game(players="2")  # type: ignore[arg-type]


def test_apply_refuses_out_of_turn_garbage_and_finished_games() -> None:
    state = RACE.new_game(players=2, seed=3)
    check_refusals(state)
    with pytest.raises(IllegalAction, match="not player 1's decision now; waiting for player 0"):
        state.apply(1, "add 1")
    with pytest.raises(IllegalAction, match="'add 3' is not a legal move now; legal moves: add 1, add 2, roll"):
        state.apply(0, "add 3")
    with pytest.raises(IllegalAction, match="add 1 or 2"):
        state.apply(0, ("add", 3))  # type: ignore[arg-type]  # an action object goes to check_action
    while not state.is_over():
        state.apply(state.actors()[0], "add 2")
    with pytest.raises(IllegalAction, match="game is over"):
        state.apply(0, "add 1")


def test_notation_is_read_whatever_the_case_and_spacing() -> None:
    state = RACE.new_game(players=2, seed=3)
    state.apply(0, "  ADD   2 ")
    assert state.pile == 2 and state.turn == 1


def test_same_seed_same_game_and_rng_in_the_save() -> None:
    a, b = RACE.new_game(players=3, seed=11), RACE.new_game(players=3, seed=11)
    for _ in range(3):
        a.apply(a.actors()[0], "roll")
        b.apply(b.actors()[0], "roll")
    assert a.to_json() == b.to_json()
    restored = RACE.from_json(a.to_json())
    a.apply(a.actors()[0], "roll")
    restored.apply(restored.actors()[0], "roll")
    assert a.to_json() == restored.to_json()


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("not json", "not valid JSON"),
        ("[1, 2]", "format key"),
        ('{"farmtable": 1, "game": "tiny-towns", "state": {}}', "game of 'tiny-towns', not 'race'"),
        ('{"farmtable": 99, "game": "race", "state": {}}', "format 99 of race is not supported"),
        ('{"farmtable": 1, "game": "race", "state": []}', "not a JSON object"),
        ('{"farmtable": 1, "game": "race", "state": {"players": 2}}', "damaged: missing field 'rng'"),
    ],
)
def test_corrupt_saves_are_refused_with_the_reason(text: str, message: str) -> None:
    with pytest.raises(CorruptSave, match=message):
        RACE.from_json(text)


def test_inconsistent_save_is_refused() -> None:
    data = json.loads(RACE.new_game(players=2, seed=1).to_json())
    data["state"]["turn"] = 5
    with pytest.raises(CorruptSave, match="turn 5 is not a seat"):
        RACE.from_json(json.dumps(data))


def test_load_state_names_an_unknown_game() -> None:
    with pytest.raises(CorruptSave, match="no game 'race'"):
        farmtable.load_state(RACE.new_game(players=2, seed=1).to_json())


def test_undo_only_own_last_decision_and_never_past_chance() -> None:
    history = History(RACE.new_game(players=2, seed=5))
    history.apply(0, "add 1")
    assert history.why_no_undo(1) == "the last decision was player 0's: you can only undo your own"
    assert history.undo(0) == "add 1"
    assert history.state.pile == 0 and history.state.actors() == [0]
    history.apply(0, "roll")
    with pytest.raises(IllegalAction, match="revealed something"):
        history.undo(0)
    with pytest.raises(IllegalAction, match="nothing to undo"):
        History(RACE.new_game(players=2, seed=5)).undo(0)


def test_rank_by_groups_ties_best_first() -> None:
    assert rank_by([(5, 1), (7, 0), (5, 1), (5, 2)]) == [[1], [3], [0, 2]]
    assert rank_by([3]) == [[0]]


def test_rng_is_deterministic_and_resumable() -> None:
    a = Rng(42)
    first = [a.randint(1, 6) for _ in range(5)]
    b = Rng(42)
    assert [b.randint(1, 6) for _ in range(5)] == first
    c = Rng(a.state)
    assert [c.below(1000) for _ in range(5)] == [a.below(1000) for _ in range(5)]
    with pytest.raises(ValueError, match="positive bound"):
        a.below(0)


@given(st.integers(min_value=0, max_value=2**64 - 1), st.integers(min_value=1, max_value=50))
def test_rng_below_stays_in_range_and_shuffle_permutes(seed: int, n: int) -> None:
    rng = Rng(seed)
    assert all(0 <= rng.below(n) < n for _ in range(20))
    items = list(range(n))
    rng.shuffle(items)
    assert sorted(items) == list(range(n))


def test_rng_is_roughly_uniform() -> None:
    rng = Rng(7)
    counts = [0] * 6
    for _ in range(60_000):
        counts[rng.randint(1, 6) - 1] += 1
    assert all(9_400 < c < 10_600 for c in counts), counts


def test_contract_suite_passes_the_toy_game() -> None:
    check_contract(RACE, players=3, games=3, secrets=_others_secrets)


def _others_secrets(state: State[Any], player: int) -> list[str]:
    assert isinstance(state, RaceState)
    return [f'"secret_{q}": {s}' for q, s in enumerate(state.secrets) if q != player]


class LeakyState(RaceState):
    """A broken game whose views show every secret."""

    def view(self, player: int | None) -> dict[str, Any]:
        return {**super().view(player), **{f"secret_{q}": s for q, s in enumerate(self.secrets)}}


def test_contract_suite_catches_a_leaky_view() -> None:
    state = LeakyState(2, Rng(1), [11, 22])
    with pytest.raises(AssertionError, match="player 0's view shows"):
        check_views(state, _others_secrets, random.Random(1))
