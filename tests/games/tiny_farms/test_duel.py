"""The 2-player Tiny Farms player (``duel.py``): whole turns, the others' replies, the exact roll."""

from __future__ import annotations

import itertools
import math
import random
from collections import Counter
from pathlib import Path

import pytest

import farmtable.agents
from farmtable.agents.greedy import greedy_choice
from farmtable.core import Rng
from farmtable.games.tiny_farms import components as c
from farmtable.games.tiny_farms import duel, evaluation
from farmtable.games.tiny_farms.rules import MOVE, OVER, PLACE, TinyFarmsState
from tests.agents.test_hidden_info import Guard
from tests.games.tiny_farms.builder import board, new, position

FACES = range(c.MIN_DIE_VALUE, c.DIE_FACES + 1)


@pytest.mark.parametrize("dice", [2, 3, 4])
def test_roll_outcomes_are_the_ordered_rolls_grouped(dice: int) -> None:
    outcomes = duel.roll_outcomes(dice)
    assert sum(w for _, w in outcomes) == pytest.approx(1.0, abs=1e-12)
    brute: Counter[tuple[int, ...]] = Counter(tuple(sorted(r)) for r in itertools.product(FACES, repeat=dice))
    assert len(outcomes) == len(brute)
    for roll, weight in outcomes:
        assert weight == pytest.approx(brute[roll] / c.DIE_FACES**dice)


def _positions(seed: int, phase: str) -> list[TinyFarmsState]:
    """The 2-player positions of one greedy game in ``phase``."""
    rng = random.Random(seed)
    state = new(2, seed=seed)
    seen = []
    while not state.is_over():
        p = state.current
        if state.phase == phase:
            seen.append(state.clone())
        state.apply(p, state.legal_actions(p)[greedy_choice(state, p, rng)])
    return seen


@pytest.mark.parametrize("seed", [1, 2])
def test_turn_starts_are_legal_and_cover_every_die_and_farmer(seed: int) -> None:
    for state in _positions(seed, MOVE)[::3]:
        starts = duel.turn_starts(state, 2)
        assert len(set(starts)) == len(starts)
        for actions in starts:
            child = state.clone()
            for action in actions:
                assert action in child.legal_actions(child.current), (actions, state.milk, state.modifier)
                child._do(child.current, action)
        # without milk: exactly the legal die actions
        no_milk = {a[-1] for a in duel.turn_starts(state, 0)}
        assert no_milk == {a for a in state.legal_actions(state.current) if a.startswith("die ")}


def _best(state: TinyFarmsState, milk: int) -> TinyFarmsState:
    """The position after the current player's best die (by the evaluation, milk up to ``milk``)."""
    mover = state.current
    best, chosen = -math.inf, state
    for start in duel.turn_starts(state, milk):
        child = state.clone()
        for action in start:
            child._do(mover, action)
        value = duel.margin(child.evaluate(), mover)
        if value > best:
            best, chosen = value, child
    return chosen


@pytest.mark.parametrize("depth", [1, 2])
def test_the_chance_node_is_the_mean_over_the_real_rolls(depth: int) -> None:
    """The chance value of a round start equals the weighted mean, over every roll, of the start
    player's best move's value (depth 2: then the animals written as the evaluation writes them
    and the other player's best die of the two left), computed here move by move."""
    state = _positions(3, MOVE)[8]
    while state.turn_index != 0:  # the next round start
        state = duel.best_turn(state, 1)
    search = duel.Search(player=1, milk=1, depth=depth)
    got = search.chance_value(state)
    expected = 0.0
    for roll, weight in duel.roll_outcomes(len(state.dice)):
        rolled = state.clone()
        rolled.dice = list(roll)
        rolled._legal = None
        after = _best(rolled, 1)
        if depth == 2:
            duel.place_as_evaluated(after)
            assert after.phase == MOVE and after.current != rolled.current and len(after.dice) == 2
            after = _best(after, 1)
        expected += weight * duel.margin(after.evaluate(), 1)
    assert got == pytest.approx(expected, abs=1e-9)


def test_animals_are_written_where_the_evaluation_writes_them() -> None:
    for state in _positions(8, PLACE)[::4]:
        who, farm = state.current, state.pending_farm
        cells = range(farm * c.FARM_CELLS, (farm + 1) * c.FARM_CELLS)
        before = tuple(state.boards[who][i] for i in cells)
        evaluation._players_model()
        target = evaluation._place_in_farm(
            before, list(state.pending), evaluation.share_left(state), evaluation._players_farm_potential
        )
        child = state.clone()
        duel.place_as_evaluated(child)
        assert child.phase != PLACE or child.current != who
        assert tuple(child.boards[who][i] for i in cells) == target
        assert Counter(x for x in target if x) - Counter(x for x in before if x) == Counter(state.pending)


# The last round; player 0 moves first, player 1 last. One horse each (a tie: 10 points each).
# The rotation-2 wheel shows a horse only at space 1; the red farmer stands at 2, blue at 6.
DENIAL_BOARDS = (
    """
    C Ch FF-s FF-bu | FF-e P H FF-b
    Ch S FF-e . | FF-b FF-b FF-r FF-bu
    FF-s S C FF-s | C C FF-s cc
    FF-r Ch FF-e P | . cc FF-s FF-s
    """,
    """
    FF-s Ch FF-b Ch | FF-r P FF-e Ch
    FF-e H FF-bu FF-s | FF-b FF-s cc FF-s
    FF-b P . FF-s | FF-r FF-e Ch FF-r
    C FF-s FF-s cc | Ch P . FF-s
    """,
)


def _denial_position() -> TinyFarmsState:
    state = position(
        2,
        boards=[board(text) for text in DENIAL_BOARDS],
        round=10,
        dice=[1, 2, 5],
        rotation=2,
        red=2,
        blue=6,
        milk=[0, 0],
        order=[0, 1],
        start_player=0,
        turn_index=0,
        current=0,
        phase=MOVE,
    )
    return state


def _minimax(state: TinyFarmsState, me: int) -> float:
    """The exact value of a last-round position for ``me``: each player maximises their own final
    value (:func:`duel.final_value`) over every legal action sequence."""
    if state.phase == OVER:
        return duel.final_value(state, me)
    who = state.current
    best_for_who, mine = -math.inf, 0.0
    for action in state.legal_actions(who):
        child = state.clone()
        child._do(who, action)
        value = _minimax(child, me)
        for_who = value if who == me else -value
        if for_who > best_for_who:
            best_for_who, mine = for_who, value
    return mine


def test_it_takes_the_die_that_would_give_the_rival_the_horse_race() -> None:
    """Greedy takes the 2 (red farmer to chicken and squirrel) and leaves the 5, with which the rival's
    red farmer reaches the horse: 2 horses to 1, the race's 10 points and the game. The duel player
    plays the rival's reply and takes the 5 with the blue farmer; an exact search agrees."""
    state = _denial_position()
    greedy = state.legal_actions(0)[greedy_choice(state.clone(), 0, random.Random(0))]
    chosen = duel.choose(state.clone()).action
    assert greedy == "die 2 red" and chosen == "die 5 blue"
    exact = {}
    for action in state.legal_actions(0):
        child = state.clone()
        child._do(0, action)
        exact[action] = _minimax(child, 0)
    assert exact[chosen] == max(exact.values()) > 0 > exact[greedy]
    agent = farmtable.agents.make("tiny-farms-duel", seed=1)
    assert agent.act(state, 0) == chosen


def test_choices_do_not_depend_on_the_seed_and_a_seeded_game_repeats() -> None:
    """Nothing is sampled: any seed chooses the same; a whole game replays exactly."""
    state = _positions(4, MOVE)[10]
    picks = {farmtable.agents.make("tiny-farms-duel", seed=s).act(state.clone(), state.current) for s in range(4)}
    assert len(picks) == 1

    def game() -> list[str]:
        g = new(2, seed=11)
        players = [farmtable.agents.make("tiny-farms-duel:keep=3", seed=5), farmtable.agents.make("greedy", seed=6)]
        moves = []
        while not g.is_over():
            p = g.current
            action = players[p].act(g, p)
            moves.append(action)
            g.apply(p, action)
        return moves

    assert game() == game()


def test_it_decides_from_the_determinization_only() -> None:
    state = _positions(5, PLACE)[4]
    guard = Guard(state)
    agent = farmtable.agents.make("tiny-farms-duel:keep=2", seed=3)
    assert agent.act(guard, state.current) in state.legal_actions(state.current)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "spec",
    [
        "tiny-farms-duel:keep=-1",
        "tiny-farms-duel:milk=3",
        "tiny-farms-duel:time=0",
        "tiny-farms-duel:keep=1.5",
        "tiny-farms-duel:depth=3",
    ],
)
def test_bad_parameters_are_refused_by_name(spec: str) -> None:
    name = spec.split(":")[1].split("=")[0]
    with pytest.raises(ValueError, match=name):
        farmtable.agents.make(spec, seed=1)


def test_solo_and_other_games_are_played_like_greedy() -> None:
    solo = new(1, seed=2, variants=("emma-hard",))
    for _ in range(6):
        expected = farmtable.agents.make("greedy", seed=9).act(solo, 0)
        got = farmtable.agents.make("tiny-farms-duel", seed=9).act(solo, 0)
        assert got == expected
        solo.apply(0, got)
    with pytest.raises(ValueError, match="two or more players"):
        duel.choose(solo)


def test_a_budget_is_respected_by_the_clock_and_still_gives_a_legal_move() -> None:
    """A tiny budget stops after the first candidates (counted, not timed)."""
    state = _positions(6, MOVE)[5]
    cut = duel.choose(state.clone(), budget=1e-9)
    assert cut.valued == 0 and cut.action in state.legal_actions(state.current)
    full = duel.choose(state.clone())
    assert full.valued == len(duel.candidates(state, duel.TURN_MILK))


def test_rng_is_not_read_by_the_chance_node() -> None:
    """The chance node ignores the template's own dice and generator: two templates differing only
    there give the same value."""
    state = _positions(7, MOVE)[6]
    while state.turn_index != 0:
        state = duel.best_turn(state, 1)
    other = state.clone()
    other.dice = [6, 6, 6]
    other.rng = Rng(12345)
    assert duel.Search(0).chance_value(state) == duel.Search(0).chance_value(other)


# --- The win objective (``objective=win``) ---


def test_the_win_chances_of_the_two_players_add_up_to_one_and_rise_with_the_margin() -> None:
    """Seat 1's chance is one minus seat 0's (the horse race and the rest of the margin mirrored),
    and a larger estimate for a player gives a larger chance, between 0 and 1."""
    checked = 0
    for state in _positions(12, PLACE)[::5]:
        values = state.evaluate()
        p0 = duel.win_chance(state, values, 0)
        p1 = duel.win_chance(state, values, 1)
        assert p0 + p1 == pytest.approx(1.0, abs=1e-9)
        chances = [duel.win_chance(state, [values[0] + k, values[1]], 0) for k in (-20, -5, 0, 5, 20)]
        assert chances == sorted(chances) and len(set(chances)) == len(chances)
        assert all(-0.1 < p < 1.1 for p in chances)
        ahead, level, behind = duel.horse_outcomes(state, 0)
        assert ahead + level + behind == pytest.approx(1.0) and min(ahead, level, behind) >= 0
        checked += 1
    assert checked >= 4


def test_the_win_chance_reads_the_horse_race_as_a_ten_point_swing() -> None:
    """The chance mixes the race's three ends (ahead +10, level 0, behind −10 points) with the rest
    of the margin read as normal around its estimate, with the fitted spread for the rounds left."""
    state = _positions(13, PLACE)[6]
    sd = duel.win_spread()[min(state.rounds - state.round, len(duel.win_spread()) - 1)]
    ahead, level, behind = duel.horse_outcomes(state, 0)
    values = state.evaluate()
    m = duel.margin(values, 0)
    rest = m - duel.expected_horse_difference(state, 0)
    phi = duel._phi
    want = ahead * phi((rest + 10) / sd) + level * phi(rest / sd) + behind * phi((rest - 10) / sd)
    assert duel.win_chance(state, values, 0) == pytest.approx(want + duel.WIN_TIE_BREAK * m)
    assert phi(10 / sd) > 0.5


def test_a_finished_game_is_worth_its_result_under_the_win_objective() -> None:
    rng = random.Random(3)
    state = new(2, seed=14)
    while not state.is_over():
        p = state.current
        state.apply(p, state.legal_actions(p)[greedy_choice(state, p, rng)])
    result = state.result()
    for p in (0, 1):
        m = duel.margin([float(t) for t in result.totals], p)
        base = (1.0 if len(result.winners) == 1 else 0.5) if p in result.winners else 0.0
        assert duel.final_win(state, p) == pytest.approx(base + duel.WIN_TIE_BREAK * m)
        assert duel.Search(p, objective="win").leaf(state, [0.0, 0.0]) == duel.final_win(state, p)


def test_the_win_objective_averages_win_chances_over_the_rolls() -> None:
    """The chance value under ``win`` is the weighted mean over every roll of the win chance of the
    position after the start player's best die (chosen by the evaluation's margin)."""
    state = _positions(3, MOVE)[8]
    while state.turn_index != 0:
        state = duel.best_turn(state, 1)
    got = duel.Search(player=1, milk=1, objective="win").chance_value(state)
    expected = 0.0
    for roll, weight in duel.roll_outcomes(len(state.dice)):
        rolled = state.clone()
        rolled.dice = list(roll)
        rolled._legal = None
        after = _best(rolled, 1)
        expected += weight * duel.win_chance(after, after.evaluate(), 1)
    assert got == pytest.approx(expected, abs=1e-9)
    assert 0.0 < got < 1.0


def test_the_win_objective_denies_the_rival_the_horse_race_too() -> None:
    """The last-round position above: the win objective takes the 5 with the blue farmer as well
    (the exact search's choice); the agent spec with ``objective=win`` plays it."""
    state = _denial_position()
    assert duel.choose(state.clone(), objective="win").action == "die 5 blue"
    agent = farmtable.agents.make("tiny-farms-duel:objective=win,time=1.0", seed=1)
    assert agent.act(state, 0) == "die 5 blue"


def test_the_margin_objective_is_the_default() -> None:
    """``objective=margin`` chooses and values exactly as the player without the parameter."""
    for state in _positions(15, MOVE)[4:20:5]:
        plain = duel.choose(state.clone())
        margin = duel.choose(state.clone(), objective="margin")
        assert (plain.action, plain.value, plain.values) == (margin.action, margin.value, margin.values)


def test_a_bad_objective_is_refused_by_name() -> None:
    state = _positions(15, MOVE)[3]
    with pytest.raises(ValueError, match="objective"):
        duel.choose(state.clone(), objective="best")
    with pytest.raises(ValueError, match="objective"):
        farmtable.agents.make("tiny-farms-duel:objective=points", seed=1)


def test_a_bad_spread_file_is_refused_by_name(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    bad = tmp_path / "winprob_duel.json"
    bad.write_text('{"sd": []}', encoding="utf-8")
    monkeypatch.setattr(duel, "WINPROB_FILE", bad)
    duel.win_spread.cache_clear()
    try:
        with pytest.raises(ValueError, match="sd"):
            duel.win_spread()
    finally:
        duel.win_spread.cache_clear()
