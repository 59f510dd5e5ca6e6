"""The duel player's level-k model of the other player (``choose_pair`` with ``deep`` and ``level``)."""

from __future__ import annotations

import time
from itertools import combinations

import pytest

import farmtable.agents
from farmtable.games.farmerama import duel
from farmtable.games.farmerama.components import CARDS
from farmtable.games.farmerama.rules import FarmeramaState
from tests.games.farmerama.positions import duel_position, greedy_round_start

PAIRS: list[tuple[int, ...]] = list(combinations(range(len(CARDS)), 2))


def _table(base: FarmeramaState) -> dict[tuple[tuple[int, ...], tuple[int, ...]], float]:
    return {(mine, theirs): duel.payoff(base, 0, mine, theirs) for mine in PAIRS for theirs in PAIRS}


def _argmax(values: dict[tuple[int, ...], float]) -> list[tuple[int, ...]]:
    top = max(values.values())
    return [pair for pair in PAIRS if values[pair] >= top - 1e-9]


def test_level_one_is_the_others_best_answer_to_this_players_pairs_played_alone() -> None:
    state = duel_position()
    base = duel._base(state.clone(), 1)
    table = _table(base)
    seen = duel.opponent_model(base, 0, 0.5)
    expected = _argmax({q: -sum(w * table[(p, q)] for p, w in seen) for q in PAIRS})
    picks = duel._level_picks(base, 0, PAIRS, lambda p, q: table[(p, q)], 0.5, 1, None)
    assert picks == expected


def test_level_two_answers_this_players_answer_to_the_others_pairs_played_alone() -> None:
    state = greedy_round_start(7, 3)
    base = duel._base(state.clone(), 1)
    table = _table(base)
    theirs_alone = duel.opponent_model(base, 1, 0.5)
    mine = _argmax({p: sum(w * table[(p, q)] for q, w in theirs_alone) for p in PAIRS})
    expected = _argmax({q: -sum(table[(p, q)] for p in mine) / len(mine) for q in PAIRS})
    picks = duel._level_picks(base, 0, PAIRS, lambda p, q: table[(p, q)], 0.5, 2, None)
    assert picks == expected


@pytest.mark.parametrize("seed", [4, 7])
def test_level_two_foresees_the_hard_players_pair(seed: int) -> None:
    # The Hard level is deep=1; the level-2 model of the other is its choice, up to ties.
    state = duel_position() if seed == 4 else greedy_round_start(seed, 3)
    hard = duel.choose_pair(state.clone(), 1, temp=0.5, deep=1.0)
    base = duel._base(state.clone(), 1)
    table = _table(base)
    picks = duel._level_picks(base, 0, PAIRS, lambda p, q: table[(p, q)], 0.5, 2, None)
    assert picks is not None and hard in picks


def test_the_level_two_model_is_answered_best() -> None:
    state = greedy_round_start(7, 3)
    base = duel._base(state.clone(), 1)
    table = _table(base)
    picks = duel._level_picks(base, 0, PAIRS, lambda p, q: table[(p, q)], 0.5, 2, None)
    assert picks is not None
    pair = duel.choose_pair(state.clone(), 0, temp=0.5, deep=1.0, level=2)
    against = {p: sum(table[(p, q)] for q in picks) / len(picks) for p in PAIRS}
    assert pair is not None
    assert against[pair] == pytest.approx(max(against.values()))


def test_a_passed_deadline_gives_no_level_model() -> None:
    state = duel_position()
    base = duel._base(state.clone(), 1)
    passed = time.process_time() - 1.0
    assert duel._level_picks(base, 0, PAIRS, lambda p, q: 0.0, 0.5, 2, passed) is None


def test_the_level_is_a_spec_parameter() -> None:
    agent = farmtable.agents.make("farmerama-duel:time=1.0,temp=0.5,deep=1,level=2")
    assert isinstance(agent, duel.DuelAgent)
    assert agent.level == 2
    assert agent.spec == "farmerama-duel:deep=1,level=2,temp=0.5,time=1.0"
    assert "level" not in farmtable.agents.make("farmerama-duel:deep=1").spec  # the default is not named


@pytest.mark.parametrize("spec", ["farmerama-duel:level=0", "farmerama-duel:level=5", "farmerama-duel:level=1.5"])
def test_a_bad_level_is_refused_clearly(spec: str) -> None:
    with pytest.raises(ValueError, match="level"):
        farmtable.agents.make(spec)
