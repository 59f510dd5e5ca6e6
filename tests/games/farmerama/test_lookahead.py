"""The card-counting solo player (``lookahead.py``): the next card's chances and the fair choice."""

from __future__ import annotations

import itertools
import random
import time
from collections import Counter

import pytest

from farmtable.core import clock
from farmtable.games.farmerama import evaluation, lookahead, planner
from farmtable.games.farmerama.components import CARDS
from farmtable.games.farmerama.rules import ACT, NO_CARD, SOLO_PICK, FarmeramaState
from tests.games.farmerama.positions import new


def _play_turns(seed: int, turns: int, redraw: bool = False) -> FarmeramaState:
    """A solo game after ``turns`` turns of random play (random redraws when ``redraw``), at the
    start of a turn."""
    state = new(players=1, seed=seed)
    rng = random.Random(seed)
    while not state.is_over() and state.turn <= turns:
        legal = state.legal_actions(0)
        if state.phase == SOLO_PICK and redraw and "redraw" in legal and rng.random() < 0.5:
            state.apply(0, "redraw")
            continue
        if state.phase == SOLO_PICK:
            state.apply(0, rng.choice([a for a in legal if a.startswith("card")]))
        else:
            state.apply(0, "done")
    return state


def _brute_force(state: FarmeramaState) -> dict[int, float]:
    """The next card's chances by enumerating every hidden world consistent with what was seen:
    each supply card that may have been shuffled in unseen, each order of the shuffled stack."""
    if not state.action_stack:
        supply = sorted(state.supply_stack)
        seen = [*state.discard, state.revealed]
        counts: Counter[int] = Counter()
        for card in supply:
            pool = [*seen, card]
            for c in pool:
                counts[c] += 1
        total = sum(counts.values())
        return {c: n / total for c, n in counts.items()}
    if state.unknown_card == NO_CARD:
        candidates: list[int | None] = [None]
    else:
        candidates = [*state.supply_stack, state.unknown_card]
    seen = state.revealed_from_shuffle
    counts = Counter()
    for unknown in candidates:
        pool = [*state.stack_base, *([unknown] if unknown is not None else [])]
        for order in itertools.permutations(pool):
            if list(order[: len(seen)]) == seen and len(order) > len(seen):
                counts[order[len(seen)]] += 1
    total = sum(counts.values())
    return {c: n / total for c, n in counts.items()}


@pytest.mark.parametrize(("seed", "turns"), [(1, 1), (2, 2), (3, 4), (4, 5), (5, 8), (6, 9), (7, 13), (8, 16), (9, 17)])
def test_next_card_chances_match_every_consistent_hidden_world(seed: int, turns: int) -> None:
    state = _play_turns(seed, turns)
    assert state.known_bottom == 0
    exact = lookahead.next_card_chances(state)
    brute = _brute_force(state)
    assert set(exact) == set(brute)
    for card, chance in brute.items():
        assert exact[card] == pytest.approx(chance)
    assert sum(exact.values()) == pytest.approx(1.0)


def test_the_first_turn_leaves_the_other_two_first_cards_at_even_chances() -> None:
    state = new(players=1, seed=11)
    chances = lookahead.next_card_chances(state)
    assert len(chances) == 2 and state.revealed not in chances
    assert all(c == pytest.approx(0.5) for c in chances.values())


def test_a_revealed_card_makes_its_kind_likelier_to_be_the_unseen_one() -> None:
    """Bayes: a second stack of Water, Sow, Harvest plus one unseen card of 2 W, 2 S, 2 H left;
    a Water revealed first makes the unseen card Water with chance 1/2, so the next is Water with
    chance 1/6 and Sow or Harvest with 5/12 each."""
    state = new(players=1, seed=5)
    water, sow, harvest = CARDS.index("water"), CARDS.index("sow"), CARDS.index("harvest")
    state.stack_base = sorted([water, sow, harvest])
    state.supply_stack = [water, sow, sow, harvest, harvest]
    state.unknown_card = water
    state.action_stack = [sow, water, harvest]
    state.known_bottom = 0
    state.revealed_from_shuffle = [water]
    state.revealed = water
    chances = lookahead.next_card_chances(state)
    assert chances[water] == pytest.approx(1 / 6)
    assert chances[sow] == pytest.approx(5 / 12)
    assert chances[harvest] == pytest.approx(5 / 12)


def test_a_card_pushed_under_is_known_once_the_shuffled_cards_are_gone() -> None:
    state = _play_turns(21, 3, redraw=True)
    state.action_stack = state.action_stack[: state.known_bottom] or [CARDS.index("sow")]
    state.known_bottom = len(state.action_stack)
    assert lookahead.next_card_chances(state) == {state.action_stack[-1]: 1.0}


def test_chances_read_only_public_facts() -> None:
    """Every determinization of a position gets the same chances (redraws included)."""
    for seed in range(6):
        state = _play_turns(30 + seed, 3 + 3 * seed, redraw=True)
        exact = lookahead.next_card_chances(state)
        for sample in range(5):
            other = lookahead.next_card_chances(state.determinize(0, sample))
            assert other.keys() == exact.keys()
            assert all(other[c] == pytest.approx(p) for c, p in exact.items())


def test_the_choice_reads_only_public_facts() -> None:
    """The same seed gives the same turn on the real position and on a determinization of it."""
    for seed in (2, 3):
        state = _play_turns(40 + seed, 4 * seed)
        chosen = lookahead.lookahead_turn(state, seed=seed, keep=3)
        for sample in range(2):
            assert lookahead.lookahead_turn(state.determinize(0, sample), seed=seed, keep=3).line == chosen.line


def test_the_chosen_turn_is_a_legal_whole_turn() -> None:
    state = _play_turns(50, 6)
    choice = lookahead.lookahead_turn(state, seed=1, keep=3)
    probe = state.clone()
    for action in choice.line:
        assert action in probe.legal_actions(0)
        probe.apply(0, action)
    assert probe.is_over() or (probe.phase == SOLO_PICK and probe.turn == state.turn + 1)


def test_bad_input_is_refused() -> None:
    state = _play_turns(51, 2)
    with pytest.raises(ValueError, match="keep"):
        lookahead.lookahead_turn(state, keep=0)
    state.apply(0, "card sow")
    with pytest.raises(ValueError, match="start of a turn"):
        lookahead.lookahead_turn(state)
    with pytest.raises(ValueError, match="solo"):
        lookahead.next_card_chances(new(players=2, seed=1))


def _finish_with(agent: lookahead.LookaheadAgent, state: FarmeramaState) -> list[str]:
    played = []
    while not state.is_over():
        action = agent.act(state, 0)
        assert action in state.legal_actions(0)
        state.apply(0, action)
        played.append(action)
    return played


def test_the_agent_finishes_a_game_and_a_seeded_game_replays() -> None:
    first = _finish_with(lookahead.LookaheadAgent(seed=4, keep=3), _play_turns(60, 37))
    again = _finish_with(lookahead.LookaheadAgent(seed=4, keep=3), _play_turns(60, 37))
    assert first == again
    assert sum(a.startswith("card") for a in first) == 5  # turns 38-42, one card each


def test_the_agent_plays_the_same_on_a_position_that_looks_the_same() -> None:
    state = _play_turns(61, 20)
    action = lookahead.LookaheadAgent(seed=9, keep=3).act(state, 0)
    for sample in range(2):
        assert lookahead.LookaheadAgent(seed=9, keep=3).act(state.determinize(0, sample), 0) == action


def test_the_agent_started_mid_turn_finishes_that_turn() -> None:
    state = _play_turns(62, 10)
    state.apply(0, "card seed-store")
    agent = lookahead.LookaheadAgent(seed=1, keep=2)
    while state.phase != SOLO_PICK:
        action = agent.act(state, 0)
        assert action in state.legal_actions(0)
        state.apply(0, action)
    assert state.turn == 12


def test_a_redraw_is_rated_when_asked_and_the_line_is_legal() -> None:
    state = _play_turns(63, 4)  # a new stack has given a token
    assert state.tokens >= 1 and state.action_stack
    choice = lookahead.lookahead_turn(state, seed=2, keep=2, redraw_keep=2)
    probe = state.clone()
    for action in choice.line:
        probe.apply(0, action)
    assert choice.line == ["redraw"] or probe.turn == state.turn + 1


@pytest.mark.parametrize("params", [{"keep": 0}, {"keep": 2.5}, {"time": 0}, {"time": "fast"}])
def test_the_agent_refuses_bad_parameters(params: dict[str, object]) -> None:
    with pytest.raises(ValueError, match=r"keep|time"):
        lookahead.LookaheadAgent(seed=1, **params)  # type: ignore[arg-type]


def test_a_token_cap_keeps_the_turns_that_spend_at_most_that_many() -> None:
    state = _play_turns(63, 4)
    state.tokens = 3
    state._legal = {}
    capped = planner.turn_outcomes(state, max_tokens=1)
    every = planner.turn_outcomes(state)
    assert all(sum(a.startswith("token") for a in line) <= 1 for line, _ in capped)
    assert any(sum(a.startswith("token") for a in line) == 1 for line, _ in capped)
    assert any(sum(a.startswith("token") for a in line) == 3 for line, _ in every)
    assert {planner._key(c) for _, c in capped} < {planner._key(c) for _, c in every}
    values = [lookahead.best_turn_value(state, cap) for cap in (0, 1, None)]
    assert values == sorted(values)


def test_a_spent_budget_stops_the_rating_and_plays_the_best_one_turn_plan(monkeypatch: pytest.MonkeyPatch) -> None:
    """The deadline passing after the turn's lines are listed: no turn is rated two turns deep, and
    the turn the one-turn plan values most is played (what the planner alone would play)."""
    state = _play_turns(60, 5)
    lookahead._next_cache.clear()
    with pytest.raises(clock.OutOfTime):
        lookahead.best_turn_value(state.clone(), deadline=time.process_time() - 1.0)
    world = state.determinize(0, random.Random(7).getrandbits(63))
    turns = [item for item in planner.turn_outcomes(world) if "redraw" not in item[0]]
    by_plan = max(turns, key=lambda item: planner.plan_value(item[1]))

    def out_of_time(*args: object, **kwargs: object) -> float:
        raise clock.OutOfTime

    monkeypatch.setattr(lookahead, "best_turn_value", out_of_time)
    choice = lookahead.lookahead_turn(state, seed=7, keep=4, budget=10.0)
    assert choice.line == by_plan[0]
    assert choice.value == planner.plan_value(by_plan[1])


def test_a_budget_spent_while_listing_the_turns_raises_and_the_agent_still_moves() -> None:
    """Listing a turn's lines is bounded by the budget too: lookahead_turn raises OutOfTime, and the
    agent plays a legal step (greedy's, its evaluations cut short by the same deadline)."""
    state = _play_turns(60, 5)
    with pytest.raises(clock.OutOfTime):
        lookahead.lookahead_turn(state, seed=7, keep=4, budget=1e-9)
    agent = lookahead.LookaheadAgent(seed=3, time=1e-9)
    assert agent.act(state, 0) in state.legal_actions(0)
    assert clock.deadline() is None  # the agent's deadline ends with its decision


def test_a_turn_completion_past_the_deadline_values_the_position_as_it_stands() -> None:
    """Inside a decision whose deadline has passed, the solo evaluation of a mid-turn position is
    the plan value of that position (cheap) instead of the best completion (exact, up to thousands
    of positions); without a deadline it is the best completion, which is never worse."""
    state = _play_turns(61, 3)
    state.apply(0, next(a for a in state.legal_actions(0) if a.startswith("card")))
    assert state.phase == ACT
    planner._completion_cache.clear()
    with clock.deadline_at(time.process_time() - 1.0):
        cut = evaluation.solo_estimate(state)
        with pytest.raises(clock.OutOfTime):
            planner.best_completion(state)
    assert len(planner._completion_cache) == 0  # nothing unfinished is remembered
    assert cut == planner.plan_value(state)
    assert evaluation.solo_estimate(state) == planner.best_completion(state) >= cut
