"""The 2-player duel player (``farmers-finances-duel``) and the race model it stands on."""

from __future__ import annotations

import numpy as np
import pytest

import farmtable
import farmtable.agents
from farmtable.agents.levels import check_overrides, level_spec
from farmtable.games.farmers_finances import duel, race
from farmtable.games.farmers_finances.rules import FarmersFinancesState
from tests.games.farmers_finances.positions import position

GAME = farmtable.get_game("farmers-finances")


@pytest.fixture(scope="module")
def table() -> race.RaceTable:
    return race.solve(race.DEFAULT_ADVERSITY)


def start_config(table: race.RaceTable) -> int:
    return table.index[(0, 0, 0, 4, 2)]


# --- the relaxation ---------------------------------------------------------------------------------


def test_finishing_chances_are_cumulative(table: race.RaceTable) -> None:
    for grid in (table.within, table.within_waiting):
        assert grid.min() >= 0.0
        assert grid.max() <= 1.0 + 1e-6
        assert (np.diff(grid, axis=0) >= -1e-6).all()  # within k+1 turns is at least within k


def test_expected_turns_agree_with_the_finishing_distribution(table: race.RaceTable) -> None:
    """E[T] = sum over k >= 0 of P(T > k): value iteration and the forward recursion are one model."""
    turns = table.turns
    reachable = turns < 20  # far from the horizon and from slow convergence: the distribution is complete there
    tail = 1.0 + (1.0 - table.within[:-1]).sum(axis=0)  # P(T > 0) = 1, then P(T > k) for k = 1 .. HORIZON-1
    assert np.abs(tail - turns)[reachable].max() < 1e-4


def test_more_money_never_needs_more_turns(table: race.RaceTable) -> None:
    finite = table.turns < race.NEVER
    steps = np.diff(table.turns, axis=2)
    assert (steps[finite[:, :, 1:] & finite[:, :, :-1]] <= 1e-6).all()


def test_a_sale_that_reaches_70_takes_one_turn(table: race.RaceTable) -> None:
    bread = table.index[(0, 1, 0, 3, 2)]
    assert table.turns[bread, 2, 63] == pytest.approx(1.0)  # 63 + bread at 7
    assert table.turns[bread, 2, 62] > 1.0


def test_nothing_to_sell_and_no_coins_never_finishes(table: race.RaceTable) -> None:
    assert table.turns[start_config(table), 4, 0] == race.NEVER


def test_the_start_takes_more_turns_at_dear_rows(table: race.RaceTable) -> None:
    """Row 1 sells cheap but buys cheap; row 5 buys dear: from nothing, a cheap row is the better start."""
    turns = table.turns[start_config(table), :, 10]
    assert turns[0] < turns[4]


def test_race_win_chance_hand_computed() -> None:
    sure = np.ones(race.HORIZON, dtype=np.float32)
    second = np.zeros(race.HORIZON, dtype=np.float32)
    second[1:] = 1.0  # finishes on its second turn
    # seat 0 to act and sure to finish now: the other finishes later, a win
    assert race.race_win_chance(sure, second, mover_first=True) == pytest.approx(1.0)
    # both sure to finish on their first turn, seat 0 first: the same round, a coin flip
    assert race.race_win_chance(sure, sure, mover_first=True) == pytest.approx(0.5)
    # seat 1 to act (seat 0's next turn is in the next round): finishing now wins outright
    assert race.race_win_chance(sure, sure, mover_first=False) == pytest.approx(1.0)
    # seat 1 needing two turns against seat 0 needing one: seat 0 finishes in seat 1's second round, a tie
    assert race.race_win_chance(second, sure, mover_first=False) == pytest.approx(0.5)
    assert race.race_win_chance(second, sure, mover_first=True) == pytest.approx(0.0)


# --- the search on hand-built positions -------------------------------------------------------------


def choice(state: FarmersFinancesState, spec: str = "farmers-finances-duel") -> str:
    agent = farmtable.agents.make(spec, seed=3)
    action = agent.act(state, state.current)
    assert isinstance(action, str)
    return action


def test_player_two_sells_to_70_and_wins() -> None:
    state = position(money=[50, 63], farms=[(0, 0, 0), (0, 1, 0)], row=3, current=1)
    assert choice(state) == "sell bread 1"


def test_last_turn_beats_player_one_exactly() -> None:
    """Player 1 reached 73; player 2's last turn: one animal at row 5 makes 72 (lost), two make 84."""
    state = position(money=[73, 60], farms=[(0, 0, 0), (0, 0, 2)], row=5, current=1, end_triggered=True)
    assert choice(state) == "sell animal 2"


def test_does_not_buy_the_last_card_that_sells_the_rivals_farm() -> None:
    """Both actions reach 70. Selling the bread (70) wins: the rival's last turn reaches 64 at best (their
    animals at row 5). Buying the last wheat empties the marketplace: the player's farm sells (73), but
    so does the rival's, at row 5 for 38 (78), and they stay ahead after their last turn."""
    state = position(money=[63, 40], farms=[(0, 1, 0), (2, 0, 2)], row=5, market=(1, 0), current=0)
    assert set(state.legal_actions(0)) == {"buy wheat", "sell bread 1"}
    assert choice(state) == "sell bread 1"
    assert choice(state, "farmers-finances-duel:depth=1") == "sell bread 1"


def test_market_change_rerolls_when_both_moves_hand_over_the_win() -> None:
    """Player 2 has 50 coins and two animals: at row 3 they sell for 70, at 4 for 72, at 5 for 74, and
    win (player 2 reaching 70 ends the game). From row 4 both moves (3, 5) hand them the win; a reroll
    keeps them below 70 on a 1 or a 2, and on a 6 player 1 picks row 1: half the time."""
    state = position(money=[30, 50], farms=[(0, 0, 0), (0, 0, 2)], row=4, phase="market", current=0)
    assert state.legal_actions(0) == ["move 3", "move 5", "reroll"]
    assert choice(state) == "reroll"


# --- the agent ------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("spec", "moves_played", "seed"),
    [("farmers-finances-duel:depth=1", 40, 11), ("farmers-finances-duel:depth=3,spread=3", 30, 12)],
)
def test_seeded_games_repeat(spec: str, moves_played: int, seed: int) -> None:
    """The same seeds give the same game (the depth-3 spec searches on tuples, ``deep.py``)."""

    def play(seed: int) -> list[str]:
        state = GAME.new_game(players=2, seed=seed)
        agents = [farmtable.agents.make(spec, seed=5 + p) for p in range(2)]
        moves: list[str] = []
        while not state.is_over() and len(moves) < moves_played:
            p = state.current
            action = agents[p].act(state, p)
            moves.append(action)
            state.apply(p, action)
        return moves

    assert play(seed) == play(seed)


def test_samples_nothing_the_seed_does_not_change_the_choice() -> None:
    state = position(money=[20, 25], farms=[(1, 1, 0), (0, 0, 1)], row=2, current=0)
    choices = {farmtable.agents.make("farmers-finances-duel", seed=seed).act(state, 0) for seed in range(4)}
    assert len(choices) == 1


def test_decides_from_what_it_may_see() -> None:
    """Only the die is hidden with two players: two states that differ in their random generator alone
    get the same decision (the agent plans on a determinization)."""
    one = position(money=[20, 25], farms=[(1, 1, 0), (0, 0, 1)], row=2, rng=1)
    two = position(money=[20, 25], farms=[(1, 1, 0), (0, 0, 1)], row=2, rng=99)
    make = farmtable.agents.make
    assert make("farmers-finances-duel", seed=1).act(one, 0) == make("farmers-finances-duel", seed=1).act(two, 0)


def test_an_exhausted_budget_still_answers_from_the_first_level() -> None:
    """Depth 1 always finishes; a deeper level started after the deadline is dropped (no timing involved:
    the deadline has passed before the search starts)."""
    state = GAME.new_game(players=2, seed=4)
    assert isinstance(state, FarmersFinancesState)
    table = race.solve(race.DEFAULT_ADVERSITY)
    index, reached = duel.choose(state, 3, table, deadline=-1.0)
    assert reached == 1
    assert index == duel.choose(state, 1, table, deadline=None)[0]
    agent = duel.DuelAgent(seed=1, depth=3, time=1e-9)
    assert agent.act(state, 0) in state.legal_actions(0)
    assert agent.last_depth == 1


def test_without_a_budget_the_whole_depth_is_searched() -> None:
    state = GAME.new_game(players=2, seed=4)
    agent = duel.DuelAgent(seed=1, depth=2)
    agent.act(state, 0)
    assert agent.last_depth == 2


def test_solo_and_bad_parameters() -> None:
    solo = GAME.new_game(players=1, seed=2)
    agent = farmtable.agents.make("farmers-finances-duel:time=1.0", seed=1)
    assert agent.act(solo, 0) in solo.legal_actions(0)
    for spec in ("farmers-finances-duel:depth=9", "farmers-finances-duel:adversity=2", "farmers-finances-duel:time=0"):
        with pytest.raises(ValueError):
            farmtable.agents.make(spec, seed=1)


def test_expert_row_keeps_its_budget() -> None:
    assert check_overrides() == []
    assert "time=1.0" in level_spec("expert", "farmers-finances", 2).split(":")[1].split(",")
