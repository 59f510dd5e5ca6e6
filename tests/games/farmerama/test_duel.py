"""The two-player card chooser (``duel.py``): the pair-against-pair table, the agent's rules of play."""

from __future__ import annotations

import random
from itertools import combinations

import pytest

import farmtable.agents
from farmtable.agents.greedy import GreedyAgent
from farmtable.games.farmerama import duel, evaluation, planner
from farmtable.games.farmerama.components import CARDS
from farmtable.games.farmerama.rules import ACT, CARD_ACTIONS, CHOOSE, FarmeramaState
from tests.games.farmerama.positions import choose, give_buildings, move_good, new

PAIRS = list(combinations(range(len(CARDS)), 2))
SOW, HARVEST, WATER, FEED, SEED_STORE = range(len(CARDS))


def _play_round(state: FarmeramaState) -> None:
    """Finish the current round with every player's first legal move (``done`` ends a card)."""
    start = state.round
    while not state.is_over() and state.round == start:
        p = state.actors()[0]
        legal = state.legal_actions(p)
        state.apply(p, "done" if "done" in legal else legal[0])


def test_a_shared_card_is_rated_at_its_lower_number() -> None:
    # Sow alone gives the action wheel's higher number; shared with the other player, the lower:
    # against a pair that shares Sow, the same choice is worth less than against one that does not.
    state = new(players=2, seed=1)
    base = duel._base(state.clone(), 1)
    mine = (SOW, SEED_STORE)
    shared = duel.payoff(base, 0, mine, (SOW, WATER))
    apart = duel.payoff(base, 0, mine, (HARVEST, WATER))
    assert shared < apart


def test_best_response_to_an_opponent_who_is_sure_of_its_pair() -> None:
    # A hand-built position: player 0 already has two ornamental buildings, so player 1 wins the
    # building of any card both choose (fewest buildings first), and player 1 holds the feed for a
    # horse (carrots and oats), so the other's model puts nearly all its weight on its best pair.
    # Player 0's best pair played alone shares a card with it (and hands player 1 a building);
    # the duel player answers the pair instead, by several stars of expected margin.
    state = new(players=2, seed=4)
    for good in ("carrots", "oats"):
        move_good(state, 1, good, 4)
    give_buildings(state, 0, 2)
    base = duel._base(state.clone(), 1)
    model = duel.opponent_model(base, 1, temp=0.01)
    favourite, weight = max(model, key=lambda m: m[1])
    assert weight > 0.99
    pair = duel.choose_pair(state.clone(), 0, temp=0.01)
    assert pair is not None
    column = {mine: duel.payoff(base, 0, mine, favourite) for mine in PAIRS}
    assert column[pair] == pytest.approx(max(column.values()))
    alone_best = max(PAIRS, key=lambda mine: duel.pair_value(base, 0, mine))
    assert set(alone_best) & set(favourite)
    assert not set(pair) & set(favourite)
    assert column[pair] > column[alone_best] + 2.0


def test_the_greedy_model_puts_its_weight_on_the_greedy_agents_pair() -> None:
    # The other player is the greedy agent: the pair it chooses is the one greedy_pairs predicts,
    # and with greedy=1 the model puts all its weight there.
    state = new(players=2, seed=6)
    base = duel._base(state.clone(), 1)
    picks = duel.greedy_pairs(base, 1)
    model = dict(duel.opponent_model(base, 1, temp=0.5, greedy=1.0))
    assert sum(model[p] for p in picks) == pytest.approx(1.0)
    agent = GreedyAgent(seed=3)
    for _ in range(2):
        state.apply(1, agent.act(state, 1))
    assert tuple(sorted(state.boards[1].cards)) in picks


def test_the_second_card_completes_the_pair_chosen_first() -> None:
    state = new(players=2, seed=3)
    agent = duel.DuelAgent(seed=5, time=None)
    first = agent.act(state, 0)
    pair = agent.last_pair
    assert pair is not None and first == CARD_ACTIONS[pair[0]]
    state.apply(0, first)
    second = agent.act(state, 0)
    assert second == CARD_ACTIONS[pair[1]]


def test_the_choice_does_not_depend_on_the_others_secret_cards() -> None:
    # Player 1 chooses after player 0 chose in secret: whatever player 0 chose, player 1 decides the same.
    actions = set()
    for cards in (("sow", "water"), ("harvest", "feed"), ("seed-store", "sow")):
        state = new(players=2, seed=4)
        choose(state, cards)
        assert state.phase == CHOOSE
        actions.add(duel.DuelAgent(seed=9, time=None).act(state, 1))
    assert len(actions) == 1


def test_seeded_games_repeat() -> None:
    def game() -> list[str]:
        state = new(players=2, seed=11)
        agents = [duel.DuelAgent(seed=1, time=None), GreedyAgent(seed=2)]
        moves = []
        for _ in range(3):
            if state.is_over():
                break
            start = state.round
            while not state.is_over() and state.round == start:
                p = state.actors()[0]
                action = agents[p].act(state, p)
                moves.append(f"{p} {action}")
                state.apply(p, action)
        return moves

    assert game() == game()


def test_solo_play_is_the_greedy_agents() -> None:
    state = new(players=1, seed=7)
    duel_agent, greedy = duel.DuelAgent(seed=3), GreedyAgent(seed=3)
    for _ in range(40):
        if state.is_over():
            break
        action = duel_agent.act(state, 0)
        assert action == greedy.act(state, 0)
        state.apply(0, action)


def test_three_players_play_like_greedy() -> None:
    state = new(players=3, seed=7)
    p = state.actors()[0]
    assert duel.DuelAgent(seed=3).act(state, p) == GreedyAgent(seed=3).act(state, p)


def test_the_agent_is_registered_and_keeps_its_budget_within_a_game_round() -> None:
    agent = farmtable.agents.make("farmerama-duel:time=0.2,temp=2", seed=1)
    assert isinstance(agent, duel.DuelAgent)
    assert agent.spec == "farmerama-duel:temp=2,time=0.2"
    state = new(players=2, seed=2)
    _play_round(state)
    assert state.phase == CHOOSE
    assert agent.act(state, 0) in state.legal_actions(0)


@pytest.mark.parametrize(
    ("spec", "word"),
    [
        ("farmerama-duel:temp=0", "temp"),
        ("farmerama-duel:temp=-1", "temp"),
        ("farmerama-duel:temp=warm", "temp"),
        ("farmerama-duel:time=0", "time"),
        ("farmerama-duel:time=soon", "time"),
        ("farmerama-duel:width=-2", "width"),
        ("farmerama-duel:plan=2", "plan"),
        ("farmerama-duel:greedy=1.5", "greedy"),
        ("farmerama-duel:depth=3", "depth"),
    ],
)
def test_bad_parameters_are_refused_clearly(spec: str, word: str) -> None:
    with pytest.raises(ValueError, match=word):
        farmtable.agents.make(spec, seed=1)


def _phase_three(seed: int) -> tuple[FarmeramaState, int]:
    """A two-player position in phase 3 at the start of a player's cards (greedy play before it)."""
    state = new(players=2, seed=seed)
    agents = [GreedyAgent(seed=1), GreedyAgent(seed=2)]
    for _ in range(400):
        p = state.actors()[0]
        board = state.boards[p]
        if state.round >= 3 and state.phase == ACT and len(board.pending) == 2:
            return state, p
        state.apply(p, agents[p].act(state, p))
    raise AssertionError("no such position")


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_best_line_is_at_least_the_greedy_walk(seed: int) -> None:
    # The evaluation's carry-out walks the cards one best step at a time; the best line tries every
    # order, so its value is never lower, and playing the line reaches that value.
    state, p = _phase_three(seed)
    after = evaluation.actions_left(state, p) - duel.cards_left_this_round(state, p)
    walked = planner.board_value(evaluation.carry_out_chosen(state, p, after), after)
    value, line = duel.best_line(state, p)
    assert value >= walked - 1e-9
    sim = state.clone()
    for action in line:
        sim.apply(p, action)
    assert p not in sim.actors() or sim.phase != ACT
    assert planner.board_value(sim.boards[p], after) == pytest.approx(value)


def test_best_line_refuses_a_player_not_carrying_out_cards() -> None:
    state = new(players=2, seed=1)
    with pytest.raises(ValueError, match="not carrying out"):
        duel.best_line(state, 0)


def test_the_agent_plays_its_line_in_phase_three() -> None:
    state, p = _phase_three(2)
    line = duel.best_line(state, p)[1]
    agent = duel.DuelAgent(seed=4, time=None)
    played = []
    while p in state.actors() and state.phase == ACT:
        action = agent.act(state, p)
        played.append(action)
        state.apply(p, action)
    assert played == line


def test_choose_pair_refuses_other_positions() -> None:
    state = new(players=1, seed=1)
    with pytest.raises(ValueError, match="two-player"):
        duel.choose_pair(state, 0)
    state = new(players=2, seed=1)
    state.determinize(0, random.Random(1))
    choose(state, ("sow", "water"), ("sow", "feed"))
    assert state.phase != CHOOSE
    with pytest.raises(ValueError, match="phase 1"):
        duel.choose_pair(state, 0)
